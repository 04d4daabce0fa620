"""Messages a designer acts on (docs/checker.md, "What the checker says"): an unknown name lists
the names in scope there; "did you mean" is written one way everywhere; a finding says its cause
before its consequences; a missing file is called a missing file in every command; `truco serve
--spec FILE` refuses at start-up a spec that does not check."""
from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from rulespec.errors import OptionError, SpecNotFound
from rulespec.load import find_spec, open_spec
from rulespec.vocabulary import NAMES, SITE_SCOPES, site_of
from tests.variants import refused
from tests.variants import write_variant as variant

from interpreter.cli import main
from interpreter.designer.check import diagnose
from interpreter.designer.lsp.features import _MEANT
from interpreter.server.catalog import Catalog
from interpreter.server.errors import ApiError

ONE_WAY = re.compile(r" \(did you mean '[^']+'\?\)")


@pytest.fixture(autouse=True)
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "1000")


def test_an_unknown_name_lists_the_names_in_scope_there(tmp_path: Path) -> None:
    """`fold.when` is asked of a seat at its moment of a trick: every name of that scope is
    offered, and none that has no meaning there (a contest's payoff names)."""
    [message] = [d.message for d in refused(variant(tmp_path, "fold: {when: \"my_trn\"}\n"))]
    head, _, listed = message.partition("; the names here: ")
    assert head == "unknown name 'my_trn' (did you mean 'my_turn'?)"
    scopes = SITE_SCOPES[site_of(("fold", "when")).kind]             # type: ignore[union-attr]
    in_scope = [n for n in NAMES if NAMES[n].scope in scopes]
    assert listed.split(", ") == in_scope + [f"options.{o}" for o in ("players", "target", "flor", "falta")]
    assert "total" not in listed.split(", ")


MISSPELT = {
    "a key": ("stakes:\n  calls:\n    truco: {worht: 2}\n", "'worth'"),
    "a key's value": ("tricks: {after_tie: mno}\n", "'mano'"),
    "a formula's name": ("fold: {when: \"my_trn\"}\n", "'my_turn'"),
    "a formula's function": ("fold: {when: \"caled('truco')\"}\n", "'called'"),
    "a word for false": ("fold: {when: \"no\"}\n", "'false'"),
    "an option in a formula": ("match: {target: options.targt}\n", "'target'"),
    "an option's value": ("when:\n  w: {if: \"options.falta == 'chic'\", set: {}}\n", "'chico'"),
    "a call in called()": ("fold: {when: \"called('trucco')\"}\n", "'truco'"),
    "a call in after": ("contests:\n  envido:\n    calls:\n      real_envido: {after: [envdo]}\n", "'envido'"),
    "a contest in cancels": ("contests:\n  flor:\n    cancels: [envidoo]\n", "'envido'"),
    "an alias's verb": ("verbs:\n  vale: acept\n", "'accept'"),
    "an override": ("contests:\n  envido:\n    calls:\n      real_envdio: ~\n", "'real_envido'"),
    "a base": ("", "'teg'"),
}


@pytest.mark.parametrize("what", MISSPELT)
def test_did_you_mean_is_written_one_way_everywhere(tmp_path: Path, what: str) -> None:
    """One form, ` (did you mean 'x'?)`, which the editor's quick fix reads to replace the word."""
    body, meant = MISSPELT[what]
    path = variant(tmp_path, body) if what != "a base" else tmp_path / "casa.yaml"
    if what == "a base":
        path.write_text("name: casa\nextends: tegg\n", encoding="utf-8")
    report = diagnose(str(path), exhaustive=False)
    [message] = [f.diagnostic.message for f in report.findings if "did you mean" in f.diagnostic.message]
    [hint] = ONE_WAY.findall(message)
    assert hint == f" (did you mean {meant}?)"
    assert _MEANT.search(message).group(1) == meant.strip("'")      # type: ignore[union-attr]


def test_did_you_mean_names_a_spec_an_option_and_a_file_alike(tmp_path: Path) -> None:
    with pytest.raises(SpecNotFound) as spec:
        find_spec("tego")
    with pytest.raises(OptionError) as option:
        open_spec("teg").resolve({"flr": True})
    (tmp_path / "casa.yaml").write_text("name: casa\nextends: teg\n", encoding="utf-8")
    with pytest.raises(SpecNotFound) as file:
        find_spec(str(tmp_path / "csaa.yaml"))
    for err, meant in ((spec, "teg"), (option, "flor"), (file, "casa.yaml")):
        assert ONE_WAY.findall(str(err.value)) == [f" (did you mean '{meant}'?)"]


