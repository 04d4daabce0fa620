"""The uruguayo and uruguayo-pytruco conformance cases, replayed in pytruco's Partida: the same
deals and actions (`Partida.parse_jugada`) must be legal there, the actions a case rejects must be
refused there too (`IJugada.ok`), and every score and hand end the case expects must be pytruco's.

A case is replayed when every interpretation choice it plays under — its spec's defaults, then
the file's and the case's options — is pytruco's (the defaults of `uruguayo-pytruco`). So the
cases of tests/conformance/uruguayo-pytruco/ are all replayed, and those of
tests/conformance/uruguayo/ only when they select pytruco's reading of every choice the rulebook
defaults change; the others are the rulebooks' and are left out, as is differences.yaml, which
shows where the spec plays otherwise than pytruco; so are the expectations pytruco has no
counterpart for (legal sets, seat to act).

pytruco scores a flor the moment it is sung; the spec scores it once every seat has sung or
played its first card, so that the moment of scoring shows nothing of a hand not yet seen. A
score expected between those two moments is compared only once the flor is settled: the
case's expectations are replayed in the engine alongside, which says when that is.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytruco.pdt.equipo import Equipo
from pytruco.pdt.partida import Partida

from rulespec.load import open_spec
from rulespec.yamlload import load_yaml_file
from tests.uruguayo.differential import VERBS
from tests.uruguayo.oracle import PYTRUCO_SPEC
from tests.uruguayo.pytruco_cards import carta, pytruco_name

from interpreter import Deal, load_game
from interpreter.engine.contests import only_declared

CONFORMANCE = Path(__file__).parents[1] / "conformance"
ROOTS = (CONFORMANCE / "uruguayo", CONFORMANCE / PYTRUCO_SPEC)
DIFFERENCES = CONFORMANCE / "uruguayo" / "differences.yaml"
PYTRUCO = {o.name: o.default for o in open_spec(PYTRUCO_SPEC).options}
TABLE = ("players", "target")


def defaults(spec: str) -> dict[str, Any]:
    return {o.name: o.default for o in open_spec(spec).options}


def pytruco_cases() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(id, options, case) for every case with actions whose options are all pytruco's."""
    out = []
    paths = sorted({p for root in ROOTS for p in root.rglob("*.yaml")} - {DIFFERENCES})
    for path in paths:
        data = load_yaml_file(path).data
        for case in data["cases"]:
            options = {**defaults(data["spec"]), **data.get("options", {}), **case.get("options", {})}
            if "actions" in case and all(k in TABLE or PYTRUCO[k] == v for k, v in options.items()):
                out.append((f"{path.relative_to(CONFORMANCE)}::{case['name']}", options, case))
    return out


CASES = pytruco_cases()


class Replay:
    """One case's deals and actions in a Partida."""

    def __init__(self, options: dict[str, Any], case: dict[str, Any]) -> None:
        players = int(options.get("players", 2))
        self.names = [f"p{s}" for s in range(players)]
        self.partida = Partida(int(options.get("target", PYTRUCO["target"])), self.names[0::2],
                               self.names[1::2], verbose=False)
        self.partida.puntajes[Equipo.AZUL], self.partida.puntajes[Equipo.ROJO] = case.get("score", [0, 0])
        mano = (case.get("dealer", players - 1) + 1) % players
        self.partida.ronda.el_mano = self.partida.ronda.turno = mano
        self.deals = list(case.get("deals") or [{"hands": case["hands"], "vira": case.get("vira")}])
        self.vira = case.get("vira")
        game = load_game(PYTRUCO_SPEC, options)
        self.engine = game.new_match(deals=[Deal(tuple(tuple(h) for h in d["hands"]), d.get("vira", self.vira))
                                            for d in self.deals],
                                     dealer=case.get("dealer"), score=case.get("score"))
        self.load()

    def load(self) -> None:
        deal = self.deals.pop(0)
        ronda = self.partida.ronda
        ronda.set_muestra(carta(deal.get("vira", self.vira)))
        ronda.set_cartas([[carta(c) for c in hand] for hand in deal["hands"]])
        self.muestra = ronda.muestra

    def jugada(self, text: str):
        seat, verb, *arg = text.split()
        word = pytruco_name(arg[0]) if verb == "play" else VERBS[verb]
        return self.partida.parse_jugada(f"{self.names[int(seat)]} {word}")

    def hand_over(self) -> bool:
        return self.partida.ronda.muestra is not self.muestra or self.partida.terminada()

    def flor_unsettled(self) -> bool:
        """Whether a sung flor waits, in the engine, for every seat to sing or play."""
        st = self.engine
        return any(only_declared(st, c) for c in st.game.contests)

    def step(self, number: int, step: Any) -> None:
        if isinstance(step, str) or "reject" in step:
            if self.hand_over() and self.deals and not self.partida.terminada():
                self.load()                  # the next deal of the case, as `truco replay` does
            if self.engine.hand_over and not self.engine.match_over:
                self.engine.next_hand()
        if isinstance(step, str):
            jugada = self.jugada(step)
            assert jugada.ok(self.partida)[1], f"step {number}: pytruco refuses {step!r}"
            jugada.hacer(self.partida)
            seat, action = step.split(maxsplit=1)
            self.engine.apply(action, seat=int(seat))
        elif "reject" in step:
            assert not self.jugada(step["reject"]).ok(self.partida)[1], \
                f"step {number}: pytruco allows {step['reject']!r}"
        else:
            expect = step["expect"]
            if "score" in expect and not self.flor_unsettled():
                got = [self.partida.puntajes[Equipo.AZUL], self.partida.puntajes[Equipo.ROJO]]
                assert got == expect["score"], f"step {number}: pytruco's score is {got}"
            if "hand_over" in expect:
                assert self.hand_over() == expect["hand_over"], f"step {number}: pytruco's hand_over"


def test_there_are_cases_to_replay() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize("options, case", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_case_replays_in_pytruco(options: dict[str, Any], case: dict[str, Any]) -> None:
    replay = Replay(options, case)
    for number, step in enumerate(case["actions"], start=1):
        replay.step(number, step)
