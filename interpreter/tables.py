"""Precomputed tables: card codes, card strength under every turned card, hand values,
and the trick-outcome table. Built once per compiled game so play never walks the spec.
"""
from __future__ import annotations

import itertools
from typing import Any, Callable, Sequence

from rulespec.errors import Diagnostic, SpecError
from rulespec.formula import Env, FunctionSpec, compile_expr
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


def strengths(cards: Cards, ranking: Ranking, trumps: Trumps | None) -> dict[int | None, tuple[int, ...]]:
    """Strength of every card, higher wins; keyed by the turned card (None: no turned card)."""
    base = [0] * len(cards)
    top = len(ranking.tiers)
    for tier_index, tier in enumerate(ranking.tiers):
        for card in tier:
            base[cards.index[card]] = top - tier_index
    if trumps is None:
        return {None: tuple(base)}
    out: dict[int | None, tuple[int, ...]] = {}
    for turned in range(len(cards)):
        cycle = trumps.cycle
        trump_rank = cycle[(cycle.index(cards.rank[turned]) + 1) % len(cycle)]
        row = list(base)
        for c in range(len(cards)):
            if cards.rank[c] == trump_rank:
                row[c] = top + 1 + trumps.suit_order.index(cards.suit[c])
        out[turned] = tuple(row)
    return out


def _hand_env(cards: Cards, options: dict[str, Any]) -> Env:
    """Names a hand-value formula may use; the context is a tuple of card codes."""

    def by_suit(hand: Sequence[int]) -> dict[str, list[int]]:
        groups: dict[str, list[int]] = {}
        for c in hand:
            groups.setdefault(cards.suit[c], []).append(cards.points[c])
        return groups

    def suited(n: int) -> Callable[[Sequence[int]], bool]:
        return lambda hand: any(len(g) >= n for g in by_suit(hand).values())

    def rank_count(rank: object) -> Callable[[Sequence[int]], int]:
        wanted = str(rank)
        if wanted not in cards.rank:
            raise ValueError(f"{wanted!r} is not a rank of the deck")
        return lambda hand: sum(1 for c in hand if cards.rank[c] == wanted)

    def best_suited(n: int) -> Callable[[Sequence[int]], int]:
        def best(hand: Sequence[int]) -> int:
            sums = [sum(sorted(g, reverse=True)[:n]) for g in by_suit(hand).values() if len(g) >= n]
            return max(sums) if sums else 0
        return best

    names: dict[str, Callable[[Any], Any]] = {
        "best_single": lambda hand: max(cards.points[c] for c in hand),
        "sum_points": lambda hand: sum(cards.points[c] for c in hand),
        "figures": lambda hand: sum(1 for c in hand if cards.figure[c]),
    }
    constants = {f"options.{k}": v for k, v in options.items()}
    return Env(names=names, constants=constants, functions={
        "suited": FunctionSpec(1, suited, True),
        "best_suited": FunctionSpec(1, best_suited, True),
        "rank_count": FunctionSpec(1, rank_count, True),
    })


class HandValues:
    """A hand value (envido, flor) for every hand, computed on first sight and kept."""

    def __init__(self, formula: Callable[[Any], int], holds: Callable[[Any], bool] | None) -> None:
        self._formula = formula
        self._holds = holds
        self._table: dict[tuple[int, ...], int | None] = {}

    def __call__(self, hand: Sequence[int]) -> int | None:
        """The hand's value, or None when the hand does not hold it (no flor)."""
        key = tuple(sorted(hand))
        try:
            return self._table[key]
        except KeyError:
            value = None if self._holds is not None and not self._holds(key) else int(self._formula(key))
            self._table[key] = value
            return value

    def fill(self, n_cards: int, size: int) -> None:
        """Compute every hand at once (analysis and the bench want the full table)."""
        for hand in itertools.combinations(range(n_cards), size):
            self(hand)


def hand_formula(spec: Spec, cards: Cards, f: Formula) -> Callable[[Any], Any]:
    """A formula over a hand (a tuple of card codes), such as an annulment's condition."""
    return _compile(f, _hand_env(cards, dict(spec.chosen)))


def hand_values(spec: Spec, cards: Cards) -> dict[str, HandValues]:
    env = _hand_env(cards, dict(spec.chosen))
    out = {}
    for v in spec.values:
        f = _compile(v.formula, env)
        h = _compile(v.holds, env) if v.holds is not None else None
        out[v.name] = HandValues(f, h)
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
        if all(_bind(p, r, binding) for p, r in zip(o.pattern, seq)):
            if o.result in ("A", "B"):
                if o.result not in binding:
                    other = binding.get("A" if o.result == "B" else "B")
                    return None if other is None else 1 - other
                return binding[o.result]
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
