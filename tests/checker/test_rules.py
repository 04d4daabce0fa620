"""`truco rules`: the rulebook generated from a spec (interpreter/designer/rulebook.py)."""
from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
import yaml

from rulespec.load import bundled_names, open_spec
from rulespec.rulebook_i18n import catalog

from interpreter.cli import main
from interpreter.designer.rulebook import plain, render
from interpreter.engine.game import load_game

SPECS = bundled_names()


def section(text: str, title: str) -> str:
    """The body of the article titled `title` ("## Article N. title")."""
    m = re.search(rf"^## Article \d+\. {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert m, f"no article {title!r}"
    return m.group(1)


def table_rows(text: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip("|").split(" | ")] for line in text.splitlines()
            if line.startswith("| ") and not line.startswith("| ---")]


@functools.cache
def english(name: str, **options: str) -> str:
    return render(load_game(name, options), language="en")


@functools.cache
def own(name: str) -> str:
    return render(load_game(name))


@pytest.mark.parametrize("name", SPECS)
def test_every_bundled_spec_renders_as_numbered_articles(name: str) -> None:
    game = load_game(name)
    text = english(name)
    for title in ("Players and cards", "The order of the cards", "Tricks and ties", "Leaving the hand",
                  "The match", "Interpretation choices", "Glossary of the calls"):
        section(text, title)
    for contest in game.spec.contests:
        section(text, f"The {contest.name.replace('_', ' ')}: calls and what they pay")
    numbers = [int(n) for n in re.findall(r"^## Article (\d+)\. ", text, re.M)]
    assert numbers == list(range(1, len(numbers) + 1))
    contents = text.split("**Contents**", 1)[1].split("\n## ", 1)[0]
    assert re.findall(r"^- (Article \d+\. .*)$", contents, re.M) == re.findall(r"^## (Article \d+\. .*)$", text, re.M)
    page = render(game, "html", language="en")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert page.count("<table>") == text.count("\n| --- |") + text.startswith("| ---")


@pytest.mark.parametrize("name", SPECS)
def test_a_rulebook_is_written_in_its_specs_language_unless_asked_otherwise(name: str) -> None:
    """spec-language.md: `language` is "the rulebook's language, `es`, `fr`, `pt` or `en` (the default):
    `truco rules` writes the rulebook in it" — read here from the spec's YAML, not from what the builder made."""
    written = open_spec(name).tree.data.get("language", "en")
    assert f"**{catalog(written)('contents')}**" in own(name)
    if written != "en":
        assert f"**{catalog(written)('contents')}**" not in english(name)


def test_display_labels_name_the_suits_and_signals(tmp_path: Path) -> None:
    """spec-language.md, `display`: "What the boards print instead of the spec's own names, per
    language"; the rulebook uses them too. teg's Spanish labels for its suits and señas are each
    in its rulebook, and a `source:` or a `note:` (one per language, a mapping too) under `display`
    cites the labels without being a language, wherever it stands among the languages."""
    labels = [label for kind in open_spec("teg").tree.data["display"]["es"].values() for label in kind.values()]
    assert len(labels) == 8 and all(label in own("teg") for label in labels)
    variant = tmp_path / "cited.yaml"
    variant.write_text('extends: teg\nname: cited\ndisplay:\n  source: "the house\'s own words"\n'
                       '  note: {es: "las palabras de la casa", en: "the house\'s words"}\n'
                       '  en: {suits: {e: swords}}\n', encoding="utf-8")
    game = load_game(str(variant))
    assert [code for code, _ in game.spec.display] == ["es", "en"]
    assert all(label in render(game) for label in labels)


