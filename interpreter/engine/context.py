"""What a DSL formula may ask about a match in progress, as getters on a small context.

Conditions (windows, when to fold, special hands) and payoffs (what a declined chain pays)
are compiled once into closures over `Ctx`; the names below are the whole vocabulary the
spec language offers them. Nothing here knows a variant.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from rulespec.formula import Env, FunctionSpec, option_constants
from rulespec.ir import OptionValue

from interpreter.engine.match import Match


class Asked(Protocol):
    """What a formula asks of the compiled rules (`rules.Rules` answers)."""

    @property
    def target(self) -> int: ...

    def is_pie(self, mano: int, seat: int, seats: list[int]) -> bool: ...

    def may_answer(self, m: Match, seat: int) -> bool: ...

    def count_would_win(self, m: Match, seat: int) -> bool: ...


@dataclass
class Pay:
    """The facts a payoff formula sees about the chain being settled."""

    total: int = 0
    total_but_last: int = 0
    calls: int = 0
    last: int = 0
    declared: int = 0
    declared_by_winner: int = 0
    declared_by_caller: int = 0


class Ctx:
    """One evaluation: a match, its rules, the seat it is about, and (for payoffs) the chain facts.

    `team` is the team the formula speaks for: the seat's team for conditions, the team
    receiving the points for payoffs.
    """

    __slots__ = ("st", "r", "seat", "team", "pay")

    def __init__(self, st: Match, r: Asked, seat: int | None, team: int | None = None,
                 pay: Pay | None = None) -> None:
        self.st = st
        self.r = r
        self.seat = seat
        self.team = team
        self.pay = pay


def _seat(c: Ctx) -> int:
    """The seat a condition is about; rulespec's scope check keeps seat names out of formulas
    evaluated for no seat."""
    assert c.seat is not None
    return c.seat


def _team(c: Ctx) -> int:
    assert c.team is not None
    return c.team


def _pay(c: Ctx) -> Pay:
    """The chain facts; only payoff formulas, which always get them, may name them."""
    assert c.pay is not None
    return c.pay


def _score_us(c: Ctx) -> int:
    return c.st.score[_team(c)]


def _score_them(c: Ctx) -> int:
    return max(s for t, s in enumerate(c.st.score) if t != c.team)


def _target(c: Ctx) -> int:
    return c.r.target


PLAY_NAMES: dict[str, Callable[[Ctx], Any]] = {
    "trick": lambda c: c.st.trick_no + 1,
    "played": lambda c: c.st.played[_seat(c)] > 0,
    "played_this_trick": lambda c: any(p[0] == c.seat for p in c.st.trick),
    "my_turn": lambda c: c.st.pending is None and c.st.count is None and c.st.turn == c.seat,
    "answering": lambda c: c.st.pending is not None and c.r.may_answer(c.st, _seat(c)),
    "counting": lambda c: c.st.count is not None,
    "pending_step": lambda c: c.st.pending.step if c.st.pending is not None and c.st.pending.contest is None else 0,
    "stake_level": lambda c: c.st.stake_level,
    "stake_calls": lambda c: c.st.stake_calls,
    "calls_made": lambda c: c.st.calls_made,
    "stake": lambda c: c.st.worth,
    "is_mano": lambda c: c.seat == c.st.mano,
    "is_pie": lambda c: c.r.is_pie(c.st.mano, _seat(c), c.st.seats),
    "opponent_announced": lambda c: c.st.count is not None and c.st.count.best_seat is not None,
    "can_beat": lambda c: c.st.count is not None and c.r.count_would_win(c.st, _seat(c)),
    "score_us": _score_us,
    "score_them": _score_them,
    "max_score": lambda c: max(c.st.score),
    "min_score": lambda c: min(c.st.score),
    "target": _target,
    "half": lambda c: c.r.target // 2,
    "seats_in_hand": lambda c: len(c.st.seats),
    "leader": lambda c: max(c.st.score),
    "trailer": lambda c: min(c.st.score),
    "winner_score": _score_us,
    "loser_score": _score_them,
    "total": lambda c: _pay(c).total,
    "total_but_last": lambda c: _pay(c).total_but_last,
    "calls": lambda c: _pay(c).calls,
    "last": lambda c: _pay(c).last,
    "declared": lambda c: _pay(c).declared,
    "declared_by_winner": lambda c: _pay(c).declared_by_winner,
    "declared_by_caller": lambda c: _pay(c).declared_by_caller,
}


def play_env(options: dict[str, OptionValue], call_names: set[str], contests: dict[str, int]) -> Env:
    """The environment for conditions and payoffs; option values fold to constants."""
    constants = option_constants(options)

    def known(name: str) -> str:
        if name not in call_names:
            raise KeyError(f"no call named {name!r}; calls: {', '.join(sorted(call_names))}")
        return name

    def called(name: str) -> Callable[[Ctx], bool]:
        name = known(name)
        return lambda c: name in c.st.called

    def accepted(name: str) -> Callable[[Ctx], bool]:
        name = known(name)
        return lambda c: name in c.st.accepted

    def in_chain(name: str) -> Callable[[Ctx], int]:
        name = known(name)
        return lambda c: sum(1 for cs in c.st.contests for call, _ in cs.chain if call == name)

    def idle(name: str) -> Callable[[Ctx], bool]:
        if name not in contests:
            raise KeyError(f"no contest named {name!r}; contests: {', '.join(sorted(contests)) or 'none'}")
        index = contests[name]
        return lambda c: c.st.contests[index].status == 0

    functions = {
        "called": FunctionSpec(1, called, True),
        "accepted": FunctionSpec(1, accepted, True),
        "idle": FunctionSpec(1, idle, True),
        "in_chain": FunctionSpec(1, in_chain, True),
    }
    return Env(names=dict(PLAY_NAMES), functions=functions, constants=constants)
