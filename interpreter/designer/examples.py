"""Worked examples for the rulebook, found by the engine, and the same examples as
conformance cases (`truco rules SPEC --cases DIR`).

For an article the engine takes a deal (the explorer's sample deals, or the deal on which the
payoff tables found a call chain), plays the actions that show the rule, finishes the hand
(every seat plays its cards in the order dealt, counts announce, a compulsory declaration is
made) and reads the result back. The rulebook prints the deal, the actions and that result;
the case file holds the same deal and actions and expects the same result, so the document
and the conformance suite cannot disagree.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from interpreter.designer.explore import canonical, sample_deals
from interpreter.designer.payoffs import Payoffs
from interpreter.designer.replay import deal_case
from interpreter.engine.game import Deal, Game
from interpreter.engine.state import State

MAX_STEPS = 80
"""A worked example never needs more actions than this; past it, the example is dropped."""


@dataclass
class Example:
    """One worked example: the article it belongs to, what it shows, the deal and the steps."""

    article: str
    title: str
    deal: Deal | None = None
    actions: list[str] = field(default_factory=list)
    score: list[int] | None = None
    options: dict[str, Any] = field(default_factory=dict)
    expect: dict[str, Any] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)      # the contest chain an example shows

    def case(self, number: int) -> dict[str, Any]:
        out: dict[str, Any] = {"name": f"{number}. {self.title}"}
        if self.options:
            out["options"] = dict(self.options)
        if self.score is not None:
            out["score"] = list(self.score)
        if self.deal is not None:
            out.update(deal_case(self.deal))
            out["actions"] = [*self.actions, {"expect": dict(self.expect)}]
        out.update(self.facts)
        return out


def _choose(st: State) -> str | None:
    """The next action of a hand being finished: a count is answered by announcing, cards are
    played in the order dealt, a waiting call is accepted, a compulsory declaration is made."""
    legal = st.legal_actions()
    if not legal:
        return None
    if "announce" in legal:
        return "announce"
    plays = [a for a in canonical(st, legal) if a.startswith("play ")]
    if plays:
        return plays[0]
    if "accept" in legal:
        return "accept"
    others = [a for a in legal if a != "fold"]
    return others[0] if others else legal[0]


def play(game: Game, deal: Deal, actions: Sequence[str], score: Sequence[int] | None = None,
         finish: bool = True) -> tuple[State, list[str]] | None:
    """Replay `actions` (each "SEAT ACTION") on `deal`, then finish the hand; None when an
    action is refused or the hand does not end."""
    st = game.new_match(seed=0, deals=[deal], score=list(score) if score else None)
    done: list[str] = []
    for step in actions:
        who, action = step.split(" ", 1)
        try:
            st.apply(action, seat=int(who))
        except Exception:
            return None
        done.append(step)
    while finish and not st.hand_over and len(done) < MAX_STEPS:
        to_act = st.current_player()
        chosen = _choose(st)
        if to_act is None or chosen is None:
            return None
        st.apply(chosen, seat=to_act)
        done.append(f"{to_act} {chosen}")
    if finish and not st.hand_over:
        return None
    return st, done


def _result(st: State, match: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"hand_over": True, "score": list(st.score)}
    if st.tricks:
        out["tricks"] = list(st.tricks)
    if match or st.match_over:
        out["match_over"] = st.match_over
        out["winner"] = st.winner
    return out


def _played(article: str, title: str, game: Game, deal: Deal, actions: Sequence[str],
            score: Sequence[int] | None = None, options: dict[str, Any] | None = None) -> Example | None:
    found = play(game, deal, actions, score)
    if found is None:
        return None
    st, done = found
    return Example(article, title, deal, done, list(score) if score else None, dict(options or {}), _result(st))


def examples(game: Game, table: Payoffs, options: dict[str, Any] | None = None,
             contests: Sequence[str] | None = None) -> list[Example]:
    """Every worked example of the game's rulebook. `contests` limits them to those contests
    (the articles of a contest that only a table option enables); `options` are that option."""
    spec = game.spec
    out: list[Example] = []
    samples = sample_deals(game)
    first = samples[0].deal
    if contests is None:
        out += _card_facts(game)
        out += _value_facts(game)
        for sample in samples[:2]:
            title = "tricks.example.full" if sample.label == "runs to the last trick" else "tricks.example.tie"
            ex = _played("tricks", title, game, sample.deal, [])
            if ex is not None:
                out.append(ex)
        if spec.stakes.calls:
            first_call = spec.stakes.calls[0].name
            for answer, title in (("accept", "stakes.example.accepted"), ("decline", "stakes.example.declined")):
                ex = _played("stakes", title, game, first, [f"0 {first_call}", f"1 {answer}"])
                if ex is None:          # the next seat may not be the one that answers
                    ex = _answered(game, first, first_call, answer, title)
                if ex is not None:
                    out.append(ex)
        ex = _played("fold", "fold.example", game, first, ["0 fold"])
        if ex is not None:
            out.append(ex)
        match = _match_example(game, samples)
        if match is not None:
            out.append(match)
    for contest in spec.contests:
        if contests is not None and contest.name not in contests:
            continue
        shown = 0
        for chain in table.contest(contest.name):
            if len(chain.calls) > 2 or shown >= 3 or chain.witness.deal is None:
                continue
            ex = _chain_example(game, contest.name, chain.calls, chain.witness.deal, chain.witness.actions,
                                chain.answerable, options)
            if ex is not None and not any(e.actions == ex.actions for e in out):
                out.append(ex)
                shown += 1
    return out


def _chain_example(game: Game, contest: str, calls: Sequence[str], deal: Deal, witness: Sequence[str],
                   answerable: bool, options: dict[str, Any] | None) -> Example | None:
    """A contest chain made on the deal the payoff tables found it on, then accepted (or left
    unanswered, for declarations), and the hand played out."""
    made = [i for i, step in enumerate(witness) if step.split(" ")[1] in calls]
    if len(made) < len(calls):
        return None
    prefix = list(witness[:made[len(calls) - 1] + 1])
    if not answerable:
        return _chained("contest.example.declared", game, contest, calls, deal, prefix, options)
    found = play(game, deal, prefix, finish=False)
    seat = found[0].current_player() if found else None
    if seat is None or "accept" not in found[0].legal_actions():      # type: ignore[index]
        return None
    return _chained("contest.example.accepted", game, contest, calls, deal, prefix + [f"{seat} accept"], options)


def _chained(title: str, game: Game, contest: str, calls: Sequence[str], deal: Deal, steps: list[str],
             options: dict[str, Any] | None) -> Example | None:
    ex = _played(f"contest:{contest}", title, game, deal, steps, options=options)
    if ex is not None:             # the calls the example makes (a compulsory declaration included)
        names = {call.name for c in game.spec.contests if c.name == contest for call in c.calls}
        ex.calls = [step.split(" ")[1] for step in ex.actions if step.split(" ")[1] in names]
    return ex


def _answered(game: Game, deal: Deal, call: str, answer: str, title: str) -> Example | None:
    st = game.new_match(seed=0, deals=[deal])
    try:
        st.apply(call, seat=0)
    except Exception:
        return None
    seat = st.current_player()
    if seat is None:
        return None
    return _played("stakes", title, game, deal, [f"0 {call}", f"{seat} {answer}"])


def _match_example(game: Game, samples: Sequence[Any]) -> Example | None:
    """A hand that ends the match: team 0 one point short of the target wins the hand."""
    score = [game.target - 1, 0]
    for sample in samples:
        found = play(game, sample.deal, [], score)
        if found is not None and found[0].match_over and found[0].winner == 0:
            st, done = found
            return Example("match", "match.example", sample.deal, done, score, {}, _result(st, match=True))
    return None


def _card_facts(game: Game) -> list[Example]:
    """The order of the cards as facts: each row's first card beats the next row's, cards of
    one row tie (under the example's turned card)."""
    ids = game.cards.ids
    turned = next(iter(game.strength)) if game.turns_card else None
    row = game.strength[turned]
    levels = sorted({row[c] for c in range(len(ids)) if c != turned}, reverse=True)
    tiers = [[ids[c] for c in range(len(ids)) if row[c] == s and c != turned] for s in levels]
    beats = [[a[0], b[0]] for a, b in zip(tiers, tiers[1:], strict=False)]
    ties = [[t[0], c] for t in tiers for c in t[1:]]
    facts: dict[str, Any] = {"beats": beats}
    if ties:
        facts["ties"] = ties
    if turned is not None:
        facts["vira"] = ids[turned]
    return [Example("order", "order.example", facts=facts)]


def _value_facts(game: Game) -> list[Example]:
    turned = next(iter(game.strength)) if game.turns_card else None
    out = []
    for v in game.spec.values:
        for hand, value in value_hands(game, v.name, turned):
            facts: dict[str, Any] = {"value_of": {"name": v.name, "hand": hand.split(), "value": value}}
            if turned is not None:
                facts["vira"] = game.cards.ids[turned]
            out.append(Example(f"values:{v.name}", "values.example", facts=facts))
    return out


def value_hands(game: Game, name: str, turned: int | None) -> list[tuple[str, int | None]]:
    """Hands that show a value's range: the best and worst of a sample, and one that does
    not hold it when a hand may not."""
    table = game.values[name]
    rng = random.Random(0)
    codes = [c for c in range(len(game.cards)) if c != turned]
    seen: dict[tuple[int, ...], int | None] = {}
    for _ in range(400):
        hand = tuple(sorted(rng.sample(codes, game.hand_size)))
        seen[hand] = table(hand, turned)
    held = {h: v for h, v in seen.items() if v is not None}
    picks: list[tuple[int, ...]] = []
    if held:
        ordered = sorted(held, key=lambda h: (held[h], h))
        picks += [ordered[-1], ordered[len(ordered) // 2], ordered[0]]
    missing = [h for h, v in seen.items() if v is None]
    picks += missing[:1]
    ids = game.cards.ids
    return [(" ".join(ids[c] for c in h), seen[h]) for h in dict.fromkeys(picks)]


def case_file(game: Game, spec_ref: str, found: Sequence[Example], titles: Sequence[str]) -> dict[str, Any]:
    """The examples as one conformance case file; `titles` names each example as the
    rulebook does."""
    options = {k: v for k, v in game.options.items()}
    cases = []
    for i, (ex, title) in enumerate(zip(found, titles, strict=True), start=1):
        case = ex.case(i)
        case["name"] = title
        cases.append(case)
    return {"spec": spec_ref, "source": f"the worked examples of the rulebook of {game.spec.title}",
            "options": options, "cases": cases}


def write_cases(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None),
                    encoding="utf-8")
