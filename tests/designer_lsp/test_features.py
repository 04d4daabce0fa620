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


def test_a_contest_compares_a_hand_value_and_cancels_other_contests(tmp_path):
    text = "extends: teg\nname: house\ncontests:\n  chica:\n    value: \n    cancels: [\n"
    a, _ = _variant(tmp_path, text)
    assert set(_labels(a, text, "value: ")) == {"envido", "flor"}
    assert set(_labels(a, text, "cancels: [")) == {"envido", "flor"}
    text = "extends: teg\nname: house\ncontests:\n  chica:\n    window: \"idle('"   # the quote still open
    a, _ = _variant(tmp_path, text)
    assert set(_labels(a, text, "idle('")) == {"envido", "flor"}


def test_card_ids_of_the_deck_in_the_ranking(tmp_path):
    text = "extends: teg\nname: house\nranking: \"1e > \"\n"
    a, _ = _variant(tmp_path, text.replace("\"1e > \"", "\"1e > 1b > 7e > 7o > 3 > 2 > 1o = 1c > 12 > 11 > 10 > 7c = 7b > 6 > 5 > 4\""))
    a.text = text
    labels = _labels(a, text, "1e > ")
    assert "1e" in labels and "7o" in labels and "3" in labels      # a card, or every card of a rank
    assert len(labels) == 40 + 10


def test_card_ids_and_ranks_wherever_the_spec_takes_one(tmp_path):
    text = ("extends: uruguayo\nname: house\noptions:\n  muestra:\n    values: [1e, 7o, ]\n"
            "turned:\n  trumps:\n    kind: \n    ranks: [2, 4, ]\n    substitute: \n    suits: \"\"\n"
            "    points:\n      \n"
            "values:\n  x:\n    formula: \"rank_count('')\"\n"
            "deck:\n  figures:\n    - \n")
    a, _ = _variant(tmp_path, text)
    ranks = {"1", "2", "3", "4", "5", "6", "7", "10", "11", "12"}
    cards = set(_labels(a, text, "[1e, 7o, "))                     # an option whose values are cards
    assert {"1e", "4c"} | ranks <= cards and len(cards) == 50
    assert set(_labels(a, text, "ranks: [2, 4, ")) == ranks         # the trumps of the muestra's suit
    assert set(_labels(a, text, "substitute: ")) == ranks
    assert set(_labels(a, text, "rank_count('")) == ranks
    assert set(_labels(a, text, "figures:\n    - ")) == ranks
    assert set(_labels(a, text, "points:\n      ")) == ranks          # points are keyed by rank
    assert set(_labels(a, text, "suits: \"")) == {"e", "b", "o", "c"}
    assert set(_labels(a, text, "kind: ")) == {"next_rank", "same_suit"}   # an enum, no cards


def test_hover_a_bare_rank_its_cards_under_the_ranking_and_each_turned_card(tmp_path):
    text = TEG.read_text(encoding="utf-8")
    line, char = _at(text, "7o > 3 >", len("7o > 3"))
    body = features.hover(analyze(TEG, text), line, char).contents.value
    assert "**rank 3** under the ranking: 3e 5 of 14, 3b 5 of 14, 3o 5 of 14, 3c 5 of 14" in body
    line, char = _at(text, "worth: 3", len("worth: 3"))
    assert "rank" not in features.hover(analyze(TEG, text), line, char).contents.value   # a number, no card
    path = tmp_path / "house.yaml"
    text = "extends: paulista\nname: house\nturned:\n  trumps:\n    cycle: [4, 5, 6, 7, Q, J, K, A, 2, 3]\n"
    body = features.hover(analyze(path, text), *_at(text, "[4", 1)).contents.value
    assert "**rank 4** under the ranking: 4d 10 of 10" in body and "| turned | 4d | 4s | 4h | 4c |" in body
    assert "| 3d | 4 of 13 | 3 of 13 | 2 of 13 | 1 of 13 |" in body      # 3 turned: the 4s are the manilhas
    assert "| 5d | 13 of 13 | 13 of 13 | 13 of 13 | 13 of 13 |" in body   # 5 turned: the 4s are the weakest cards


