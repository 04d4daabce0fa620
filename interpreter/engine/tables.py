"""Precomputed tables: card codes, card strength under every turned card, hand values,
and the trick-outcome table. Built once per compiled game so play never walks the spec.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any, Final

from rulespec.errors import Diagnostic, SpecError
from rulespec.formula import Env, FunctionSpec, compile_expr, option_constants
from rulespec.ir import Deck, Formula, Ranking, Spec, Trumps

TIE = 2          # a trick result: 0 and 1 are the teams
NOBODY = -1      # a hand outcome: nobody scores
MANO = -2        # a hand outcome: the mano's team


class Cards:
    """Card ids as small integers, with their rank, suit and point value."""

    def __init__(self, deck: Deck) -> None:
        self.ids: tuple[str, ...] = deck.cards
        self.index: dict[str, int] = {c: i for i, c in enumerate(self.ids)}
        self.rank: tuple[str, ...] = tuple(r for r in deck.ranks for _ in deck.suits)
        self.suit: tuple[str, ...] = tuple(s for _ in deck.ranks for s in deck.suits)
        points = dict(deck.points)
        self.points: tuple[int, ...] = tuple(points[r] for r in self.rank)
        self.figure: tuple[bool, ...] = tuple(r in deck.figures for r in self.rank)

    def __len__(self) -> int:
        return len(self.ids)


class Turned:
    """What one turned card (or none) makes of the deck: strengths, point values, trumps."""

    def __init__(self, strength: tuple[int, ...], points: tuple[int, ...], trump: tuple[bool, ...]) -> None:
        self.strength = strength
        self.points = points
        self.trump = trump


def turned_tables(cards: Cards, ranking: Ranking, trumps: Trumps | None) -> dict[int | None, Turned]:
    """Every card's strength (higher wins), points and trump flag, keyed by the turned card."""
    base = [0] * len(cards)
    top = len(ranking.tiers)
    for tier_index, tier in enumerate(ranking.tiers):
        for card in tier:
            base[cards.index[card]] = top - tier_index
    plain = (False,) * len(cards)
    if trumps is None:
        return {None: Turned(tuple(base), cards.points, plain)}
    return {turned: _with_trumps(cards, trumps, turned, base, top) for turned in range(len(cards))}


def places(strength: Sequence[int]) -> list[int]:
    """Each card's place in the trick order, 1 the highest, cards of equal strength sharing one:
    the number seed 004's board prints under the cards in hand."""
    levels = sorted(set(strength), reverse=True)
    place = {level: k + 1 for k, level in enumerate(levels)}
    return [place[s] for s in strength]


def _with_trumps(cards: Cards, trumps: Trumps, turned: int, base: list[int], top: int) -> Turned:
    strength, points, trump = list(base), list(cards.points), [False] * len(cards)
    trump_points = dict(trumps.points)
    for c, slot, power in _trump_slots(cards, trumps, turned):
        strength[c] = top + 1 + power
        trump[c] = True
        if slot in trump_points:
            points[c] = trump_points[slot]
    return Turned(tuple(strength), tuple(points), tuple(trump))


def _trump_slots(cards: Cards, trumps: Trumps, turned: int) -> list[tuple[int, str, int]]:
    """(card, the trump rank it stands as, its power among trumps: higher is stronger)."""
    rank, suit = cards.rank[turned], cards.suit[turned]
    if trumps.kind == "next_rank":
        trump_rank = trumps.cycle[(trumps.cycle.index(rank) + 1) % len(trumps.cycle)]
        return [(c, trump_rank, trumps.suit_order.index(cards.suit[c]))
                for c in range(len(cards)) if cards.rank[c] == trump_rank]
    out = []                                   # same_suit: ranks of the turned suit, strongest first
    for power, trump_rank in enumerate(reversed(trumps.ranks)):
        stands_in = trumps.substitute if trump_rank == rank and trumps.substitute else trump_rank
        out.append((cards.index[stands_in + suit], trump_rank, power))
    return out


class HandCtx:
    """A hand-value formula's context: the hand's cards under one turned card."""

    __slots__ = ("hand", "view")

    def __init__(self, hand: Sequence[int], view: Turned) -> None:
        self.hand = hand
        self.view = view


