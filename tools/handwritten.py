"""A plain hand-written engine of 2-player `teg` (flor off, a match to 30), with no spec.

`truco bench` plays it beside the interpreter in the same run, so that a reader sees what
interpreting a spec costs against the engine a programmer would write for one variant by hand.
It keeps only what play needs (no event log, no copies, no JSON) and speaks the interpreter's
action strings in the interpreter's order, so that the same seeds and the same random choices
play the same matches: `tests/perf/test_handwritten.py` holds the two to that, action by action.

The rules are specs/teg.yaml's at its defaults: truco, retruco and vale cuatro raised by the
team that accepted; envido, real envido and falta envido in the first trick before a truco is
accepted, or as the answer to the first truco; the count from the mano with "son buenas"; a
seat may fold at any time, the count too, which it then concedes; the first to 30 wins at once.
"""
from __future__ import annotations

import random

SPEC = "teg"                       # the spec whose rules it plays, under these options
OPTIONS = {"players": 2}

RANKS = ("1", "2", "3", "4", "5", "6", "7", "10", "11", "12")
SUITS = ("e", "b", "o", "c")
CARDS = tuple(r + s for r in RANKS for s in SUITS)
INDEX = {c: i for i, c in enumerate(CARDS)}
POINTS = tuple(0 if r in ("10", "11", "12") else int(r) for r in RANKS for _ in SUITS)
SUIT = tuple(k for _ in RANKS for k in range(4))
ORDER = "1e > 1b > 7e > 7o > 3 > 2 > 1o = 1c > 12 > 11 > 10 > 7c = 7b > 6 > 5 > 4"
STAKES = ("truco", "retruco", "vale_cuatro")
ENVIDOS = ("envido", "real_envido", "falta_envido")
TARGET = 30
TIE = 2


def _strengths() -> tuple[int, ...]:
    strength = [0] * len(CARDS)
    tiers = [tier.split(" = ") for tier in ORDER.split(" > ")]
    for k, tier in enumerate(tiers):
        for name in tier:
            for c, card in enumerate(CARDS):
                if card == name or (name == card[:-1] and strength[c] == 0):
                    strength[c] = len(tiers) - k
    return tuple(strength)


STRENGTH = _strengths()


def envido(hand: tuple[int, ...]) -> int:
    best = max(POINTS[c] for c in hand)
    for suit in range(4):
        pts = sorted((POINTS[c] for c in hand if SUIT[c] == suit), reverse=True)
        if len(pts) >= 2:
            best = max(best, 20 + pts[0] + pts[1])
    return best


