"""An independent scorer for seed 002 (teg, "Reglas del truco argentino"), played without flor.

It recomputes what one hand pays from the hand's public event log (the actions in order, the
cards played, the values announced in the count) and the seed's own tables, written out below
with the clause they come from. It shares no code with the engine: no spec, no formulas, no
state machine; a payment the engine makes twice, or a table it reads wrong, shows as a
difference at the hand's end (tests/scoring/test_scorer.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

# 'Jerarquía de las cartas' (seed 002): "| 1.ª | 1 de espada | ... | 14.ª | Los cuatro |";
# "Las cartas del mismo escalón empardan". Lower number = stronger.
RANK = {"1e": 1, "1b": 2, "7e": 3, "7o": 4}
for _suit in "ebco":
    for _n, _r in (("3", 5), ("2", 6), ("12", 8), ("11", 9), ("10", 10), ("6", 12), ("5", 13), ("4", 14)):
        RANK[_n + _suit] = _r
RANK.update({"1c": 7, "1o": 7, "7c": 11, "7b": 11})

# 'El truco: la apuesta por la mano': "| Sin cantar nada | 1 punto | — | Truco | 2 puntos | 1
# punto | Retruco (quiero retruco) | 3 puntos | 2 puntos | Vale cuatro | 4 puntos | 3 puntos |"
LADDER = ("truco", "retruco", "vale_cuatro")
STAKE_ACCEPTED = {None: 1, "truco": 2, "retruco": 3, "vale_cuatro": 4}
STAKE_DECLINED = {"truco": 1, "retruco": 2, "vale_cuatro": 3}

# 'Qué se puede cantar': "| Envido | 2 puntos | 1 punto | Envido, envido | 4 puntos | 2 puntos |
# Real envido | 3 puntos | 1 punto | Envido y real envido | 5 puntos | 2 puntos | Falta envido |
# Lo que le falta al que va ganando para el chico | Lo que iba acumulado |"; "El que no quiere
# paga lo que valía hasta ahí".
ENVIDO_WORTH = {"envido": 2, "real_envido": 3}
ENVIDO_CALLS = ("envido", "real_envido", "falta_envido")


@dataclass
class Hand:
    """What the scorer needs to know about the hand's start: the table, the mano, the score."""

    players: int
    target: int
    mano: int
    score: list[int]
    paid: list[int] = field(default_factory=lambda: [0, 0])

    def team(self, seat: int) -> int:
        return seat % 2

    def pay(self, team: int, points: int) -> None:
        # 'Se juega a 15 puntos (chico) o 30': the match is over once a team reaches the target,
        # and nothing more is scored.
        if max(s + p for s, p in zip(self.score, self.paid, strict=False)) >= self.target:
            return
        self.paid[team] += points


def envido_accepted(chain: list[str], target: int, score: list[int]) -> int:
    """The table's 'Si lo quieren' column; the falta is what the leader lacks, replacing the rest."""
    if "falta_envido" in chain:
        return target - max(score)
    return sum(ENVIDO_WORTH[c] for c in chain)


def envido_declined(chain: list[str]) -> int:
    """'Si no lo quieren': one call refused pays 1; otherwise what the calls before it were worth."""
    if len(chain) == 1:
        return 1
    return sum(ENVIDO_WORTH[c] for c in chain[:-1])


def trick_result(plays: list[tuple[int, str]]) -> int | None:
    """The team that wins a baza, or None for parda. 'Parda es cuando la carta más alta está
    repetida en los dos bandos. Si está repetida dentro del mismo equipo, ese equipo se lleva la baza.'"""
    best = min(RANK[c] for _, c in plays)
    teams = {s % 2 for s, c in plays if RANK[c] == best}
    return teams.pop() if len(teams) == 1 else None


def hand_winner(tricks: list[int | None], mano_team: int) -> int | None:
    """'Gana la mano el que gane dos bazas' and 'Las pardas': parda la primera, gana el que gane la
    segunda; parda la segunda o la tercera, gana el que ganó la primera; pardas las tres, gana el mano."""
    wins = [t for t in tricks if t is not None]
    for team in (0, 1):
        if wins.count(team) == 2:
            return team
    first = tricks[0] if tricks else None
    if len(tricks) >= 2 and first is not None and tricks[1] is None:
        return first
    if len(tricks) >= 2 and first is None and tricks[1] is not None:
        return tricks[1]
    if len(tricks) == 3:
        if first is not None:
            return first
        if tricks[2] is not None:
            return tricks[2]
        return mano_team
    return None


def score_hand(hand: Hand, events: list[dict]) -> list[int]:
    """The points each team earns in one hand, from its public events."""
    stake_level: str | None = None
    stake_pending: tuple[str, int] | None = None          # (call, caller)
    envido: list[tuple[str, int]] = []                     # the chain: (call, caller)
    envido_pending = False
    envido_open = False                                    # accepted: the count is under way
    announced: list[tuple[int, int]] = []
    plays: list[tuple[int, str]] = []
    tricks: list[int | None] = []

    def settle_envido_count() -> None:
        best = max(v for _, v in announced)
        winner = next(s for s, v in announced if v == best)   # the count goes from the mano: ties to the first
        now = [s + p for s, p in zip(hand.score, hand.paid, strict=False)]
        hand.pay(hand.team(winner), envido_accepted([c for c, _ in envido], hand.target, now))

    def fold_pay(seat: int) -> None:
        other = 1 - hand.team(seat)
        if stake_pending is not None:
            hand.pay(other, STAKE_DECLINED[stake_pending[0]])   # "A call waiting on the one who folds counts as refused"
        else:
            hand.pay(other, STAKE_ACCEPTED[stake_level])        # "El rival se lleva lo que valía la mano hasta ahí"

    for e in events:
        if e["type"] == "announce":
            announced.append((e["seat"], e["value"]))
            continue
        if e["type"] != "action":
            continue
        seat, words = e["seat"], e["action"].split()
        verb = words[0]
        if verb in ("announce", "good"):
            continue
        if envido_open:                    # the count is over once anything else is done
            envido_open = False
            settle_envido_count()
        if verb in ENVIDO_CALLS:
            envido.append((verb, seat))
            envido_pending = True
        elif verb in LADDER:
            if stake_pending is not None:
                stake_level = stake_pending[0]                  # "quiero retruco": the raise accepts
            stake_pending = (verb, seat)
        elif verb == "accept":
            if envido_pending:
                envido_pending, envido_open = False, True
            else:
                stake_level, stake_pending = stake_pending[0], None
        elif verb == "decline":
            if envido_pending:
                envido_pending = False
                hand.pay(hand.team(envido[-1][1]), envido_declined([c for c, _ in envido]))
            else:
                hand.pay(hand.team(stake_pending[1]), STAKE_DECLINED[stake_pending[0]])
                return hand.paid
        elif verb == "fold":
            if envido_pending:                                    # the waiting envido counts as refused
                hand.pay(hand.team(envido[-1][1]), envido_declined([c for c, _ in envido]))
            fold_pay(seat)
            return hand.paid
        elif verb == "play":
            plays.append((seat, words[1]))
            if len(plays) == hand.players:
                tricks.append(trick_result(plays))
                plays = []
                winner = hand_winner(tricks, hand.team(hand.mano))
                if winner is not None:
                    hand.pay(winner, STAKE_ACCEPTED[stake_level])
                    return hand.paid
    if envido_open:
        settle_envido_count()
    return hand.paid
