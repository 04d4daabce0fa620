"""What every legal call pays, found by playing it: the stake ladder and each contest's chains.

The rulebook's payoff tables, `truco diff` and the checker's payoff rules all read these
numbers, and they come from real States driven through the calls (a scripted deal, the
chain, then accept or decline, and the score read back), so they are exactly what the
engine does, not a second reading of the spec's formulas.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from rulespec.dsl import names_used
from rulespec.errors import IllegalAction, SpecError, so
from rulespec.ir import Contest, ContestCall, Formula, Span

from interpreter.designer.explore import (
    FORMULA_FAILURES,
    SCORE_NAMES,
    Keys,
    Violation,
    Witness,
    canonical,
    fork,
    sample_deals,
)
from interpreter.designer.walkcore import repeats_past
from interpreter.engine.game import Deal, Game
from interpreter.engine.records import ACTIVE, CLOSED
from interpreter.engine.state import State

Points = tuple[int, ...]
"""What one settlement scores: each scoring team's points, largest first (`(3, 3)` when
both teams score their own)."""


@dataclass(frozen=True)
class Step:
    """One step of the stake ladder: the hand's worth once accepted, the caller's points
    when declined."""

    call: str
    accepted: int
    declined: int
    worth: Formula
    declined_rule: Formula
    source: str | None


@dataclass(frozen=True)
class Chain:
    """A legal sequence of one contest's calls and what it pays when it is settled."""

    contest: str
    calls: tuple[str, ...]
    accepted: Points | None
    declined: Points | None
    unanswered: Points | None
    varies: bool
    accept_formula: Formula | None
    decline_formula: Formula | None
    span: Span
    witness: Witness
    unsettled: bool = False
    """Play stops or fails on the way to a settlement (no legal action, a formula that
    cannot be computed): reported as such, not as a missing payoff."""

    @property
    def answerable(self) -> bool:
        """Whether the last call waits for an answer (it is not a declaration)."""
        return self.accepted is not None or self.declined is not None


@dataclass
class Payoffs:
    """One game's payoff tables, and the payoffs that could not be computed."""

    base: int = 0
    ladder: list[Step] = field(default_factory=list)
    chains: list[Chain] = field(default_factory=list)
    problems: list[Violation] = field(default_factory=list)

    def contest(self, name: str) -> list[Chain]:
        return [c for c in self.chains if c.contest == name]


def show(points: Points | None) -> str:
    """`2`, `3 + 3`, or `—` when the chain cannot end that way."""
    if points is None:
        return "—"
    return " + ".join(str(p) for p in points) if points else "0"


def payoffs(game: Game) -> Payoffs:
    """The ladder and every contest chain, at the start of a match."""
    out = Payoffs()
    deal = sample_deals(game)[0].deal
    start = game.new_match(seed=0, deals=[deal])
    out.base = start.hand_worth
    out.ladder = list(_ladder(game, start, out))
    for contest in game.spec.contests:
        found = _chains(game, contest, _deal_for(game, contest), out)
        lone = _lone_holder(game, contest, _deal_for(game, contest))
        if lone is not None:                  # a declaration nobody else can answer
            for calls, (pays, witness) in _chains(game, contest, lone, out).items():
                for how, points in pays.items():
                    found.setdefault(calls, ({}, witness))[0].setdefault(how, points)
        order = {c.name: i for i, c in enumerate(contest.calls)}
        for calls in sorted(found, key=lambda cs: (len(cs), [order[c] for c in cs])):
            pays, witness = found[calls]
            out.chains.append(_chain(contest, calls, pays, witness))
    return out


def _deal_for(game: Game, contest: Contest) -> Deal:
    """For a contest of declarations (a flor), a deal where both teams hold its value."""
    samples = sample_deals(game)
    label = f"both teams hold {contest.value}"
    return next((s.deal for s in samples if s.label == label), samples[0].deal)


def _lone_holder(game: Game, contest: Contest, deal: Deal) -> Deal | None:
    """For a contest of declarations, the deal with every seat but the first redealt, from the
    cards nobody holds, so that only the first holds the value (None when no such hands exist)."""
    if not any(c.declare for c in contest.calls):
        return None
    holds = game.values[contest.value]
    index = game.cards.index
    turned = index[deal.turned] if deal.turned is not None else None
    pool = [c for c in game.cards.ids if c != deal.turned and all(c not in h for h in deal.hands)]
    hands = [deal.hands[0]]
    for _ in deal.hands[1:]:
        for start in range(len(pool) - game.hand_size + 1):
            hand = tuple(pool[start:start + game.hand_size])
            if holds(tuple(index[c] for c in hand), turned) is None:
                hands.append(hand)
                pool = [c for c in pool if c not in hand]
                break
        else:
            return None
    return Deal(tuple(hands), deal.turned)


# -- the ladder ---------------------------------------------------------------------------


def _ladder(game: Game, start: State, out: Payoffs) -> Iterator[Step]:
    """Call each step in turn (as the answer to the last, or on the accepting seat's turn),
    and read what accepting and declining it gives."""
    st = fork(start)
    actions: list[str] = []
    calls = {c.name: c for c in game.spec.stakes.calls}
    for name in game.stake_names:
        if not _reach(st, name, actions):
            return
        caller = st.current_player()
        assert caller is not None
        caller_team = game.team_of[caller]
        st.apply(name)
        actions.append(f"{caller} {name}")
        accepted, declined = fork(st), fork(st)
        try:
            accepted.apply("accept")
            declined.apply("decline")
        except FORMULA_FAILURES as err:
            out.problems.append(Violation("payoff", so(_reason(err), f"answering {name} fails"), calls[name].span,
                                          Witness(_deal_of(st), tuple(actions))))
            return
        gained = declined.score[caller_team] - st.score[caller_team]
        call = calls[name]
        yield Step(name, accepted.hand_worth, gained, call.worth, call.declined, call.cited.source)