def test_completion_in_flow_mappings_and_lists_over_several_lines(tmp_path):
    text = ("extends: teg\nname: house\ncontests:\n  envido:\n    calls:\n"
            "      falta_envido: {accept: total,\n        }\n"
            "      real_envido: {max: 1,\n        after: [envido,\n          \n")
    a, _ = _variant(tmp_path, text)
    keys = set(_labels(a, text, "total,\n        "))
    assert {"worth", "after", "opens"} <= keys and "accept" not in keys and "envido" not in keys
    assert set(_labels(a, text, "[envido,\n          ")) == {"envido", "real_envido", "falta_envido"}
    text = ("extends: teg\nname: house\nnote: >-\n  a [bracket { in prose\n"
            "contests:\n  envido: {window: \"trick == 1\",\n    count: {tie: \n")
    a, _ = _variant(tmp_path, text)
    assert "nearer_lead" in _labels(a, text, "tie: ")


def test_hover_in_a_flow_mapping_over_several_lines(tmp_path):
    text = ("extends: teg\nname: house\ncontests:\n  envido: {value: envido,\n"
            "    window: \"trick == 1 and not played\",\n    source: \"Club rules, art. 4\"}\n")
    a, _ = _variant(tmp_path, text)
    body = features.hover(a, *_at(text, "not played", 5)).contents.value
    assert body.startswith(f"**played**: {NAMES['played'].type.value}, {NAMES['played'].scope.value}")
    assert "source: Club rules, art. 4" in body


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


def test_definition_of_a_name_used_by_the_structure_is_what_that_use_names(tmp_path):
    """teg spells a contest, its first call and a hand value `envido`: each use goes to its own."""
    text = ("extends: teg\nname: house\ncontests:\n  chica:\n    value: envido\n    cancels: [envido]\n"
            "    window: \"not called('envido')\"\n")
    a, _ = _variant(tmp_path, text)
    teg = TEG.read_text(encoding="utf-8")

    def goes(needle, offset):
        return [(Path(loc.uri).name, loc.range.start.line) for loc in features.definition(a, *_at(text, needle, offset))]
    assert goes("value: envido", 8) == [("teg.yaml", _at(teg, "  envido:\n    source: \"Con dos")[0])]
    assert goes("cancels: [envido", 11) == [("teg.yaml", _at(teg, "  envido:\n    value: envido")[0])]
    assert goes("called('envido", 9) == [("teg.yaml", _at(teg, "      envido: {worth: 2")[0])]


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


def _refs(a, text, needle, offset=0, declaration=True):
    out = []
    for loc in features.references(a, *_at(text, needle, offset), declaration=declaration):
        path = Path(loc.uri.removeprefix("file://"))
        body = (text if path == a.path else path.read_text(encoding="utf-8")).split("\n")[loc.range.start.line]
        out.append((path.name, loc.range.start.line, body[loc.range.start.character:loc.range.end.character]))
    return out


def test_references_are_the_uses_of_the_spec_structure_not_its_words(tmp_path):
    text = ("extends: teg\nname: house\n"
            "note: \"retruco is only sung after a truco; rapido is a house word\"\n"
            "options:\n  rapido:\n    values: [no, si]\n    default: si\n"
            "    source: \"Club rules: 'rapido: a retruco at once'\"\n"
            "when:\n  fast:\n    if: \"options.rapido == 'si'\"  # rapido, retruco\n"
            "    set:\n      stakes: {calls: {retruco: {worth: 4}}}\n"
            "fold:\n  when: \"not counting and not called('retruco')\"\n")
    a, _ = _variant(tmp_path, text)
    assert not [f for f in a.findings if f.diagnostic.severity == "error"], a.findings
    calls = _refs(a, text, "called('retruco", len("called('r"))
    assert ("house.yaml", 12, "retruco") in calls and ("house.yaml", 14, "retruco") in calls
    assert ("teg.yaml", _at(TEG.read_text(encoding="utf-8"), "    retruco:")[0], "retruco") in calls  # in the base
    assert [r for r in calls if r[0] == "house.yaml"] == [("house.yaml", 12, "retruco"), ("house.yaml", 14, "retruco")]
    assert _refs(a, text, "retruco", declaration=False) == []   # the note's word names nothing
    option = _refs(a, text, "  rapido:", 2)
    assert option == [("house.yaml", 4, "rapido"), ("house.yaml", 10, "rapido")]
    assert _refs(a, text, "options.rapido == 'si'", len("options.rapido == '")) == [
        ("house.yaml", 5, "si"), ("house.yaml", 6, "si"), ("house.yaml", 10, "si")]
    assert _refs(a, text, "'rapido: a", 1) == []                # a source quote is prose


