"""`truco diff A B`: what differs between two specs, in words and in payoffs."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.designer.diff import compare

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "casa.yaml"


def words(a: str, b: str, **options: object) -> tuple[list[str], list[str]]:
    c = compare(a, b, options)
    return [d.words(c.a, c.b) for d in c.rules], [d.words(c.a, c.b) for d in c.payoffs]


def test_same_spec_has_no_difference() -> None:
    assert words("teg", "teg") == ([], [])


def test_tie_rule_in_words() -> None:
    """Seed 002 gives three tied tricks to the mano, seed 003 to nobody."""
    rules, _ = words("teg", "paulista")
    assert "trick results T T T (every trick tied): the mano's team → nobody scores" in rules
    assert "truco makes the hand worth: 2 → 3" in rules


def test_extends_is_resolved_and_payoffs_compared() -> None:
    """The board extends the Argentine base; against teg only what really differs shows,
    with option-dependent formulas read under the defaults."""
    rules, payoffs = words("teg", "board")
    assert "envido call envido: worth 2; opens; answers envido; at most 2 → worth 2; opens; at most 1" in rules
    assert not any(r.startswith("envido declined pays") for r in rules), "same formula under the defaults"
    assert "envido: envido, envido: only in teg (accepted 4, declined 2)" in payoffs


def test_house_variant_against_its_base() -> None:
    rules, payoffs = words("teg", str(EXAMPLE))
    assert "match target: 30 → 24" in rules
    # teg reads the falta "para el chico", the 15-point game: 15 at 0-0 (specs/teg.yaml, option falta)
    assert "envido: falta envido: accepted 15*, declined 1 → accepted 24*, declined 1" in payoffs


def test_options_given_to_both() -> None:
    rules, _ = words("teg", "board", players=4)
    assert "players: 4 → 4" not in rules and not any(r.startswith("players") for r in rules)


def test_cli(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "1000")
    assert main(["diff", "teg", "teg"]) == 0
    assert "same rules" in capsys.readouterr().out
    assert main(["diff", "teg", "paulista"]) == 1
    out = capsys.readouterr().out
    assert "Rules (teg → paulista)" in out and "Payoffs" in out
    assert main(["diff", "--json", "teg", "board"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["from"] == "teg" and data["to"] == "board"
    assert {"what": "envido: envido, envido", "teg": "accepted 4, declined 2", "board": None} in data["payoffs"]


def test_changed_formulas_read_as_the_rulebook_writes_them() -> None:
    """A changed condition or formula is a sentence (the rulebook's renderer), not DSL: the
    board lets a player fold 'on his own turn or while he is the one being asked' (seed 004:
    'You may fold on your own turn or while you are the one being asked')."""
    rules, _ = words("teg", "board")
    fold = next(r for r in rules if r.startswith("a player may fold when: "))
    assert fold.endswith("→ it is the player's turn (not while a count is under way) or the player is answering a call"), \
        fold
    falta = next(r for r in words("teg", "paulista")[0] if r.startswith("envido call falta envido"))
    assert "what the leading team lacks to win the match" in falta and "answers envido, real envido" in falta
    for line in words("teg", "board")[0] + words("teg", "paulista")[0]:
        for token in ("==", "!=", " and not ", "stake_level", "target - leader", "my_turn", "(code:"):
            assert token not in line, (token, line)


def test_code_on_demand(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    """`--code` follows each sentence with the DSL text it was read from."""
    c = compare("teg", "board", code=True)
    fold = next(d for d in c.rules if d.label == "a player may fold when")
    assert fold.after == ("it is the player's turn (not while a count is under way) or the player is answering a call "
                          "(code: my_turn or answering)")
    monkeypatch.setenv("COLUMNS", "1000")
    assert main(["diff", "--code", "teg", "board"]) == 1
    assert "(code: my_turn or answering)" in capsys.readouterr().out
