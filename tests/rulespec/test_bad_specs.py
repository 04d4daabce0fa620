"""Broken specs: each file of tests/specs_bad/ is a small copy of a valid spec (teg, copied or
extended) with one defect, and must be refused with exactly the located message below.

The contract (README, "Check it"): `truco check SPEC` "reports every problem as
`file:line:col at $.yaml.path: message`, best first"; `rulespec.load.load_spec` raises
`SpecError` whose `.diagnostics` carry `.loc` (file, line, col), `.path` and `.message`.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulespec.errors import Diagnostic, SpecError, SpecNotFound
from rulespec.load import bundled_names, find_spec, load_spec, open_spec

from interpreter.cli import main
from interpreter.engine.game import load_game

BAD = Path(__file__).resolve().parent.parent / "specs_bad"


def bad(name: str) -> str:
    """The absolute path of a corpus file, as the loader reports it in every Loc."""
    return str(BAD / f"{name}.yaml")


def diagnostics(name: str) -> list[Diagnostic]:
    with pytest.raises(SpecError) as info:
        load_spec(bad(name))
    assert info.value.diagnostics, "a SpecError must carry at least one diagnostic"
    return info.value.diagnostics


def located(d: Diagnostic) -> tuple[int, int, str, str]:
    assert d.loc is not None, f"diagnostic without a location: {d}"
    return d.loc.line, d.loc.col, d.path, d.message


def caret(text: str, offset: int) -> str:
    """What `show_position` appends to a DSL message: the line and a caret under `offset`."""
    return f"\n  {text}\n  {' ' * offset}^"


RANKING_SYNTAX = "1e > 1b > 7e > 7o > 3 > 2 > 1o = 1c > 12 > 11 >> 10 > 7c = 7b > 6 > 5 > 4"
BLOCK_LINE = "then 1 else total_but_last / 2"

# file -> the one diagnostic load_spec must give: (line, col, path, message). The columns of
# DSL errors are computed from the text so the expectation says *why* it is that column.
SINGLE: dict[str, tuple[int, int, str, str]] = {
    # "Duplicate keys are an error." -- at the second key, citing the first.
    "duplicate_key": (7, 3, "$.match.target",
                      f"duplicate key 'target' (first defined at {bad('duplicate_key')}:5:3)"),
    # An unknown key is reported at the key itself, with a close suggestion.
    "unknown_key": (6, 13, "$.stakes.calls.truco.worht",
                    "unknown key 'worht' (did you mean 'worth'?); the keys here: worth, declined, source, note"),
    # A wrong type says what was expected and what was found, at the value.
    "wrong_type": (6, 20, "$.stakes.calls.truco.worth", "expected a string or an integer, got a list"),
    # DSL syntax error inside a quoted ranking: the column of the offending character in the
    # YAML line (the content starts at column 11, after `ranking: "`), and a caret.
    "ranking_syntax": (4, 11 + RANKING_SYNTAX.index(">>") + 1, "$.ranking",
                       "unexpected '>' — expected a card or rank: two '>' in a row leave an empty tier"
                       + caret(RANKING_SYNTAX, RANKING_SYNTAX.index(">>") + 1)),
    # DSL syntax error on the second line of a `|` block: that line, at its column
    # (content indented 6, so column 7 is the block's first character).
    "formula_block_syntax": (8, 7 + BLOCK_LINE.index("/"), "$.contests.envido.decline",
                             "unexpected '/' — division is '//' (integer division); '/' is not an operator"
                             + caret(BLOCK_LINE, BLOCK_LINE.index("/"))),
    # "an item is a card or a rank, which stands for every card of that rank not named
    # elsewhere": leaving a rank out leaves its four cards out (reported at the ranking).
    "ranking_missing_card": (4, 10, "$.ranking", "the ranking leaves out 4e, 4b, 4o, 4c"),
    # A card named twice is reported where it is named the second time.
    "ranking_twice": (4, 86, "$.ranking", "card 1e is ranked twice"),
    # Something that is neither a card nor a rank, at its own column (`8e` is 28 characters in);
    # the other cards of its tier are still ranked (no other finding).
    "ranking_not_a_card": (5, 11 + 28, "$.ranking", "'8e' is neither a card nor a rank of the deck"),
    # "Every option has `values` ... and a `default` among them."
    "option_default": (5, 39, "$.options.target.default",
                       "default 20 is not one of the allowed values [15, 30]"),
    # "Every option has `values` (the allowed values, all of one `type`: int, bool or string,
    # inferred from the values when `type:` is not written)": a value of another type, at the list.
    "option_values_mixed": (5, 18, "$.options.flor.values",
                            "the allowed values must all be of type bool, not ['both']"),
    # A formula of options alone (the target) is evaluated when the spec is built: one that
    # cannot be is refused at the operator that fails, in the file that wrote it.
    "constant_division_by_zero": (5, 12 + len("options.target "), "$.match.target", "division by zero"),
    # The file is a copy of specs/teg.yaml with `hand_size` indented by one space instead of two.
    "malformed_indent": (30, 2, "$",
                         "YAML syntax error: expected <block end>, but found '<block mapping start>' "
                         "(while parsing a block mapping at line 2, column 1)"),
}


def test_corpus_is_fully_covered() -> None:
    """Every file of the corpus has its expected outcome written down in this module."""
    covered = set(SINGLE) | {"several_errors", "unknown_name", "extends_missing", "cycle_a", "cycle_b",
                             "strings_si_no"}
    assert {p.stem for p in BAD.glob("*.yaml")} == covered


@pytest.mark.parametrize("name", sorted(SINGLE))
def test_bad_spec_gives_its_located_message(name: str) -> None:
    """README: every problem is reported as `file:line:col at $.yaml.path: message`; "errors
    point into the file that wrote the offending value" (spec-language, merge rules)."""
    (only,) = diagnostics(name)
    assert only.loc is not None and only.loc.file == bad(name)
    assert located(only) == SINGLE[name]
    assert only.severity == "error"
    assert str(only).startswith(f"{bad(name)}:{SINGLE[name][0]}:{SINGLE[name][1]} at {SINGLE[name][2]}: ")