def _hand_env(cards: Cards, options: dict[str, Any]) -> Env:
    """Names a hand-value formula may use: points, suits and trumps of the hand."""

    def by_suit(h: HandCtx, plain: bool) -> list[list[int]]:
        groups: dict[str, list[int]] = {}
        for c in h.hand:
            if not (plain and h.view.trump[c]):
                groups.setdefault(cards.suit[c], []).append(h.view.points[c])
        return list(groups.values())

    def suited(n: int, plain: bool = False) -> Callable[[HandCtx], bool]:
        return lambda h: any(len(g) >= n for g in by_suit(h, plain))

    def best_suited(n: int, plain: bool = False) -> Callable[[HandCtx], int]:
        def best(h: HandCtx) -> int:
            sums = [sum(sorted(g, reverse=True)[:n]) for g in by_suit(h, plain) if len(g) >= n]
            return max(sums) if sums else 0
        return best

    def top(n: int) -> Callable[[HandCtx], int]:
        return lambda h: sum(sorted((h.view.points[c] for c in h.hand), reverse=True)[:n])

    def rest_mod(n: int) -> Callable[[HandCtx], int]:
        def rest(h: HandCtx) -> int:
            pts = sorted((h.view.points[c] for c in h.hand), reverse=True)
            return sum(p % n for p in pts[1:])
        return rest

    def rank_count(rank: object) -> Callable[[HandCtx], int]:
        wanted = str(rank)
        if wanted not in cards.rank:
            raise ValueError(f"{wanted!r} is not a rank of the deck")
        return lambda h: sum(1 for c in h.hand if cards.rank[c] == wanted)

    names: dict[str, Callable[[Any], Any]] = {
        "best_single": lambda h: max(h.view.points[c] for c in h.hand),
        "sum_points": lambda h: sum(h.view.points[c] for c in h.hand),
        "figures": lambda h: sum(1 for c in h.hand if cards.figure[c]),
        "trumps": lambda h: sum(1 for c in h.hand if h.view.trump[c]),
    }
    constants = option_constants(options)
    return Env(names=names, constants=constants, functions={
        "suited": FunctionSpec(1, suited, True),
        "best_suited": FunctionSpec(1, best_suited, True),
        "suited_plain": FunctionSpec(1, lambda n: suited(n, plain=True), True),
        "best_suited_plain": FunctionSpec(1, lambda n: best_suited(n, plain=True), True),
        "top": FunctionSpec(1, top, True),
        "rest_mod": FunctionSpec(1, rest_mod, True),
        "rank_count": FunctionSpec(1, rank_count, True),
    })


_ABSENT: Final = -(2 ** 60)
"""What `HandValues` finds for a hand not in its table yet: no hand is worth it."""
SHORT_HAND: Final = 3
"""Hands of at most so many cards also keep their value in a byte per hand as dealt (`HandValues`)."""
_UNSEEN: Final = 255
_NO_VALUE: Final = 254
"""The bytes of a hand whose value is not known yet, and of a hand that does not hold it; a
value that fits neither below them is looked up in the table every time."""


class HandValues:
    """A hand value (envido, flor) for every hand under every turned card, kept once computed.

    Kept under the sorted hand; a short hand as dealt also finds it in a byte of one row per
    turned card. With a turned card, a game has hundreds of thousands of hands, and play looks
    each one up at random: in a dict of tuples a lookup misses the processor's cache several
    times, in a row of bytes (64 KiB for a 40-card deck) once at most."""

    def __init__(self, formula: Callable[[Any], int], holds: Callable[[Any], bool] | None,
                 views: dict[int | None, Turned], deck: int) -> None:
        self._formula = formula
        self._holds = holds
        self._views = views
        self._table: dict[tuple[int | None, tuple[int, ...]], int | None] = {}
        self._makers: dict[tuple[int | None, tuple[int, ...]], tuple[int, ...]] = {}
        self._base = deck + 1                   # a card is a digit 1..deck of the hand's number
        self._width = self._base ** SHORT_HAND
        self._rows: list[bytearray | None] = [None] * (deck + 1)   # no turned card, then each card

    @property
    def partial(self) -> bool:
        """Whether some hands do not hold the value (a flor), rather than every hand (an envido)."""
        return self._holds is not None

    def __call__(self, hand: Sequence[int], turned: int | None = None) -> int | None:
        """The hand's value, or None when the hand does not hold it (no flor)."""
        if len(hand) > SHORT_HAND:
            return self._value(tuple(sorted(hand)), turned)
        row = self._rows[0 if turned is None else turned + 1]
        if row is None:
            row = self._row(turned)
        code = 0                                # self._code(hand), written out: play's hottest lookup
        base = self._base
        for card in hand:
            code = code * base + card + 1
        byte = row[code]
        if byte < _NO_VALUE:
            return byte
        if byte == _NO_VALUE:
            return None
        value = self._value(tuple(sorted(hand)), turned)
        if value is None:
            row[code] = _NO_VALUE
        elif 0 <= value < _NO_VALUE:
            row[code] = value
        return value

    def _row(self, turned: int | None) -> bytearray:
        t = 0 if turned is None else turned + 1
        row = self._rows[t]
        if row is None:
            row = self._rows[t] = bytearray(b"\xff" * self._width)
        return row

    def _code(self, hand: Sequence[int]) -> int:
        """The hand's number, its cards in the order given as digits: its byte in a row."""
        code = 0
        base = self._base
        for card in hand:
            code = code * base + card + 1
        return code

    def _value(self, key: tuple[int, ...], turned: int | None) -> int | None:
        """The value of the sorted hand `key`, computed the first time."""
        found = self._table.get((turned, key), _ABSENT)    # a miss raising KeyError cost more than the rest
        if found is None or found != _ABSENT:
            return found
        ctx = HandCtx(key, self._views[turned])
        value = None if self._holds is not None and not self._holds(ctx) else int(self._formula(ctx))
        self._table[(turned, key)] = value
        return value

    def makers(self, hand: Sequence[int], turned: int | None = None) -> tuple[int, ...]:
        """The cards that make the hand's value: the first smallest part of the hand (in the
        order given) that is worth the same on its own, such as the two cards of one suit of
        an envido. The whole hand when no smaller part is, as for a flor. Kept apart from the
        values, under the hand in the order given (the order decides which part comes first)."""
        key = (turned, tuple(hand))
        known = self._makers.get(key)
        if known is not None:
            return known
        found = self._makers[key] = self._find_makers(hand, turned)
        return found

    def _find_makers(self, hand: Sequence[int], turned: int | None) -> tuple[int, ...]:
        whole = self(hand, turned)
        view = self._views[turned]
        for size in range(1, len(hand)):
            for part in itertools.combinations(hand, size):
                ctx = HandCtx(tuple(sorted(part)), view)
                if (self._holds is None or self._holds(ctx)) and int(self._formula(ctx)) == whole:
                    return part
        return tuple(hand)

    def fill(self, n_cards: int, size: int) -> None:
        """Compute every hand under every turned card, a short hand in every order it may be
        dealt in (analysis and the bench want it all)."""
        for turned in self._views:
            row = self._row(turned) if size <= SHORT_HAND else None
            for hand in itertools.combinations(range(n_cards), size):
                if turned in hand:
                    continue
                self(hand, turned)
                if row is None:
                    continue
                byte = row[self._code(hand)]
                if byte != _UNSEEN:                 # a value a byte holds: every order finds it
                    for dealt in itertools.permutations(hand):
                        row[self._code(dealt)] = byte


