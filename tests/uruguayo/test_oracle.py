"""pytruco 0.1.3 as an oracle for the uruguayo spec's cards and hand values.

The issue: "for every muestra and every three-card hand (37 × 9,880 combinations), the
project's card order, envido value, flor presence and flor value agree with pytruco's".
The card order is compared once per muestra, as two sorted orders of the 39 other cards
(Carta.calc_poder against the spec's strengths). Flor presence and value are compared on
every hand (Manojo.tiene_flor, Manojo.calc_flor). The envido is compared where pytruco
defines it: Manojo.calcular_envido is documented "PRE: no tiene flor", so it is compared on
every hand without flor, and on the flor hands whose value it computes independently of the
order the cards were dealt in (two piezas or more; a pieza beside a pair of another suit);
for three cards of one suit it takes the first same-suit pair in dealt order, so those are
left out. The spec compared is `uruguayo-pytruco`, which selects pytruco's readings
(pieza_pair_envido=pair, plain_flor=cards); a second test checks that `uruguayo`'s defaults depart
from it only on the hands those two choices name.
"""
from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from tests.uruguayo.oracle import ORDER_FREE_FLOR_KINDS, check_muestras, envido_order_dependence, reglamento_departures

from interpreter.engine.game import load_game

CARDS = 40
WORKERS = max(2, min(4, os.cpu_count() or 1))


def test_every_muestra_and_every_hand_agree_with_pytruco() -> None:
    chunks = [list(range(k, CARDS, 2 * WORKERS)) for k in range(2 * WORKERS)]
    with ProcessPoolExecutor(WORKERS, mp_context=get_context("fork")) as pool:
        results = list(pool.map(check_muestras, chunks))
    compared = sum(n for n, _ in results)
    mismatches = [m for _, found in results for m in found]
    assert compared == 37 * 9880 == 365_560
    assert not mismatches, f"{len(mismatches)}+ mismatches, the first:\n" + "\n".join(mismatches[:30])


def test_the_reglamento_readings_depart_from_pytruco_only_where_named() -> None:
    """By default the spec reads the reglamento: a plain flor is 20 plus its cards, and a pieza
    beside a pair counts the pieza plus the best other card. Under four muestras (a pieza rank
    whose 12 stands in, a 12, a plain 3, an ace), every other value is still pytruco's."""
    changed = {"plain_flor": 0, "pieza_pair_envido": 0}
    problems: list[str] = []
    index = load_game("uruguayo").cards.index
    for muestra in ("4o", "12b", "3e", "1c"):
        found, bad = reglamento_departures(index[muestra])
        problems += bad
        for k, v in found.items():
            changed[k] += v
    assert not problems, "\n".join(problems[:30])
    assert changed["plain_flor"] > 0 and changed["pieza_pair_envido"] > 0


def test_the_envido_is_compared_only_where_pytruco_gives_one_whatever_the_order() -> None:
    """Why three cards of one suit are left out of the envido comparison: under these muestras
    calcular_envido gives such a hand several values as its cards are reordered, and never does
    for the two other kinds of flor."""
    index = load_game("uruguayo").cards.index
    for muestra in ("4o", "12b", "3e"):
        found = envido_order_dependence(index[muestra])
        assert not any(varies for kind, varies in found if kind in ORDER_FREE_FLOR_KINDS), found
        assert found.get((2, True), 0) > 0, found
