"""The checker's exhaustive pass: every action sequence of one hand, over every deal.

Random play samples matches; this walks the whole action graph of a hand instead, so a
dead end, an endless hand or an unreachable call is found whatever its odds. The deal is
abstract (abstract.py): whose card takes each trick, who holds a value and how values
compare, and who may annul the deal are chosen as the engine asks, so one walk covers every
deal. Card play is reduced to one branch per decision (each seat plays its cards in the order
dealt), since which card is played matters only through those choices. States are merged by
what the future can depend on: the state's fields without the log, the generator or past
tricks, without what no formula of the spec reads, hand values by their order, and a chain
being counted by what it pays.
"""
from __future__ import annotations

import gc
import itertools
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, Literal

from rulespec.dsl import Binary, Call, Name, Num, Str, calls_used, names_used, walk
from rulespec.errors import IllegalAction, TrucoError, so
from rulespec.ir import Contest, Formula, Span, Spec

from interpreter.designer import walkcore
from interpreter.designer.abstract import AbstractDeal, Step, Undecided, concretize
from interpreter.designer.replay import deal_case
from interpreter.designer.walkcore import canonical
from interpreter.engine.game import Deal, Game
from interpreter.engine.match import names
from interpreter.engine.records import CLOSED, ContestState
from interpreter.engine.state import State

MAX_STATES = 200_000
"""States kept per sample deal's walk before the pass stops (and says it was cut short)."""
MAX_VISITS = 5 * MAX_STATES
"""States visited (hands ended included) per sample deal's walk before it stops too."""
ABSTRACT_STATES = 1_500_000
"""States kept by the walk over every deal before it gives way to the sample deals (and the
report says so): every combination of every triple of option values of every bundled spec
fits, the largest reglamento's at 1,050,549 states (1.1 GB in one process; docs/checker.md),
with room for a house variant of its size."""
ABSTRACT_VISITS = 3 * ABSTRACT_STATES
"""States visited (hands ended included) by the walk over every deal before it gives way too."""
MAX_ACTIONS = 500
"""A hand longer than this is reported even when it ends."""
SEARCH = 400
"""Random deals tried at most when looking for one that runs to the last trick and one
whose first trick ties (the sample deals of payoffs and examples)."""

_SKIP = frozenset({"game", "strength", "rng", "rng_shared", "events", "shows", "script", "seed", "history", "dealt",
                   "hand_number", "turned"})
SCORE_NAMES = frozenset({"score_us", "score_them", "max_score", "min_score", "leader", "trailer",
                          "winner_score", "loser_score"})

FORMULA_FAILURES = (TrucoError, ArithmeticError, LookupError, TypeError, ValueError)
"""How a spec's formulas, or the engine running them, fail on a defective spec: a finding of
the walk, never raised out of it."""

Key = Any
Scope = Literal["all", "tricks", "first trick"]


@dataclass(frozen=True)
class Witness:
    """A way to reach a finding: the deal, the score, the actions. Without a deal, the
    actions are on an abstract deal, the choices made for the cards bracketed among them."""

    deal: Deal | None
    actions: tuple[str, ...]
    score: tuple[int, ...] | None = None

    def as_case(self, name: str, expect: dict[str, Any] | None = None) -> dict[str, Any]:
        """One case in the conformance format (docs/conformance.md), ending with `expect`."""
        assert self.deal is not None, "an abstract witness does not replay"
        case: dict[str, Any] = {"name": name, **deal_case(self.deal)}
        if self.score is not None:
            case["score"] = list(self.score)
        case["actions"] = [*self.actions] + ([{"expect": expect}] if expect else [])
        return case

    def __str__(self) -> str:
        return ", ".join(self.actions) if self.actions else "the deal"


@dataclass(frozen=True)
class Violation:
    """A property of the hand machine that does not hold, where, and how to reproduce it."""

    kind: str
    message: str
    span: Span | None
    witness: Witness | None = None
    expect: dict[str, Any] | None = None
    detail: str = ""
    """What differs from one occurrence to the next (a seat, a score), kept out of the
    message so one defect is reported once."""