@pytest.mark.parametrize("name", SPECS)
def test_prose_not_code_and_no_local_names(name: str) -> None:
    """No DSL in the text: no code spans, no operators, no `options.` names, no snake_case
    names; no file of the repository and no path of the machine."""
    for text in (english(name), own(name)):
        assert "`" not in text
        written = "\n".join(line for line in text.splitlines()
                            if not line.startswith(("> ", "_Note:_", "_Nota:_", "_Remarque :_")))
        for o in load_game(name).spec.options:       # the spec's own words, printed as written
            for _, doc in o.doc.texts if o.doc else ():
                written = written.replace(plain(doc), "")
        for token in ("==", "!=", "<=", ">=", " // ", "options.", "best_suited", "stake_level"):
            assert token not in written, token
        assert not re.findall(r"\b[a-z]+_[a-z_]+\b", written)
        for local in ("/work", "/home", ".yaml", ".txt", "specs/", "docs/", "tests/", "seed 00"):
            assert local not in text, local


@pytest.mark.parametrize("name", SPECS)
def test_card_order_lists_every_card_once(name: str) -> None:
    """The card order table comes from the compiled strengths: every card once (the turned
    card of the example aside), strongest first."""
    game = load_game(name)
    rows = table_rows(section(english(name), "The order of the cards"))[1:]
    cards = [c for _, cell in rows if cell[:1].isdigit() or cell[:1].isupper() for c in cell.split()]
    order_rows = [r for r in rows if r[0].isdigit()]
    cards = [c for _, cell in order_rows for c in cell.split()]
    assert len(cards) == len(set(cards))
    missing = set(game.cards.ids) - set(cards)
    assert len(missing) == (1 if game.turns_card else 0)
    assert [int(place) for place, _ in order_rows] == list(range(1, len(order_rows) + 1))


def test_teg_order_and_hand_values_match_the_seed() -> None:
    """Reglas del truco argentino: '1.ª 1 de espada, 2.ª 1 de basto ... 7.ª 1 de copa y 1 de oro ... 14.ª Los cuatro'."""
    game = load_game("teg")
    text = english("teg")
    rows = table_rows(section(text, "The order of the cards"))[1:]
    assert rows[0] == ["1", "1e"] and rows[1] == ["2", "1b"]
    assert rows[6] == ["7", "1o 1c"] and rows[-1] == ["14", "4e 4b 4o 4c"]
    examples = table_rows(section(text, "Counting the hands").split("### flor")[0])[1:]
    assert examples
    for hand, value in examples:
        codes = [game.cards.index[c] for c in hand.split()]
        assert str(game.values["envido"](codes, None)) == value


def test_trumps_are_listed_as_the_engine_ranks_them() -> None:
    """uruguayo: with 1e turned the piezas from the strongest down are 2e, 4e, 5e, 11e, 10e,
    as the order table above says; the text does not claim an order of its own."""
    text = english("uruguayo")
    order = section(text, "The order of the cards")
    assert "With 1e turned, the trumps from the strongest down: 2e, 4e, 5e, 11e, 10e." in order
    rows = table_rows(order)[1:6]
    assert [cell for _, cell in rows] == ["2e", "4e", "5e", "11e", "10e"]
    assert "strongest last" not in text


def test_sections_cite_their_sources() -> None:
    game = load_game("teg")
    text = english("teg")
    spec = game.spec
    # the head names the rulebook the whole spec encodes, as its `source:` writes it
    written = yaml.safe_load((Path(__file__).resolve().parents[2] / "specs" / "teg.yaml").read_text())["source"]
    assert text.split("\n")[2] == f"_This rulebook encodes:_ {written}"
    for title, source in (("Players and cards", spec.deck.cited.source), ("Tricks and ties", spec.tricks.cited.source),
                          ("Raising the stake", spec.stakes.cited.source),
                          ("The envido: calls and what they pay", spec.contests[0].cited.source),
                          ("Leaving the hand", spec.fold.cited.source), ("The match", spec.match.cited.source)):
        assert source and f"> Source: {source}" in section(text, title), title


def test_tie_rules_in_words() -> None:
    """Reglas del truco argentino, 'Las pardas': 'Pardas las tres: gana el mano'; Truco Paulista: nobody scores."""
    teg = table_rows(section(english("teg"), "Tricks and ties"))
    assert ["T T T", "the mano's team"] in teg
    assert ["T A", "team A (which won trick 2)"] in teg
    paulista = table_rows(section(english("paulista"), "Tricks and ties"))
    assert ["T T T", "nobody: no one scores"] in paulista


