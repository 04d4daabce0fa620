"""The designer's workflow: `truco eval` (a hand formula's value), `truco play --record`
(the hands played as a replayable case) and the transcript of hands played blind."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from interpreter.cli import main
from interpreter.designer.recording import Recorder
from interpreter.designer.replay import run_file
from interpreter.engine.game import load_game
from interpreter.terminal.transcript import revealed


@pytest.mark.parametrize("argv, printed", [
    (["teg", "envido", "--hand", "7o", "6o", "4c"], "envido of 7o 6o 4c: 33"),
    (["teg", "envido", "--hand", "7c", "7b", "12e"], "envido of 7c 7b 12e: 7"),
    (["teg", "flor", "--hand", "5o", "6o", "7o", "-o", "flor=true"], "flor of 5o 6o 7o: 38"),
    (["teg", "flor", "--hand", "7o", "6o", "4c"], "flor of 7o 6o 4c: does not hold it"),
    (["teg", "20 + best_suited(2)", "--hand", "7o", "6o", "4c"], "20 + best_suited(2) of 7o 6o 4c: 33"),
    (["teg", "suited(3)", "--hand", "7o", "6o", "4c"], "suited(3) of 7o 6o 4c: false"),
    # with the 4 of swords turned, the 2 of swords is a pieza worth 30: 30 + 7
    (["uruguayo", "envido", "--hand", "2e", "7o", "6o", "--turned", "4e"], "envido of 2e 7o 6o (turned 4e): 37"),
])
def test_eval_prints_the_value(argv: list[str], printed: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", *argv]) == 0
    assert capsys.readouterr().out.strip() == printed


@pytest.mark.parametrize("argv, says", [
    (["uruguayo", "envido", "--hand", "2e", "7o", "6o"], "give it with --turned"),
    (["teg", "envido", "--hand", "7o", "6o", "9c"], "9c: not a card"),
    (["teg", "nope", "--hand", "7o", "6o", "4c"], "is not a hand value of teg (envido, flor)"),
    (["teg", "envido", "--hand", "7o", "6o"], "a hand holds 3 cards"),
])
def test_eval_refuses_with_a_reason(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", *argv]) == 2
    assert says in capsys.readouterr().out


@pytest.mark.parametrize("spec, players", [("teg", 4), ("reglamento", 2), ("paulista", 4), ("uruguayo", 2)])
def test_play_record_writes_a_case_that_replays(spec: str, players: int, tmp_path: Path) -> None:
    path = tmp_path / "match.yaml"
    assert main(["play", spec, "--seed", "11", "--hands", "3", "-o", f"players={players}",
                 "--record", str(path)]) == 0
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    case = data["cases"][0]
    assert data["spec"] == spec and len(case["deals"]) == 3
    ends = [s["expect"] for s in case["actions"] if isinstance(s, dict) and "hand_over" in s["expect"]]
    assert len(ends) == 3
    [result] = run_file(path)
    assert result.passed, result.message
    # the case checks what happened: another final score fails it
    ends[-1]["score"] = [s + 1 for s in ends[-1]["score"]]
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    [result] = run_file(path)
    assert not result.passed and "score" in result.message


def test_a_blind_hand_is_recorded_and_shown_at_its_end(tmp_path: Path) -> None:
    """Truco Paulista's iron hand (both pairs at 11) is played blind: the transcript shows
    each seat's cards once the hand is over, and the recording replays it."""
    game = load_game("paulista")
    st = game.new_match(seed=3, score=[11, 11])
    assert st.blind
    recorder = Recorder(st)
    recorder.update()
    rng = random.Random(1)
    while not st.hand_over:
        st.apply(rng.choice(st.legal_actions()))
        recorder.update()
    lines = revealed(st)
    assert len(lines) == 4
    for seat, line in enumerate(lines):
        assert " ".join(game.cards.ids[c] for c in st.dealt[seat]) in line and "played blind" in line
    assert revealed(load_game("teg").new_match(seed=1)) == []      # hands seen at the deal are not repeated
    path = tmp_path / "iron.yaml"
    recorder.write(path, "paulista", "an iron hand")
    [result] = run_file(path)
    assert result.passed, result.message
