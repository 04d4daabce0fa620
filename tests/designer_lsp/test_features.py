"""Completion, hover, definition and code actions on analysed buffers (no server process)."""
from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp

from rulespec.load import bundled_dir
from rulespec.vocabulary import NAMES, Scope

from interpreter.designer.lsp import features
from interpreter.designer.lsp.analysis import analyze
from interpreter.designer.lsp.server import to_lsp

TEG = bundled_dir() / "teg.yaml"
PAULISTA = bundled_dir() / "paulista.yaml"


def _at(text: str, needle: str, offset: int = 0) -> tuple[int, int]:
    i = text.index(needle) + offset
    return text.count("\n", 0, i), i - (text.rfind("\n", 0, i) + 1)


def _labels(a, text, needle, offset=None):
    line, char = _at(text, needle, len(needle) if offset is None else offset)
    return [i.label for i in features.completion(a, line, char)]


def _variant(tmp_path: Path, text: str):
    path = tmp_path / "house.yaml"
    return analyze(path, text), text


def test_from_an_empty_file_the_keys_of_a_spec(tmp_path):
    a, text = _variant(tmp_path, "")
    labels = [i.label for i in features.completion(a, 0, 0)]
    assert {"extends", "name", "options", "ranking", "stakes", "contests", "verbs"} <= set(labels)
    a, text = _variant(tmp_path, "extends: ")
    assert {"teg", "reglamento", "paulista"} <= set(_labels(a, text, "extends: "))


def test_keys_under_a_call_and_the_base_entries_to_override(tmp_path):
    text = "extends: teg\nname: house\ncontests:\n  envido:\n    calls:\n      \n"
    a, _ = _variant(tmp_path, text)
    assert {"envido", "real_envido", "falta_envido"} <= {i.label for i in features.completion(a, 5, 6)}
    text = "extends: teg\nname: house\ncontests:\n  envido:\n    calls:\n      envido:\n        m\n"
    a, _ = _variant(tmp_path, text)
    labels = [i.label for i in features.completion(a, 6, 9)]
    assert {"worth", "max", "after", "opens"} <= set(labels) and "window" not in labels


def test_formula_names_are_those_of_its_scope(tmp_path):
    text = "extends: teg\nname: house\ncontests:\n  envido:\n    window: \"trick == 1 and \"\n"
    a, _ = _variant(tmp_path, text)
    labels = set(_labels(a, text, "1 and "))
    trick_scope = {n for n, t in NAMES.items() if t.scope in (Scope.ANYWHERE, Scope.HAND, Scope.TRICK)}
    assert trick_scope <= labels
    assert not {n for n, t in NAMES.items() if t.scope in (Scope.CARDS, Scope.CONTEST, Scope.COUNT)} & labels
    text = "extends: teg\nname: house\nwhen:\n  x:\n    if: \"options.\"\n"
    a, _ = _variant(tmp_path, text)
    assert {"target", "flor"} <= set(_labels(a, text, "options."))
    assert "trick" not in _labels(a, text, "options.")


def test_call_names_in_after_lists_and_option_values(tmp_path):
    text = ("extends: teg\nname: house\noptions:\n  target: {values: [15, 30], default: }\n"
            "contests:\n  envido:\n    calls:\n      envido: {after: [re]}\n")
    a, _ = _variant(tmp_path, text)
    assert set(_labels(a, text, "after: [re")) == {"envido", "real_envido", "falta_envido"}
    assert _labels(a, text, "default: ") == ["15", "30"]


def test_card_ids_of_the_deck_in_the_ranking(tmp_path):
    text = "extends: teg\nname: house\nranking: \"1e > \"\n"
    a, _ = _variant(tmp_path, text.replace("\"1e > \"", "\"1e > 1b > 7e > 7o > 3 > 2 > 1o = 1c > 12 > 11 > 10 > 7c = 7b > 6 > 5 > 4\""))
    a.text = text
    labels = _labels(a, text, "1e > ")
    assert "1e" in labels and "7o" in labels and len(labels) == 40


def test_hover_a_dsl_name_its_type_scope_and_meaning():
    text = TEG.read_text(encoding="utf-8")
    a = analyze(TEG, text)
    line, char = _at(text, "window: \"", len("window: \"") + 1)
    body = features.hover(a, line, char).contents.value
    word = text.split("\n")[line][char - 1:].split()[0].strip("\"")
    assert f"**{word}**: {NAMES[word].type.value}, {NAMES[word].scope.value}" in body


