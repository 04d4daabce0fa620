"""Table options: declared with type, default and allowed values; chosen when a game is made."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.errors import OptionError, SpecError
from rulespec.load import load_spec, open_spec

from interpreter.engine.game import load_game


def write(tmp_path: Path, options: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: teg\nname: house\noptions:\n{options}")
    return path


@pytest.mark.parametrize("declared, values, wrong", [
    ("int", "[1, calm]", "['calm']"),
    ("string", "[1, 2]", "[1, 2]"),          # the declared type, not the first value's, is the one
])
def test_declared_type_must_match_every_value(tmp_path: Path, declared: str, values: str, wrong: str) -> None:
    path = write(tmp_path, f"  mood: {{type: {declared}, values: {values}, default: 1}}\n")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    [diag] = err.value.diagnostics
    assert diag.path == "$.options.mood.values"
    assert diag.message == f"the allowed values must all be of type {declared}, not {wrong}"
    assert (diag.loc.line, diag.loc.col) == (4, 26 + len(declared))      # the list of values


def test_type_is_inferred_from_the_values() -> None:
    kinds = {o.name: o.type for o in open_spec("teg").options}
    assert kinds == {"players": "int", "target": "int", "flor": "bool", "falta": "string"}


def test_unknown_option_and_value_are_refused_with_what_is_offered() -> None:
    with pytest.raises(OptionError, match=r"no option 'flower' \(did you mean 'flor'\?\)"):
        load_game("teg", flower=True)
    with pytest.raises(OptionError, match=r"option 'target' cannot be 20; allowed: 15, 30$"):
        load_game("teg", target=20)


def test_command_line_strings_are_coerced_to_the_declared_values() -> None:
    game = load_game("teg", {"target": "15", "flor": "true", "players": "4"})
    assert (game.target, game.options["flor"], game.num_players) == (15, True, 4)


@pytest.mark.parametrize("reales", [False, True])
def test_a_call_switched_off_is_no_longer_one_another_call_answers(reales: bool) -> None:
    """reglamento: "Dos / Tres Reales | Variante maison : +6 et +9 points." Its falta envido answers
    the dos and tres reales too; with the house variant off they are no calls at all, so the falta
    answers the envido and the real envido only."""
    spec = load_spec("reglamento", {"reales": reales})
    falta = next(c for c in spec.contests[0].calls if c.name == "falta_envido")
    assert falta.after == ("envido", "real_envido", "dos_reales", "tres_reales")[:4 if reales else 2]
    assert ("dos_reales" in spec.disabled_calls) is not reales
