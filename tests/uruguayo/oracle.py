"""pytruco as an oracle for the uruguayo spec's card order and hand values.

For one muestra, every three-card hand of the other 39 cards is valued on both sides and the
disagreements are returned, described for a human. Both sides are precomputed once per
muestra where that changes nothing: pytruco's per-card facts (`Carta.es_pieza`,
`Carta.calc_puntaje`, `Carta.calc_poder`) are asked once per card, and pytruco's own hand
functions (`Manojo.tiene_flor`, `Manojo.calc_flor`, `Manojo.calcular_envido`) then run on
cards that answer those facts from the cache.
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence

from pytruco.pdt.carta import Carta
from pytruco.pdt.equipo import Equipo
from pytruco.pdt.jugador import Jugador
from pytruco.pdt.manojo import Manojo

from tests.uruguayo.pytruco_cards import carta

from interpreter.engine.game import Game, load_game

# the bundled spec that selects every pytruco reading where it departs from the rulebooks
# (docs/uruguayo.md): pieza_pair_envido=pair, plain_flor=cards among the hand values
PYTRUCO_SPEC = "uruguayo-pytruco"

# Manojo.tiene_flor's kinds: 1 two piezas or more, 2 three of a suit, 3 a pieza and a pair.
# calcular_envido (PRE: no flor) picks the first same-suit pair in the dealt order, which
# for a kind-2 hand makes the value depend on that order; for kinds 1 and 3 it does not.
ORDER_FREE_FLOR_KINDS = (1, 3)


class CachedCard:
    """A card that answers pytruco's per-card questions from what pytruco said once."""

    __slots__ = ("valor", "palo", "_pieza", "_points")

    def __init__(self, card: Carta, muestra: Carta) -> None:
        self.valor = card.valor
        self.palo = str(card.palo)           # a plain string compares as pytruco's Palo does
        self._pieza = card.es_pieza(muestra)
        self._points = card.calc_puntaje(muestra)

    def es_pieza(self, muestra: Carta) -> bool:
        return self._pieza

    def calc_puntaje(self, muestra: Carta) -> int:
        return self._points


def order_mismatches(game: Game, turned: int) -> list[str]:
    """Pairs of cards whose order (beats, ties, loses) differs from pytruco's calc_poder.

    One sorted order per side: two cards compare alike on both sides exactly when every
    card has the same dense rank under both."""
    ids = game.cards.ids
    muestra = carta(ids[turned])
    others = [c for c in range(len(ids)) if c != turned]
    power = {c: carta(ids[c]).calc_poder(muestra) for c in others}
    ours = game.views[turned].strength

    def dense(score: dict[int, int]) -> dict[int, int]:
        levels = sorted(set(score.values()))
        return {c: levels.index(v) for c, v in score.items()}

    theirs, mine = dense(power), dense({c: ours[c] for c in others})
    if theirs == mine:
        return []
    out = []
    for a, b in itertools.combinations(others, 2):
        t = (power[a] > power[b]) - (power[a] < power[b])
        m = (ours[a] > ours[b]) - (ours[a] < ours[b])
        if t != m:
            word = {1: "beats", 0: "ties", -1: "loses to"}
            out.append(f"muestra {ids[turned]}: pytruco says {ids[a]} {word[t]} {ids[b]}, "
                       f"the spec says it {word[m]}")
    return out


def value_mismatches(game: Game, turned: int, limit: int = 20) -> tuple[int, list[str]]:
    """(hands compared, disagreements) on flor presence, flor value and envido, for one muestra."""
    ids = game.cards.ids
    muestra = carta(ids[turned])
    cards = [CachedCard(carta(c), muestra) for c in ids]
    envido, flor = game.values["envido"], game.values["flor"]
    manojo = Manojo(Jugador("oracle", Equipo.AZUL))
    others = [c for c in range(len(ids)) if c != turned]
    out: list[str] = []
    count = 0
    for hand in itertools.combinations(others, 3):
        count += 1
        manojo.cartas = [cards[c] for c in hand]
        has, kind = manojo.tiene_flor(muestra)
        problems = []
        mine_flor = flor(hand, turned)
        if (mine_flor is not None) != has:
            problems.append(f"flor: pytruco {'has' if has else 'has none'}, the spec {mine_flor}")
        elif has and mine_flor != manojo.calc_flor(muestra):
            problems.append(f"flor: pytruco {manojo.calc_flor(muestra)}, the spec {mine_flor}")
        if not has or kind in ORDER_FREE_FLOR_KINDS:
            theirs = manojo.calcular_envido(muestra)
            mine = envido(hand, turned)
            if theirs != mine:
                problems.append(f"envido: pytruco {theirs}, the spec {mine}")
        if problems and len(out) < limit:
            shown = " ".join(ids[c] for c in hand)
            out.append(f"muestra {ids[turned]}, hand {shown}: " + "; ".join(problems))
    return count, out