def test_a_conformance_case_file_completes_and_shows_the_cards_of_its_spec(tmp_path):
    text = ("spec: paulista\ncases:\n  - name: first\n"
            "    hands: [[4c, 7h, As], [3d, \n    vira: \n    actions:\n      - 0 play \n      - 1 \n")
    path = tmp_path / "case.yaml"
    a = analyze(path, text)
    assert a.case and [f.code for f in a.findings] == ["yaml"]     # the hand is still open
    deck = set(features.cards_of(a))
    assert len(deck) == 40
    assert set(_labels(a, text, "[3d, ")) == deck
    assert set(_labels(a, text, "vira: ")) == deck
    assert set(_labels(a, text, "0 play ")) == deck
    assert {"accept", "truco", "seis", "aceito", "corro"} <= set(_labels(a, text, "- 1 "))
    text = ("spec: paulista\ncases:\n  - name: first\n"
            "    hands: [[4c, 7h, As], [3d, 5s, 6h], [Kc, Qd, Js], [2h, 2c, 5d]]\n    vira: 3c\n"
            "    actions:\n      - 0 play 4c\n      - expect: {to_act: 0}\n")
    a = analyze(path, text)
    [f] = a.findings                  # what truco replay says, at the step that fails
    assert f.code == "replay" and "fails at step 2: to_act: expected 0, got 1" in f.diagnostic.message
    assert (f.diagnostic.loc.line, f.diagnostic.loc.col) == (8, 9)     # the failing step: the expect
    body = features.hover(a, *_at(text, "[[4c", 2)).contents.value
    assert "**card 4c**" in body and "| 3c | 1 of " in body     # with 3c turned, 4c is the top manilha
    a = analyze(path, text.replace("0 play 4c", "0 play 4x"))
    [f] = a.findings
    assert "'4x' is not a card of this deck" in f.diagnostic.message


def test_hover_an_option_whose_doc_is_written_per_language(tmp_path):
    """The Argentine base writes its docs in English, Spanish and French: the hover shows each."""
    base = bundled_dir() / "bases" / "argentina.yaml"
    text = f"extends: {base}\nname: house\nwhen:\n  x:\n    if: \"options.three_pardas == 'mano'\"\n"
    a, text = _variant(tmp_path, text)
    line, char = _at(text, "three_pardas", 3)
    body = features.hover(a, line, char).contents.value
    assert "en: All three tricks tied" in body and "es: Las tres bazas pardas" in body
    assert "{'en'" not in body


def test_under_a_when_entry_set_the_base_entries_and_calls_complete(tmp_path):
    text = ("extends: teg\nname: house\nwhen:\n  four:\n    if: \"options.players == 4\"\n    set:\n"
            "      contests:\n        flor:\n          calls:\n            flor: {after: [], }\n            \n")
    a, _ = _variant(tmp_path, text)
    assert {"contraflor", "contraflor_al_resto"} <= set(_labels(a, text, "}\n            "))
    assert set(_labels(a, text, "after: [")) == {"flor", "contraflor", "contraflor_al_resto"}


def test_every_misspelling_of_a_buffer_is_shown_at_once_and_each_has_its_fix(tmp_path):
    """A misspelt override, a misspelt formula name and a word for false, on three lines: the
    three are reported together (one pass), each with the quick fix of its "did you mean"
    (written one way by every pass), and the three fixes make a spec that loads."""
    text = ("extends: teg\nname: house\ncontests:\n  envido:\n    calls:\n      real_envdio: {max: 1}\n"
            "fold:\n  when: \"my_trn\"\n  pays: \"if no then 1 else stake\"\n")
    path = tmp_path / "house.yaml"
    a = analyze(path, text)
    assert sorted((f.code, f.diagnostic.loc.line) for f in a.findings) == [("dsl-type", 8), ("dsl-type", 9),
                                                                            ("override", 6)]
    lines = text.split("\n")
    for f in a.findings:
        d = to_lsp(f.diagnostic, f.code, text)
        [fix] = [c for c in features.code_actions(a, path.as_uri(), d.range, [d]) if c.title.startswith("Change '")]
        [edit] = fix.edit.changes[path.as_uri()]
        row = lines[edit.range.start.line]
        lines[edit.range.start.line] = row[:edit.range.start.character] + edit.new_text + row[edit.range.end.character:]
    fixed = "\n".join(lines)
    assert "real_envido: {max: 1}" in fixed and "when: \"my_turn\"" in fixed and "if false then" in fixed
    assert analyze(path, fixed).findings == []
