"""The state key of the checker's walk (explore.py), the part of each transition outside the
engine: written under the engine's rules so that setup.py compiles it with mypyc, as a group
of its own (docs/performance.md, "The compiled engine"); it runs as this source elsewhere.

`explore.Keys` works out which fields a game's key keeps and how each is read; `StateKey` reads
them, and asks `Keys` for the contests' and the score's part only for a combination of what
that part reads it has not seen.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import cast

from interpreter.designer.abstract import AbstractDeal
from interpreter.engine.records import Pending
from interpreter.engine.state import State

ATOM = 0
"""A number, a flag, a text or None: as it is."""
CAPPED = 1
"""`calls_made`, counted up to the cap past which every number reads alike."""
FACTS = 2
"""The abstract deal (or None): its own key."""
HANDS = 3
"""Each seat's cards: a tuple of tuples."""
PENDING = 4
"""A waiting or suspended call (or None): what it is, not the record."""
FLAT = 5
"""A list of numbers, texts or tuples of them: a tuple of its items."""
PLAN = 6
"""The plan: each step with its seats as a tuple."""
SORTED = 7
"""A set of texts: sorted."""
FROZEN = 8
"""Anything else: frozen whole by `explore._freeze`."""

Part = tuple[object, object]
"""The contests' and the score's part of a key."""


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
    remembered by what it is worked out from), the other kept fields read each as its kind says,
    and the count. `part` is passed with each state, not kept: `explore.Keys` keeps this, and
    a reference back would be a cycle the walk leaves for the collector."""

    names: list[str]
    kinds: list[int]
    cap: int
    freeze: Callable[[object], object]
    memo: dict[object, Part]

    def __init__(self, names: Sequence[str], kinds: Sequence[int], cap: int | None,
                 freeze: Callable[[object], object]) -> None:
        self.names = list(names)
        self.kinds = list(kinds)
        self.cap = -1 if cap is None else cap
        self.freeze = freeze
        self.memo = {}

    def rest(self, st: State) -> tuple[object, ...]:
        """The kept fields but the contests, the score and the count, in the order of `names`."""
        out: list[object] = []
        for name, kind in zip(self.names, self.kinds):
            value: object = getattr(st, name)
            if kind == ATOM:
                out.append(value)
            elif kind == CAPPED:
                out.append(min(cast(int, value), self.cap))
            elif kind == FACTS:
                out.append(None if value is None else cast(AbstractDeal, value).key())
            elif kind == HANDS:
                out.append(tuple([tuple(h) for h in cast(list[list[int]], value)]))
            elif kind == PENDING:
                out.append(_pending(cast("Pending | None", value)))
            elif kind == FLAT:
                out.append(tuple(cast(Iterable[object], value)))
            elif kind == PLAN:
                out.append(tuple([(f, tuple(seats)) for f, seats in cast(list[tuple[object, list[int]]], value)]))
            elif kind == SORTED:
                out.append(tuple(sorted(cast(set[str], value))))
            else:
                out.append(self.freeze(value))
        return tuple(out)

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
        if known is None:
            known = self.memo[base] = part(st)
        return (known[0], known[1], rest, _count(st))
