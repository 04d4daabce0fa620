"""`truco diff A B`: what differs between two specs, in words and in payoffs."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulespec.rulebook_i18n import catalog
from tests.checker.test_rulebook_language import language_of

from interpreter.cli import main
from interpreter.designer.diff import compare, facts
from interpreter.engine.game import load_game

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "casa.yaml"


def words(a: str, b: str, language: str | None = "en", **options: object) -> tuple[list[str], list[str]]:
    """The differences as printed, in English unless `language` says otherwise (None: the
    first spec's own language)."""
    c = compare(a, b, options, language=language)
    return c.lines(c.rules), c.lines(c.payoffs)


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
    assert "envido call envido: worth 2; opens; answers envido; at most 2 in one chain → worth 2; opens; at most 1 in one chain" in rules
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
    assert main(["diff", "--lang", "en", "teg", "teg"]) == 0
    assert "same rules" in capsys.readouterr().out
    assert main(["diff", "--lang", "en", "teg", "paulista"]) == 1
    out = capsys.readouterr().out
    assert "Rules (teg → paulista)" in out and "Payoffs" in out
    assert main(["diff", "--json", "--lang", "en", "teg", "board"]) == 1
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
    c = compare("teg", "board", code=True, language="en")
    fold = next(d for d in c.rules if d.label == "a player may fold when")
    assert fold.after == ("it is the player's turn (not while a count is under way) or the player is answering a call "
                          "(code: my_turn or answering)")
    monkeypatch.setenv("COLUMNS", "1000")
    assert main(["diff", "--code", "--lang", "en", "teg", "board"]) == 1
    assert "(code: my_turn or answering)" in capsys.readouterr().out


# -- the diff in the spec's language (rulespec/rulebook_i18n/, as `truco rules`) ---------------

ENGLISH = {"the", "and", "is", "of", "which", "when", "it", "not", "does", "to", "or", "are", "with", "only",
           "its", "by", "who", "each", "at", "on", "may", "be", "that", "what", "plus", "team", "call", "hand",
           "trick", "worth", "accepted", "declined", "pays", "nobody", "scores", "never", "always", "default"}


def test_a_spanish_spec_diff_reads_in_spanish() -> None:
    """teg is written in Spanish (`language: es`): its diff against the club's variant speaks
    Spanish without `--lang`. Seed 002 gives three tied tricks to the mano ('Si se empardan las
    tres, gana el mano'); the club gives them to nobody."""
    rules, payoffs = words("teg", str(EXAMPLE), language=None)
    assert "resultado de las bazas P P P (todas pardas): el equipo del mano → nadie anota" in rules
    assert "puntos del partido: 30 → 24" in rules
    assert "envido: falta envido: querido 15*, no querido 1 → querido 24*, no querido 1" in payoffs
    assert "envido: envido, envido: solo en teg (querido 4, no querido 2)" in payoffs


def test_no_english_left_in_a_spanish_diff() -> None:
    """Every line of a Spanish diff — labels, values and the sentences read from formulas —
    is Spanish: no word only English writes. (Lines naming the options of an English spec
    are left out: their names are that spec's identifiers, not the catalog's prose.)"""
    lines = [line for a, b in (("teg", str(EXAMPLE)), (str(EXAMPLE), "teg"), ("teg", "board"))
             for part in words(a, b, language=None) for line in part
             if not (b == "board" and line.startswith(("elección de interpretación", "opción de mesa")))]
    assert len(lines) > 30
    for line in lines:
        english = set(re.findall(r"[a-z]+", line.lower())) & ENGLISH
        assert not english, (english, line)
        assert language_of(line) in ("es", None), line


def test_the_diff_honours_lang(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    """`--lang` chooses the language as for `truco rules`; the default is the first spec's."""
    monkeypatch.setenv("COLUMNS", "1000")
    assert main(["diff", "teg", str(EXAMPLE)]) == 1
    out = capsys.readouterr().out
    assert "Reglas (teg → casa)" in out and "Pagos (teg → casa; * depende del tanteador)" in out
    assert main(["diff", "--lang", "fr", "teg", str(EXAMPLE)]) == 1
    out = capsys.readouterr().out
    assert "Règles (teg → casa)" in out
    assert "résultats des levées N N N (toutes nulles) : l'équipe de la mano → personne ne marque" in out
    assert main(["diff", "--lang", "pt", "teg", "teg"]) == 0
    assert "teg e teg têm as mesmas regras" in capsys.readouterr().out
    assert main(["diff", "--json", "teg", str(EXAMPLE)]) == 1
    assert json.loads(capsys.readouterr().out)["language"] == "es"


def test_calls_are_named_by_the_board_words() -> None:
    """The board's words for calls (seed 004: 'Match envido is worth the target minus the higher
    team's score') name them in the diff too, on both sides, so one rule is one line."""
    rules, payoffs = words("teg", "board")
    assert any(r.startswith("envido call Match envido: ") for r in rules)
    assert not any("falta envido" in r for r in rules + payoffs)
    assert "envido: Match envido: accepted 15*, declined 1 → accepted 30*, declined 1" in payoffs


def test_the_board_words_name_hand_values_and_special_hands(tmp_path: Path) -> None:
    """Seed 004: 'Your own hand prints its envido as Points.' The diff names a hand value, and a
    special hand, by the spec's display words in the diff's language, as the rulebook does."""
    board = facts(load_game("board"), catalog("en"))
    assert board["hand value Points"].startswith("20 plus the points of the best 2 cards")
    assert board["envido compares"] == "Points"
    assert "hand value envido" not in board
    once = tmp_path / "once.yaml"
    once.write_text("name: once\nextends: paulista\nlanguage: es\ndisplay:\n  es:\n    hands:\n"
                    "      eleven: mano de once\n      iron: mano de hierro\n", encoding="utf-8")
    spanish = facts(load_game(str(once)), catalog("es"))
    assert "mano especial mano de once" in spanish and "mano especial eleven" not in spanish
    rules, _ = words("teg", "board")
    assert not any("hand value envido" in r for r in rules)


@pytest.mark.parametrize(("language", "sentence", "wrong"), [
    ("en", "a player may always say good", "when always"),
    ("es", "siempre se puede decir «son buenas»", "cuando siempre"),
    ("fr", "un joueur peut toujours s'incliner", "quand toujours"),
    ("pt", "um jogador sempre pode se dar por vencido", "quando sempre"),
])
def test_a_count_that_always_allows_conceding_says_so(language: str, sentence: str, wrong: str) -> None:
    """Seed 002: 'uno no está obligado a decir el suyo: si sabe que perdió —o si no quiere mostrar
    lo que tiene— dice «son buenas»' — teg lets a player concede whatever the player holds; the
    board only when the player cannot win. The diff says teg's rule as a sentence of its own."""
    rules, _ = words("board", "teg", language)
    count = [r for r in rules if sentence in r]
    assert count, rules
    assert not any(wrong in r for r in rules)
