"""The hot core of the checker's walk (explore.py), what each transition does outside the
engine: the walk's loop, a step's copies and the state key. Written under the engine's rules
so that setup.py compiles it with mypyc, as a group of its own (docs/performance.md, "The
compiled engine"); it runs as this source elsewhere.

`explore.Keys` works out which fields a game's key keeps; `StateKey` reads them, and asks
`Keys` for the contests' and the score's part only for a combination of what that part reads
it has not seen. `run` walks the graph and `step` plays an action on copies, leaving what they
find, and which actions to take, to the walk (`Walker`); `Graph` keeps the nodes by key and the
edges between them.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Protocol, cast

from rulespec.errors import IllegalAction, TrucoError

from interpreter.designer.abstract import AbstractDeal, Fact, Undecided
from interpreter.engine.records import ACTIVE, Pending
from interpreter.engine.state import State

NAMED = ("facts", "hands", "pending", "suspended", "plan", "played", "results", "seats", "special", "trick")
"""The fields of a match (match.py) every key keeps that `StateKey.rest` reads by name, each as
its kind asks."""
CALLS = ("calls_made", "called", "accepted")
"""The calls made, which `StateKey.rest` reads by name where the key keeps them (a formula
reads them)."""

Part = tuple[object, object]
"""The contests' and the score's part of a key."""
Step = tuple[str, object]
"""A path's step (`abstract.Step`): ("act", "SEAT ACTION") or ("fact", (fact, answer))."""


class Counts(Protocol):
    """What a walk counts (`explore.Exploration`)."""

    states: int
    choices: int
    transitions: int


class Walker(Protocol):
    """What `run` and `step` leave to the walk (`explore._Walk`): its graph (`link`, which
    `Graph` keeps), the actions to take, and the findings (a score lowered, an answer that
    does not settle its contest...), each reported with the node it was found from and the
    steps after it."""

    @property
    def out(self) -> Counts: ...

    def link(self, i: int, child: State, step: Step, stack: list[tuple[int, State]],
             more: Sequence[Step] = (), forget: bool = True) -> None: ...

    def choices(self, st: State, legal: list[str]) -> list[str]: ...

    def dead_end(self, i: int, st: State, seat: int | None) -> None: ...

    def check_answers(self, i: int, st: State, legal: list[str]) -> None: ...

    def refused(self, i: int, st: State, steps: list[Step], err: IllegalAction) -> None: ...

    def crashed(self, i: int, st: State, steps: list[Step], err: Exception) -> None: ...

    def lowered(self, i: int, st: State, child: State, steps: list[Step]) -> None: ...

    def resolves(self, i: int, st: State, child: State, action: str, steps: list[Step]) -> None: ...


class Graph:
    """One walk's graph (`explore._Walk`): how each node was first reached (`parent`: the node
    before and the step from it), the nodes each leads to (`children`), whether a hand ends
    from it (`ends`), and the nodes by key (`index`), at most `limit` of them (`cut` once a
    further one is met). Kept here, compiled, since an edge is linked at every transition."""

    parent: list[tuple[int, Step]]
    children: list[list[int]]
    ends: list[bool]
    index: dict[object, int]
    limit: int
    cut: bool
    out: Counts
    key: StateKey
    part: Callable[[State], Part]

    def __init__(self, root: object, limit: int, out: Counts, key: StateKey, part: Callable[[State], Part]) -> None:
        """`root`: the first node's key; `key` and `part` key the others (`explore.Keys`)."""
        self.parent = [(-1, ("act", ""))]
        self.children = [[]]
        self.ends = [False]
        self.index = {root: 0}
        self.limit = limit
        self.cut = False
        self.out = out
        self.key = key
        self.part = part

    def link(self, i: int, child: State, step: Step, stack: list[tuple[int, State]],
             more: Sequence[Step] = (), forget: bool = True) -> None:
        """An edge from node `i`: to an end (counted, never stored), a known state or a new one
        (put on `stack` to be walked). `more` are the steps after `step` on the same edge (an
        action's choices); `forget` as `StateKey` takes it."""
        if child.hand_over:
            self.out.states += 1
            self.ends[i] = True
            return
        key = self.key(child, self.part, forget)
        j = self.index.get(key, -1)
        if j < 0:
            if len(self.index) >= self.limit:
                self.cut = True
                return
            parent, children, ends = self.parent, self.children, self.ends
            for extra in more:                      # each choice on the edge gets a node of its own
                j = len(parent)
                parent.append((i, step))
                children.append([])
                ends.append(False)
                children[i].append(j)
                i, step = j, extra
            j = self.index[key] = len(parent)
            parent.append((i, step))
            children.append([])
            ends.append(False)
            stack.append((j, child))
        self.children[i].append(j)