@dataclass(frozen=True)
class Sample:
    """A concrete deal and what it is explored for when every deal is too many: `all`
    actions, the `tricks` (card play only), or the `first trick` (the contests, with
    everything that may interrupt them)."""

    label: str
    deal: Deal
    scope: Scope = "all"


@dataclass
class Exploration:
    """What one game's exhaustive pass covered and found."""

    choices: int = 0
    """Questions about the cards answered by branching on every answer."""
    every_deal: bool = True
    """Whether the walk over every deal finished; if not, `samples` were walked instead."""
    samples: list[str] = field(default_factory=list)
    states: int = 0
    transitions: int = 0
    longest: int = 0
    seconds: float = 0.0
    cut: bool = False
    legal_calls: set[str] = field(default_factory=set)
    uncapped: set[str] = field(default_factory=set)
    scores_checked: int = 0
    violations: list[Violation] = field(default_factory=list)

    def add(self, v: Violation) -> None:
        if not self.knows(v.kind, v.message, v.span):
            self.violations.append(v)

    def knows(self, kind: str, message: str, span: Span | None) -> bool:
        return any((kind, message, span) == (w.kind, w.message, w.span) for w in self.violations)


# -- what the spec's formulas read --------------------------------------------------------


def _formulas(node: Any) -> Iterator[Formula]:
    if isinstance(node, Formula):
        yield node
    elif isinstance(node, (tuple, list)):
        for item in node:
            yield from _formulas(item)
    elif is_dataclass(node) and not isinstance(node, type):
        for f in fields(node):
            if f.name != "raw":
                yield from _formulas(getattr(node, f.name))


def _spec_formulas(spec: Spec) -> tuple[list[Formula], list[list[Formula]], list[Formula]]:
    """The formulas of `spec`, walked once: all of them, each contest's, and the schedule's
    (read between hands)."""
    every: list[Formula] = []
    by_contest: list[list[Formula]] = []
    between: list[Formula] = []
    for f in fields(spec):
        if f.name == "raw":
            continue
        value = getattr(spec, f.name)
        if f.name == "contests":
            by_contest = [list(_formulas(cont)) for cont in value]
            every.extend(itertools.chain.from_iterable(by_contest))
        else:
            found = list(_formulas(value))
            if f.name == "schedule":
                between = found
            every.extend(found)
    return every, by_contest, between


def formula_reads(node: Any) -> frozenset[str]:
    """Every name and function the formulas of a spec (or any IR node, or a list of formulas) use."""
    out: set[str] = set()
    for f in _formulas(node):
        out |= names_used(f.expr)
        out |= {name for name, _ in calls_used(f.expr)}
    return frozenset(out)


def comparison_bound(node: Any, name: str) -> int | None:
    """The largest literal `name` is compared with, when every use of it in the formulas of
    `node` is a comparison with a number literal: every value above it then reads alike.
    None if some use is not."""
    uses = compared = limit = 0
    for f in _formulas(node):
        for n in walk(f.expr):
            if isinstance(n, Name) and n.dotted == name:
                uses += 1
            elif isinstance(n, Binary) and n.op in ("==", "!=", "<", "<=", ">", ">="):
                for a, b in ((n.left, n.right), (n.right, n.left)):
                    if isinstance(a, Name) and a.dotted == name and isinstance(b, Num):
                        compared += 1
                        limit = max(limit, b.value)
    return limit if uses == compared else None


# -- copying and merging states -----------------------------------------------------------


def _score_reads(node: Any) -> frozenset[str]:
    return formula_reads(node) & SCORE_NAMES


_ATOMS = frozenset({int, str, bool, float, type(None), tuple, frozenset})
_RECORDS: dict[type, tuple[str, ...] | None] = {}


def _record_fields(kind: type) -> tuple[str, ...] | None:
    """The field names of a dataclass type (remembered), None for other types."""
    if kind not in _RECORDS:
        _RECORDS[kind] = tuple(f.name for f in fields(kind)) if is_dataclass(kind) else None
    return _RECORDS[kind]