def test_hover_a_card_under_the_ranking_and_each_turned_card(tmp_path):
    text = TEG.read_text(encoding="utf-8")
    line, char = _at(text, "ranking: \"1e", len("ranking: \"1"))
    body = features.hover(analyze(TEG, text), line, char).contents.value
    assert "**card 1e**: rank 1 of 14 under the ranking" in body and "turned" not in body
    path = tmp_path / "house.yaml"
    text = "extends: paulista\nname: house\nnote: \"with 3d turned, 4c is the top manilha\"\n"
    a = analyze(path, text)
    body = features.hover(a, 2, text.split("\n")[2].index("4c") + 1).contents.value
    assert "| turned | rank |" in body
    assert "| 3d | 1 of " in body           # the next rank's clubs is the top trump
    assert "| 4d | 1 of " not in body       # 4c is no trump when 4d is turned


def test_definition_of_a_call_goes_to_the_base(tmp_path):
    text = "extends: teg\nname: house\ncontests:\n  envido:\n    calls:\n      real_envido: {max: 1}\n"
    a, _ = _variant(tmp_path, text)
    locations = features.definition(a, 5, 8)
    teg = TEG.read_text(encoding="utf-8")
    want = _at(teg, "      real_envido:", 6)
    assert any(loc.uri == TEG.resolve().as_uri() and (loc.range.start.line, loc.range.start.character) == want
               for loc in locations)


def test_replace_fix_where_a_base_entries_survive(tmp_path):
    text = ("extends: teg\nname: house\ntricks:\n  count: 5\n  outcome:\n"
            "    \"A A A\": A\n")
    path = tmp_path / "house.yaml"
    a = analyze(path, text)
    found = [f for f in a.findings if "!replace" in f.diagnostic.message]
    assert found, a.findings
    d = to_lsp(found[0].diagnostic, found[0].code, text)
    [fix] = [c for c in features.code_actions(a, path.as_uri(), d.range, [d]) if "!replace" in c.title]
    [edit] = fix.edit.changes[path.as_uri()]
    new = text.split("\n")[4][:edit.range.start.character] + edit.new_text
    assert new == "  outcome: !replace"
    fixed = "\n".join(new if i == 4 else line for i, line in enumerate(text.split("\n")))
    assert not any("!replace" in f.diagnostic.message for f in analyze(path, fixed).findings)


def test_source_stub_for_a_declaration_without_one(tmp_path):
    text = "extends: teg\nname: house\noptions:\n  casa:\n    values: [false, true]\n"
    path = tmp_path / "house.yaml"
    a = analyze(path, text)
    rng = lsp.Range(lsp.Position(3, 3), lsp.Position(3, 3))
    [stub] = [c for c in features.code_actions(a, path.as_uri(), rng, []) if "source" in c.title]
    [edit] = stub.edit.changes[path.as_uri()]
    assert (edit.range.start.line, edit.new_text) == (4, "    source: \"\"\n")
    text = "extends: teg\nname: house\noptions:\n  casa: {values: [false, true], source: \"x\"}\n"
    a = analyze(path, text)
    rng = lsp.Range(lsp.Position(3, 3), lsp.Position(3, 3))
    assert not [c for c in features.code_actions(a, path.as_uri(), rng, []) if "source" in c.title]


def test_hover_a_stake_call_its_worth_accepted_and_declined():
    text = TEG.read_text(encoding="utf-8")
    line, char = _at(text, "retruco:", 2)
    body = features.hover(analyze(TEG, text), line, char).contents.value
    assert "accepted: the hand is worth 3; declined: 2 to the caller" in body
    assert "source: Retruco (quiero retruco) | 3 puntos | 2 puntos" in body


def test_hover_an_option_whose_doc_is_written_per_language(tmp_path):
    """The Argentine base writes its docs in English, Spanish and French: the hover shows each."""
    base = bundled_dir() / "bases" / "argentina.yaml"
    text = f"extends: {base}\nname: house\nwhen:\n  x:\n    if: \"options.three_pardas == 'mano'\"\n"
    a, text = _variant(tmp_path, text)
    line, char = _at(text, "three_pardas", 3)
    body = features.hover(a, line, char).contents.value
    assert "en: All three tricks tied" in body and "es: Las tres bazas pardas" in body
    assert "{'en'" not in body