def test_formulas_read_as_sentences_under_the_chosen_options() -> None:
    """A formula with an option in it is read as it is at the table, in words."""
    text = english("board")            # the board names the falta envido "Match envido"
    assert "**Match envido** (worth what the leading team lacks to win the match)" in text
    assert "the other team scores what the hand is worth at that moment" in text
    envido = section(english("teg"), "The envido: calls and what they pay")
    assert ("It may be opened when it is the first trick, the player has not played a card yet and no stake "
            "call has been accepted.") in envido
    values = section(english("teg"), "Counting the hands")
    assert ("How it is counted (envido): 20 plus the points of the best 2 cards of one suit if the hand holds 2 "
            "cards of one suit; otherwise the points of the best card.") in values


def test_options_say_what_each_value_changes() -> None:
    """teg plays without flor by default; its rulebook still has the flor's article and says
    what playing with flor changes, computed by the engine."""
    text = english("teg")
    flor = section(text, "The flor: calls and what they pay")
    assert "This article applies only with the table option flor: yes." in flor
    assert ["flor, contraflor", "6", "4"] in table_rows(flor)
    options = section(text, "Table options")
    assert "With flor: yes:\n\n- the calls flor, contraflor, contraflor al resto become possible." in options
    assert '- the article "The flor: calls and what they pay" applies' in options
    assert ["flor, contraflor", "—", "accepted 6, declined 4"] in table_rows(options)
    assert ["points to win", "30", "15"] in table_rows(options) and "### points to win" in options
    # "para el chico" (the 15-point game): at 0-0 the falta is 15 in both games; the option `falta`
    # (an interpretation choice) is what changes it
    target = options[options.index("### points to win"):options.index("### flor")]
    assert not any(row[0] == "falta envido" for row in table_rows(target))
    choices = section(text, "Interpretation choices")
    assert ["falta envido", "accepted 15, declined 1", "accepted 30, declined 1"] in table_rows(choices)


def test_interpretation_choices_with_their_sources() -> None:
    text = english("paulista")
    choices = section(text, "Interpretation choices")
    assert "### three pardas" in choices
    spec = load_game("paulista").spec
    cited = next(o for o in spec.options if o.name == "three_pardas").cited
    assert f"> Source: {cited.source}" in choices
    assert "### players" in section(text, "Table options") and "### players" not in choices
    assert "This edition is written for the table options players: 4." in text


def test_glossary_lists_every_call_and_its_other_words() -> None:
    rows = table_rows(section(english("teg"), "Glossary of the calls"))
    words = {r[0]: r for r in rows}
    for call in ("truco", "retruco", "vale cuatro", "envido", "real envido", "falta envido", "flor", "contraflor"):
        assert call in words, call
    assert words["accept"][2] == "quiero" and words["fold"][2] == "mazo"