def fork(st: State) -> State:
    """A copy for exploring (`serial.copy_into` within a hand): it shares the random generator,
    since no action within a hand draws from it, and starts an empty event log."""
    return st.fork()


def _freeze(value: Any) -> Any:
    kind = type(value)
    if kind in _ATOMS and kind is not tuple:
        return value
    if kind is list or kind is tuple:
        return tuple(v if type(v) in _ATOMS and type(v) is not tuple else _freeze(v) for v in value)
    if kind is set or kind is frozenset:
        return tuple(sorted(value, key=repr))
    if kind is dict:
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    names = _record_fields(kind)
    if names is None:
        return value
    return tuple(_freeze(getattr(value, name)) for name in names)


def _hashable(value: Any) -> Any:
    """`value` with every list in it a tuple (an abstract deal's answers may be lists)."""
    kind = type(value)
    if kind is list or kind is tuple:
        return tuple(_hashable(v) for v in value)
    return value


def _frozen(value: Any) -> Any:
    """A field no kind of `walkcore` reads, frozen whole and hashable."""
    return _hashable(_freeze(value))


class Keys:
    """State keys for one game: the fields the future depends on, frozen.

    What no formula reads is left out: the calls made (unless `called`, `accepted` or
    `calls_made` is read; only their number up to one past the largest literal it is compared
    with, if that is all `calls_made` is used for) and the score once nothing left in the hand
    reads it or may score (`score_matters`). With `by_payoff`, a chain being counted is keyed by what it pays (for
    walks that report futures, not which chain led to them), counting no more points than end the
    match when they do at once; and where those points are all the score still matters for,
    the score gives way to whether they end it.
    """

    def __init__(self, root: State, spec: Spec, by_payoff: bool = False) -> None:
        every, by_contest, between = _spec_formulas(spec)
        reads = formula_reads(every)
        drop = set(_SKIP)
        for name, needs in (("called", "called"), ("accepted", "accepted"), ("calls_made", "calls_made")):
            if needs not in reads:
                drop.add(name)
        self.fields = sorted(k for k in names() if k not in drop and not k.startswith("_"))
        elsewhere = {id(f) for f in [*between, *itertools.chain.from_iterable(by_contest)]}
        bound = comparison_bound(every, "calls_made")
        self.calls_cap = None if bound is None else bound + 1
        self.parts = walkcore.KeyPart(
            score_always=bool(_score_reads([f for f in every if id(f) not in elsewhere])),
            score_contests=[bool(_score_reads(formulas)) for formulas in by_contest],
            score_beside_pay=[_reads_score_beside_pay(cont, formulas)
                              for cont, formulas in zip(spec.contests, by_contest, strict=True)],
            paid_in_count=[by_payoff and _pays_alike(cont) for cont in spec.contests],
            paid_by_team=[not any(names_used(f.expr) & _SEATED for f in _payoffs(cont)) for cont in spec.contests],
            ends_at_once=spec.match.end == "immediately",
            chain_reads=sorted({a.value for f in every for n in walk(f.expr)
                                if isinstance(n, Call) and n.name == "in_chain" for a in n.args if isinstance(a, Str)}))
        """The contests' and the score's part of the key."""
        read = [name for name in self.fields if name not in ("contests", "score", "count")]
        self.core = walkcore.StateKey(read, self.calls_cap, _frozen, self.parts)
        """The key's reader, which remembers the contests' and the score's part of the key by
        what they are worked out from."""

    def __call__(self, st: State, forget: bool = True) -> Key:
        """The key of `st`; with `forget`, its abstract deal first drops the answers the
        engine will not ask again (not after a choice just made: that would undo it).

        A tuple of the fields, each made hashable as its kind says (`walkcore.StateKey`): two
        keys are equal exactly when the `repr` of their fields would be (`repr_key`), at a third
        of the cost. Where a slot may hold values that compare equal but print apart (whether a
        count's points end the match, `True`, beside the points themselves, `1`), the key
        keeps them apart with a tag."""
        return self.core(st, forget)

    def repr_key(self, st: State, forget: bool = True) -> str:
        """The key as it was first written, the `repr` of the fields: what `__call__` must
        partition states as (a test holds them to it)."""
        if forget and isinstance(st.facts, AbstractDeal):
            st.facts.forget(st)
        parts = self.parts
        parts.shut_of = None
        parts.score_in_pays = False
        out: list[Any] = []
        for name in self.fields:
            value = getattr(st, name)
            kind = type(value)
            if name == "calls_made":
                value = value if self.calls_cap is None else min(value, self.calls_cap)
            # `score_in_pays` is set by `chain`, which runs first: `contests` sorts before `score`
            elif name == "score" and (parts.score_in_pays or not parts.score_matters(st)):
                continue
            elif name == "contests":
                value = [c.status if c.status == CLOSED else (c.status, parts.chain(st, i), c.declared)
                         for i, c in enumerate(value)]
            elif name == "count" and value is not None:
                best = value.best_value
                if isinstance(st.facts, AbstractDeal) and best >= 0:
                    best = st.facts.rank(st.game.contests[value.contest].value, best)
                value = (value.contest, value.order, value.index, value.best_seat, best)
            elif name == "facts" and value is not None:
                value = value.key()
            elif kind is set:
                value = sorted(value)
            elif kind not in _ATOMS and kind is not list:
                value = _freeze(value)
            out.append(value)
        return repr(out)


