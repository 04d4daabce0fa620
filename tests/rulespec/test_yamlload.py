"""Located YAML loading: data as YAML 1.2 core reads it, and exact positions for every node."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from rulespec.errors import Loc, SpecError, SpecNotFound
from rulespec.yamlload import Located, format_path, load_yaml, load_yaml_file

DOC = """\
name: demo
deck:
  suits: [e, b]
  hand_size: 3
calls:
  - truco
  - {worth: 2, say: "vale cuatro"}
quoted: 'it''s'
block: |
  line one
    indented
tail: plain
"""


@pytest.fixture
def doc() -> Located:
    return load_yaml(DOC, "demo.yaml")


def test_data(doc: Located) -> None:
    assert doc.data == {
        "name": "demo",
        "deck": {"suits": ["e", "b"], "hand_size": 3},
        "calls": ["truco", {"worth": 2, "say": "vale cuatro"}],
        "quoted": "it's",
        "block": "line one\n  indented\n",
        "tail": "plain",
    }


def test_every_loc_exact(doc: Located) -> None:
    expected = {
        (): (1, 1),
        ("name",): (1, 7),
        ("deck",): (3, 3),
        ("deck", "suits"): (3, 10),
        ("deck", "suits", 0): (3, 11),
        ("deck", "suits", 1): (3, 14),
        ("deck", "hand_size"): (4, 14),
        ("calls",): (6, 3),
        ("calls", 0): (6, 5),
        ("calls", 1): (7, 5),
        ("calls", 1, "worth"): (7, 13),
        ("calls", 1, "say"): (7, 21),
        ("quoted",): (8, 9),
        ("block",): (9, 8),
        ("tail",): (12, 7),
    }
    assert {p: (loc.line, loc.col) for p, loc in doc.locs.items()} == expected
    assert all(loc.file == "demo.yaml" for loc in doc.locs.values())


def test_key_locs(doc: Located) -> None:
    assert doc.key_locs[("deck", "hand_size")] == Loc("demo.yaml", 4, 3)
    assert doc.key_locs[("calls", 1, "say")] == Loc("demo.yaml", 7, 16)
    assert doc.key_loc(("deck", "nope")) == Loc("demo.yaml", 3, 3)


def test_loc_falls_back_to_deepest_existing_prefix(doc: Located) -> None:
    assert doc.loc(("deck", "suits", 7, "x")) == Loc("demo.yaml", 3, 10)
    assert doc.loc(("missing",)) == Loc("demo.yaml", 1, 1)
    assert Located({}, {}).loc(("a",)) is None


def test_texts_only_for_strings(doc: Located) -> None:
    assert set(doc.texts) == {
        ("name",), ("deck", "suits", 0), ("deck", "suits", 1), ("calls", 0),
        ("calls", 1, "say"), ("quoted",), ("block",), ("tail",),
    }
    assert doc.texts[("calls", 1, "say")].style == '"'
    assert doc.texts[("quoted",)].style == "'"
    assert doc.texts[("block",)].style == "|"
    assert doc.texts[("block",)].indent == 2
    assert doc.texts[("tail",)].style == "plain"


def test_yaml_12_core_booleans_and_scalars() -> None:
    text = (
        "words: [no, si, on, off, yes, y, n, No, ON, Yes]\n"
        "bools: [true, True, TRUE, false, False, FALSE]\n"
        "nulls: [~, null, Null, NULL]\n"
        "empty:\n"
        "ints: [0, 12, -3, +4, 012, 0o17, 0x1F]\n"
        "floats: [1.5, -2.0, 1e3, .5, .inf, -.Inf]\n"
        "strs: [1:30, 2024-01-01, 0b11, 1_000, '3', \"true\"]\n"
    )
    data = load_yaml(text, "s.yaml").data
    assert data["words"] == ["no", "si", "on", "off", "yes", "y", "n", "No", "ON", "Yes"]
    assert data["bools"] == [True, True, True, False, False, False]
    assert all(type(b) is bool for b in data["bools"])
    assert data["nulls"] == [None, None, None, None]
    assert data["empty"] is None
    assert data["ints"] == [0, 12, -3, 4, 12, 15, 31]
    assert all(type(i) is int for i in data["ints"])
    assert data["floats"][:4] == [1.5, -2.0, 1000.0, 0.5]
    assert data["floats"][4:] == [math.inf, -math.inf]
    assert data["strs"] == ["1:30", "2024-01-01", "0b11", "1_000", "3", "true"]


def test_nan() -> None:
    assert math.isnan(load_yaml("x: .nan\n", "f").data["x"])


def test_keys_are_strings_as_written() -> None:
    loaded = load_yaml("1: a\n10: b\ntrue: c\n1.0: d\nno: e\n", "k.yaml")
    assert loaded.data == {"1": "a", "10": "b", "true": "c", "1.0": "d", "no": "e"}
    assert loaded.locs[("10",)] == Loc("k.yaml", 2, 5)


def _only(exc: pytest.ExceptionInfo[SpecError]):
    assert len(exc.value.diagnostics) == 1
    return exc.value.diagnostics[0]


def test_duplicate_key_is_located_at_the_second_key() -> None:
    with pytest.raises(SpecError) as exc:
        load_yaml("deck:\n  suits: [e]\n  hand_size: 3\n  suits: [b]\n", "dup.yaml")
    diag = _only(exc)
    assert diag.severity == "error"
    assert diag.loc == Loc("dup.yaml", 4, 3)
    assert diag.path == "$.deck.suits"
    assert diag.message == "duplicate key 'suits' (first defined at dup.yaml:2:3)"


def test_duplicate_after_key_conversion() -> None:
    with pytest.raises(SpecError) as exc:
        load_yaml("points:\n  1: 1\n  '1': 2\n", "dup.yaml")
    diag = _only(exc)
    assert diag.loc == Loc("dup.yaml", 3, 3)
    assert diag.path == '$.points["1"]'
    assert "duplicate key '1'" in diag.message


def test_syntax_error_located() -> None:
    with pytest.raises(SpecError) as exc:
        load_yaml("a: 1\nb: [1, 2\nc: 3\n", "bad.yaml")
    diag = _only(exc)
    assert diag.loc == Loc("bad.yaml", 3, 2)
    assert diag.path == "$"
    assert diag.message.startswith("YAML syntax error: expected ',' or ']'")
    assert "line 2, column 4" in diag.message


def test_syntax_error_bad_indentation() -> None:
    with pytest.raises(SpecError) as exc:
        load_yaml("a:\n  b: 1\n c: 2\n", "bad.yaml")
    assert _only(exc).loc == Loc("bad.yaml", 3, 2)


def test_unreadable_character_located() -> None:
    with pytest.raises(SpecError) as exc:
        load_yaml("a: 1\nb: \x07\n", "bad.yaml")
    diag = _only(exc)
    assert diag.loc == Loc("bad.yaml", 2, 4)
    assert "#x0007" in diag.message


def test_aliases_refused_at_the_alias() -> None:
    with pytest.raises(SpecError) as exc:
        load_yaml("a: &x {b: 1}\nc: *x\n", "al.yaml")
    diag = _only(exc)
    assert diag.loc == Loc("al.yaml", 2, 4)
    assert diag.path == "$.c"
    assert "aliases (*x) are not supported" in diag.message


def test_unsupported_tags_and_complex_keys() -> None:
    with pytest.raises(SpecError) as exc:
        load_yaml("a:\n  b: !!binary aGk=\n", "t.yaml")
    assert _only(exc).loc == Loc("t.yaml", 2, 6)
    assert "unsupported YAML tag" in _only(exc).message
    with pytest.raises(SpecError) as exc:
        load_yaml("? [a, b]\n: 1\n", "t.yaml")
    assert "mapping key must be a plain value" in _only(exc).message


def test_explicit_str_tag_locates_content() -> None:
    loaded = load_yaml("a: !!str 12\n", "t.yaml")
    assert loaded.data == {"a": "12"}
    assert loaded.locate_in(("a",), 1) == Loc("t.yaml", 1, 11)


def test_multiple_documents_refused() -> None:
    with pytest.raises(SpecError) as exc:
        load_yaml("a: 1\n---\nb: 2\n", "m.yaml")
    assert _only(exc).loc == Loc("m.yaml", 2, 1)


def test_empty_document() -> None:
    loaded = load_yaml("# nothing\n", "e.yaml")
    assert loaded.data is None
    assert loaded.loc(()) == Loc("e.yaml", 1, 1)


def test_bom_does_not_shift_columns() -> None:
    loaded = load_yaml("\ufeffa: xyz\n", "b.yaml")
    assert loaded.locs[("a",)] == Loc("b.yaml", 1, 4)
    assert loaded.locate_in(("a",), 2) == Loc("b.yaml", 1, 6)


# ----------------------------------------------------------------------- locate_in

def test_locate_in_plain() -> None:
    loaded = load_yaml("window: trick == 1 and not played\n", "w.yaml")
    assert loaded.locate_in(("window",), 0) == Loc("w.yaml", 1, 9)
    assert loaded.locate_in(("window",), 9) == Loc("w.yaml", 1, 18)


def test_locate_in_double_quoted_with_escapes() -> None:
    loaded = load_yaml('f: "a\\"b\\tc\\u00e9d"\n', "q.yaml")
    value = loaded.data["f"]
    assert value == 'a"b\tcéd'
    cols = [loaded.locate_in(("f",), i).col for i in range(len(value))]
    # a at 5; \" at 6-7; b at 8; \t at 9-10; c at 11; \u00e9 at 12-17; d at 18
    assert cols == [5, 6, 8, 9, 11, 12, 18]


def test_locate_in_single_quoted() -> None:
    loaded = load_yaml("f: 'it''s x'\n", "q.yaml")
    assert loaded.data["f"] == "it's x"
    cols = [loaded.locate_in(("f",), i).col for i in range(6)]
    assert cols == [5, 6, 7, 9, 10, 11]


def test_locate_in_literal_block() -> None:
    text = "values:\n  envido:\n    formula: |\n      if suited(2)\n        then 20\n\n      else 0\n"
    loaded = load_yaml(text, "b.yaml")
    path = ("values", "envido", "formula")
    value = loaded.data["values"]["envido"]["formula"]
    assert value == "if suited(2)\n  then 20\n\nelse 0\n"
    assert loaded.locate_in(path, 0) == Loc("b.yaml", 4, 7)
    assert loaded.locate_in(path, value.index("then")) == Loc("b.yaml", 5, 9)
    assert loaded.locate_in(path, value.index("else")) == Loc("b.yaml", 7, 7)
    assert loaded.locate_in(path, value.index("20")) == Loc("b.yaml", 5, 14)
    assert loaded.locate_in(path, value.index("20") + 1) == Loc("b.yaml", 5, 15)


def test_locate_in_literal_block_with_indentation_indicator() -> None:
    loaded = load_yaml("f: |2\n    x\n   y\n", "b.yaml")
    assert loaded.data["f"] == "  x\n y\n"
    assert loaded.locate_in(("f",), 2) == Loc("b.yaml", 2, 5)
    assert loaded.locate_in(("f",), 5) == Loc("b.yaml", 3, 4)


def test_locate_in_best_effort_multiline() -> None:
    text = "a: >\n  one\n  two\n\n  three\nb: first\n  second\nc: \"x\n  y\"\n"
    loaded = load_yaml(text, "m.yaml")
    assert loaded.data == {"a": "one two\nthree\n", "b": "first second", "c": "x y"}
    assert loaded.locate_in(("a",), loaded.data["a"].index("two")) == Loc("m.yaml", 3, 3)
    assert loaded.locate_in(("a",), loaded.data["a"].index("three")) == Loc("m.yaml", 5, 3)
    assert loaded.locate_in(("b",), loaded.data["b"].index("second")) == Loc("m.yaml", 7, 3)
    assert loaded.locate_in(("c",), 2) == Loc("m.yaml", 9, 3)


def test_locate_in_never_raises() -> None:
    loaded = load_yaml("a: xyz\nn: 3\nl: [1]\nq: ''\n", "n.yaml")
    assert loaded.locate_in(("a",), 99) == Loc("n.yaml", 1, 6)
    assert loaded.locate_in(("a",), -5) == Loc("n.yaml", 1, 4)
    assert loaded.locate_in(("n",), 0) == Loc("n.yaml", 2, 4)
    assert loaded.locate_in(("l", 5), 0) == Loc("n.yaml", 3, 4)
    assert loaded.locate_in(("q",), 0) == Loc("n.yaml", 4, 5)
    assert Located(None, {}).locate_in(("x",), 0).file == "<unknown>"


# ----------------------------------------------------------------------- paths and files

@pytest.mark.parametrize(
    ("path", "text"),
    [
        ((), "$"),
        (("a", "b", 0, "c"), "$.a.b[0].c"),
        (("deck", "points", "1"), '$.deck.points["1"]'),
        (("tricks", "outcome", "A B"), '$.tricks.outcome["A B"]'),
        (("_x9",), "$._x9"),
    ],
)
def test_format_path(path: tuple, text: str) -> None:
    assert format_path(path) == text


def test_load_yaml_file(tmp_path: Path) -> None:
    file = tmp_path / "spec.yaml"
    file.write_text("name: x\nflag: off\n", encoding="utf-8")
    loaded = load_yaml_file(file)
    assert loaded.data == {"name": "x", "flag": "off"}
    assert loaded.locs[("flag",)] == Loc(str(file), 2, 7)


def test_load_yaml_file_errors(tmp_path: Path) -> None:
    with pytest.raises(SpecNotFound):
        load_yaml_file(tmp_path / "missing.yaml")
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes(b"a: 1\nb: \xe9\n")
    with pytest.raises(SpecError) as exc:
        load_yaml_file(bad)
    assert _only(exc).loc == Loc(str(bad), 2, 4)
    assert "not UTF-8" in _only(exc).message
