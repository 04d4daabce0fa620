"""Every field of a match in progress, declared once: the record the engine's rules read and change.

`Match` holds data only. The rules are functions of a `Match` and the compiled `Rules`
(`legal.py`, `contests.py`, `explain.py`, `views.py`); `State` subclasses `Match` to add the
game and the public methods. Each field says, in its metadata, whether it belongs to the hand
(`reset_hand` resets it to its default when a hand is dealt) and whether JSON stores it as it
is (`plain`): `serial.py` reads its field lists from here. The reset and the copy are written
out field by field, for speed, and tests tie both to these declarations.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

from interpreter.engine.records import ContestState, Count, Deal, Pending

Event = dict[str, Any]
Played = tuple[int, int, bool]          # (seat, card, covered)

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


def _meta(hand: bool, plain: bool) -> dict[str, Any]:
    return {"hand": hand, "plain": plain}


@dataclass(eq=False, repr=False, init=False, slots=True)
class Match:
    """A match in progress, as data. Match fields first, then the fields of the current hand.

    The declarations give each field's default, which `__init__` and `reset_hand` write out (a
    dataclass's generated __init__ would run interpreted in a compiled engine, at every copy).
    The fields are slots: Python keeps at most thirty attributes of an instance in its compact
    shared form, and a copy of fifty fields otherwise builds a dictionary of its own."""

    # -- the match --------------------------------------------------------------------
    rng: random.Random = field(metadata=_meta(False, False))  # shuffles the deals
    seed: int | None = field(default=None, metadata=_meta(False, True))          # the seed it started from
    rng_shared: bool = field(default=False, metadata=_meta(False, False))         # `rng` is a copy's too
    script: list[Deal] = field(default_factory=list, metadata=_meta(False, False))  # scripted deals still to come
    score: list[int] = field(default_factory=list, metadata=_meta(False, True))    # points of each team
    dealer: int = field(default=0, metadata=_meta(False, True))                  # the seat dealing this hand
    hand_number: int = field(default=0, metadata=_meta(False, True))             # 1 for the first hand dealt
    match_over: bool = field(default=False, metadata=_meta(False, True))         # a team has won
    winner: int | None = field(default=None, metadata=_meta(False, True))        # the team that won
    events: list[Event] = field(default_factory=list, metadata=_meta(False, False))  # the log, as seats see it
    plan: list[tuple[str, list[int]]] = field(default_factory=list, metadata=_meta(False, False))  # the
    # round's hands still to deal under a schedule: (format, seats that play it)

    # -- the hand (reset_hand) --------------------------------------------------------
    hand_over: bool = field(default=False, metadata=_meta(True, True))           # decided, annulled or folded
    seats: list[int] = field(default_factory=list, metadata=_meta(True, True))    # the seats playing this hand
    hand_format: str = field(default="", metadata=_meta(True, True))             # its schedule's format, if any
    mano: int = field(default=0, metadata=_meta(True, True))                     # the seat after the dealer
    turn: int = field(default=0, metadata=_meta(True, True))                     # the seat to play a card
    leader: int = field(default=0, metadata=_meta(True, True))                   # the seat leading this trick
    trick_no: int = field(default=0, metadata=_meta(True, True))                 # 0 for the first trick
    played: list[int] = field(default_factory=list, metadata=_meta(True, True))   # cards each seat has played
    stake_level: int = field(default=0, metadata=_meta(True, True))              # stake calls accepted
    worth: int = field(default=1, metadata=_meta(True, True))                    # what the hand pays now
    base_worth: int = field(default=1, metadata=_meta(True, True))               # what it pays unraised
    stake_owner: int | None = field(default=None, metadata=_meta(True, True))    # team that accepted last
    stake_calls: int = field(default=0, metadata=_meta(True, True))              # stake calls made
    turned: int | None = field(default=None, metadata=_meta(True, True))         # the turned card, if any
    blind: bool = field(default=False, metadata=_meta(True, True))               # this trick is played blind
    forbid: str | None = field(default=None, metadata=_meta(True, True))         # a special hand's ban on stakes
    special: list[str] = field(default_factory=list, metadata=_meta(True, True))  # special hands dealt
    results: list[int] = field(default_factory=list, metadata=_meta(True, True))  # each trick's team or TIE
    calls_made: int = field(default=0, metadata=_meta(True, True))               # calls made, of any kind
    redeal_same: bool = field(default=False, metadata=_meta(True, True))         # annulled: same dealer again
    shows: list[Event] = field(default_factory=list, metadata=_meta(True, True))  # reveals held to the hand's end
    dealt: list[tuple[int, ...]] = field(default_factory=list, metadata=_meta(True, False))  # each seat's deal
    hands: list[list[int]] = field(default_factory=list, metadata=_meta(True, False))  # cards still held
    trick: list[Played] = field(default_factory=list, metadata=_meta(True, False))  # the trick being played
    history: list[list[Played]] = field(default_factory=list, metadata=_meta(True, False))  # tricks done
    pending: Pending | None = field(default=None, metadata=_meta(True, False))  # a call awaiting an answer
    suspended: Pending | None = field(default=None, metadata=_meta(True, False))  # a call a contest put off
    contests: list[ContestState] = field(default_factory=list, metadata=_meta(True, False))  # one per contest
    count: Count | None = field(default=None, metadata=_meta(True, False))         # an announcement round
    called: set[str] = field(default_factory=set, metadata=_meta(True, False))     # calls made
    accepted: set[str] = field(default_factory=set, metadata=_meta(True, False))   # calls accepted
    strength: Sequence[int] = field(default=(), metadata=_meta(True, False))     # card strengths, by turned card
    facts: DealFacts | None = field(default=None, metadata=_meta(True, False))    # an abstract deal, or the cards
    _legal: tuple[int, list[str]] | None = field(default=None, metadata=_meta(True, False))
    # the legal-action memo: the seat and its actions' texts

    def __init__(self, rng: random.Random, seed: int | None = None, score: list[int] | None = None,
                 dealer: int = 0, blank: bool = False) -> None:
        """A match before its first deal: its hand fields hold no hand yet. A `blank` one has
        only its generator and seed: a copy (`serial.copy_into`) sets every field at once."""
        self.seed = seed
        self.rng = rng
        if blank:
            return
        self.rng_shared = False
        self.script = []
        self.score = [] if score is None else score
        self.dealer = dealer
        self.hand_number = 0
        self.match_over = False
        self.winner = None
        self.events = []
        self.plan = []
        self.reset_hand(0, 0, [], 0)

    def reset_hand(self, players: int, contests: int, seats: list[int], mano: int, hand_format: str = "") -> None:
        """Every hand field back to its default, sized for `players` seats and `contests`
        contests, for the hand `seats` play (in seat order) from `mano`, who leads.

        Written out field by field: it runs at every deal, and a loop over the declarations
        cost a third of a short hand. `tests/engine/test_match.py` ties it to the fields whose
        metadata says `hand`."""
        self.hand_over = False
        self.seats = seats
        self.hand_format = hand_format
        self.mano = mano
        self.turn = mano
        self.leader = mano
        self.trick_no = 0
        self.played = [0] * players
        self.stake_level = 0
        self.worth = 1
        self.base_worth = 1
        self.stake_owner = None
        self.stake_calls = 0
        self.turned = None
        self.blind = False
        self.forbid = None
        self.special = []
        self.results = []
        self.calls_made = 0
        self.redeal_same = False
        self.shows = []
        self.dealt = [()] * players
        self.hands = []
        for _ in range(players):           # loops, as below: a comprehension is a call of its own
            self.hands.append([])
        self.trick = []
        self.history = []
        self.pending = None
        self.suspended = None
        self.contests = []
        for _ in range(contests):
            self.contests.append(ContestState())
        self.count = None
        self.called = set()
        self.accepted = set()
        self.strength = ()
        self.facts = None
        self._legal = None

    def generator(self) -> random.Random:
        """The match's generator, ready to draw from. A copy shares its original's generator
        (reading one's state costs more than the rest of a copy) until one of them deals: the
        first to draw takes a generator of its own, so that no copy's draws move another's."""
        if self.rng_shared:
            own = random.Random(0)          # any seed: its state is replaced at once
            own.setstate(self.rng.getstate())
            self.rng = own
            self.rng_shared = False
        return self.rng

    def current_player(self) -> int | None:
        """The seat whose decision is next; None when the hand or the match is over."""
        if self.hand_over:
            return None
        if self.count is not None:
            return self.count.seat
        if self.pending is not None:
            return self.pending.answerer
        return self.turn


def names(hand: bool | None = None, plain: bool | None = None) -> tuple[str, ...]:
    """The fields of the hand (or of the match), or stored in JSON `plain` (or not), in
    declaration order."""
    return tuple(f.name for f in fields(Match)
                 if (hand is None or f.metadata["hand"] == hand) and (plain is None or f.metadata["plain"] == plain))