_UNSTEADY = frozenset({"my_turn", "answering", "counting", "pending_step", "opponent_announced", "can_beat",
                       "beats_announced", "beats_opponents"})
"""Names that may read otherwise when a count ends than while it runs."""
_STEADY_CALLS = frozenset({"max", "min", "abs", "in_chain", "called", "accepted"})
"""Functions that read the same while a count runs as when it ends."""


_SEATED = frozenset({"played", "played_this_trick", "my_turn", "answering", "is_mano", "is_pie", "can_beat",
                     "beats_announced", "beats_opponents"})
"""Names that read the seat a formula is evaluated for, not only its team."""


def _payoffs(cont: Contest) -> list[Formula]:
    """The formulas that work out what an accepted chain of `cont` pays."""
    return [cont.accept, *(c.accept for c in cont.calls if c.accept is not None), *(c.worth for c in cont.calls)]


def _reads_score_beside_pay(cont: Contest, formulas: list[Formula]) -> bool:
    """Whether `cont`, whose formulas are `formulas`, reads the score elsewhere than in what an
    accepted chain of it pays."""
    payoffs = set(map(id, _payoffs(cont)))
    return bool(_score_reads([f for f in formulas if id(f) not in payoffs]))


def _pays_alike(cont: Contest) -> bool:
    """Whether what an accepted chain of `cont` pays, worked out while its count runs, is what
    it pays when the count ends: its payoffs and calls' worths read nothing a count changes."""
    formulas = _payoffs(cont)
    return not any(names_used(f.expr) & _UNSTEADY or {n for n, _ in calls_used(f.expr)} - _STEADY_CALLS
                   for f in formulas)


# -- choosing deals -----------------------------------------------------------------------


def playout(game: Game, deal: Deal) -> tuple[Any, ...]:
    """The trick results of a deal when every seat plays in dealt order and nobody calls."""
    st = game.new_match(seed=0, deals=[deal])
    while not st.hand_over:
        plays = [a for a in canonical(st, st.legal_actions()) if a.startswith("play ")]
        if not plays:
            break
        st.apply(plays[0])
    return tuple(st.tricks)


def _random_deal(game: Game, rng: random.Random) -> Deal:
    ids = list(game.cards.ids)
    rng.shuffle(ids)
    n, size = game.num_players, game.hand_size
    hands = tuple(tuple(ids[k * size:(k + 1) * size]) for k in range(n))
    return Deal(hands, ids[n * size] if game.turns_card else None)


