"""An independent scorer for the bundled specs, written from their seeds' tables.

It recomputes what one hand pays from the hand's event log: the actions in order, the cards
dealt and played, the values announced in a count. It reads none of the engine's own results
(scores, trick winners, contest winners) and shares no code with it: no spec, no formula, no
state machine. Each spec's card order and payoff tables are written out below as this module's
own data, with the clause of the seed they come from; where a seed is silent, the spec's written
choice (its `note:`) is the reference and is quoted as such. A payment the engine makes twice, or
a table it reads wrong, shows as a difference at the hand's end (tests/scoring/test_scorer.py).

Seeds: 000 'Reglamento' (reglamento), 001 Vanikar (vanikar), 002 'Reglas del truco argentino'
(teg), 003 'Truco Paulista' (paulista), 004 the English board (board).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

# -- card order ----------------------------------------------------------------------------------

# 002 'El orden de las cartas': "| 1.ª | 1 de espada | ... | 14.ª | Los cuatro |"; "Las cartas del
# mismo escalón empardan". 000: "3 > 2 > 1 (or et coupe) > 12 > 11 > 10 > 7 (coupe et bâton) > 6 > 5
# > 4"; 004: "The fourteen ranks, highest first. Suit matters only for the four named cards."
# Lower step = stronger.
SPANISH_STEPS = {"1e": 1, "1b": 2, "7e": 3, "7o": 4, "1c": 7, "1o": 7, "7c": 11, "7b": 11}
for _suit in "ebco":
    for _n, _r in (("3", 5), ("2", 6), ("12", 8), ("11", 9), ("10", 10), ("6", 12), ("5", 13), ("4", 14)):
        SPANISH_STEPS[_n + _suit] = _r

# 001: "HIÉRARCHIE DES CARTES : 1♠ > 1♣ > 7♠ > 7♦ > 3 > 2 > 1♥/1♦ > R > D > V > 7♥/7♣ > 6 > 5 > 4"
# (cards written A 2 3 4 5 6 7 J Q K with s c d h, as the spec writes them).
FRENCH_STEPS = {"As": 1, "Ac": 2, "7s": 3, "7d": 4, "Ah": 7, "Ad": 7, "7h": 11, "7c": 11}
for _suit in "schd":
    for _n, _r in (("3", 5), ("2", 6), ("K", 8), ("Q", 9), ("J", 10), ("6", 12), ("5", 13), ("4", 14)):
        FRENCH_STEPS[_n + _suit] = _r

# 003: "Ordre des cartes (de la plus basse à la plus haute) : 4, 5, 6, 7, Q, J, K, A, 2, 3"; "les
# manilles, qui sont les cartes qui suivent le carte de retournement, selon l'ordre des cartes ...
# si le tour est 3, la manille est 4"; "Ordre des couleurs des manilles (de la plus petite à la plus
# grande) : or, pique, cœur et trèfle" (d, s, h, c).
PAULISTA_ORDER = ["4", "5", "6", "7", "Q", "J", "K", "A", "2", "3"]
PAULISTA_SUITS = ["d", "s", "h", "c"]


def paulista_strength(card: str, turned: str) -> int:
    """Higher = stronger; the four manilhas above every other card, by suit."""
    rank, suit = card[:-1], card[-1]
    manilha = PAULISTA_ORDER[(PAULISTA_ORDER.index(turned[:-1]) + 1) % len(PAULISTA_ORDER)]
    if rank == manilha:
        return 100 + PAULISTA_SUITS.index(suit)
    return PAULISTA_ORDER.index(rank)


# -- tantos ----------------------------------------------------------------------------------------

# 002: "Con dos cartas del mismo palo: se suman las dos y se le agregan 20 ... Sin dos del mismo palo:
# vale la carta más alta sola ... Las figuras —diez, once y doce— valen cero". 000 and 001 the same.
FIGURES = {"10", "11", "12", "J", "Q", "K"}


def pips(card: str) -> int:
    rank = card[:-1]
    return 0 if rank in FIGURES else 1 if rank == "A" else int(rank)


def envido_value(cards: list[str]) -> int:
    best = max(pips(c) for c in cards)
    for suit in {c[-1] for c in cards}:
        same = sorted((pips(c) for c in cards if c[-1] == suit), reverse=True)
        if len(same) >= 2:
            best = max(best, 20 + same[0] + same[1])
    return best


def flor_value(cards: list[str], figures_30: bool = False) -> int | None:
    """000: "Sa valeur : la somme des trois cartes + 20"; option "Flor de figures à 30 — au lieu de 20"
    (the spec's reading: three figures count 30). None: no flor."""
    if len({c[-1] for c in cards}) != 1:
        return None
    if figures_30 and all(c[:-1] in FIGURES for c in cards):
        return 30
    return 20 + sum(pips(c) for c in cards)


# -- the tables, spec by spec ------------------------------------------------------------------------

@dataclass(frozen=True)
class Table:
    """One spec's payoff tables under one set of options, as the seed writes them."""

    spec: str
    players: int
    target: int
    strength: Callable[[str, str | None], int]        # higher = stronger
    ladder: tuple[tuple[str, int], ...]                 # (call, worth if accepted); refused: the step below
    base: int = 1
    three_pardas: str = "mano"                          # or "nobody"
    envido_worth: dict = field(default_factory=dict)    # call -> worth, 'falta' for the falta
    envido_decline: str = "all_but_last"                # or 'accumulated_plus_one', 'one'
    falta_mode: str = "replaces"                        # or 'adds'
    falta_value: str = "leader"                         # or 'half_while_malas', 'winner'
    falta_half: bool = False                            # reglamento: the falta of the malas
    envido_count: str = "announce"                      # or 'automatic' (ties: the mano's team)
    flor: str | None = None                             # None, 'teg', 'reglamento', 'board'
    flor_vs_flor: str = "each"                          # or 'best_takes_all'
    contraflor_per_flor: int = 3
    contraflor_resto: str = "falta_plus_flors"          # or 'falta'
    flor_figures_30: bool = False
    fold_contest: str = "declined"                      # a call waiting on the folding team: 'declined' or 'void'
    fold_envido_point: bool = False
    eleven: bool = False                                # paulista's hand of 11
    covered_counts: bool = False
    annul: tuple[str, ...] = ()                         # reglamento's maldón: the deal is annulled


def _spanish(card: str, turned: str | None) -> int:
    return -SPANISH_STEPS[card]


def _french(card: str, turned: str | None) -> int:
    return -FRENCH_STEPS[card]


# 002 'El truco': "| Truco | 2 puntos | 1 punto | Retruco (quiero retruco) | 3 puntos | 2 puntos | Vale
# cuatro | 4 puntos | 3 puntos |"; "Sin cantar nada | 1 punto". 000: "Truco | La donne vaut 2 points.
# Refusé : l'adversaire marque 1. | Retruco | 3 points. Refusé : 2. | Vale Cuatro | 4 points. Refusé :
# 3." 001: "L'autre camp accepte (2 pts), relance à Retruco (3) ... jusqu'à Vale Cuatro (4)"; "Decline
# ... l'annonceur marque le niveau inférieur". 004: "An unraised hand is worth 1"; "Decline on a truco
# call ... The team that made the call scores what the hand was worth before this raise".
ARGENTINE_LADDER = (("truco", 2), ("retruco", 3), ("vale_cuatro", 4))
# 003: "pourrait être à 3, puis à 6, 9 et enfin à 12"; "S'ils courent, le duo qui a demandé le Truco
# gagne la main et marque 1 point"; "la main vaut 6 et un duo demande 9. Si les adversaires courent,
# ceux qui ont demandé le Neuf obtiendront 6 points".
PAULISTA_LADDER = (("truco", 3), ("seis", 6), ("nove", 9), ("doze", 12))

# 002 'Qué se puede cantar': "| Envido | 2 puntos | 1 punto | Envido, envido | 4 puntos | 2 puntos |
# Real envido | 3 puntos | 1 punto | Envido y real envido | 5 puntos | 2 puntos | Falta envido | Lo que
# le falta al que va ganando para el chico | Lo que iba acumulado |"; "El que no quiere paga lo que
# valía hasta ahí". 000: "Envido | 2 points. | Real Envido | +3 points. | Falta Envido | Les points qui
# manquent à l'équipe en tête pour gagner la partie"; "Dos / Tres Reales | Variante maison : +6 et +9
# points"; refused: "le camp qui a chanté marque la valeur du dernier pari accepté — 1 point s'il n'y
# en avait aucun". 004: "Match envido is worth the target minus the higher team's score"; "Decline
# scores every call except the last, or 1 when the declined call was the only one". 001: "Envido (2
# pts), Real Envido (3) ou Falta Envido"; "1 si refusé".
ENVIDO = {"envido": 2, "real_envido": 3, "falta_envido": "falta"}
REALES = {"dos_reales": 6, "tres_reales": 9}

# The options each spec offers, as this scorer knows them: the test fails if a spec grows one.
KNOWN_OPTIONS = {
    "teg": {"players", "target", "flor", "falta"},
    "reglamento": {"players", "target", "flor", "flor_figures_30", "contraflor_6", "reales", "falta_half",
                   "maldon", "any_teammate", "decline_rule", "falta_mode", "falta_value", "three_pardas",
                   "fold_envido_point", "envido_callers", "falta_after_double", "contraflor_resto",
                   "flor_vs_flor"},
    "board": {"players", "target", "flor", "decline_rule", "falta_mode", "falta_value", "three_pardas",
              "fold_envido_point", "envido_callers", "flor_vs_flor"},
    "vanikar": {"players", "target", "falta_value", "three_pardas"},
    "paulista": {"players", "three_pardas", "cover_from", "covered_card", "raise_cap"},
}


def table_for(spec: str, options: dict) -> Table:
    """The tables of `spec` under `options` (every option the spec offers, given explicitly)."""
    o = options
    if spec == "teg":
        # 002: "Se juega a 15 puntos (chico) o 30 (partida)"; "La flor ... es opcional"; flor: "Flor: 3
        # puntos. No se contesta, se cobra. Contraflor ... 6 si se la quieren, 4 si no. Contraflor al
        # resto: si no la quieren, 6; si la quieren, se juega lo que le falta al que va ganando."
        # Falta: "Lo que le falta al que va ganando para el chico", and the chico is the 15-point game:
        # in a partida of 30, what the leader lacks to reach 15 while below it, then to reach 30 (option
        # `falta: chico`, the spec's note); `falta: target` reads it as the match's target. The
        # contraflor al resto is the target's under both.
        return Table("teg", o["players"], o["target"], _spanish, ARGENTINE_LADDER, envido_worth=dict(ENVIDO),
                     falta_half=o["falta"] == "chico" and o["target"] == 30, flor="teg" if o["flor"] else None)
    if spec in ("reglamento", "board"):
        # The Argentine base's interpretation options (specs/bases/argentina.yaml, each an option of
        # kind interpretation with its own doc): decline_rule, falta_mode, falta_value, three_pardas,
        # fold_envido_point, contraflor_resto, flor_vs_flor (envido_callers, falta_after_double and
        # any_teammate only say who may call or answer: nothing this scorer reads).
        worth = dict(ENVIDO)
        if spec == "reglamento" and o["reales"]:
            worth.update(REALES)
        # 000: "Falta au demi-parcours — tant que les deux camps sont dans les malas, la falta ne vaut que
        # ce qui manque pour atteindre 15"; "Les 15 premiers sont les malas" of the 30-point partie (the
        # spec's note: the short games have none). Out of the malas the falta is the usual one.
        falta_half = spec == "reglamento" and o["falta_half"] and o["target"] == 30
        return Table(spec, o["players"], o["target"], _spanish, ARGENTINE_LADDER, envido_worth=worth,
                     three_pardas=o["three_pardas"], envido_decline=o["decline_rule"], falta_mode=o["falta_mode"],
                     falta_value=o["falta_value"], falta_half=falta_half, flor=spec if o["flor"] else None, flor_vs_flor=o["flor_vs_flor"],
                     # 000: "Contraflor à 6 points — au lieu de 3 par flor" (the spec's note: 6 per flor)
                     contraflor_per_flor=6 if spec == "reglamento" and o["contraflor_6"] else 3,
                     contraflor_resto=o.get("contraflor_resto", "falta_plus_flors"),
                     flor_figures_30=spec == "reglamento" and o["flor_figures_30"],
                     fold_envido_point=o["fold_envido_point"],
                     annul=("maldon",) if spec == "reglamento" and o["maldon"] else ())
    if spec == "vanikar":
        # 001: "un Envido ne se relance pas"; "refuser concède un point aussitôt"; "les partenaires
        # jouent la meilleure main, et en cas d'égalité la main l'emporte"; "FOLD : à votre tour, ou en
        # répondant à un Truco ... l'autre camp marque ce qu'elle vaut" (a waiting envido is void: the
        # spec's `pending_contest: void`).
        return Table("vanikar", o["players"], o["target"], _french, ARGENTINE_LADDER, envido_worth=dict(ENVIDO),
                     envido_decline="one", falta_value=o["falta_value"], envido_count="automatic",
                     three_pardas=o["three_pardas"], fold_contest="void")
    if spec == "paulista":
        # 003: "Objectif - marquer 12 points"; "Si tous les tours sont à égalité, aucune paire ne gagne un
        # point" (option three_pardas); "Carte Couverte - Carte jouée face cachée, qui n'a aucune valeur"
        # (option covered_card: 'hidden' keeps its rank); "La main de 11 vaut déjà 3 points ... À la main
        # du 11, les joueurs ne peuvent pas demander le Truco. S'ils le font, ils perdent automatiquement
        # le jeu."
        return Table("paulista", o["players"], 12, paulista_strength, PAULISTA_LADDER,
                     three_pardas=o["three_pardas"], fold_contest="void", eleven=True,
                     covered_counts=o["covered_card"] == "hidden")
    raise KeyError(spec)


# -- one hand ----------------------------------------------------------------------------------------

@dataclass
class Hand:
    """What the scorer needs to know about the hand's start: the table, the mano, the score."""

    table: Table
    mano: int
    score: list[int]
    paid: list[int] = field(default_factory=lambda: [0, 0])

    @property
    def players(self) -> int:
        return self.table.players

    def team(self, seat: int) -> int:
        # 002: "2 contra 2 o 3 contra 3"; 004: "Partners sit alternately: the odd seats against the even"
        return seat % 2

    def now(self) -> list[int]:
        return [s + p for s, p in zip(self.score, self.paid, strict=False)]

    def over(self) -> bool:
        # 000: "Une équipe qui atteint 30 grâce à l'envido gagne immédiatement"; 004: "The match ends as
        # soon as a team reaches the target, including in the middle of a hand": nothing more scores.
        return max(self.now()) >= self.table.target

    def pay(self, team: int, points: int) -> None:
        if points > 0 and not self.over():
            self.paid[team] += points

    def order_from_mano(self, seats) -> list[int]:
        return sorted(seats, key=lambda s: (s - self.mano) % self.players)


def trick_result(t: Table, plays: list[tuple[int, str, bool]], turned: str | None) -> int | None:
    """The team that wins a baza, or None for parda. 002: "Parda es cuando la carta más alta está
    repetida en los dos bandos. Si está repetida dentro del mismo equipo, ese equipo se lleva la
    baza." (004 the same; 000 and 003 are silent, their specs take the same reading.) A covered
    card has no value (003), so it never wins; a trick of covered cards only is a parda."""
    shown = [(s, c) for s, c, covered in plays if not covered or t.covered_counts]
    if not shown:
        return None
    best = max(t.strength(c, turned) for _, c in shown)
    teams = {s % 2 for s, c in shown if t.strength(c, turned) == best}
    return teams.pop() if len(teams) == 1 else None


def hand_winner(t: Table, tricks: list[int | None], mano_team: int) -> int | None | str:
    """The team that wins the hand, 'nobody', or None while it goes on. 002 'Las pardas': "Parda la
    primera: gana el que gane la segunda. Parda la segunda: gana el que ganó la primera. Parda la
    tercera: gana el que ganó la primera. Pardas las tres: gana el mano." (000, 001 the same; 003:
    "la paire qui a gagné un tour précédent ou qui a gagné un tour suivant prend la main. Si tous les
    tours sont à égalité, aucune paire ne gagne un point").

    Read as a rule: two tricks won take the hand; otherwise, once a parda has been played, the first
    trick that was won decides, as soon as one has been won and a parda has been played."""
    wins = [x for x in tricks if x is not None]
    for team in (0, 1):
        if wins.count(team) == 2:
            return team
    if None in tricks and wins and (len(tricks) >= 2):
        return wins[0]
    if len(tricks) == 3:
        if wins:
            return wins[0]
        return mano_team if t.three_pardas == "mano" else "nobody"
    return None


def score_hand(hand: Hand, events: list[dict], *, check_values: bool = True) -> list[int]:
    """The points each team earns in one hand, from its events."""
    return _Scorer(hand, events, check_values).run()


class ValueMismatch(AssertionError):
    pass


class _Scorer:
    def __init__(self, hand: Hand, events: list[dict], check_values: bool) -> None:
        self.h, self.t, self.events, self.check = hand, hand.table, events, check_values
        n = self.t.players
        deal = next((e for e in events if e["type"] == "deal"), None)
        self.turned = deal["turned"] if deal else None
        self.cards: dict[int, list[str]] = {}
        self.played = [0] * n
        # The stake: 002 "Sube el que quiso el canto anterior", a raise accepts what it answers.
        self.level = 0
        self.stake_pending: tuple[int, int] | None = None       # (step, caller)
        self.suspended = False                                  # the stake waits under a contest call
        self.base = self.t.base
        # Paulista, 003: "La main de 11 vaut déjà 3 points" when a pair is at 11 of 12.
        self.eleven = self.t.eleven and max(hand.score) == self.t.target - 1
        if self.eleven:
            self.base = 3
        # The envido
        self.env_chain: list[tuple[str, int]] = []
        self.env_state = "idle"          # idle, pending, counting, closed
        self.announced: list[tuple[int, int | None]] = []
        # The flor
        self.flor_chain: list[tuple[str, int]] = []
        self.flor_declared: list[int] = []
        self.flor_state = "idle"         # idle, active, pending, counting, closed
        self.flor_asked = False          # the pending flor call is a declaration asking a holder
        self.flor_asked_seat: int | None = None     # the holder it asks
        self.flor_count_seats: list[int] = []
        self.flor_announced: list[tuple[int, int | None]] = []
        self.plays: list[tuple[int, str, bool]] = []
        self.tricks: list[int | None] = []

    # -- helpers
    def worth(self) -> int:
        return self.base if self.level == 0 else self.t.ladder[self.level - 1][1]

    def fval(self, seat: int) -> int | None:
        return flor_value(self.cards[seat], self.t.flor_figures_30) if seat in self.cards else None

    def best_seat(self, values: list[tuple[int, int | None]]) -> int | None:
        """The best value, ties to the seat nearer the mano: 000 "la priorité va au joueur le plus
        proche de la mano"; 002 "En caso de empate gana el mano"; 004 "A tie goes to the player nearer
        the lead"."""
        shown = [(s, v) for s, v in values if v is not None]
        if not shown:
            return None
        best = max(v for _, v in shown)
        return self.h.order_from_mano([s for s, v in shown if v == best])[0]

    def falta(self, winner_team: int) -> int:
        now, t = self.h.now(), self.t.target
        if (self.t.falta_half or self.t.falta_value == "half_while_malas") and max(now) < t // 2:
            return t // 2 - max(now)
        if self.t.falta_value == "winner":
            return t - now[winner_team]
        return t - max(now)

    def env_worth(self, call: str, team: int) -> int:
        w = self.t.envido_worth[call]
        return self.falta(team) if w == "falta" else w

    # -- the envido
    def env_accepted_pays(self, team: int) -> int:
        calls = [c for c, _ in self.env_chain]
        worths = [self.env_worth(c, team) for c in calls]
        if calls[-1] == "falta_envido" and self.t.falta_mode == "replaces" and self.t.spec != "vanikar":
            return worths[-1]
        return sum(worths)

    def env_declined_pays(self, team: int) -> int:
        worths = [self.env_worth(c, team) for c, _ in self.env_chain]
        if self.t.envido_decline == "one":
            return 1
        if self.t.envido_decline == "accumulated_plus_one":
            return sum(worths[:-1]) + 1
        return 1 if len(worths) == 1 else sum(worths[:-1])

    def env_settle_count(self) -> None:
        winner = self.best_seat(self.announced)
        self.env_state = "closed"
        self.resume()
        team = self.h.team(winner)
        self.h.pay(team, self.env_accepted_pays(team))

    def env_settle_automatic(self) -> None:
        # 001: "les partenaires jouent la meilleure main, et en cas d'égalité la main l'emporte"
        values = {s: envido_value(self.cards[s]) for s in range(self.t.players)}
        best = max(values.values())
        top = [s for s, v in values.items() if v == best]
        mano_team = self.h.team(self.h.mano)
        teams = {self.h.team(s) for s in top}
        team = mano_team if mano_team in teams else teams.pop()
        self.env_state = "closed"
        self.resume()
        self.h.pay(team, self.env_accepted_pays(team))

    def resume(self) -> None:
        self.suspended = False

    # -- the flor
    def flor_wipes_envido(self) -> None:
        """000: "Si elle est jouée, elle annule l'envido de la donne"; 002: "si hay flor, el envido no se
        juega"; 004: "A declared flower wipes an envido that has not been scored yet"."""
        if self.env_state in ("pending", "counting"):
            self.env_state = "closed"
            self.resume()
        elif self.env_state == "idle":
            self.env_state = "closed"

    def may_declare(self, seat: int) -> bool:
        return seat not in self.flor_declared and self.played[seat] == 0

    def flor_call(self, seat: int, call: str) -> None:
        if self.flor_state == "idle":
            self.flor_state = "active"
            self.flor_wipes_envido()
        self.flor_chain.append((call, seat))
        if seat not in self.flor_declared:
            self.flor_declared.append(seat)
        if call == "flor":
            if self.flor_state == "pending" and self.flor_asked:
                self.flor_state, self.flor_asked = "active", False      # a counter-flor answers the question
                self.resume()
                return
            if self.t.flor in ("teg", "reglamento"):
                # 002: "Contraflor: la canta el que también tiene flor" (the spec's note: an opponent who
                # also holds a flor answers at once); 000: "Con flor quiero | Con flor me achico".
                for k in range(1, self.t.players):
                    s = (seat + k) % self.t.players
                    if s % 2 != seat % 2 and self.may_declare(s) and self.fval(s) is not None:
                        if self.stake_pending is not None:
                            self.suspended = True
                        self.flor_state, self.flor_asked, self.flor_asked_seat = "pending", True, s
                        return
            return
        # contraflor, contraflor_al_resto: a raise answers (and accepts) what it raises
        if self.stake_pending is not None and self.flor_state != "pending":
            self.suspended = True
        self.flor_state, self.flor_asked = "pending", False

    def flor_pays(self, call: str, how: str, team: int, seats: list[int], caller_team: int) -> int:
        """What a flor call pays, accepted ('accept') or refused ('decline'), from the seed's table.
        `seats`: the flors that took part."""
        n = len(seats)
        mine = sum(1 for s in seats if self.h.team(s) == caller_team)
        falta = self.t.target - max(self.h.now())
        if self.t.flor == "teg":
            # 002: "Contraflor ... 6 si se la quieren, 4 si no. Contraflor al resto: si no la quieren, 6;
            # si la quieren, se juega lo que le falta al que va ganando."
            return {("contraflor", "accept"): 6, ("contraflor", "decline"): 4,
                    ("contraflor_al_resto", "accept"): falta, ("contraflor_al_resto", "decline"): 6}[(call, how)]
        # 000: "Con flor me achico | Je me couche. L'adversaire marque ses flors + 1 point."
        if how == "decline":
            return 3 * mine + 1
        if call == "flor":                       # "Con flor quiero | J'accepte : on compare."
            return 3 * n
        if call == "contraflor":                 # "Acceptée, la meilleure flor emporte le total."
            return self.t.contraflor_per_flor * n
        # "Contraflor al Resto | ... les points qui manquent à l'équipe en tête pour finir la partie,
        # plus 3 par flor" (option contraflor_resto: 'falta' for the falta alone)
        return falta + (3 * n if self.t.contraflor_resto == "falta_plus_flors" else 0)

    def flor_settle_count(self) -> None:
        winner = self.best_seat(self.flor_announced)
        self.flor_state = "closed"
        self.resume()
        team = self.h.team(winner)
        caller = self.flor_chain[-1][1]
        self.h.pay(team, self.flor_pays(self.flor_chain[-1][0], "accept", team, self.flor_count_seats,
                                        self.h.team(caller)))

    def flor_unraised(self) -> None:
        """Flors sung and never raised nor accepted. 002: "Flor: 3 puntos. No se contesta, se cobra"
        (each its own); 004 the same (the spec: 'it scores 3, as in the other Argentine rulebooks');
        000: "Si un seul camp a une flor, il marque 3 points par flor annoncée" and "Le camp de la
        meilleure flor marque 3 points par flor annoncée à la table" (option flor_vs_flor: 'each')."""
        self.flor_state = "closed"
        teams = list(dict.fromkeys(self.h.team(s) for s in self.flor_declared))     # in the order sung
        if self.t.flor == "teg" or self.t.flor_vs_flor == "each" or len(teams) == 1:
            for team in teams:
                self.h.pay(team, 3 * sum(1 for s in self.flor_declared if self.h.team(s) == team))
            return
        best = self.best_seat([(s, self.fval(s)) for s in self.flor_declared])
        self.h.pay(self.h.team(best), 3 * len(self.flor_declared))

    def flor_check_unraised(self) -> None:
        """The specs' note (the seeds do not say when): unraised flors are scored 'once every seat has
        sung or played its first card'; 004: "Flower is scored as soon as every seat has either
        declared or lost the chance"."""
        if self.flor_state == "active" and all(not self.may_declare(s) for s in range(self.t.players)):
            self.flor_unraised()

    # -- the hand
    def end_hand(self, team: int | str | None, points: int | None = None) -> None:
        # 000: "Dans une donne, la flor et l'envido sont marqués avant le truco."
        if self.flor_state in ("active", "pending") and all(c == "flor" for c, _ in self.flor_chain):
            self.flor_unraised()
        if team in (0, 1):
            self.h.pay(team, self.worth() if points is None else points)

    def run(self) -> list[int]:
        t, h = self.t, self.h
        for e in self.events:
            kind = e["type"]
            if kind == "hand":
                self.cards[e["seat"]] = list(e["cards"]) if e["seat"] not in self.cards else self.cards[e["seat"]]
                continue
            if kind in ("announce", "good"):
                if kind == "announce" and self.check and e["contest"] in ("envido", "flor") and e["seat"] in self.cards:
                    mine = envido_value(self.cards[e["seat"]]) if e["contest"] == "envido" else self.fval(e["seat"])
                    if mine != e["value"]:
                        raise ValueMismatch(f"seat {e['seat']} announced {e['value']} for {e['contest']} "
                                            f"with {self.cards[e['seat']]}; the seed counts {mine}")
                said = (e["seat"], e["value"] if kind == "announce" else None)
                # 000: 'chacun annonce ses points en partant de la mano'; 004: 'Announcing starts at the
                # lead and goes to the right' (002 silent: its spec's note, the same): each seat once,
                # so the count is over when the last has spoken
                if self.env_state == "counting":
                    self.announced.append(said)
                    if len(self.announced) == t.players:
                        self.env_settle_count()
                else:
                    self.flor_announced.append(said)
                    if len(self.flor_announced) == len(self.flor_count_seats):
                        self.flor_settle_count()
                if h.over():
                    return h.paid
                continue
            if kind != "action" or e.get("hidden"):
                continue
            seat, words = e["seat"], e["action"].split()
            verb = words[0]
            if verb in ("announce", "good", "sena"):
                continue
            if h.over():
                return h.paid
            if verb in t.annul:
                return h.paid            # 000 "Maldón ... le joueur peut annuler la donne": nobody scores
            if verb in t.envido_worth:
                if self.env_state == "idle" and self.stake_pending is not None:
                    self.suspended = True                 # "el envido está primero"
                self.env_chain.append((verb, seat))
                self.env_state = "pending"
            elif verb in ("flor", "contraflor", "contraflor_al_resto"):
                self.flor_call(seat, verb)
            elif verb in [c for c, _ in t.ladder]:
                if self.eleven:
                    # 003: "À la main du 11, les joueurs ne peuvent pas demander le Truco. S'ils le font,
                    # ils perdent automatiquement le jeu."
                    other = 1 - h.team(seat)
                    h.paid[other] += max(0, t.target - h.now()[other])
                    return h.paid
                if self.stake_pending is not None:
                    self.level = self.stake_pending[0]
                self.stake_pending = (self.level + 1, seat)
            elif verb == "accept":
                if self.env_state == "pending":
                    if t.envido_count == "automatic":
                        self.env_settle_automatic()
                    else:
                        self.env_state, self.announced = "counting", []
                elif self.flor_state == "pending":
                    # 000: "Acceptée, la meilleure flor emporte le total", "3 points par flor annoncée à la
                    # table": the flors shown are compared, from the mano: those sung, the holder the flor
                    # asked, and the one who accepted (only a holder answers; the specs' note)
                    shown = {*self.flor_declared, seat} | ({self.flor_asked_seat} if self.flor_asked else set())
                    self.flor_state, self.flor_asked = "counting", False
                    self.flor_count_seats = h.order_from_mano(shown)
                    self.flor_announced = []
                else:
                    self.level, self.stake_pending = self.stake_pending[0], None
            elif verb == "decline":
                if self.env_state == "pending":
                    caller = self.env_chain[-1][1]
                    self.env_state = "closed"
                    self.resume()
                    h.pay(h.team(caller), self.env_declined_pays(h.team(caller)))
                elif self.flor_state == "pending":
                    call, caller = self.flor_chain[-1]
                    self.flor_state = "closed"
                    self.resume()
                    h.pay(h.team(caller), self.flor_pays(call, "decline", h.team(caller), self.flor_declared,
                                                         h.team(caller)))
                else:
                    step, caller = self.stake_pending
                    self.stake_pending = None
                    declined = self.base if step == 1 else t.ladder[step - 2][1]
                    self.end_hand(h.team(caller), declined)
                    return h.paid
            elif verb == "fold":
                self.fold(seat)
                return h.paid
            elif verb in ("play", "cover"):
                card = e.get("card") or words[1]
                self.plays.append((seat, card, verb == "cover"))
                self.played[seat] += 1
                if len(self.plays) == t.players:
                    self.tricks.append(trick_result(t, self.plays, self.turned))
                    self.plays = []
                    winner = hand_winner(t, self.tricks, h.team(h.mano))
                    if winner is not None:
                        self.end_hand(winner)
                        return h.paid
            if self.flor_state == "active":
                self.flor_check_unraised()
        return h.paid

    def fold(self, seat: int) -> None:
        """002: "En cualquier momento uno puede tirar las cartas. El rival se lleva lo que valía la mano
        hasta ahí." 000: "L'adversaire encaisse la mise en cours ; les points de flor et d'envido déjà
        marqués restent acquis." A contest call waiting on the folding team counts as refused (the
        Argentine specs' `pending_contest: declined`; 001's and 003's specs: void); an unanswered
        flor that asks a holder stands and is scored with the hand."""
        h, t = self.h, self.t
        team = h.team(seat)
        # teg's note (002 "En cualquier momento uno puede tirar las cartas"; the others forbid it): a fold
        # during a count concedes it, the rival takes the accepted chain, and nobody shows his value
        if self.env_state == "counting":
            self.env_state = "closed"
            h.pay(1 - team, self.env_accepted_pays(1 - team))
        if self.flor_state == "counting":
            call, caller = self.flor_chain[-1]
            self.flor_state = "closed"
            h.pay(1 - team, self.flor_pays(call, "accept", 1 - team, self.flor_count_seats, h.team(caller)))
        if h.over():
            return
        if t.fold_contest == "declined":
            if self.env_state == "pending" and h.team(self.env_chain[-1][1]) != team:
                caller = self.env_chain[-1][1]
                self.env_state = "closed"
                h.pay(h.team(caller), self.env_declined_pays(h.team(caller)))
            elif self.flor_state == "pending" and not self.flor_asked and h.team(self.flor_chain[-1][1]) != team:
                call, caller = self.flor_chain[-1]
                self.flor_state = "closed"
                h.pay(h.team(caller), self.flor_pays(call, "decline", h.team(caller), self.flor_declared,
                                                     h.team(caller)))
            if h.over():
                return
        points = self.worth()
        # option fold_envido_point (seed 002: "Irse al mazo antes de que se cante nada regala un punto"):
        # one more in the first trick, before any truco is accepted and while no envido was called.
        if t.fold_envido_point and not self.tricks and self.level == 0 and self.env_state == "idle":
            points += 1
        self.end_hand(1 - team, points)
