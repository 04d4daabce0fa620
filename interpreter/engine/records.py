"""The mutable records a match keeps besides its plain fields: a call waiting for an answer,
a contest's chain, an announcement round, a scripted deal. Plain dataclasses, so copies and JSON
stay simple."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

Action = tuple[str, Any]   # (verb, argument): ("play", card), ("call", name), ("accept", None)...

IDLE, ACTIVE, CLOSED = 0, 1, 2


class Deal(NamedTuple):
    """A scripted deal: one hand per seat (seat 0 first) and the turned card, as card ids.
    A named tuple, so that it pickles as it is from a compiled engine (a process of the
    checker sends its findings' deals back) and serves as a key."""

    hands: tuple[tuple[str, ...], ...]
    turned: str | None = None


@dataclass
class Pending:
    """A call waiting for an answer."""

    call: str
    caller: int
    answerer: int
    answer_team: int
    contest: int | None      # index of the contest, None for a stake call
    step: int = 0            # 1-based stake step for stake calls


@dataclass
class ContestState:
    status: int = IDLE
    chain: list[tuple[str, int]] = field(default_factory=list)   # (call, seat)
    declared: list[int] = field(default_factory=list)


@dataclass
class Count:
    """An accepted contest's announcement round, in seat order from the mano."""

    contest: int
    order: list[int]
    index: int = 0
    best_seat: int | None = None         # the seat that wins so far (None: nobody yet, or a tie to nobody)
    best_value: int = -1
    announced: list[tuple[int, int | None]] = field(default_factory=list)   # (seat, value or None=good)

    @property
    def seat(self) -> int:
        return self.order[self.index]

    @property
    def opened(self) -> bool:
        """Whether a value has been announced (the first to speak must announce)."""
        return any(v is not None for _, v in self.announced)