def decided(st: State, q: Undecided, answer: object) -> State:
    """A copy of `st` whose abstract deal answers `q` with `answer`."""
    child = st.fork()
    cast(AbstractDeal, child.facts).decide(q.fact, answer)
    child._legal = None
    return child


def run(walk: Walker, root: State, visits: int, first_trick: bool) -> bool:
    """Walk the graph from `root` (node 0), visiting at most `visits` states (hands ended
    included; the count goes on from `walk.out.states`); with `first_trick`, no further than
    the end of the first trick once no contest is open. Whether it stopped at `visits`."""
    out = walk.out
    stack: list[tuple[int, State]] = [(0, root)]
    while stack:
        if out.states > visits:
            return True
        i, st = stack.pop()
        out.states += 1
        if st.hand_over:
            continue
        if first_trick and st.trick_no > 0 and st.pending is None and st.count is None \
                and all(c.status != ACTIVE for c in st.contests):
            continue
        seat = st.current_player()
        try:
            legal = st.legal_actions()
        except Undecided as q:                  # the cards decide what this seat may do
            out.choices += 1
            for answer in q.choices:
                child = decided(st, q, answer)
                walk.link(i, child, ("fact", (q.fact, answer)), stack, (), False)
            continue
        if seat is None or not legal:
            walk.dead_end(i, st, seat)
            continue
        walk.check_answers(i, st, legal)
        for action in walk.choices(st, legal):
            for child, steps in step(walk, i, st, seat, action):
                walk.link(i, child, steps[0], stack, steps[1:])
    return False


def step(walk: Walker, i: int, st: State, seat: int, action: str) -> list[tuple[State, list[Step]]]:
    """The states `action` leads from node `i`'s state `st` to, one for each answer to the
    questions it asks of the cards, with the choices that lead there and the action last."""
    last = f"{seat} {action}"
    out: list[tuple[State, list[Step]]] = []
    # each try is one copy of `st`, with the answers chosen so far decided on it
    todo: list[tuple[list[tuple[Fact, object]], list[Step]]] = [([], [])]
    while todo:
        decisions, chosen = todo.pop()
        child = st.fork()
        if decisions:                   # answers only added: the legal actions stay as listed
            facts = cast(AbstractDeal, child.facts)
            for fact, answer in decisions:
                facts.decide(fact, answer)
        try:
            child.apply(action)
        except Undecided as q:
            walk.out.choices += 1
            for answer in q.choices:
                todo.append(([*decisions, (q.fact, answer)], [*chosen, ("fact", (q.fact, answer))]))
            continue
        except IllegalAction as err:
            walk.refused(i, st, [*chosen, ("act", last)], err)
            continue
        except (TrucoError, ArithmeticError, LookupError, TypeError, ValueError) as err:   # explore.FORMULA_FAILURES
            walk.crashed(i, st, [*chosen, ("act", last)], err)
            continue
        steps: list[Step] = [*chosen, ("act", last)]
        walk.out.transitions += 1
        if child.score != st.score and _lowered(child.score, st.score):
            walk.lowered(i, st, child, steps)
        pending = st.pending
        if (action == "accept" or action == "decline") and pending is not None and pending.contest is not None:
            walk.resolves(i, st, child, action, steps)
        out.append((child, steps))
    return out


def _lowered(after: list[int], before: list[int]) -> bool:
    """Whether some team's score went down."""
    for a, b in zip(after, before, strict=False):
        if a < b:
            return True
    return False


def _nothing(st: State) -> object:
    """The fields that enter a key as they are, when there are none."""
    return ()


def _pending(p: Pending | None) -> object:
    return None if p is None else (p.call, p.caller, p.answerer, p.answer_team, p.contest, p.step)