class Match:
    """A match between seats 0 and 1 (each its own team), dealt from `random.Random(seed)`."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.score = [0, 0]
        self.dealer = 1
        self.match_over = False
        self.deal()

    def deal(self) -> None:
        deck = list(range(len(CARDS)))
        self.rng.shuffle(deck)
        self.mano = 1 - self.dealer
        self.dealt = [(), ()]
        self.dealt[self.mano] = tuple(deck[0:3])
        self.dealt[1 - self.mano] = tuple(deck[3:6])
        self.hands = [list(h) for h in self.dealt]
        self.played = [0, 0]
        self.turn = self.leader = self.mano
        self.trick: list[tuple[int, int]] = []
        self.results: list[int] = []
        self.hand_over = False
        self.stake_level = 0
        self.worth = 1
        self.stake_owner: int | None = None
        self.pending: tuple[str, int, int] | None = None     # (call, caller, step: 0 for an envido)
        self.suspended: tuple[str, int, int] | None = None   # a truco the envido put off
        self.envido = 0                                      # 0 idle, 1 called, 2 over
        self.chain: list[str] = []
        self.counting: list[tuple[int, int | None]] | None = None   # (seat, value or None: good)
        self.legal: list[str] | None = None

    def next_hand(self) -> None:
        self.dealer = 1 - self.dealer
        self.deal()

    # -- what is legal ------------------------------------------------------------

    def to_act(self) -> int:
        if self.counting is not None:
            return self.mano if not self.counting else 1 - self.mano
        if self.pending is not None:
            return 1 - self.pending[1]
        return self.turn

    def legal_actions(self) -> list[str]:
        """The seat to act's legal actions, remembered until the next action."""
        if self.legal is None:
            self.legal = self._legal_actions()
        return self.legal

    def _legal_actions(self) -> list[str]:
        seat = self.to_act()
        if self.counting is not None:
            return ["fold", "announce"] if not self.counting else ["fold", "announce", "good"]
        if self.pending is not None:
            call, _, step = self.pending
            acts = ["accept", "decline"]
            if step == 0:
                acts += self._raises(call)
            else:
                if step < 3:
                    acts.append(STAKES[step])
                if step == 1 and self._envido_open(seat):
                    acts += ENVIDOS
            return acts + ["fold"]
        acts = ["play " + CARDS[c] for c in sorted(self.hands[seat])]
        if self.stake_level < 3 and self.stake_owner in (None, seat):
            acts.append(STAKES[self.stake_level])
        if self._envido_open(seat):
            acts += ENVIDOS
        return acts + ["fold"]

    def _envido_open(self, seat: int) -> bool:
        return self.envido == 0 and not self.results and self.played[seat] == 0 and self.stake_level == 0

    def _raises(self, last: str) -> list[str]:
        if last == "envido":
            return (["envido"] if self.chain.count("envido") < 2 else []) + ["real_envido", "falta_envido"]
        return ["falta_envido"] if last == "real_envido" else []

    # -- what an action does ------------------------------------------------------------

    def apply(self, action: str) -> None:
        seat = self.to_act()
        if action not in self.legal_actions():
            raise ValueError(f"{action!r} is not legal for seat {seat}")
        self.legal = None
        verb, _, card = action.partition(" ")
        if verb == "play":
            self._play(seat, INDEX[card])
        elif verb in STAKES:
            if self.pending is not None:
                self._accept_stake(seat)
            self.pending = (verb, seat, self.stake_level + 1)
        elif verb in ENVIDOS:
            if self.pending is not None and self.pending[2] > 0:
                self.suspended = self.pending
            self.envido = 1
            self.chain.append(verb)
            self.pending = (verb, seat, 0)
        elif verb == "accept":
            if self.pending is not None and self.pending[2] > 0:
                self._accept_stake(seat)
                self.pending = None
            else:
                self.pending = None
                self.counting = []
        elif verb == "decline":
            self._decline(seat)
        elif verb == "fold":
            self._fold(seat)
        else:
            self._count(seat, verb == "announce")

    def _accept_stake(self, seat: int) -> None:
        assert self.pending is not None
        self.stake_level = self.pending[2]
        self.worth = self.stake_level + 1
        self.stake_owner = seat

    def _decline(self, seat: int) -> None:
        assert self.pending is not None
        caller = 1 - seat
        if self.pending[2] > 0:
            self._end_hand(caller, self.worth)
            return
        self._envido_declined(caller)

    def _envido_declined(self, caller: int) -> None:
        worths = [self._worth(c) for c in self.chain]
        self.envido = 2
        self.pending, self.suspended = self.suspended, None
        self._score(caller, 1 if len(worths) == 1 else sum(worths[:-1]))

    def _worth(self, call: str) -> int:
        if call == "envido":
            return 2
        if call == "real_envido":
            return 3
        lead = max(self.score)
        return 15 - lead if lead < 15 else TARGET - lead

    def _count(self, seat: int, announce: bool) -> None:
        assert self.counting is not None
        self.counting.append((seat, envido(self.dealt[seat]) if announce else None))
        if len(self.counting) < 2:
            return
        (first, best), (_, other) = self.counting
        self._settle_count(first if other is None or other <= best else 1 - first)

    def _settle_count(self, winner: int) -> None:
        """The accepted envido paid to `winner`'s side, and the waiting truco back."""
        self.counting = None
        self.envido = 2
        self.pending, self.suspended = self.suspended, None
        last = self.chain[-1]
        self._score(winner, self._worth(last) if last == "falta_envido" else sum(map(self._worth, self.chain)))

    def _fold(self, seat: int) -> None:
        if self.counting is not None:             # the folding side concedes the count
            self._settle_count(1 - seat)
            if self.match_over:
                return
        if self.pending is not None and self.pending[2] == 0 and self.pending[1] != seat:
            self._envido_declined(self.pending[1])
            if self.match_over:
                return
        self._end_hand(1 - seat, self.worth)

    def _play(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.played[seat] += 1
        self.trick.append((seat, card))
        if len(self.trick) < 2:
            self.turn = 1 - seat
            return
        (a, x), (b, y) = self.trick
        self.trick = []
        winner = a if STRENGTH[x] > STRENGTH[y] else b if STRENGTH[y] > STRENGTH[x] else None
        self.results.append(TIE if winner is None else winner)
        decided = self._decided()
        if decided is not None:
            self._end_hand(decided, self.worth)
            return
        if winner is not None:
            self.leader = winner
        self.turn = self.leader

    def _decided(self) -> int | None:
        """teg's outcome table: two tricks won, or one won and one tied, decide; a third trick
        won decides; a third tied goes to the first trick won, and three tied to the mano."""
        r = self.results
        won = [t for t in r if t != TIE]
        if len(r) == 2 and won and (TIE in r or r[0] == r[1]):
            return won[0]
        if len(r) == 3:
            return r[2] if r[2] != TIE else won[0] if won else self.mano
        return None

    def _end_hand(self, team: int, points: int) -> None:
        self._score(team, points)
        self.hand_over = True
        self.pending = self.suspended = None
        self.counting = None

    def _score(self, team: int, points: int) -> None:
        if points <= 0 or self.match_over:
            return
        self.score[team] += points
        if self.score[team] >= TARGET:
            self.match_over = True
            self.hand_over = True