def _holding_deal(game: Game, value: str, rng: random.Random) -> Deal:
    """A deal where the first seat of each team holds `value` and the other seats do not."""
    idx = game.cards.index
    table = game.values[value]
    cards = list(game.cards.ids)
    rng.shuffle(cards)
    turned = cards.pop() if game.turns_card else None
    code = idx[turned] if turned is not None else None
    hands: list[tuple[str, ...]] = []
    for seat in range(game.num_players):
        wanted = seat < game.teams
        pick = next((h for h in itertools.combinations(cards, game.hand_size)
                     if (table(tuple(idx[c] for c in h), code) is not None) == wanted),
                    tuple(cards[:game.hand_size]))
        hands.append(pick)
        cards = [c for c in cards if c not in pick]
    return Deal(tuple(hands), turned)


def _held_values(game: Game) -> list[str]:
    """Hand values that a hand may or may not hold and that an enabled contest compares."""
    spec = game.spec
    compared = {c.value for c in spec.contests}
    return [v.name for v in spec.values if v.holds is not None and v.name in compared]


_DEALS: dict[tuple[Any, ...], list[Sample]] = {}


def _fingerprint(game: Game) -> tuple[Any, ...]:
    spec = game.spec
    texts = tuple((v.name, v.formula.text, v.holds.text if v.holds else None) for v in spec.values)
    read = set().union(*(names_used(v.formula.expr) for v in spec.values)) if spec.values else set()
    opts = tuple(sorted((k, v) for k, v in spec.chosen if f"options.{k}" in read))
    return (spec.file, game.num_players, game.hand_size, spec.ranking.tiers, repr(spec.trumps), texts, opts,
            spec.tricks.partners_tie, tuple((o.pattern, o.result) for o in spec.tricks.outcomes),
            tuple(_held_values(game)))


def sample_deals(game: Game) -> list[Sample]:
    """A few deals that exercise the hand: one that runs to the last trick (every action
    explored), one with ties (card play and stakes), and for each value a hand may hold (a
    flor), one where one seat of each team holds it (the first trick's calls)."""
    key = _fingerprint(game)
    if key in _DEALS:
        return _DEALS[key]
    rng = random.Random(0)
    results: dict[Deal, tuple[Any, ...]] = {}
    full = ties = None
    for _ in range(SEARCH):
        deal = _random_deal(game, rng)
        r = results[deal] = playout(game, deal)
        if full is None and len(r) == game.trick_count and "tie" not in r and len(set(r)) > 1:
            full = deal
        if ties is None and r[:1] == ("tie",) and len(r) > 1:
            ties = deal
        if full is not None and ties is not None:
            break
    out = [Sample("runs to the last trick", full or max(results, key=lambda d: len(results[d])))]
    ties = ties or max(results, key=lambda d: results[d].count("tie"))
    if "tie" in results[ties]:
        out.append(Sample("ties a trick", ties, "tricks"))
    for value in _held_values(game):
        out.append(Sample(f"both teams hold {value}", _holding_deal(game, value, rng), "first trick"))
    _DEALS[key] = out
    return out


# -- the exhaustive pass ------------------------------------------------------------------


