"""`truco play --record FILE`: the hands just played, written as a replayable conformance case
(docs/conformance.md): the deals as dealt, every action in order, and after each hand the score
it left, so `truco replay FILE` plays the same match again and checks it ended the same way."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from interpreter.designer.replay import deal_case
from interpreter.engine.game import Deal
from interpreter.engine.state import State


class Recorder:
    """Follows a State's events as they happen; call `update()` after every step (before the
    first action of a hand, so that its deal is read while it is on the table)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.game = state.game
        self.start_score = list(state.score)
        self.dealer: int | None = None
        self.deals: list[Deal] = []
        self.steps: list[Any] = []
        self.seen = 0

    def update(self) -> None:
        st, ids = self.state, self.game.cards.ids
        for event in st.events[self.seen:]:
            kind = event["type"]
            if kind == "deal":
                if self.dealer is None:
                    self.dealer = event["dealer"]
                hands = tuple(tuple(ids[c] for c in st.dealt[s]) for s in range(self.game.num_players))
                self.deals.append(Deal(hands, event["turned"]))
            elif kind == "action" and "except" not in event:
                action = f"cover {event['card']}" if event["action"] == "cover" else event["action"]
                self.steps.append(f"{event['seat']} {action}")
            elif kind == "hand_over":
                self.steps.append({"expect": {"hand_over": True, "score": list(event["score"])}})
            elif kind == "match_over":
                self.steps.append({"expect": {"match_over": True, "winner": event["winner"],
                                              "score": list(event["score"])}})
        self.seen = len(st.events)

    def case_file(self, spec: str, name: str) -> dict[str, Any]:
        self.update()
        case: dict[str, Any] = {"name": name}
        if any(self.start_score):
            case["score"] = self.start_score
        if self.dealer is not None:
            case["dealer"] = self.dealer
        case["deals"] = [deal_case(d) for d in self.deals]
        case["actions"] = list(self.steps)
        if not self.state.hand_over:
            case["mid_hand"] = "a recorded session: it stops where the players stopped"
        return {"spec": spec, "source": "recorded by the play command (--record)",
                "options": dict(self.game.options), "cases": [case]}

    def write(self, path: str | Path, spec: str, name: str) -> None:
        data = self.case_file(spec, name)
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None)
        Path(path).write_text(text, encoding="utf-8")
