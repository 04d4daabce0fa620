"""A house variant written from an empty file with the editor's help alone.

Every key, value, DSL name and call name below is one the server offered at the cursor, over
the protocol, and is inserted as offered; the designer types only what no server could know
(the variant's name, the name of a `when` entry, a verb of the house, numbers, operators,
quotes, brackets and line breaks).
The issue's bar: "A designer can write a house variant from an empty file with the editor's
help alone, and sees every error the checker would report while typing."
"""
from __future__ import annotations

import os
import subprocess
import sys

from lsprotocol import types as lsp

from tests.designer_lsp.editor import ROOT, Editor, session

# ("=label": take the offered item; anything else: typed)
STEPS = [
    "=extends", "=teg", "\n",
    "=name", "house\n",
    "=options", "\n  ", "=target", "\n    ", "=default", "=15", "\n",
    "=when", "\n  short:\n    ", "=if", '"', "=options", "=target", " == ", "=15", '"\n    ',
    "=set", "\n      ", "=match", "\n        ", "=end", "=end_of_hand", "\n",
    "=values", "\n  ", "=envido", "\n    ", "=formula", '"if ', "=rank_count", "'", "=1", "') == 3 then 33 else if ",
    "=suited", "2) then 20 + ", "=best_suited", "2) else ", "=best_single", '"\n',
    "=contests", "\n  ", "=envido", "\n    ",
    "=window", '"', "=trick", " == 1 and not ", "=played", " and not ", "=called", "'", "=truco", "')\"\n    ",
    "=calls", "\n      ", "=falta_envido", " {", "=accept", "=total", ",\n        ",      # a flow mapping
    "=after", "[", "=envido", ",\n          ", "=real_envido", "]}\n",                 # over three lines
    "=verbs", "\n  me_voy: ", "=fold", "\n",
]


def test_a_house_variant_from_an_empty_file_by_completion_alone(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("", encoding="utf-8")
    seen: list[list[lsp.Diagnostic]] = []

    async def take(e: Editor, label: str) -> None:
        items = await e.client.text_document_completion_async(lsp.CompletionParams(e.doc(house), e.end(house)))
        offered = {i.label: i for i in items.items}
        assert label in offered, (label, e.texts[house.resolve().as_uri()], sorted(offered))
        seen.append(await e.type(house, offered[label].insert_text or label))

    async def body(e: Editor) -> None:
        seen.append(await e.open(house))
        for step in STEPS:
            if step.startswith("="):
                await take(e, step[1:])
            else:
                seen.append(await e.type(house, step))
        assert seen[-1] == []
        assert await e.save(house) == []            # the whole checker, the exhaustive pass included
        return e.texts[house.resolve().as_uri()]

    text = session(body, timeout=600)     # some seventy edits, each checked
    assert seen[0] and all(d.severity == lsp.DiagnosticSeverity.Error for d in seen[0])
    assert any(d.code == "schema" for d in seen[0])
    assert sum(1 for diags in seen if any(d.severity == lsp.DiagnosticSeverity.Error for d in diags)) > 5
    assert "falta_envido: {accept: total,\n        after: [envido,\n          real_envido]}" in text
    assert_checks_clean(house, text)


def assert_checks_clean(house, text: str) -> None:
    """`truco check` finds nothing in the file as written. Its exhaustive pass is left out: the
    first test's save runs it through the editor, and tests/checker walks every bundled spec."""
    house.write_text(text, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "interpreter", "check", "--no-explore", str(house)], env=env,
                          cwd=str(ROOT), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and done.stdout.startswith("ok "), done.stdout + done.stderr


# A table of four that plays with flor: each step here found a gap the server had (a condition
# written `true`, an alias for an annulment, the base's contests and calls under a `when`'s
# `set`, a misspelt call in `after:`, two señas of one name), each now covered.
FLOR_STEPS = [
    "=extends", "=teg", "\n", "=name", "casa\n",
    "=options", "\n  ", "=players", "\n    ", "=default", "=4", "\n  ", "=flor", "\n    ", "=default", "=true", "\n",
    "=contests", "\n  ", "=flor", "\n    ", "=calls", "\n      ", "=flor", " {", "=worth", "4}\n",
    "=signals", "\n  ", "=verb", "sena\n  ", "=to", "=partners", "\n  ", "=names", "[ancho, siete]\n",
    "=when", "\n  mesa_de_seis:\n    ", "=if", "\"", "=options", "=players", " == ", "=6", "\"\n    ",
    "=set", "\n      ", "=signals", "\n        ", "=to", "=table", "\n",
    "      ", "=contests", "\n        ", "=flor", "\n          ", "=calls", "\n            ",   # the base's, under set
    "=contraflor", " {", "=worth", "8}\n",                  # at six, the contraflor is worth 8
    "=special_hands", "\n  ", "pica:\n    ", "=if", "\"", "=min_score", " >= 25\"\n    ", "=blind", "=true", "\n",
    "=annul", "\n  ", "quemada:\n    ", "=holds", "\"", "=figures", " == 3\"\n    ", "=enabled", "=true", "\n",
    "=verbs", "\n  me_quemo: ", "=quemada", "\n",
]


def test_a_table_of_four_with_flor_from_an_empty_file(tmp_path):
    house = tmp_path / "casa.yaml"
    house.write_text("", encoding="utf-8")

    async def body(e: Editor) -> str:
        await e.open(house)
        last: list[lsp.Diagnostic] = []
        for step in FLOR_STEPS:
            if step.startswith("="):
                items = await e.client.text_document_completion_async(lsp.CompletionParams(e.doc(house), e.end(house)))
                offered = {i.label: i for i in items.items}
                assert step[1:] in offered, (step, e.texts[house.resolve().as_uri()], sorted(offered))
                last = await e.type(house, offered[step[1:]].insert_text or step[1:])
            else:
                last = await e.type(house, step)
        assert last == []

        async def hover(needle: str, offset: int) -> str:
            got = await e.client.text_document_hover_async(lsp.HoverParams(e.doc(house), e.where(house, needle, offset)))
            return got.contents.value if got is not None else ""
        assert "worth: `4`" in await hover("flor: {worth", 1)                 # the house's worth, not the base's 3
        assert "**pica**: Special hand — A hand played under other rules." in await hover("  pica:", 3)
        assert "Annulment" in await hover("  quemada:", 3)
        assert "`true` for the whole hand" in await hover("    blind:", 5)      # what a key means, from the schema

        [d] = await e.change(house, "flor: {worth: 4}", "flor: {worth: 4}\n      contraflor: {after: [flr]}")
        assert "'flr' is not a call of contest 'flor' (did you mean 'flor'?)" in d.message
        actions = await e.client.text_document_code_action_async(lsp.CodeActionParams(
            e.doc(house), d.range, lsp.CodeActionContext([d])))
        [edit] = next(a for a in actions if a.title == "Change 'flr' to 'flor'").edit.changes[house.resolve().as_uri()]
        assert await e.change(house, "[flr]", "[flor]") == [] and edit.new_text == "flor"
        [d] = await e.change(house, "[ancho, siete]", "[ancho, ancho]")          # two señas of one name
        assert d.code == "schema" and "items must not repeat" in d.message
        assert await e.change(house, "[ancho, ancho]", "[ancho, siete]") == []
        return e.texts[house.resolve().as_uri()]

    assert_checks_clean(house, session(body, timeout=600))