def test_a_rank_stands_for_the_cards_of_that_rank_not_named_elsewhere(tmp_path: Path) -> None:
    """spec-language.md: "An item is a card (`1e`) or a rank (`3`), which stands for every card of
    that rank not named elsewhere in the ranking." teg's order, with its two lesser aces written
    `1` and its two lesser sevens `7` after the named ones, is teg's order."""
    variant = tmp_path / "ranks.yaml"
    variant.write_text('name: ranks\nextends: teg\nranking: "1e > 1b > 7e > 7o > 3 > 2 > 1 > 12 > 11 > 10'
                       ' > 7 > 6 > 5 > 4"\n', encoding="utf-8")
    tiers = [set(tier) for tier in load_spec(str(variant)).ranking.tiers]
    assert tiers == [set(tier) for tier in load_spec("teg").ranking.tiers]
    assert tiers[6] == {"1o", "1c"} and tiers[10] == {"7b", "7c"}


def test_ranking_caret_sits_under_the_reported_column() -> None:
    """The caret of a DSL message and the reported column point at the same character."""
    (d,) = diagnostics("ranking_syntax")
    line = Path(bad("ranking_syntax")).read_text(encoding="utf-8").splitlines()[d.loc.line - 1]
    assert line[d.loc.col - 1] == ">" and line[d.loc.col - 2] == ">"
    shown, marker = d.message.splitlines()[1:3]
    assert shown.strip() == RANKING_SYNTAX
    assert shown[marker.index("^")] == ">" and shown[marker.index("^") - 1] == ">"


def test_block_scalar_error_points_into_the_block() -> None:
    """A DSL error in a `|` block is located on the block's own line, not the key's line."""
    (d,) = diagnostics("formula_block_syntax")
    line = Path(bad("formula_block_syntax")).read_text(encoding="utf-8").splitlines()[d.loc.line - 1]
    assert line[d.loc.col - 1] == "/"


def test_several_schema_errors_reported_together_best_first() -> None:
    """schema.validate: "Every schema violation ..., best first (deeper and more specific
    first)", then document order; all of them in one SpecError, not only the first."""
    got = [located(d) for d in diagnostics("several_errors")]
    assert got == [
        (8, 23, "$.stakes.calls.truco.declinde",
         "unknown key 'declinde' (did you mean 'declined'?); the keys here: worth, declined, source, note"),
        (9, 15, "$.stakes.calls.retruco.worht",
         "unknown key 'worht' (did you mean 'worth'?); the keys here: worth, declined, source, note"),
        (5, 10, "$.stakes.raise",
         "the string 'everybody' is not allowed here; expected one of 'accepting_team', 'any'"),
        (6, 9, "$.stakes.base", "expected a string or an integer, got a list"),
    ]