class _Walk:
    """One game's graph: states by key, how each was first reached, and their successors."""

    def __init__(self, game: Game, out: Exploration, sample: Sample | None, limit: int) -> None:
        """Over every deal (an abstract one), or over one sample deal within its scope."""
        self.game = game
        self.abstract = sample is None
        self.scope: Scope = "all" if sample is None else sample.scope
        self.deal = deal = (sample or sample_deals(game)[0]).deal    # abstract: the cards' names only
        self.out = out
        self.root = game.new_match(seed=0, deals=[deal])
        self.root.events = []
        if self.abstract:
            self.root.facts = AbstractDeal(game)
        self.keys = keys = Keys(self.root, game.spec, by_payoff=True)
        self.graph = walkcore.Graph(keys(self.root), limit, out, keys.core)
        self.resolved: dict[tuple[Any, ...], bool] = {}

    @property
    def cut(self) -> bool:
        """Whether the walk stopped short: at its limit of states kept, or of states visited."""
        return self.graph.cut

    def found(self, kind: str, message: str, span: Span | None, where: Callable[[], Witness],
              expect: dict[str, Any] | None = None, detail: str = "") -> None:
        """A violation, with the way to it worked out only the first time it is seen (finding
        a deal that reaches it takes a search)."""
        if not self.out.knows(kind, message, span):
            self.out.add(Violation(kind, message, span, where(), expect, detail))

    def path(self, i: int, last: Sequence[Step] = ()) -> Witness:
        """The steps to node `i` (and `last`), on a deal that realizes their choices if one
        is found, else on the abstract deal."""
        steps: list[Step] = list(reversed(last))
        while i > 0:
            i, step = self.graph.parent[i]
            steps.append(step)
        steps.reverse()
        if not self.abstract:
            return Witness(self.deal, tuple(x for _, x in steps if x))
        found = concretize(self.game, self.deal, steps)
        if found is not None:
            return Witness(found[0], tuple(found[1]))
        chosen = AbstractDeal(self.game)
        texts = []
        for kind, x in steps:
            if kind == "fact":
                texts.append(f"[{chosen.describe(*x)}]")
                chosen.decide(*x)
            elif x:
                texts.append(x)
        return Witness(None, tuple(texts))

    def run(self) -> None:
        """Walk the graph (`walkcore.run`), within the limits of its kind."""
        visits = self.out.states + (ABSTRACT_VISITS if self.abstract else MAX_VISITS)
        if walkcore.run(self, self.root, visits, self.scope == "first trick", self.scope == "tricks"):
            self.graph.cut = True

    def link(self, i: int, child: State, step: Step, stack: list[tuple[int, State]],
             more: Sequence[Step] = (), forget: bool = True) -> None:
        """An edge from node `i` (`walkcore.Graph.link`): to an end, a known state or a new one."""
        self.graph.link(i, child, step, stack, more, forget)

    def refused(self, i: int, st: State, steps: list[Step], err: IllegalAction) -> None:
        """`walkcore.step`'s action, legal in `st`, refused."""
        self.found("refused", "a legal action is refused", self.span_of(st), lambda: self.path(i, steps),
                   detail=f"'{steps[-1][1]}': {err.reason}")

    def crashed(self, i: int, st: State, steps: list[Step], err: Exception) -> None:
        """`walkcore.step`'s action failed in the engine (`FORMULA_FAILURES`)."""
        self.found("crash", so(str(err), "the engine cannot play on"), self.span_of(st), lambda: self.path(i, steps))

    def lowered(self, i: int, st: State, child: State, steps: list[Step]) -> None:
        """`walkcore.step`'s action lowered some team's score."""
        self.found("score", "a score goes down", self.span_of(st), lambda: self.path(i, steps),
                   detail=f"from {st.score} to {child.score}")

    def resolves(self, i: int, st: State, child: State, action: str, steps: list[Step]) -> None:
        """`walkcore.step`'s action answered a contest call: check that it settles the contest."""
        self.check_resolves(st, child, action, lambda: self.path(i, steps))

    def span_of(self, st: State) -> Span | None:
        """The rule in play in a state: the count, the waiting call, or the tricks."""
        spec = self.game.spec
        if st.count is not None:
            return spec.contests[st.count.contest].count.span
        p = st.pending
        if p is not None:
            calls = spec.contests[p.contest].calls if p.contest is not None else spec.stakes.calls
            return next((c.span for c in calls if c.name == p.call), None)
        return spec.tricks.span

    def dead_end(self, i: int, st: State, seat: int | None) -> None:
        """A live hand where nobody may act; during a count, the rule to blame is `good`
        (a beaten seat must be able to concede), with `announce` quoted beside it."""
        message, span = "a live hand where nobody may act", self.span_of(st)
        if st.count is not None:
            count = self.game.spec.contests[st.count.contest].count
            span = count.good.span
            message = so(f"in the count, announce ({count.announce.text}) and good ({count.good.text}) leave the "
                         "seat to speak nothing to say", "nobody may act in a live hand")
        self.found("dead", message, span, lambda: self.path(i), {"hand_over": False, "legal": []},
                               "nobody is to act" if seat is None else f"seat {seat} has no legal action")

    def check_answers(self, i: int, st: State, legal: list[str]) -> None:
        """A waiting call (not a declaration) can always be both accepted and declined, once
        a holder who must declare first (a compulsory declaration) has declared."""
        p = st.pending
        if p is None:
            return
        if p.contest is not None and self.game.contests[p.contest].calls[p.call].declare:
            return
        compulsory = {name for cont in self.game.compulsory for name, call in cont.calls.items() if call.declare}
        if legal and all(a in compulsory or a == "fold" for a in legal):
            return
        missing = [v for v in ("accept", "decline") if v not in legal]
        if missing:
            words = " or ".join({"accept": "accepted", "decline": "declined"}[m] for m in missing)
            self.found("answer", f"{p.call} cannot be {words}", self.span_of(st), lambda: self.path(i))

    def check_resolves(self, st: State, child: State, verb: str, where: Callable[[], Witness]) -> None:
        """Accepting or declining a contest call settles it: at once, or after its count."""
        assert st.pending is not None and st.pending.contest is not None
        index = st.pending.contest
        chain = tuple(c for c, _ in st.contests[index].chain)
        memo = (index, chain, verb)
        if memo in self.resolved:
            return
        probe = fork(child)
        for _ in range(4 * self.game.num_players):
            if probe.count is None or probe.hand_over:
                break
            try:
                legal = _settled(probe, probe.legal_actions)
                if not legal:
                    return                         # a dead end: reported where the walk meets it
                probe = _applied(probe, next((a for a in legal if a != "fold"), legal[0]))   # speak, not leave
            except FORMULA_FAILURES:
                return                             # a failure: reported where the walk meets it
        contest: ContestState = probe.contests[index]
        ok = probe.hand_over or (probe.count is None and contest.status == CLOSED)
        self.resolved[memo] = ok
        if not ok:
            self.out.add(Violation("unresolved", f"{verb}ing a chain does not settle the contest",
                                   self.game.spec.contests[index].span, where(), detail=" ".join(chain)))

    def measure(self) -> None:
        """The longest hand, and whether a position can come back (an endless hand)."""
        longest, back = self.graph.measure()
        if back >= 0:
            self.found("endless", "the hand can go on forever: a position comes back", self.game.spec.tricks.span,
                       lambda: self.path(back))
        self.out.longest = max(self.out.longest, longest)
        if longest > MAX_ACTIONS:
            self.out.add(Violation("long", f"a hand can last more than {MAX_ACTIONS} actions",
                                   self.game.spec.tricks.span, detail=f"{longest} actions"))