def test_cli_writes_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "teg.html"
    assert main(["rules", "teg", "--format", "html", "--lang", "en", "-o", "flor=true", "--output", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert re.search(r'<h2 id="art-\d+">Article \d+\. The flor: calls and what they pay</h2>', page)
    assert "<td>flor, contraflor</td><td>6</td><td>4</td>" in page
    assert "@media print" in page and "size:A4" in page
    assert main(["rules", "teg"]) == 0
    assert capsys.readouterr().out.startswith("# Reglas del truco argentino")


def test_interpretation_choices_say_what_each_reading_changes() -> None:
    """The other reading's rules are read from the game built under it: uruguayo's three_pardas
    'nobody' changes one line of the trick table; its falta value 'winner' the falta's worth."""
    choices = section(english("uruguayo"), "Interpretation choices")
    three = choices.split("### three tied tricks", 1)[1].split("###", 1)[0]
    assert "With three tied tricks: nobody:\n\n- the rule reads: Tricks and ties: T T T — nobody: no one scores" in three
    falta = choices.split("### what the falta is worth", 1)[1].split("###", 1)[0]
    assert ("- the rule reads: The envido: calls and what they pay: **falta envido** (worth what the winning team "
            "lacks to win the match)") in falta
    assert ["falta envido", "accepted 40, declined 1", "accepted 20, declined 1"] in table_rows(falta)


@pytest.mark.parametrize("name", ["specs_invalid/alias_unknown_verb.yaml", "specs_designer/players25.yaml"])
def test_no_rulebook_for_a_spec_the_checker_finds_wrong(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A spec that loads but that the checker's quick pass finds wrong (an alias to no verb;
    five seats in two alternating teams) gets no rulebook: exit 1, the errors located in the
    designer's file."""
    path = Path(__file__).resolve().parents[1] / name
    assert main(["rules", str(path)]) == 1
    captured = capsys.readouterr()
    assert "# " not in captured.out                          # no article printed
    assert re.search(rf"{re.escape(path.name)}:\d+:\d+ at \$\.", captured.out), captured.out
    assert "no rulebook" in captured.out


def test_an_option_prints_its_doc_source_and_note() -> None:
    """Each option's paragraph starts with its `doc:`, and it cites its `source:` and `note:`
    (teg's flor option writes all three, in Spanish and English); a doc or note written in the
    spec's language alone (paulista's `cover_from`, in French) is printed marked as borrowed."""
    spec = load_game("teg").spec
    flor = next(o for o in spec.options if o.name == "flor")
    options = section(english("teg"), "Table options")
    block = options[options.index("### flor"):].split("\n### ", 1)[0]
    assert "Play with flor (three cards of one suit). Values: no, yes;" in block
    assert f"> Source: {flor.cited.source}" in block
    assert ("_Note:_ The rulebook does not say which is usual; without flor is the default, as in "
            "tournaments.") in block
    choices = section(english("paulista"), "Interpretation choices")
    block = choices[choices.index("### cover from"):].split("\n### ", 1)[0]
    assert "[not translated, fr] Le premier tour où une carte peut être jouée face cachée. Values: 2, 1;" in block
    assert "_Note:_ [not translated, fr] Le règlement définit la carte couverte mais pas quand on peut la jouer" \
        in block


def test_an_outcome_table_cites_its_source_and_note_under_it(tmp_path: Path) -> None:
    """The schema lets a trick-outcome table carry `source:` and `note:` beside its patterns,
    as every table of the spec may: they are its citation, printed under the table, and no
    pattern of it. A note written once, in the spec's language (teg's Spanish), is printed marked
    as borrowed in an English rulebook."""
    house = tmp_path / "cited.yaml"
    house.write_text("extends: teg\nname: cited\ntricks:\n  note: Nota de la casa.\n  outcome:\n    source: Reglamento, art. 9\n"
                     "    note: {es: Dos bazas ganadas deciden., en: Two tricks won decide at once.}\n    \"A A\": A\n", encoding="utf-8")
    game = load_game(str(house))
    assert [o.pattern for o in game.spec.tricks.outcomes][:2] == [("A", "A"), ("A", "B", "A")]
    tricks = section(render(game, language="en"), "Tricks and ties")
    rows = table_rows(tricks[tricks.index("| Tricks |"):])
    assert rows[:2] == [["Tricks", "The hand goes to"], ["A A", "team A (which won trick 1)"]]
    assert len(rows) == 1 + len(game.spec.tricks.outcomes)
    after = tricks[tricks.index("| T T T |"):]
    assert after.index("> Source: Reglamento, art. 9") < after.index("_Note:_ Two tricks won decide at once.") \
        < after.index("**Example 4.1**") < after.index("_Note:_ [not translated, es] Nota de la casa.")


def test_a_hand_format_cites_its_source_under_the_schedule(tmp_path: Path) -> None:
    """Each hand format of a schedule may cite its own clause, printed under the schedule's."""
    house = tmp_path / "formats.yaml"
    house.write_text("extends: uruguayo\nname: formats\nschedule:\n  formats:\n    - name: redondilla\n"
                     "      seats: all\n      source: Reglamento, la redonda\n    - name: pico_a_pico\n"
                     "      seats: facing\n", encoding="utf-8")
    text = render(load_game(str(house), {"players": 6, "pico_a_pico": "malas"}), language="en")
    assert "**redondilla**\n\n> Source: Reglamento, la redonda" in text
