"""Every action has its own name (docs/spec-language.md, `verbs`): a call, an annulment or the
signal verb that takes the name of a verb or of another call, and an alias that takes any of
these names, are refused at the key that takes it, in the variant that wrote it."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.load import load_spec
from tests.rulespec.test_builder_errors import refusals

TAKEN = "each action needs its own name"
SHADOWS = "name the alias otherwise"

CASES = {
    "a stake call named like a verb": (
        "stakes:\n  calls:\n    accept: {worth: 5}\n", (5, 5, "$.stakes.calls.accept",
                                                        f"the call 'accept' takes the name of the verb 'accept': {TAKEN}")),
    "a contest's call named like a stake call": (
        "contests:\n  envido:\n    calls:\n      truco: {worth: 2}\n",
        (6, 7, "$.contests.envido.calls.truco", f"the call 'truco' takes the name of the call 'truco': {TAKEN}")),
    "an annulment named like a verb": (
        'annul:\n  fold: {holds: "true"}\n', (4, 3, "$.annul.fold",
                                             f"the annulment 'fold' takes the name of the verb 'fold': {TAKEN}")),
    "the signal verb named like a call": (
        "signals: {verb: envido}\n", (3, 11, "$.signals.verb",
                                      f"the signal verb 'envido' takes the name of the call 'envido': {TAKEN}")),
    "an alias named like a card verb": (
        "verbs: {play: accept}\n", (3, 9, "$.verbs.play", f"alias 'play' shadows the verb 'play': {SHADOWS}")),
    "an alias named like a call": (
        "verbs: {truco: accept}\n", (3, 9, "$.verbs.truco", f"alias 'truco' shadows the call 'truco': {SHADOWS}")),
    "an alias named like an annulment": (
        'annul:\n  nula: {holds: "true"}\nverbs: {nula: accept}\n',
        (5, 9, "$.verbs.nula", f"alias 'nula' shadows the annulment 'nula': {SHADOWS}")),
    "an alias named like the signal verb": (
        "verbs: {sena: accept}\n", (3, 9, "$.verbs.sena", f"alias 'sena' shadows the signal verb 'sena': {SHADOWS}")),
    "an alias named like a call that is named `verb`": (
        "contests:\n  envido:\n    calls:\n      verb: {worth: 2}\nverbs: {verb: accept}\n",
        (7, 9, "$.verbs.verb", f"alias 'verb' shadows the call 'verb': {SHADOWS}")),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_name_two_actions_would_share_is_refused_at_its_key(tmp_path: Path, case: str) -> None:
    body, expected = CASES[case]
    path = tmp_path / "variant.yaml"
    [d] = refusals(path, f"extends: teg\nname: variant\n{body}")
    assert d.loc is not None and d.loc.file == str(path)
    assert d.severity == "error"
    assert (d.loc.line, d.loc.col, d.path, d.message) == expected


def test_a_citation_under_verbs_is_no_alias(tmp_path: Path) -> None:
    """`source:` and `note:` under `verbs` cite the aliases (paulista's does); they name no action."""
    path = tmp_path / "variant.yaml"
    path.write_text('extends: teg\nname: variant\nverbs:\n  source: "a house rule"\n  note: "why"\n'
                    "  paso: decline\n", encoding="utf-8")
    aliases = dict(load_spec(str(path)).verbs)
    assert aliases["paso"] == "decline"
    assert "source" not in aliases and "note" not in aliases