def _settled(st: State, ask: Callable[[], list[str]]) -> list[str]:
    """`ask`, with every question it raises about the cards answered by its first choice."""
    while True:
        try:
            return ask()
        except Undecided as q:
            assert isinstance(st.facts, AbstractDeal)
            st.facts = st.facts.answered(q.fact, q.choices[0])     # a fork shares the deal it was forked with
            st._legal = None


def _applied(st: State, action: str) -> State:
    """A copy of `st` after `action`, questions about the cards answered by their first choice."""
    while True:
        nxt = fork(st)
        try:
            nxt.apply(action)
            return nxt
        except Undecided as q:
            assert isinstance(st.facts, AbstractDeal)
            st.facts = st.facts.answered(q.fact, q.choices[0])     # a fork shares the deal it was forked with
            st._legal = None


def explore(game: Game) -> Exploration:
    """Walk every action sequence of one hand over every deal, then check that the match
    can end from every score and that every call of the spec is legal somewhere."""
    start = time.perf_counter()
    out = Exploration()
    with _uncollected():
        _walk_hands(game, out)
    _unreachable(game.spec, out)
    match_can_end(game, out)
    out.seconds = time.perf_counter() - start
    return out


def _walk_hands(game: Game, out: Exploration) -> None:
    """The walk over every deal, or over the sample deals if it is cut short; its graphs are
    freed on return, before the collector runs again."""
    walk = _Walk(game, out, None, ABSTRACT_STATES)            # read now: a test may lower it
    walk.run()
    if walk.cut:
        out.every_deal = False
        for sample in sample_deals(game):
            out.samples.append(sample.label)
            walk = _Walk(game, out, sample, MAX_STATES)
            walk.run()
            walk.measure()
            out.cut |= walk.cut
    else:
        walk.measure()


