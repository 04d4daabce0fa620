"""The shared random-play checker every spec's tests call (after OpenSpiel's and pgx's).

It plays random legal actions and, at every step, checks the invariants any spec must keep:
a legal action exists until the match ends and each is accepted; illegal actions are
refused with a reason and change nothing; scores never decrease; serialisation round-trips;
no observation shows another seat's hidden cards; the match ends with one winner at or above
the target.
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from rulespec.errors import IllegalAction, TrucoError

from interpreter.engine.game import Game
from interpreter.engine.state import State, turns
from interpreter.engine.views import visible_events


class InvariantBroken(TrucoError):
    """A rule every spec must keep was broken; the message replays the match."""


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield from node.split()
    elif isinstance(node, dict):
        for k, v in node.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(node, (list, tuple)):
        for v in node:
            yield from _strings(v)


def hidden_from(st: State, seat: int) -> set[str]:
    """Cards `seat` may not see now: others' unplayed cards and others' covered cards."""
    ids = st.game.cards.ids
    hidden = {ids[c] for s, hand in enumerate(st.hands) if s != seat for c in hand}
    for trick in st.history + [st.trick]:
        hidden |= {ids[c] for s, c, covered in trick if covered and s != seat}
    if st.blind:
        hidden |= {ids[c] for c in st.hands[seat]}
    return hidden


def check_observations(st: State) -> None:
    deals = [i for i, e in enumerate(st.events) if e["type"] == "deal"]
    start = deals[-1] if deals else 0        # cards of earlier hands are no secret any more
    for seat in range(st.game.num_players):
        shown = visible_events(st.events[start:], seat)
        seen = set(_strings(st.observation(seat))) | set(_strings(shown))
        leaked = seen & hidden_from(st, seat)
        if leaked:
            raise InvariantBroken(f"seat {seat} can see hidden cards {sorted(leaked)}")


def random_match(game: Game, seed: int, max_actions: int = 5000, deep: bool = True) -> State:
    """Play one random match under every invariant; `deep` adds the costly per-step checks."""
    rng = random.Random(seed)
    st = game.new_match(seed=seed)
    log: list[str] = []
    actions = 0
    for seat in turns(st):
        legal = st.legal_actions()
        where = f"seed {seed}, {game!r}, after {log[-12:]}"
        if not legal:
            raise InvariantBroken(f"no legal action before the match ended ({where})")
        if deep:
            _check_step(st, rng, seat, legal, where)
        before = list(st.score)
        action = rng.choice(legal)
        try:
            st.apply(action)
        except IllegalAction as err:
            raise InvariantBroken(f"legal action {action!r} refused: {err.reason} ({where})") from None
        log.append(f"{seat} {action}")
        if any(a < b for a, b in zip(st.score, before, strict=False)):
            raise InvariantBroken(f"score went down from {before} to {st.score} ({where})")
        actions += 1
        if actions > max_actions:
            raise InvariantBroken(f"the match did not end within {max_actions} actions ({where})")
    winners = [t for t, s in enumerate(st.score) if s >= game.target]
    if st.winner is None or st.winner not in winners:
        raise InvariantBroken(f"match over with winner {st.winner} and score {st.score} (seed {seed})")
    if deep:
        _check_round_trip(st, f"seed {seed}, final state")
    return st


def _check_step(st: State, rng: random.Random, seat: int, legal: list[str], where: str) -> None:
    _check_round_trip(st, where)
    check_observations(st)
    legal_set = set(legal)
    ids = st.legal_action_ids()
    if sorted(st.game.actions[i] for i in ids) != sorted(legal):
        raise InvariantBroken(f"ids {ids} do not match legal actions {legal} ({where})")
    for action in legal:                       # every legal action is accepted, not just the one played
        try:
            st.clone().apply(action)
        except IllegalAction as err:
            raise InvariantBroken(f"legal action {action!r} refused: {err.reason} ({where})") from None
    illegal = [a for a in st.game.actions if a not in legal_set]
    for action in rng.sample(illegal, min(3, len(illegal))):
        before = st.to_json()
        try:
            st.apply(action)
        except IllegalAction as err:
            if not err.reason:
                raise InvariantBroken(f"{action!r} refused without a reason ({where})") from None
            if st.to_json() != before:
                raise InvariantBroken(f"refusing {action!r} changed the state ({where})") from None
        else:
            raise InvariantBroken(f"illegal action {action!r} was accepted ({where})")


def _check_round_trip(st: State, where: str) -> None:
    data = st.to_json()
    restored = State.from_json(st.game, json.loads(json.dumps(data)))
    if restored != st:
        raise InvariantBroken(f"from_json(to_json(state)) differs ({where})")
    copy = st.clone()
    if copy != st:
        raise InvariantBroken(f"clone differs ({where})")
