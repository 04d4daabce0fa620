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

    def count_beats(self, m: Match, seat: int, opponents: bool) -> bool: ...


@dataclass(init=False, slots=True)
class Pay:
    """The facts a payoff formula sees about the chain being settled. Its __init__ is written out
    (as records.py says why: a compiled engine makes one at every payoff)."""

    total: int
    total_but_last: int
    calls: int
    last: int
    declared: int
    declared_by_winner: int
    declared_by_caller: int

    def __init__(self, total: int = 0, total_but_last: int = 0, calls: int = 0, last: int = 0, declared: int = 0,
                 declared_by_winner: int = 0, declared_by_caller: int = 0) -> None:
        self.total = total
        self.total_but_last = total_but_last
        self.calls = calls
        self.last = last
        self.declared = declared
        self.declared_by_winner = declared_by_winner
        self.declared_by_caller = declared_by_caller


class Ctx:
    """One evaluation: a match, its rules, the seat it is about, and (for payoffs) the chain facts.

    `team` is the team the formula speaks for: the seat's team for conditions, the team
    receiving the points for payoffs. Made by `context`.
    """

    __slots__ = ("st", "r", "seat", "team", "pay")
    st: Match
    r: Asked
    seat: int | None
    team: int | None
    pay: Pay | None


def context(st: Match, r: Asked, seat: int | None, team: int | None = None, pay: Pay | None = None) -> Ctx:
    """A context, its fields set one by one: a class without `__init__` is made in C, where a
    Python `__init__` (called from C) costs twice this function and its stores, and play makes
    several contexts a hand."""
    c = Ctx()
    c.st = st
    c.r = r
    c.seat = seat
    c.team = team
    c.pay = pay
    return c


PLAY_SOURCES: dict[str, str] = {
    "trick": "c.st.trick_no + 1",
    "played": "c.st.played[c.seat] > 0",
    "played_this_trick": "any(p[0] == c.seat for p in c.st.trick)",
    "my_turn": "c.st.pending is None and c.st.count is None and c.st.turn == c.seat",
    "answering": "c.st.pending is not None and c.r.may_answer(c.st, c.seat)",
    "counting": "c.st.count is not None",
    "pending_step": "c.st.pending.step if c.st.pending is not None and c.st.pending.contest is None else 0",
    "stake_level": "c.st.stake_level",
    "stake_calls": "c.st.stake_calls",
    "calls_made": "c.st.calls_made",
    "stake": "c.st.worth",
    "is_mano": "c.seat == c.st.mano",
    "is_pie": "c.r.is_pie(c.st.mano, c.seat, c.st.seats)",
    "opponent_announced": "c.st.count is not None and c.st.count.best_seat is not None",
    "can_beat": "c.st.count is not None and c.r.count_would_win(c.st, c.seat)",
    "beats_announced": "c.st.count is not None and c.r.count_beats(c.st, c.seat, False)",
    "beats_opponents": "c.st.count is not None and c.r.count_beats(c.st, c.seat, True)",
    "score_us": "c.st.score[c.team]",
    "score_them": "max(s for t, s in enumerate(c.st.score) if t != c.team)",
    "max_score": "max(c.st.score)",
    "min_score": "min(c.st.score)",
    "target": "c.r.target",
    "half": "c.r.target // 2",
    "seats_in_hand": "len(c.st.seats)",
    "leader": "max(c.st.score)",
    "trailer": "min(c.st.score)",
    "winner_score": "c.st.score[c.team]",
    "loser_score": "max(s for t, s in enumerate(c.st.score) if t != c.team)",
    **{name: f"c.pay.{name}" for name in ("total", "total_but_last", "calls", "last", "declared",
                                           "declared_by_winner", "declared_by_caller")},
}
"""Each name a formula may read, as Python over the context `c`: generated formulas inline it,
and its getter (below) is made from it, so the two never differ. The seat, team and chain facts
it reads are there: rulespec's scope check keeps seat names out of formulas evaluated for no
seat, and chain facts out of all but payoffs."""


NO_COUNT: dict[str, Any] = {"counting": False, "opponent_announced": False, "can_beat": False,
                           "beats_announced": False, "beats_opponents": False}
ON_TURN: dict[str, Any] = {**NO_COUNT, "my_turn": True, "answering": False, "pending_step": 0}
"""The names a formula reads that are known when a seat lists its actions on its own turn (no
call waits, no count): each a constant there, so that a condition such as `my_turn or answering`
folds at compile time instead of running at every listing (`legal._turn_acts`)."""
ANSWERING: dict[str, Any] = {**NO_COUNT, "my_turn": False, "answering": True}
"""Known when a seat may answer the call that waits (`legal._answer_acts`)."""
COUNTING: dict[str, Any] = {"counting": True, "my_turn": False}
"""Known when a seat speaks in a count (`legal._count_acts`)."""


def _getter(name: str, source: str) -> Callable[[Ctx], Any]:
    """A name's source as a function of the context."""
    fn: Callable[[Ctx], Any] = eval(compile(f"lambda c: {source}", f"<name {name}>", "eval"), {})  # noqa: S307
    return fn


PLAY_NAMES: dict[str, Callable[[Ctx], Any]] = {name: _getter(name, source) for name, source in PLAY_SOURCES.items()}


def hand_worth(c: Ctx) -> int:
    """`stake` alone (`fold.pays: stake`): where a formula is this one, play reads the match's
    worth itself, without a context."""
    return c.st.worth


def _total(c: Ctx) -> int:
    assert c.pay is not None
    return c.pay.total


def _last(c: Ctx) -> int:
    assert c.pay is not None
    return c.pay.last


NATIVE_NAMES: dict[str, Callable[[Ctx], Any]] = {"stake": hand_worth, "total": _total, "last": _last}
"""The names formulas most often are alone (`fold.pays: stake`, `accept: total`) as functions of
the engine's own, which a compiled engine runs without the interpreter; a test holds each to
its source above."""
NATIVE: dict[str, Callable[[Ctx], Any]] = {f"({PLAY_SOURCES[name]})": fn for name, fn in NATIVE_NAMES.items()}
"""The same by the source a formula of that name alone generates (`rulespec.formula`)."""


def play_env(options: dict[str, OptionValue], call_names: set[str], contests: dict[str, int]) -> Env:
    """The environment for conditions and payoffs; option values fold to constants."""
    constants = option_constants(options)

    def known(name: str) -> str:
        if name not in call_names:
            raise KeyError(f"no call named {name!r}; calls: {', '.join(sorted(call_names))}")
        return name

    def idle_source(name: str) -> str:
        if name not in contests:
            raise KeyError(f"no contest named {name!r}; contests: {', '.join(sorted(contests)) or 'none'}")
        return f"c.st.contests[{contests[name]}].status == 0"

    sources: dict[str, Callable[[str], str]] = {
        "called": lambda name: f"{known(name)!r} in c.st.called",
        "accepted": lambda name: f"{known(name)!r} in c.st.accepted",
        "idle": idle_source,
        "in_chain": lambda name: f"sum(1 for cs in c.st.contests for call, _ in cs.chain if call == {known(name)!r})",
    }

    def function(source: Callable[[str], str]) -> FunctionSpec:
        """A function of one constant name, its getter made from its source."""
        return FunctionSpec(1, lambda name: _getter(name, source(name)), True, source)

    functions = {name: function(source) for name, source in sources.items()}
    return Env(names=dict(PLAY_NAMES), functions=functions, constants=constants, sources=dict(PLAY_SOURCES))