@contextmanager
def _uncollected() -> Iterator[None]:
    """The cyclic garbage collector paused: a walk keeps hundreds of thousands of keys and
    states alive and makes no reference cycles, so each of the collector's passes over them
    (a fifth of the walk's time) would find nothing to free."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _unreachable(spec: Spec, out: Exploration) -> None:
    """Calls never legal in any state explored; when none of a group is, the rule that
    opens the group (the ladder's condition, the contest's window) is to blame."""
    stakes = spec.stakes
    if stakes.calls and stakes.calls[0].name not in out.legal_calls:
        out.add(Violation("unreachable", "no stake call is ever legal in any hand explored", stakes.when.span))
    else:
        for call in stakes.calls:
            if call.name not in out.legal_calls:
                out.add(Violation("unreachable", f"{call.name} is never legal in any hand explored", call.span))
    for contest in spec.contests:
        never = [c for c in contest.calls if c.name not in out.legal_calls]
        if never and len(never) == len(contest.calls):
            out.add(Violation("unreachable", so(f"the window of {contest.name} never opens in any hand explored",
                                                f"no call of {contest.name} is ever legal"), contest.window.span))
            continue
        for unused in never:
            out.add(Violation("unreachable", f"{unused.name} is never legal in any hand explored", unused.span))


_ENDS: dict[tuple[Any, ...], Violation | None] = {}


def match_can_end(game: Game, out: Exploration) -> None:
    """From every score below the target some hand scores a point, so the match can end.

    Tried in order: the first seat folds; the hand is walked in dealt order until a score
    goes up. Games whose score-reading rules are the same share the answer.
    """
    deal = sample_deals(game)[0].deal
    spec = game.spec
    reading = [f for f in _formulas(spec) if names_used(f.expr) & SCORE_NAMES]
    options = set().union(*(names_used(f.expr) for f in reading)) if reading else set()
    key = (spec.file, game.target, game.num_players, deal, tuple(f.text for f in reading),
           tuple(sorted((k, v) for k, v in spec.chosen if f"options.{k}" in options)))
    if key not in _ENDS:
        _ENDS[key] = _first_stuck(game, deal)
    out.scores_checked += game.target ** game.teams
    stuck = _ENDS[key]
    if stuck is not None:
        out.add(stuck)


def _first_stuck(game: Game, deal: Deal) -> Violation | None:
    """The first score from which no hand scores, blaming the special hand then in force."""
    for score in itertools.product(range(game.target), repeat=game.teams):
        if not _scores_from(game, deal, score):
            shown = "-".join(map(str, score))
            special = game.new_match(seed=0, deals=[deal], score=list(score)).special
            span = next((h.span for h in game.spec.special_hands if h.name in special), game.spec.match.span)
            where = f" (a hand of {', '.join(special)})" if special else ""
            return Violation("stuck", so("from some scores no hand scores a point", "the match cannot end"), span,
                             Witness(deal, (), score), {"score": list(score)}, f"from {shown}{where}")
    return None


def _scores_from(game: Game, deal: Deal, score: tuple[int, ...]) -> bool:
    st = game.new_match(seed=0, deals=[deal], score=list(score))
    if st.match_over:
        return True
    first = st.current_player()
    if first is not None and "fold" in st.legal_actions():
        folded = fork(st)
        folded.apply("fold")
        if folded.score != st.score:
            return True
    stack = [st]
    seen = 0
    while stack and seen < 2000:
        cur = stack.pop()
        seen += 1
        if cur.score != list(score):
            return True
        if cur.hand_over:
            continue
        for action in reversed(canonical(cur, cur.legal_actions())):
            nxt = fork(cur)
            nxt.apply(action)
            stack.append(nxt)
    return False
