"""`truco rules`: the rulebook generated from a spec (interpreter/designer/rulebook.py)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.engine.game import load_game
from interpreter.designer.rulebook import render
from rulespec.load import bundled_names

SPECS = bundled_names()


def section(text: str, title: str) -> str:
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert m, f"no section {title!r}"
    return m.group(1)


def table_rows(text: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip("|").split(" | ")] for line in text.splitlines()
            if line.startswith("| ") and not line.startswith("| ---")]


@pytest.mark.parametrize("name", SPECS)
def test_every_bundled_spec_renders(name: str) -> None:
    game = load_game(name)
    text = render(game)
    for title in ("Players and deck", "The order of the cards", "Tricks and ties", "Leaving the hand",
                  "The match", "Interpretation choices"):
        section(text, title)
    for contest in game.spec.contests:
        section(text, f"{contest.name.replace('_', ' ')}: calls and what they pay")
    page = render(game, "html")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert page.count("<table>") == text.count("\n| --- |") + text.startswith("| ---")


@pytest.mark.parametrize("name", SPECS)
def test_card_order_lists_every_card_once(name: str) -> None:
    """The card order table comes from the compiled strengths: every card once (the turned
    card of the example aside), strongest first."""
    game = load_game(name)
    rows = table_rows(section(render(game), "The order of the cards"))[1:]
    cards = [c for _, cell in rows for c in cell.split()]
    assert len(cards) == len(set(cards))
    missing = set(game.cards.ids) - set(cards)
    assert len(missing) == (1 if game.turns_card else 0)
    assert [int(place) for place, _ in rows] == list(range(1, len(rows) + 1))


def test_teg_order_and_hand_values_match_the_seed() -> None:
    """Seed 002: '1.ª 1 de espada, 2.ª 1 de basto ... 7.ª 1 de copa y 1 de oro ... 14.ª Los cuatro'."""
    game = load_game("teg")
    text = render(game)
    rows = table_rows(section(text, "The order of the cards"))[1:]
    assert rows[0] == ["1", "1e"] and rows[1] == ["2", "1b"]
    assert rows[6] == ["7", "1o 1c"] and rows[-1] == ["14", "4e 4b 4o 4c"]
    examples = table_rows(section(text, "Counting the hands").split("### flor")[0])[1:]
    assert examples
    for hand, value in examples:
        codes = [game.cards.index[c] for c in hand.split()]
        assert str(game.values["envido"](codes, None)) == value


def test_sections_cite_their_sources() -> None:
    game = load_game("teg")
    text = render(game)
    spec = game.spec
    for title, source in (("Players and deck", spec.deck.cited.source), ("Tricks and ties", spec.tricks.cited.source),
                          ("Raising the stake", spec.stakes.cited.source),
                          ("envido: calls and what they pay", spec.contests[0].cited.source),
                          ("Leaving the hand", spec.fold.cited.source), ("The match", spec.match.cited.source)):
        assert source and f"> Source: {source}" in section(text, title), title


def test_tie_rules_in_words() -> None:
    """Seed 002, 'Las pardas': 'Pardas las tres: gana el mano'; seed 003: nobody scores."""
    teg = table_rows(section(render(load_game("teg")), "Tricks and ties"))
    assert ["T T T", "the mano's team"] in teg
    assert ["T A", "A (the team that won trick 2)"] in teg
    paulista = table_rows(section(render(load_game("paulista")), "Tricks and ties"))
    assert ["T T T", "nobody scores"] in paulista


def test_formulas_read_under_the_chosen_options() -> None:
    """A formula with an option in it is shown as it reads at the table."""
    text = render(load_game("board"))
    assert "if options.falta_value" not in text
    assert "**falta envido** (worth `target - leader`)" in text
    assert "other team scores `stake`" in text


def test_options_and_interpretations() -> None:
    text = render(load_game("paulista"))
    options = table_rows(section(text, "Table options"))
    assert options[1][:3] == ["`players`", "4", "4"]
    choices = [r[0] for r in table_rows(section(text, "Interpretation choices"))[1:]]
    assert "`three_pardas`" in choices and "`players`" not in choices


def test_cli_writes_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "teg.html"
    assert main(["rules", "teg", "--format", "html", "-o", "flor=true", "--output", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "<h2>flor: calls and what they pay</h2>" in page
    assert "<td>flor, contraflor</td><td>6</td><td>4</td>" in page
    assert main(["rules", "teg"]) == 0
    assert capsys.readouterr().out.startswith("# Reglas del truco argentino")