def _reason(err: Exception) -> str:
    """Why a formula failed, without the place a finding names anyway."""
    return err.diagnostics[0].message if isinstance(err, SpecError) else str(err)


def _reach(st: State, name: str, actions: list[str]) -> bool:
    """Advance `st` (in place) until `name` is legal for the seat to act: the answer to
    the waiting call, or after accepting it, on a later turn of the accepting team."""
    for _ in range(4 * st.game.num_players):
        if st.hand_over:
            return False
        legal = st.legal_actions()
        if name in legal:
            return True
        seat = st.current_player()
        move = "accept" if "accept" in legal else next((a for a in canonical(st, legal) if a.startswith("play")), None)
        if move is None:
            return False
        st.apply(move)
        actions.append(f"{seat} {move}")
    return False


def _deal_of(st: State) -> Deal:
    ids = st.game.cards.ids
    return Deal(tuple(tuple(ids[c] for c in h) for h in st.dealt),
                ids[st.turned] if st.turned is not None else None)


# -- contest chains -----------------------------------------------------------------------

Found = dict[tuple[str, ...], tuple[dict[str, Points], Witness]]


def _chains(game: Game, contest: Contest, deal: Deal, out: Payoffs) -> Found:
    """Every chain of `contest` reachable from the deal, and how each settles: walk the
    contest's calls, their answers and counts, and card play while it may still open."""
    st = game.new_match(seed=0, deals=[deal])
    index = next(c.index for c in game.contests if c.name == contest.name)
    cont = game.contests[index]
    found: Found = {}
    stack: list[tuple[State, tuple[str, ...]]] = [(st, ())]
    keys = Keys(st, game.spec)
    seen = {keys(st)}
    while stack and len(seen) < 50_000:
        cur, path = stack.pop()
        if cur.hand_over or cur.contests[index].status == CLOSED:
            continue
        if cur.trick_no > 0 and cur.contests[index].status != ACTIVE and cur.count is None:
            continue
        seat = cur.current_player()
        legal = cur.legal_actions()
        chain = tuple(c for c, _ in cur.contests[index].chain)
        if not legal and chain in found:
            found[chain][0].setdefault("unsettled", ())
        for action in _moves(cur, legal, cont.calls, chain):
            nxt = fork(cur)
            step = f"{seat} {action}"
            try:
                nxt.apply(action)
            except IllegalAction:
                continue
            except FORMULA_FAILURES as err:
                rule = _rule(contest, chain, action) if action in ("accept", "decline") else None
                doing = {"accept": "accepting", "decline": "declining"}.get(action, action)
                out.problems.append(Violation("payoff", so(_reason(err), "the payoff cannot be computed"),
                                              rule.span if rule else contest.span, Witness(deal, path + (step,)),
                                              detail=f"{doing} {' '.join(chain) or contest.name}"))
                if chain in found:
                    found[chain][0].setdefault("unsettled", ())
                continue
            if nxt.contests[index].status == CLOSED and cur.contests[index].status != CLOSED:
                settled = tuple(c for c, _ in nxt.contests[index].chain)
                how = "declined" if action == "decline" else \
                    "accepted" if action == "accept" or cur.count is not None else "unanswered"
                gained = tuple(sorted((b - a for a, b in zip(cur.score, nxt.score, strict=False) if b > a),
                                      reverse=True))
                pays, _ = found.setdefault(settled, ({}, Witness(deal, path + (step,))))
                pays.setdefault(how, gained)
            else:
                new_chain = tuple(c for c, _ in nxt.contests[index].chain)
                if new_chain and new_chain not in found:
                    found[new_chain] = ({}, Witness(deal, path + (step,)))
            key = keys(nxt)
            if key not in seen:
                seen.add(key)
                stack.append((nxt, path + (step,)))
    return found


def _moves(st: State, legal: list[str], calls: Mapping[str, ContestCall], chain: tuple[str, ...]) -> list[str]:
    """The actions that take a contest forward: its calls, answers, the count (everyone
    announces when allowed, nobody leaves the hand), and the next card while it may still be
    opened."""
    if st.count is not None:
        return [a for a in legal if a != "fold"][:1]
    out = []
    for action in legal:
        if action in calls:
            if calls[action].max is None and repeats_past(calls, chain, action):
                continue
            out.append(action)
        elif action in ("accept", "decline"):
            out.append(action)
    if st.pending is None:
        out += [a for a in canonical(st, legal) if a.startswith("play")][:1]
    return out


def _rule(contest: Contest, chain: tuple[str, ...], action: str) -> Formula | None:
    """The payoff formula an answer to the chain evaluates."""
    last = next((c for c in contest.calls if chain and c.name == chain[-1]), None)
    if action == "decline":
        return (last.decline if last else None) or contest.decline
    return (last.accept if last else None) or contest.accept


def _chain(contest: Contest, calls: tuple[str, ...], pays: dict[str, Points], witness: Witness) -> Chain:
    """A chain's row; it `varies` when a formula settling it reads the score."""
    last = next(c for c in contest.calls if c.name == calls[-1])
    accept, decline = _rule(contest, calls, "accept"), _rule(contest, calls, "decline")
    read = [accept, decline, contest.unraised.pays if contest.unraised else None,
            *(c.worth for c in contest.calls if c.name in calls)]
    varies = any(names_used(f.expr) & SCORE_NAMES for f in read if f is not None)
    return Chain(contest.name, calls, pays.get("accepted"), pays.get("declined"), pays.get("unanswered"),
                 varies, accept, decline, last.span, witness, "unsettled" in pays)
