"""The records a match keeps besides its plain fields: an action, a call waiting for an answer,
a contest's chain, an announcement round, a scripted deal. Plain data, so copies and JSON stay
simple."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple


class Action(NamedTuple):
    """An action as the engine takes it: ("play", card), ("call", name), ("accept", None)...
    A class of its own rather than a bare tuple type, which a compiled engine would unpack into
    its parts and build again at every use: the rules' actions are made once and looked up as
    they are."""

    verb: str
    arg: Any


IDLE, ACTIVE, CLOSED = 0, 1, 2

# The actions without an argument, made once: play lists and looks up these very tuples (and
# the rules' own for cards and calls), so that a lookup finds its key at once.
ACCEPT = Action("accept", None)
DECLINE = Action("decline", None)
FOLD = Action("fold", None)
ANNOUNCE = Action("announce", None)
GOOD = Action("good", None)
PLAIN = {act[0]: act for act in (ACCEPT, DECLINE, FOLD, ANNOUNCE, GOOD)}


class Deal(NamedTuple):
    """A scripted deal: one hand per seat (seat 0 first) and the turned card, as card ids.
    A named tuple, so that it pickles as it is from a compiled engine (a process of the
    checker sends its findings' deals back) and serves as a key."""

    hands: tuple[tuple[str, ...], ...]
    turned: str | None = None


# The records declare their fields as dataclasses do (fields(), ==, repr) but write their
# __init__ out: a dataclass's generated __init__ runs interpreted even in a compiled engine, and
# these are made at every call, deal and payoff.

@dataclass(init=False, slots=True)
class Pending:
    """A call waiting for an answer."""

    call: str
    caller: int
    answerer: int
    answer_team: int
    contest: int | None      # index of the contest, None for a stake call
    step: int                # 1-based stake step for stake calls, 0 for a contest call

    def __init__(self, call: str, caller: int, answerer: int, answer_team: int, contest: int | None,
                 step: int = 0) -> None:
        self.call = call
        self.caller = caller
        self.answerer = answerer
        self.answer_team = answer_team
        self.contest = contest
        self.step = step


@dataclass(init=False, slots=True)
class ContestState:
    status: int
    chain: list[tuple[str, int]]     # (call, seat)
    declared: list[int]

    def __init__(self, status: int = IDLE, chain: list[tuple[str, int]] | None = None,
                 declared: list[int] | None = None) -> None:
        self.status = status
        self.chain = [] if chain is None else chain
        self.declared = [] if declared is None else declared


@dataclass(init=False, slots=True)
class Count:
    """An accepted contest's announcement round, in seat order from the mano."""

    contest: int
    order: list[int]
    index: int
    best_seat: int | None            # the seat that wins so far (None: nobody yet, or a tie to nobody)
    best_value: int
    announced: list[tuple[int, int | None]]   # (seat, value or None=good)

    def __init__(self, contest: int, order: list[int], index: int = 0, best_seat: int | None = None,
                 best_value: int = -1, announced: list[tuple[int, int | None]] | None = None) -> None:
        self.contest = contest
        self.order = order
        self.index = index
        self.best_seat = best_seat
        self.best_value = best_value
        self.announced = [] if announced is None else announced

    @property
    def seat(self) -> int:
        return self.order[self.index]

    @property
    def opened(self) -> bool:
        """Whether a value has been announced (the first to speak must announce). A loop over
        the few announcements, which costs less than a generator over them."""
        for _, v in self.announced:
            if v is not None:
                return True
        return False
