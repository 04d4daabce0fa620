"""Payoff tables computed by playing the calls (interpreter/designer/payoffs.py), held against the
tables the seeds print, and as `truco rules` shows them."""
from __future__ import annotations

import re

import pytest

from interpreter.designer.payoffs import payoffs, show
from interpreter.designer.rulebook import render
from interpreter.engine.game import load_game


def rows(name: str, **options: object) -> dict[tuple[str, ...], tuple[str, str]]:
    table = payoffs(load_game(name, options))
    return {c.calls: (show(c.accepted), show(c.declined)) for c in table.chains}


def test_teg_envido_table() -> None:
    """Seed 002, 'Qué se puede cantar': Envido 2 / 1; Envido, envido 4 / 2; Real envido 3 / 1;
    Envido y real envido 5 / 2; Falta envido: "Lo que le falta al que va ganando para el chico" /
    what was accumulated; "Se juega a 15 puntos (chico) o 30 (partida)"."""
    got = rows("teg")
    assert got[("envido",)] == ("2", "1")
    assert got[("envido", "envido")] == ("4", "2")
    assert got[("real_envido",)] == ("3", "1")
    assert got[("envido", "real_envido")] == ("5", "2")
    assert got[("falta_envido",)] == ("15", "1")                 # 15 - 0, para el chico, at 0-0 in a partida
    assert got[("envido", "real_envido", "falta_envido")] == ("15", "5")
    assert rows("teg", target=15)[("falta_envido",)] == ("15", "1")
    assert rows("teg", falta="target")[("falta_envido",)] == ("30", "1")   # the other reading: 30 - 0


def test_teg_ladder() -> None:
    """Seed 002, 'El truco': sin cantar 1; Truco 2 / 1; Retruco 3 / 2; Vale cuatro 4 / 3."""
    table = payoffs(load_game("teg"))
    assert table.base == 1
    assert [(s.call, s.accepted, s.declined) for s in table.ladder] == [
        ("truco", 2, 1), ("retruco", 3, 2), ("vale_cuatro", 4, 3)]


def test_paulista_ladder() -> None:
    """Seed 003: 'S'ils acceptent, la main ... 3 points ... S'ils courent ... 1 point'; 'la main vaut
    6 et un duo demande 9. Si les adversaires courent, ceux qui ont demandé le Neuf obtiendront 6'."""
    table = payoffs(load_game("paulista"))
    assert [(s.call, s.accepted, s.declined) for s in table.ladder] == [
        ("truco", 3, 1), ("seis", 6, 3), ("nove", 9, 6), ("doze", 12, 9)]


def test_reglamento_worked_example() -> None:
    """Seed 000: 'Envido, Real Envido, Real Envido, « no quiero » → le camp qui avait relancé le
    premier marque 5 (2+3).'"""
    assert rows("reglamento")[("envido", "real_envido", "real_envido")][1] == "5"


def test_teg_flor_table() -> None:
    """Seed 002, 'La flor': Flor 3, no se contesta; Contraflor 6 / 4; Contraflor al resto: declined 6,
    accepted what the leader lacks."""
    table = payoffs(load_game("teg", flor=True))
    flor = {c.calls: c for c in table.contest("flor")}
    assert show(flor[("flor",)].unanswered) == "3" and not flor[("flor",)].answerable
    assert (show(flor[("flor", "contraflor")].accepted), show(flor[("flor", "contraflor")].declined)) == ("6", "4")
    resto = flor[("flor", "contraflor_al_resto")]
    assert (show(resto.accepted), show(resto.declined)) == ("30", "6") and resto.varies


def test_score_dependence_is_marked() -> None:
    chains = {c.calls: c for c in payoffs(load_game("teg")).chains}
    assert chains[("falta_envido",)].varies and not chains[("envido",)].varies


@pytest.mark.parametrize("calls, accepted, declined", [
    ("envido", "2", "1"), ("envido, envido", "4", "2"), ("real envido", "3", "1"),
    ("envido, real envido", "5", "2"), ("falta envido", "15 *", "1")])
def test_rulebook_table_rows(calls: str, accepted: str, declined: str) -> None:
    """The generated rulebook prints the same rows as the seed's table."""
    text = render(load_game("teg"))
    assert re.search(rf"^\| {re.escape(calls)} \| {re.escape(accepted)} \| {declined} \|$", text, re.M), calls


def test_rulebook_ladder_rows() -> None:
    text = render(load_game("teg"))
    for call, worth, declined in (("truco", 2, 1), ("retruco", 3, 2), ("vale cuatro", 4, 3)):
        assert f"| {call} | {worth} | {declined} |" in text