def test_unknown_name_in_formula_is_located_with_suggestion() -> None:
    """Every formula is checked against the name vocabulary at load (rulespec.typecheck):
    an unknown name is refused by loading, located, and the close name suggested."""
    with pytest.raises(SpecError) as info:
        load_spec(bad("unknown_name"))
    (d,) = info.value.diagnostics
    text = "if calls == 1 then 1 else total_but_lst"
    head, _, listed = d.message.partition("; the names here: ")
    assert located(d)[:3] == (6, 15 + text.index("total_but_lst"), "$.contests.envido.decline")
    assert head == "unknown name 'total_but_lst' (did you mean 'total_but_last'?)"
    names = listed.split(", ")          # what a payoff may read: the contest's names and the options
    assert {"total_but_last", "calls", "leader", "options.flor"} <= set(names)
    assert "best_single" not in names, "a hand's card name has no meaning in a payoff"
    assert d.loc.file == bad("unknown_name")
    with pytest.raises(SpecError):
        load_game(bad("unknown_name"))


def test_extends_to_a_missing_spec() -> None:
    """`extends` names a spec or a relative path; a missing one is an error at `extends:`,
    naming the bundled specs."""
    (d,) = diagnostics("extends_missing")
    assert located(d) == (3, 10, "$.extends",
                          f"no spec named 'nowhere'; the bundled specs: {', '.join(bundled_names())}")


def test_extends_cycle_is_an_error() -> None:
    """Merge rules: "The base is loaded (recursively, cycles are an error)"."""
    (d,) = diagnostics("cycle_a")
    assert d.path == "$.extends"
    assert d.message == f"extends cycle: {bad('cycle_a')} -> {bad('cycle_b')} -> {bad('cycle_a')}"


def test_extends_cycle_is_located_at_an_extends_key() -> None:
    """README: every problem is reported as `file:line:col at $.path: message`; the cycle is
    closed by an `extends:` line (line 3, column 10 in both files), which should be named."""
    (d,) = diagnostics("cycle_a")
    assert d.loc is not None
    assert (d.loc.file, d.loc.line, d.loc.col) in {(bad("cycle_a"), 3, 10), (bad("cycle_b"), 3, 10)}


def test_yes_no_on_stay_strings() -> None:
    """"only `true`/`false` are booleans; `no`, `si`, `on`, `off`, `yes` stay strings", and
    option values may be strings ("all of one type: int, bool or string")."""
    source = open_spec(bad("strings_si_no"))
    flor = source.option("flor")
    lights = source.option("lights")
    assert flor.values == ("si", "no") and flor.default == "no"
    assert lights.values == ("on", "off") and lights.default == "on"
    assert all(type(v) is str for v in flor.values + lights.values)
    default = load_spec(bad("strings_si_no"))
    assert dict(default.chosen)["flor"] == "no"
    assert [c.name for c in default.contests] == ["envido"]      # 'no' is not the string 'si'
    chosen = load_spec(bad("strings_si_no"), {"flor": "si"})
    assert [c.name for c in chosen.contests] == ["envido", "flor"]


def test_find_spec_suggests_the_close_name() -> None:
    """SpecNotFound: "No bundled spec has that name and no file has that path"; the message
    suggests the close bundled name."""
    with pytest.raises(SpecNotFound) as info:
        find_spec("tego")
    assert "no spec named 'tego'" in str(info.value)
    assert "(did you mean 'teg'?)" in str(info.value)


# -- the `truco check` command --------------------------------------------------------------


