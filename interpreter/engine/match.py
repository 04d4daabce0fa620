"""Every field of a match in progress, declared once: the record the engine's rules read and change.

`Match` holds data only. The rules are functions of a `Match` and the compiled `Rules`
(`legal.py`, `contests.py`, `explain.py`, `views.py`); `State` subclasses `Match` to add the
game and the public methods. Each field says, in its metadata, whether it belongs to the hand
(`reset_hand` resets it to its default when a hand is dealt), how a copy treats it (`copy`) and
whether JSON stores it as it is (`plain`): `serial.py` reads its field lists from here.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Protocol

from interpreter.engine.records import Action, ContestState, Count, Deal, Pending

Event = dict[str, Any]
Played = tuple[int, int, bool]          # (seat, card, covered)

# How `clone` copies a field: shared as it is (never changed in place), one list or set level,
# a list of lists, a copied record, or by serial.py's own code.
SHARE, LIST, LISTS, SET, RECORD, OWN = "share", "list", "lists", "set", "record", "own"


class DealFacts(Protocol):
    """What the cards decide, answered without cards: the checker's abstract deal.

    In play `Match.facts` is None and the dealt cards answer (rules.py). The checker's
    exhaustive pass sets an object with these methods, which answers from choices and raises
    `Undecided` for a question not yet chosen, so that one walk covers every deal."""

    def trick_top(self, m: Match, shown: list[int]) -> list[int]:
        """The seats, of those that `shown` a card, whose cards tie for the best, in play order."""
        ...

    def holds(self, m: Match, value: str, seat: int) -> bool: ...

    def value(self, m: Match, value: str, seat: int) -> int | None: ...

    def value_top(self, m: Match, value: str, seats: list[int]) -> list[int]:
        """The seats, of `seats`, whose values tie for the best, in the order given: one
        question for a whole comparison, where asking each seat's value would branch on
        every ordering of them."""
        ...

    def annuls(self, m: Match, name: str, seat: int) -> bool: ...

    def copy(self) -> DealFacts: ...


def _meta(copy: str, hand: bool, plain: bool) -> dict[str, Any]:
    return {"copy": copy, "hand": hand, "plain": plain}


@dataclass(eq=False, repr=False)
class Match:
    """A match in progress, as data. Match fields first, then the fields of the current hand."""

    # -- the match --------------------------------------------------------------------
    seed: int | None = field(default=None, metadata=_meta(SHARE, False, True))          # the seed it started from
    rng: random.Random = field(default_factory=random.Random, metadata=_meta(OWN, False, False))  # shuffles the deals
    script: list[Deal] = field(default_factory=list, metadata=_meta(LIST, False, False))  # scripted deals still to come
    score: list[int] = field(default_factory=list, metadata=_meta(LIST, False, True))    # points of each team
    dealer: int = field(default=0, metadata=_meta(SHARE, False, True))                  # the seat dealing this hand
    hand_number: int = field(default=0, metadata=_meta(SHARE, False, True))             # 1 for the first hand dealt
    match_over: bool = field(default=False, metadata=_meta(SHARE, False, True))         # a team has won
    winner: int | None = field(default=None, metadata=_meta(SHARE, False, True))        # the team that won
    events: list[Event] = field(default_factory=list, metadata=_meta(LIST, False, False))  # the log, as seats see it
    plan: list[tuple[str, list[int]]] = field(default_factory=list, metadata=_meta(LIST, False, False))  # the
    # round's hands still to deal under a schedule: (format, seats that play it)

    # -- the hand (reset_hand) --------------------------------------------------------
    hand_over: bool = field(default=False, metadata=_meta(SHARE, True, True))           # decided, annulled or folded
    seats: list[int] = field(default_factory=list, metadata=_meta(LIST, True, True))    # the seats playing this hand
    hand_format: str = field(default="", metadata=_meta(SHARE, True, True))             # its schedule's format, if any
    mano: int = field(default=0, metadata=_meta(SHARE, True, True))                     # the seat after the dealer
    turn: int = field(default=0, metadata=_meta(SHARE, True, True))                     # the seat to play a card
    leader: int = field(default=0, metadata=_meta(SHARE, True, True))                   # the seat leading this trick
    trick_no: int = field(default=0, metadata=_meta(SHARE, True, True))                 # 0 for the first trick
    played: list[int] = field(default_factory=list, metadata=_meta(LIST, True, True))   # cards each seat has played
    stake_level: int = field(default=0, metadata=_meta(SHARE, True, True))              # stake calls accepted
    worth: int = field(default=1, metadata=_meta(SHARE, True, True))                    # what the hand pays now
    base_worth: int = field(default=1, metadata=_meta(SHARE, True, True))               # what it pays unraised
    stake_owner: int | None = field(default=None, metadata=_meta(SHARE, True, True))    # team that accepted last
    stake_calls: int = field(default=0, metadata=_meta(SHARE, True, True))              # stake calls made
    turned: int | None = field(default=None, metadata=_meta(SHARE, True, True))         # the turned card, if any
    blind: bool = field(default=False, metadata=_meta(SHARE, True, True))               # this trick is played blind
    forbid: str | None = field(default=None, metadata=_meta(SHARE, True, True))         # a special hand's ban on stakes
    special: list[str] = field(default_factory=list, metadata=_meta(LIST, True, True))  # special hands dealt
    results: list[int] = field(default_factory=list, metadata=_meta(LIST, True, True))  # each trick's team or TIE
    calls_made: int = field(default=0, metadata=_meta(SHARE, True, True))               # calls made, of any kind
    redeal_same: bool = field(default=False, metadata=_meta(SHARE, True, True))         # annulled: same dealer again
    shows: list[Event] = field(default_factory=list, metadata=_meta(LIST, True, True))  # reveals held to the hand's end
    dealt: list[tuple[int, ...]] = field(default_factory=list, metadata=_meta(LIST, True, False))  # each seat's deal
    hands: list[list[int]] = field(default_factory=list, metadata=_meta(LISTS, True, False))  # cards still held
    trick: list[Played] = field(default_factory=list, metadata=_meta(LIST, True, False))  # the trick being played
    history: list[list[Played]] = field(default_factory=list, metadata=_meta(LISTS, True, False))  # tricks done
    pending: Pending | None = field(default=None, metadata=_meta(RECORD, True, False))  # a call awaiting an answer
    suspended: Pending | None = field(default=None, metadata=_meta(RECORD, True, False))  # a call a contest put off
    contests: list[ContestState] = field(default_factory=list, metadata=_meta(OWN, True, False))  # one per contest
    count: Count | None = field(default=None, metadata=_meta(OWN, True, False))         # an announcement round
    called: set[str] = field(default_factory=set, metadata=_meta(SET, True, False))     # calls made
    accepted: set[str] = field(default_factory=set, metadata=_meta(SET, True, False))   # calls accepted
    strength: Sequence[int] = field(default=(), metadata=_meta(SHARE, True, False))     # card strengths, by turned card
    facts: DealFacts | None = field(default=None, metadata=_meta(OWN, True, False))    # an abstract deal, or the cards
    _legal: tuple[int, list[Action]] | None = field(default=None, metadata=_meta(OWN, True, False))  # legal-action memo

    def reset_hand(self, players: int, contests: int, seats: Sequence[int] | None = None,
                   hand_format: str = "") -> None:
        """Every hand field back to its default, sized for `players` seats and `contests`
        contests, the hand played by `seats` (default: every seat); the mano is the first of
        them after the dealer, and leads."""
        for name, default, factory in HAND_DEFAULTS:
            setattr(self, name, default if factory is None else factory())
        self.seats = sorted(range(players) if seats is None else seats)
        self.hand_format = hand_format
        self.dealt = [()] * players
        self.hands = [[] for _ in range(players)]
        self.played = [0] * players
        self.contests = [ContestState() for _ in range(contests)]
        self.mano = min(self.seats, key=lambda s: (s - self.dealer - 1) % players)
        self.turn = self.mano
        self.leader = self.mano

    def current_player(self) -> int | None:
        """The seat whose decision is next; None when the hand or the match is over."""
        if self.hand_over:
            return None
        if self.count is not None:
            return self.count.seat
        if self.pending is not None:
            return self.pending.answerer
        return self.turn


def _defaults() -> tuple[tuple[str, Any, Callable[[], Any] | None], ...]:
    out = []
    for f in fields(Match):
        if f.metadata["hand"]:
            factory = None if f.default_factory is MISSING else f.default_factory
            out.append((f.name, f.default, factory))
    return tuple(out)


HAND_DEFAULTS = _defaults()


def names(copy: str | None = None, plain: bool | None = None) -> tuple[str, ...]:
    """The fields copied as `copy` says, or stored `plain` (or not), in declaration order."""
    return tuple(f.name for f in fields(Match)
                 if (copy is None or f.metadata["copy"] == copy) and (plain is None or f.metadata["plain"] == plain))
