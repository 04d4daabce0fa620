"""An editor for the tests: `truco lsp` in a subprocess, driven through pygls's client."""
from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parents[2]


class Editor:
    def __init__(self) -> None:
        self.client = LanguageClient("truco-tests", "1")
        self.diagnostics: dict[str, lsp.PublishDiagnosticsParams] = {}
        self.versions: dict[str, int] = {}
        self.texts: dict[str, str] = {}
        self.capabilities: lsp.ServerCapabilities | None = None
        self.stderr: list[str] = []

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: lsp.PublishDiagnosticsParams) -> None:
            self.diagnostics[params.uri] = params

    async def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        await self.client.start_io(sys.executable, "-m", "interpreter", "lsp", env=env, cwd=str(ROOT))
        self.drain = asyncio.create_task(self._drain())
        result = await asyncio.wait_for(self.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=ROOT.as_uri(), process_id=os.getpid())), 60)
        self.capabilities = result.capabilities
        self.client.initialized(lsp.InitializedParams())

    async def _drain(self) -> None:
        """Keep the server's stderr flowing (a full pipe would block it), for the failure report."""
        stream = self.client._server.stderr if self.client._server else None
        while stream is not None:
            line = await stream.readline()
            if not line:
                return
            self.stderr.append(line.decode("utf-8", "replace"))

    async def stop(self) -> None:
        await asyncio.wait_for(self.client.shutdown_async(None), 30)
        self.client.exit(None)
        await self.client.stop()

    async def open(self, path: Path, text: str | None = None) -> list[lsp.Diagnostic]:
        uri = path.resolve().as_uri()
        text = path.read_text(encoding="utf-8") if text is None else text
        self.versions[uri] = 1
        self.texts[uri] = text
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri, "yaml", 1, text)))
        return await self.wait(uri)

    async def change(self, path: Path, old: str, new: str) -> list[lsp.Diagnostic]:
        """Replace the first `old` by `new`, as an incremental edit at its range."""
        uri = path.resolve().as_uri()
        text = self.texts[uri]
        at = text.index(old)
        start = _position(text, at)
        end = _position(text, at + len(old))
        self.texts[uri] = text[:at] + new + text[at + len(old):]
        self.versions[uri] += 1
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(self.versions[uri], uri),
            [lsp.TextDocumentContentChangePartial(lsp.Range(start, end), new)]))
        return await self.wait(uri)

    async def type(self, path: Path, new: str) -> list[lsp.Diagnostic]:
        """Type `new` at the end of the buffer (where a designer writing top to bottom is)."""
        uri = path.resolve().as_uri()
        text = self.texts[uri]
        end = _position(text, len(text))
        self.texts[uri] = text + new
        self.versions[uri] += 1
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(self.versions[uri], uri),
            [lsp.TextDocumentContentChangePartial(lsp.Range(end, end), new)]))
        return await self.wait(uri)

    def end(self, path: Path) -> lsp.Position:
        text = self.texts[path.resolve().as_uri()]
        return _position(text, len(text))

    async def save(self, path: Path) -> list[lsp.Diagnostic]:
        uri = path.resolve().as_uri()
        self.diagnostics.pop(uri, None)
        self.client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
        return await self.wait(uri, any_version=True, timeout=600)    # the whole checker: minutes on a busy machine

    async def wait(self, uri: str, any_version: bool = False, timeout: float = 60) -> list[lsp.Diagnostic]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            got = self.diagnostics.get(uri)
            if got is not None and (any_version or got.version == self.versions[uri]):
                return list(got.diagnostics)
            await asyncio.sleep(0.02)
        raise TimeoutError(f"no diagnostics for {uri}")

    def where(self, path: Path, needle: str, offset: int = 0) -> lsp.Position:
        """The position of `needle` (plus `offset` characters) in the buffer."""
        text = self.texts[path.resolve().as_uri()]
        return _position(text, text.index(needle) + offset)

    def doc(self, path: Path) -> lsp.TextDocumentIdentifier:
        return lsp.TextDocumentIdentifier(path.resolve().as_uri())


def _position(text: str, index: int) -> lsp.Position:
    line = text.count("\n", 0, index)
    return lsp.Position(line, index - (text.rfind("\n", 0, index) + 1))


def session(body: Any, timeout: float = 60) -> Any:
    """Run `await body(editor)` against a fresh server, shutting it down after (a bound on a
    hung server, not on speed)."""
    async def main() -> Any:
        editor = Editor()
        await editor.start()
        try:
            return await asyncio.wait_for(body(editor), timeout)
        except BaseException:
            print("".join(editor.stderr[-40:]))
            raise
        finally:
            await editor.stop()
    return asyncio.run(main())


HOUSE = """extends: paulista
name: house
when:
  three_pardas_mano:
    if: "options.three_pardas == 'mano'"
    set:
      tricks: {outcome: {"T T T": none}}
  gentle:
    if: "options.raise_cap == 'none'"
    set:
      special_hands:
        iron: {blind: false}
display:
  en:
    hands: {iron: Hand of iron}
"""
"""A paulista house variant naming a `when` entry, a special hand and its label: the names
whose uses the reference and hover tests follow."""