def check_muestras(turned_cards: Sequence[int]) -> tuple[int, list[str]]:
    """Card order and hand values under each of these muestras, in the spec that selects
    pytruco's readings; (hands compared, mismatches)."""
    game = load_game(PYTRUCO_SPEC)
    total, out = 0, []
    for turned in turned_cards:
        out += order_mismatches(game, turned)
        count, found = value_mismatches(game, turned)
        total += count
        out += found
    return total, out


def reglamento_departures(turned: int) -> tuple[dict[str, int], list[str]]:
    """Under the spec's defaults (the reglamento's readings), every hand's values compared with
    pytruco's: (how many hands each named choice changes, disagreements no choice explains).

    `plain_flor`: a flor of three cards of one suit and no pieza counts pytruco's sum plus 20.
    `pieza_pair_envido`: a pieza beside a pair of another suit counts the pieza plus the best
    other card where pytruco counts the pair, 20 plus both."""
    game = load_game("uruguayo")
    ids = game.cards.ids
    muestra = carta(ids[turned])
    cards = [CachedCard(carta(c), muestra) for c in ids]
    manojo = Manojo(Jugador("oracle", Equipo.AZUL))
    changed = {"plain_flor": 0, "pieza_pair_envido": 0}
    out: list[str] = []
    for hand in itertools.combinations([c for c in range(len(ids)) if c != turned], 3):
        manojo.cartas = [cards[c] for c in hand]
        has, kind = manojo.tiene_flor(muestra)
        points = sorted((cards[c].calc_puntaje(muestra) for c in hand), reverse=True)
        plain = has and kind == 2 and not any(cards[c].es_pieza(muestra) for c in hand)
        want_flor = None if not has else manojo.calc_flor(muestra) + (20 if plain else 0)
        want_envido = None
        if kind == 3:
            want_envido = points[0] + points[1]
        elif not has or kind in ORDER_FREE_FLOR_KINDS:
            want_envido = manojo.calcular_envido(muestra)
        got_flor, got_envido = game.values["flor"](hand, turned), game.values["envido"](hand, turned)
        if got_flor != want_flor or (want_envido is not None and got_envido != want_envido):
            out.append(f"muestra {ids[turned]}, hand {' '.join(ids[c] for c in hand)}: flor {got_flor} "
                       f"(expected {want_flor}), envido {got_envido} (expected {want_envido})")
        changed["plain_flor"] += plain
        changed["pieza_pair_envido"] += kind == 3 and want_envido != manojo.calcular_envido(muestra)
    return changed, out


def envido_order_dependence(turned: int) -> dict[tuple[int, bool], int]:
    """For the flor hands under one muestra: how many of each tiene_flor kind get one envido
    from calcular_envido whatever the order of their cards (False) or several (True)."""
    ids = load_game("uruguayo").cards.ids
    muestra = carta(ids[turned])
    cards = [CachedCard(carta(c), muestra) for c in ids]
    manojo = Manojo(Jugador("oracle", Equipo.AZUL))
    out: dict[tuple[int, bool], int] = {}
    for hand in itertools.combinations([c for c in range(len(ids)) if c != turned], 3):
        manojo.cartas = [cards[c] for c in hand]
        has, kind = manojo.tiene_flor(muestra)
        if not has:
            continue
        values = set()
        for order in itertools.permutations(hand):
            manojo.cartas = [cards[c] for c in order]
            values.add(manojo.calcular_envido(muestra))
        key = (kind, len(values) > 1)
        out[key] = out.get(key, 0) + 1
    return out