def hand_formula(spec: Spec, cards: Cards, views: dict[int | None, Turned],
                 f: Formula) -> Callable[[Sequence[int], int | None], Any]:
    """A formula over a hand under a turned card, such as an annulment's condition."""
    fn = _compile(f, _hand_env(cards, dict(spec.chosen)))
    return lambda hand, turned: fn(HandCtx(hand, views[turned]))


def hand_values(spec: Spec, cards: Cards, views: dict[int | None, Turned]) -> dict[str, HandValues]:
    env = _hand_env(cards, dict(spec.chosen))
    out = {}
    for v in spec.values:
        f = _compile(v.formula, env)
        h = _compile(v.holds, env) if v.holds is not None else None
        out[v.name] = HandValues(f, h, views, len(cards.ids))
    return out


def _compile(f: Formula, env: Env) -> Callable[[Any], Any]:
    return compile_expr(f.expr, env, f.locate, f.span.path).fn


def outcome_table(spec: Spec) -> dict[tuple[int, ...], int | None]:
    """Every sequence of trick results → the hand's outcome (None: play on).

    A full-length sequence that no pattern decides is a spec error, found at compile time.
    """
    tricks = spec.tricks
    table: dict[tuple[int, ...], int | None] = {}
    undecided = []
    for length in range(1, tricks.count + 1):
        for seq in itertools.product((0, 1, TIE), repeat=length):
            if any(table.get(seq[:k]) is not None for k in range(1, length)):
                continue
            table[seq] = _decide(seq, tricks.outcomes)
            if table[seq] is None and length == tricks.count:
                undecided.append(seq)
    if undecided:
        shown = ", ".join(" ".join("T" if r == TIE else f"team{r}" for r in s) for s in undecided)
        raise SpecError([Diagnostic("error", tricks.span.loc, tricks.span.path + ".outcome",
                                    f"no outcome decides the trick results: {shown}")])
    return table


def _decide(seq: tuple[int, ...], outcomes: Sequence[Any]) -> int | None:
    for o in outcomes:
        if len(o.pattern) != len(seq):
            continue
        binding: dict[str, int] = {}
        if all(_bind(p, r, binding) for p, r in zip(o.pattern, seq, strict=False)):
            if o.result in ("A", "B"):       # the builder saw to it that the pattern binds A
                return binding[o.result] if o.result in binding else 1 - binding["A"]
            return MANO if o.result == "mano" else NOBODY
    return None


def _bind(letter: str, result: int, binding: dict[str, int]) -> bool:
    if letter == "T":
        return result == TIE
    if result == TIE:
        return False
    other = "B" if letter == "A" else "A"
    if letter in binding:
        return binding[letter] == result
    if binding.get(other) == result:
        return False
    binding[letter] = result
    return True
