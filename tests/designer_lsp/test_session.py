"""The server driven as an editor drives it: initialize, open, change, requests, save, shutdown."""
from __future__ import annotations

from lsprotocol import types as lsp

from tests.designer_lsp.editor import ROOT, session

CASA = ROOT / "docs" / "examples" / "casa.yaml"
TEG = ROOT / "specs" / "teg.yaml"


def test_an_editing_session_on_a_house_variant():
    async def body(e):
        caps = e.capabilities
        assert caps.hover_provider and caps.definition_provider and caps.references_provider
        assert caps.completion_provider and caps.code_action_provider
        assert caps.rename_provider is None and caps.document_formatting_provider is None
        assert caps.document_symbol_provider is None and caps.signature_help_provider is None

        assert await e.open(CASA) == []
        diags = await e.change(CASA, "        max: 1", "        max: 1\n        worht: 3")
        [d] = diags
        assert (d.code, d.severity, d.range.start, d.range.end) == (
            "schema", lsp.DiagnosticSeverity.Error, lsp.Position(37, 8), lsp.Position(37, 13))
        actions = await e.client.text_document_code_action_async(lsp.CodeActionParams(
            e.doc(CASA), d.range, lsp.CodeActionContext([d])))
        fix = next(a for a in actions if a.title == "Change 'worht' to 'worth'")
        [edit] = fix.edit.changes[CASA.resolve().as_uri()]
        assert (edit.range, edit.new_text) == (d.range, "worth")
        assert await e.change(CASA, "worht: 3", "worth: 3") == []

        where = e.where(CASA, "tres_pardas == ", len("tres_pardas") - 1)
        hover = await e.client.text_document_hover_async(lsp.HoverParams(e.doc(CASA), where))
        assert "option tres_pardas" in hover.contents.value and "mano | nadie" in hover.contents.value

        where = e.where(CASA, "    calls:\n      envido:", len("    calls:\n      envi"))
        hover = await e.client.text_document_hover_async(lsp.HoverParams(e.doc(CASA), where))
        assert "| envido | 3 | 1 |" in hover.contents.value      # the unsaved `worth: 3`, not teg's 2
        assert "source: Club rules, art. 3" in hover.contents.value

        await e.change(CASA, "verbs:\n  me_voy: fold", "verbs:\n  me_voy: fold\n  paso: ")
        items = await e.client.text_document_completion_async(lsp.CompletionParams(
            e.doc(CASA), e.where(CASA, "paso: ", len("paso: "))))
        assert {"accept", "decline", "fold", "play"} <= {i.label for i in items.items}

        locations = await e.client.text_document_definition_async(lsp.DefinitionParams(
            e.doc(CASA), e.where(CASA, "extends: teg", 10)))
        assert [loc.uri for loc in locations] == [TEG.resolve().as_uri()]
        refs = await e.client.text_document_references_async(lsp.ReferenceParams(
            context=lsp.ReferenceContext(True), text_document=e.doc(CASA), position=e.where(CASA, "tres_pardas:")))
        assert {(r.uri, r.range.start.line) for r in refs} == {
            (CASA.resolve().as_uri(), 18), (CASA.resolve().as_uri(), 28)}

        diags = await e.change(CASA, "default: nadie", "default: nada")
        assert any(d.severity == lsp.DiagnosticSeverity.Error and d.range.start.line == 21 for d in diags)
    session(body)


def test_a_base_open_unsaved_is_read_from_its_buffer(tmp_path):
    base = tmp_path / "base.yaml"
    variant = tmp_path / "variant.yaml"
    base.write_text("extends: teg\nname: base\n", encoding="utf-8")
    variant.write_text("extends: base.yaml\nname: variant\nfold: {when: \"options.house\"}\n", encoding="utf-8")

    async def body(e):
        diags = await e.open(variant)
        assert any(d.code == "dsl-type" and "house" in d.message for d in diags), diags
        await e.open(base, "extends: teg\nname: base\noptions:\n  house: {values: [false, true]}\n")
        diags = await e.change(variant, "name: variant", "name: variant ")
        assert not any("house" in d.message and d.code.startswith("dsl") for d in diags), diags
    session(body)


def test_the_exhaustive_pass_runs_on_save_and_on_request(tmp_path):
    """A payoff that only playing the chain reveals: absent while typing, reported on save."""
    spec = tmp_path / "decline.yaml"
    spec.write_text((ROOT / "tests" / "specs_invalid" / "decline_pays_more.yaml").read_text(encoding="utf-8"),
                    encoding="utf-8")

    async def body(e):
        typed = await e.open(spec)
        assert not any(d.code == "payoff" for d in typed), typed
        saved = await e.save(spec)
        [d] = [d for d in saved if d.code == "payoff"]
        assert "pays more declined than accepting it would" in d.message
        assert (d.range.start.line, d.range.start.character) == (6, 13)
        typed = await e.change(spec, "name:", "name:")
        assert not any(d.code == "payoff" for d in typed)
        count = await e.client.workspace_execute_command_async(lsp.ExecuteCommandParams(
            "truco.checkDeep", [spec.resolve().as_uri()]))
        assert count == 1 and any(d.code == "payoff" for d in await e.wait(spec.resolve().as_uri(), True))
    session(body)