@pytest.fixture
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wide console, so these tests see the content whatever the terminal (wrapping is
    tested on its own below)."""
    monkeypatch.setenv("COLUMNS", "1000")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    code = main(list(argv))
    return code, capsys.readouterr().out.splitlines()


def test_check_bundled_spec_is_clean(capsys, wide) -> None:
    """check.py: exit 0 when no spec has findings; it says `ok NAME` (the exhaustive pass, which
    tests/checker/test_bundled.py runs on every bundled spec, is left out here)."""
    code, lines = run(capsys, "check", "--no-explore", "teg")
    assert code == 0
    assert lines == ["ok teg"]


@pytest.mark.parametrize("name", ["unknown_key", "ranking_syntax", "malformed_indent", "option_default"])
def test_check_prints_located_line_and_exits_1(capsys, wide, name: str) -> None:
    """README: `truco check SPEC` "reports every problem as `file:line:col at $.yaml.path:
    message`"; check.py: 1 when a spec has findings."""
    code, lines = run(capsys, "check", bad(name))
    assert code == 1
    line, col, path, message = SINGLE[name]
    expected = f"error {bad(name)}:{line}:{col} at {path}: {message.splitlines()[0]}"
    assert any(ln.startswith(expected) for ln in lines), lines


def test_check_finds_unknown_names_that_load_spec_does_not(capsys, wide) -> None:
    """check.py: it "load[s] every spec under every option combination" and compiles it, so a
    formula's unknown name is a finding (exit 1) with its suggestion."""
    code, lines = run(capsys, "check", bad("unknown_name"))
    assert code == 1
    assert any(ln.startswith(f"error {bad('unknown_name')}:6:41 at $.contests.envido.decline: "
                             "unknown name 'total_but_lst' (did you mean 'total_but_last'?); the names here: ")
               for ln in lines), lines


def test_check_reports_all_errors_in_order(capsys, wide) -> None:
    """Every problem, best first: the four schema errors, in the loader's order."""
    code, lines = run(capsys, "check", bad("several_errors"))
    assert code == 1
    where = [ln.split(" at ")[0] for ln in lines if ln.startswith("error ")]
    f = bad("several_errors")
    assert where == [f"error {f}:8:23", f"error {f}:9:15", f"error {f}:5:10", f"error {f}:6:9"]


def test_check_unusable_input_exits_2(capsys, wide) -> None:
    """check.py: 2 for unusable input (a spec that cannot be found), even next to a good one."""
    code, _ = run(capsys, "check", "tego")
    assert code == 2
    code, lines = run(capsys, "check", "--no-explore", "teg", "tego")
    assert code == 2
    assert "ok teg" in lines


def test_check_unusable_input_says_why(capsys, wide) -> None:
    """An exit code of 2 must come with the reason, as the JSON report has it."""
    code, lines = run(capsys, "check", "tego")
    assert code == 2
    assert any("no spec named 'tego'" in ln and "did you mean 'teg'?" in ln for ln in lines), lines


def test_check_json(capsys, wide) -> None:
    """`truco check --json` prints the diagnostics as JSON: file, line, col, path, message."""
    code = main(["check", "--json", bad("wrong_type"), "tego"])
    report = json.loads(capsys.readouterr().out)
    assert code == 2
    (d,) = report[bad("wrong_type")]
    assert {k: d[k] for k in ("severity", "file", "line", "col", "path", "message")} == {
        "severity": "error", "file": bad("wrong_type"), "line": 6, "col": 20,
        "path": "$.stakes.calls.truco.worth", "message": "expected a string or an integer, got a list"}
    (missing,) = report["tego"]
    assert "did you mean 'teg'?" in missing["message"]


def test_check_line_is_not_wrapped(capsys, monkeypatch) -> None:
    """README: each problem is one `file:line:col at $.yaml.path: message` line, also when the
    output is a pipe or a CI log (rich then assumes 80 columns)."""
    monkeypatch.setenv("COLUMNS", "80")
    code, lines = run(capsys, "check", bad("unknown_key"))
    assert code == 1
    expected = (f"error {bad('unknown_key')}:6:13 at $.stakes.calls.truco.worht: "
                "unknown key 'worht' (did you mean 'worth'?)")
    assert any(ln.startswith(expected) for ln in lines), lines


def test_declarations_need_an_unraised_rule(tmp_path: Path) -> None:
    """A flor sung and not raised must score something: without `unraised:` the spec is refused
    where the contest is written (it used to stop the engine in the middle of a hand)."""
    spec = tmp_path / "sin_cobro.yaml"
    spec.write_text("name: sin_cobro\nextends: teg\ncontests:\n  flor:\n    unraised: ~\n", encoding="utf-8")
    load_game(str(spec))                                # flor off: the contest is not built
    with pytest.raises(SpecError, match="'flor' has declarations .* no `unraised:` rule"):
        load_game(str(spec), flor=True)