def _count(st: State) -> object:
    """The count as the future reads it: a best value by its place among the abstract deal's."""
    c = st.count
    if c is None:
        return None
    best = c.best_value
    facts = st.facts
    if isinstance(facts, AbstractDeal) and best >= 0:
        best = facts.rank(st.game.contests[c.contest].value, best)
    return (c.contest, tuple(c.order), c.index, c.best_seat, best)


class StateKey:
    """The key of a state: the contests' and the score's part (worked out by the caller's `part`,
    remembered by what it is worked out from), the other kept fields, and the count. `part` is
    passed with each state, not kept: `explore.Keys` keeps this, and a reference back would be
    a cycle the walk leaves for the collector.

    A million states' keys hold a few thousand distinct values of their parts, so each part is
    kept once (`shared`) and every key holds that one: the largest bundled walk (1,050,549
    states) takes 1.1 GB instead of 3.2."""

    atoms: Callable[[State], object]
    frozen: list[str]
    calls: bool
    cap: int
    called: bool
    accepted: bool
    freeze: Callable[[object], object]
    memo: dict[object, tuple[object, object, object]]
    shared: dict[object, object]

    def __init__(self, fields: Sequence[str], atoms: Sequence[str], cap: int | None,
                 freeze: Callable[[object], object]) -> None:
        """`fields`: those the key keeps but the contests, the score and the count; `atoms`:
        those of them that hold a number, a flag, a text or None and enter as they are, read by
        one `attrgetter`; those neither named (`NAMED`, `CALLS`) nor atoms are frozen whole
        by `freeze`. `cap`: the number of calls made past which all read alike."""
        missing = set(NAMED) - set(fields)
        if missing:
            raise ValueError(f"the key leaves out {', '.join(sorted(missing))}, which `rest` reads")
        kept = [name for name in fields if name in atoms and name not in CALLS]
        self.atoms = attrgetter(*kept) if kept else _nothing
        self.frozen = [name for name in fields if name not in kept and name not in NAMED and name not in CALLS]
        self.calls = "calls_made" in fields
        self.cap = -1 if cap is None else cap
        self.called = "called" in fields
        self.accepted = "accepted" in fields
        self.freeze = freeze
        self.memo = {}
        self.shared = {}

    def rest(self, st: State) -> tuple[object, ...]:
        """The kept fields but the contests, the score and the count: numbers, flags, texts and
        None as they are, lists as tuples, sets sorted, an abstract deal by its key, the rest
        frozen; a field the key leaves out is None."""
        facts = st.facts
        return (self.atoms(st),
                None if facts is None else cast(AbstractDeal, facts).key(),
                tuple([tuple(h) for h in st.hands]),
                _pending(st.pending),
                _pending(st.suspended),
                tuple([(f, tuple(seats)) for f, seats in st.plan]),
                tuple(st.played),
                tuple(st.results),
                tuple(st.seats),
                tuple(st.special),
                tuple(st.trick),
                (st.calls_made if self.cap < 0 else min(st.calls_made, self.cap)) if self.calls else None,
                tuple(sorted(st.called)) if self.called else None,
                tuple(sorted(st.accepted)) if self.accepted else None,
                tuple([self.freeze(getattr(st, name)) for name in self.frozen]))

    def __call__(self, st: State, part: Callable[[State], Part], forget: bool = True) -> object:
        """The key of `st`; with `forget`, its abstract deal first drops the answers the engine
        will not ask again (not after a choice just made: that would undo it)."""
        facts = st.facts
        if forget and isinstance(facts, AbstractDeal):
            facts.forget(st)
        rest = self.rest(st)
        c = st.count
        # what the contests' and the score's part read, but a count's progress (which a
        # counted chain's payoff does not read: `explore._pays_alike`)
        base = (rest, st.calls_made, tuple(st.score), None if c is None else (c.contest, tuple(c.order)),
                tuple([(x.status, tuple(x.chain), tuple(x.declared)) for x in st.contests]))
        known = self.memo.get(base)
        if known is None:                   # kept from now on: its parts as kept already
            share = self.shared.setdefault
            kept = (share(rest, rest), base[1], share(base[2], base[2]), base[3], share(base[4], base[4]))
            made = part(st)
            known = self.memo[kept] = (made[0], made[1], kept[0])
        return (known[0], known[1], known[2], _count(st))