@pytest.mark.parametrize("body, cause, consequence", [
    ("contests:\n  envido:\n    calls:\n      real_envido: {opens: false, after: [real_envido]}\n",
     "real_envido does not open a chain and answers only calls that cannot be made (real_envido)",
     "it can never be called"),
    ("contests:\n  envido:\n    calls:\n      real_envido: {allowed: \"false\"}\n",
     "the `allowed` condition of real_envido is always false", "real_envido can never be called"),
    ("contests:\n  envido:\n    window: \"false\"\n    interrupt: \"false\"\n",
     "the window of envido is always false", "it never opens and envido, real_envido, falta_envido can never be called"),
    ("stakes:\n  calls:\n    retruco: {worth: 2}\n",
     "retruco makes the hand worth 2, no more than truco (2)", "the ladder does not rise"),
    ("stakes:\n  when: \"false\"\n",
     "the condition of the stake calls is always false", "no call of the ladder can ever be made"),
    ("tricks:\n  outcome:\n    \"A A A\": A\n",
     "an earlier pattern or a shorter sequence always decides before the pattern 'A A A'", "it never decides a hand"),
])
def test_a_finding_says_its_cause_before_its_consequences(tmp_path: Path, body: str, cause: str,
                                                          consequence: str) -> None:
    """What the designer wrote wrong comes first, then what follows from it."""
    report = diagnose(str(variant(tmp_path, body)), exhaustive=False, fixed={"players": 2, "target": 30})
    assert any(f.diagnostic.message.startswith(f"{cause}, so {consequence}") for f in report.findings), \
        [f.diagnostic.message for f in report.findings]


COMMANDS = [
    ["play", "missing.yaml"], ["check", "missing.yaml"], ["check", "--resolved", "missing.yaml"],
    ["rules", "missing.yaml"], ["diff", "teg", "missing.yaml"], ["eval", "missing.yaml", "envido", "--hand", "7o",
                                                                 "6o", "4c"],
    ["bench", "missing.yaml"], ["simulate", "missing.yaml", "--matches", "1"], ["analyze", "missing.yaml"],
    ["serve", "--spec", "missing.yaml", "--db", ":memory:"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: " ".join(argv[:2]))
def test_a_missing_file_is_called_a_missing_file_in_every_command(tmp_path: Path, argv: list[str],
                                                                  capsys: pytest.CaptureFixture[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    out = capsys.readouterr().out
    assert f"the spec file 'missing.yaml' does not exist: there is no file {tmp_path / 'missing.yaml'}" in out
    assert "no spec named" not in out


def test_a_case_file_that_is_not_there_is_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["replay", "cases.yaml"]) == 2
    assert f"the file 'cases.yaml' does not exist: there is no file {tmp_path / 'cases.yaml'}" in capsys.readouterr().out


def test_a_bare_name_is_a_bundled_spec_and_a_path_that_is_no_spec_says_so(tmp_path: Path) -> None:
    with pytest.raises(SpecNotFound, match=r"^no spec named 'tego' \(did you mean 'teg'\?\); the bundled specs: "):
        find_spec("tego")
    (tmp_path / "notes.txt").write_text("not a spec", encoding="utf-8")
    with pytest.raises(SpecNotFound, match="is not a spec: a spec is a YAML file whose name ends in .yaml"):
        find_spec(str(tmp_path / "notes.txt"))


def test_serve_refuses_a_spec_that_does_not_check_at_start_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A hand of 14 cards is dealt at two players but not at four (56 cards of 40): the server
    started with it answered its first four-player match with a 500. It now does not start."""
    path = variant(tmp_path, "deck: {hand_size: 14}\n", name="big")
    catalog = Catalog([str(path)])
    with pytest.raises(ApiError) as failed:
        asyncio.run(catalog.game("big", {"players": 4}))
    assert failed.value.status == 500                   # what the first match met
    assert main(["serve", "--spec", str(path), "--db", ":memory:"]) == 2
    out = capsys.readouterr().out
    assert f"error {path}:3:19 at $.deck.hand_size: the deck has 40 cards: 4 players" in out
    assert f"not serving {path}: 2 errors (`truco check {path}` says more)" in out
