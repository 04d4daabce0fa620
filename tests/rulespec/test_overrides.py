"""A variant's key that names nothing in its base (rulespec/overrides.py; docs/spec-language.md,
"Merge rules for `extends`"). The designer's mistake: in a variant of teg,
`contests.envido.calls.real_envdio: {enabled: false}` checked ok, added a call named real_envdio
and left real_envido in play, in the rulebook and in `truco play`."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.errors import SpecError
from rulespec.load import load_spec
from tests.variants import refused
from tests.variants import write_variant as variant

from interpreter.cli import main
from interpreter.designer.check import diagnose
from interpreter.engine.game import load_game

TEG_CALLS = "envido, real_envido, falta_envido"


@pytest.mark.parametrize("written, why", [
    ("{enabled: false}", "`enabled: false` switches nothing off"),
    ("~", "`~` removes nothing"),
    ("{max: 1}", "it is a new contest call, which writes worth"),
])
def test_a_misspelt_call_is_refused_at_the_key_with_the_name_meant(tmp_path: Path, written: str, why: str) -> None:
    path = variant(tmp_path, f"contests:\n  envido:\n    calls:\n      real_envdio: {written}\n")
    [d] = refused(path)
    assert (d.loc.file, d.loc.line, d.loc.col) == (str(path), 6, 7), "at the key, in the variant's file"
    assert d.path == "$.contests.envido.calls.real_envdio"
    assert d.message == (f"'real_envdio' names nothing in the base, so {why} (did you mean 'real_envido'?); "
                         f"the base has here: {TEG_CALLS}")


def test_the_misspelt_call_is_neither_checked_ok_nor_played(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "1000")
    path = variant(tmp_path, "contests:\n  envido:\n    calls:\n      real_envdio: {enabled: false}\n")
    report = diagnose(str(path), exhaustive=False)
    assert [f.diagnostic.path for f in report.findings] == ["$.contests.envido.calls.real_envdio"]
    with pytest.raises(SpecError):
        load_game(str(path))
    assert main(["play", str(path), "--seed", "1", "--hands", "1"]) == 2
    out = capsys.readouterr().out
    assert f"{path}:6:7 at $.contests.envido.calls.real_envdio: 'real_envdio' names nothing in the base" in out


def test_switching_off_or_removing_a_name_the_base_lacks_is_refused_even_written_whole(tmp_path: Path) -> None:
    """A whole new call that is switched off does nothing either: it is a typo as surely."""
    path = variant(tmp_path, "contests:\n  envido:\n    calls:\n      real_envdio: {worth: 3, enabled: false}\n")
    [d] = refused(path)
    assert "so `enabled: false` switches nothing off (did you mean 'real_envido'?)" in d.message


def test_a_new_entry_written_whole_is_a_new_entry(tmp_path: Path) -> None:
    path = variant(tmp_path, "contests:\n  envido:\n    calls:\n"
                             "      envido_doble: {worth: 4, after: [envido]}\n"
                             "options:\n  cuarenta: {values: [false, true], default: false}\n"
                             "verbs:\n  me_voy: fold\n")
    spec = load_spec(path)
    envido = next(c for c in spec.contests if c.name == "envido")
    assert [c.name for c in envido.calls] == ["envido", "real_envido", "falta_envido", "envido_doble"]
    assert any(o.name == "cuarenta" for o in spec.options)


@pytest.mark.parametrize("body, path, message", [
    ("contests:\n  envdio:\n    window: 'trick == 1'\n", "$.contests.envdio",
     "'envdio' names nothing in the base, so it is a new contest, which writes calls (did you mean 'envido'?); "
     "the base has here: envido, flor"),
    ("options:\n  flr: {default: true}\n", "$.options.flr",
     "'flr' names nothing in the base, so it is a new option, which writes values (did you mean 'flor'?); "
     "the base has here: players, target, flor, falta"),
    ("values:\n  envdo: {holds: 'true'}\n", "$.values.envdo",
     "'envdo' names nothing in the base, so it is a new hand value, which writes formula (did you mean 'envido'?)"),
    ("verbs:\n  quierro: ~\n", "$.verbs.quierro",
     "'quierro' names nothing in the base, so `~` removes nothing (did you mean 'quiero'?)"),
    ("stakes:\n  calls:\n    retrucco: {declined: 2}\n", "$.stakes.calls.retrucco",
     "'retrucco' names nothing in the base, so it is a new stake call, which writes worth (did you mean 'retruco'?)"),
    # a map teg does not have at all: each of its entries is new, and removing one removes nothing
    ("annul:\n  maldon: ~\n", "$.annul.maldon",
     "'maldon' names nothing in the base, so `~` removes nothing; the base has here: none"),
])
def test_every_map_of_named_entries_is_held_to_its_base(tmp_path: Path, body: str, path: str, message: str) -> None:
    [d] = refused(variant(tmp_path, body))
    assert d.path == path and d.message.startswith(message), d


def test_a_replaced_map_holds_new_entries_by_design(tmp_path: Path) -> None:
    """`!replace` says the variant writes the map anew: its keys are meant to be new, and a call
    worth nothing is the designer's to write (the payoff checks weigh it)."""
    path = variant(tmp_path, "contests:\n  envido:\n    calls: !replace\n      tanto: {opens: true}\n")
    envido = next(c for c in load_spec(path).contests if c.name == "envido")
    assert [c.name for c in envido.calls] == ["tanto"]


def test_a_when_entry_is_held_to_the_spec_it_is_merged_over(tmp_path: Path) -> None:
    """A `when` entry merges over the spec by the same rules, so the same typo there is as silent."""
    path = variant(tmp_path, "when:\n  corto:\n    if: \"options.target == 15\"\n"
                             "    set:\n      contests: {envido: {calls: {real_envdio: ~}}}\n")
    [d] = refused(path)
    assert (d.loc.line, d.path) == (7, "$.when.corto.set.contests.envido.calls.real_envdio")
    assert d.message.startswith("'real_envdio' names nothing in the spec, so `~` removes nothing "
                                "(did you mean 'real_envido'?)")


def test_a_when_entry_may_name_what_another_when_entry_adds(tmp_path: Path) -> None:
    path = variant(tmp_path, "options:\n  doble: {values: [false, true], default: false}\n"
                             "when:\n  doble_on:\n    if: options.doble\n"
                             "    set: {contests: {envido: {calls: {envido_doble: {worth: 4, after: [envido]}}}}}\n"
                             "  doble_15:\n    if: \"options.doble and options.target == 15\"\n"
                             "    set: {contests: {envido: {calls: {envido_doble: {worth: 3}}}}}\n")
    spec = load_spec(path, {"doble": True, "target": 15})
    envido = next(c for c in spec.contests if c.name == "envido")
    assert [c.name for c in envido.calls][-1] == "envido_doble"
