"""`truco lsp`: a Language Server Protocol server for specs, over stdio.

On open and on every change the buffer is re-checked from its text (the quick pass of
analysis.py) and the findings are published for it and for the files it extends; on save,
or with the `truco.checkDeep` command, the whole checker runs, the exhaustive pass included.
The server announces only the features below.
"""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from interpreter.designer.lsp import features
from interpreter.designer.lsp.analysis import Analysis, analyze, word_end

DEEP_COMMAND = "truco.checkDeep"
TRIGGERS = [" ", ":", ".", "[", ",", "'", '"', "-", "("]


def uri_path(uri: str) -> Path:
    parsed = urlparse(uri)
    return Path(unquote(parsed.path)) if parsed.scheme == "file" else Path(uri)


class SpecServer(LanguageServer):
    """The analysis of every open buffer, and which files got diagnostics from which."""

    def __init__(self) -> None:
        super().__init__("truco-lsp", "0.1.0", text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.analyses: dict[str, Analysis] = {}
        self.published: dict[str, set[str]] = {}

    def read(self, path: Path) -> str | None:
        """An open buffer's text, None for a file not open."""
        uri = path.resolve().as_uri()
        doc = self.workspace.text_documents.get(uri)
        return doc.source if doc is not None else None

    def check(self, uri: str, deep: bool = False) -> Analysis:
        doc = self.workspace.get_text_document(uri)
        a = analyze(uri_path(uri).resolve(), doc.source, self.read, deep, self.analyses.get(uri))
        self.analyses[uri] = a
        self.publish(uri, a, doc.version)
        return a

    async def check_deep(self, uri: str) -> Analysis | None:
        """The whole checker in a worker thread, so that typing stays checked meanwhile; its
        findings are published only if the buffer has not changed since."""
        doc = self.workspace.get_text_document(uri)
        version, text = doc.version, doc.source
        path = uri_path(uri).resolve()
        previous = self.analyses.get(uri)
        a = await asyncio.get_running_loop().run_in_executor(
            None, lambda: analyze(path, text, self.read, True, previous))
        current = self.workspace.text_documents.get(uri)
        if current is None or current.version != version or current.source != text:
            return None
        self.analyses[uri] = a
        self.publish(uri, a, version)
        return a

    def publish(self, uri: str, a: Analysis, version: int | None) -> None:
        by_file: dict[str, list[lsp.Diagnostic]] = {uri: []}
        for f in a.findings:
            d = f.diagnostic
            file = d.loc.file if d.loc else str(a.path)
            target = uri if Path(file).resolve() == a.path else Path(file).resolve().as_uri()
            text = a.text if target == uri else (self.read(Path(file)) or _disk(Path(file)))
            by_file.setdefault(target, []).append(to_lsp(f.diagnostic, f.code, text))
        previous = self.published.get(uri, set())
        for other in previous - set(by_file):
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(other, []))
        self.published[uri] = set(by_file)
        for target, diags in by_file.items():
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(target, diags, version if target == uri else None))

    def analysis(self, uri: str) -> Analysis:
        return self.analyses.get(uri) or self.check(uri)


def _disk(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def to_lsp(d: Any, code: str, text: str) -> lsp.Diagnostic:
    """A located finding as an LSP diagnostic: the word at its location, its code and path."""
    line = (d.loc.line - 1) if d.loc else 0
    col = (d.loc.col - 1) if d.loc else 0
    lines = text.split("\n")
    body = lines[line] if line < len(lines) else ""
    end = word_end(body, col)
    message = d.message + (f" (source: {d.source})" if d.source else "")
    return lsp.Diagnostic(
        range=lsp.Range(lsp.Position(line, col), lsp.Position(line, max(end, col))),
        message=message,
        severity=lsp.DiagnosticSeverity.Error if d.severity == "error" else lsp.DiagnosticSeverity.Warning,
        code=code, source="truco", data={"path": d.path})


server = SpecServer()


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: SpecServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.check(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: SpecServer, params: lsp.DidChangeTextDocumentParams) -> None:
    ls.check(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: SpecServer, params: lsp.DidSaveTextDocumentParams) -> None:
    await ls.check_deep(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: SpecServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.analyses.pop(uri, None)
    for target in ls.published.pop(uri, set()):
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(target, []))


@server.command(DEEP_COMMAND)
async def check_deep(ls: SpecServer, uri: str) -> int | None:
    """The whole checker on an open buffer; the number of findings (None when the buffer
    changed meanwhile: the quick pass has published the newer findings)."""
    a = await ls.check_deep(uri)
    return None if a is None else len(a.findings)


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=TRIGGERS))
def completion(ls: SpecServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    a = ls.analysis(params.text_document.uri)
    a.text = ls.workspace.get_text_document(params.text_document.uri).source
    items = features.completion(a, params.position.line, params.position.character)
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: SpecServer, params: lsp.HoverParams) -> lsp.Hover | None:
    a = ls.analysis(params.text_document.uri)
    return features.hover(a, params.position.line, params.position.character)


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: SpecServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
    a = ls.analysis(params.text_document.uri)
    return features.definition(a, params.position.line, params.position.character, ls.read)


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
def references(ls: SpecServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
    a = ls.analysis(params.text_document.uri)
    return features.references(a, params.position.line, params.position.character, ls.read,
                               params.context.include_declaration)


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
def code_action(ls: SpecServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    a = ls.analysis(params.text_document.uri)
    return features.code_actions(a, params.text_document.uri, params.range, params.context.diagnostics)
