"""The editor configurations of docs/editor.md, as far as this machine can try them.

Each block is read from the document itself: the VS Code settings parse as JSON and the Helix
`languages.toml` as TOML, both naming `truco lsp` for YAML. Where Neovim is installed, every
Lua block must load, and the one its version can run (0.7 to 0.10: `vim.lsp.start_client`)
drives `truco lsp` in a headless session: an error typed into a spec is reported, its fix
clears it, and completion and hover answer. CI installs Debian's Neovim (0.7.2 on bookworm).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.designer_lsp.editor import ROOT
from tests.outside import need

DOC = ROOT / "docs" / "editor.md"
NVIM = shutil.which("nvim")


@pytest.fixture
def nvim() -> str:
    """Neovim's path: skipped without it, failed under CI (tests/outside.py)."""
    need("Neovim", NVIM is not None, "apt-get install neovim")
    assert NVIM is not None
    return NVIM


NO_NVIM = pytest.mark.usefixtures("nvim")


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_vs_code_settings_run_truco_lsp_on_yaml():
    [block] = _blocks("json")
    settings = json.loads(block)
    assert settings["glspc.server.command"] == "truco"
    assert settings["glspc.server.commandArguments"] == ["lsp"]
    assert settings["glspc.server.languageId"] == ["yaml"]


def test_the_helix_languages_toml_runs_truco_lsp_on_yaml():
    [block] = _blocks("toml")
    config = tomllib.loads(block)
    assert config["language-server"]["truco"] == {"command": "truco", "args": ["lsp"]}
    [yaml] = [lang for lang in config["language"] if lang["name"] == "yaml"]
    assert "truco" in yaml["language-servers"]


def test_the_neovim_configs_name_truco_lsp_for_yaml():
    blocks = _blocks("lua")
    assert len(blocks) == 2
    for block in blocks:
        assert '{ "truco", "lsp" }' in block and '"yaml"' in block


def _nvim(lua: str, tmp_path: Path, *files: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`nvim --headless` running `lua` as its init file; `truco` on PATH is this tree's."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    shim = bin_dir / "truco"
    shim.write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m interpreter "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    init = tmp_path / "init.lua"
    init.write_text(lua, encoding="utf-8")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_STATE_HOME": str(tmp_path / "state")}
    return subprocess.run([NVIM or "nvim", "--headless", "-n", "-i", "NONE", "-u", str(init), *files],
                          env=env, cwd=str(tmp_path), capture_output=True, text=True, timeout=timeout)


@NO_NVIM
def test_every_neovim_block_loads(tmp_path):
    for block in _blocks("lua"):
        check = f"local ok, err = loadstring({json.dumps(block)})\nio.stdout:write(tostring(err))\nvim.cmd('qa!')\n"
        assert _nvim(check, tmp_path).stdout == "nil"


DRIVE = r"""
local out = {}
local function done()
  local f = io.open(OUT, "w"); f:write(vim.fn.json_encode(out)); f:close()
  vim.cmd("qa!")
end
vim.cmd("filetype on")
vim.cmd("edit " .. SPEC)
local buf = vim.api.nvim_get_current_buf()
local function errors() return #vim.diagnostic.get(buf, { severity = vim.diagnostic.severity.ERROR }) end
out.attached = vim.wait(60000, function() return #vim.lsp.buf_get_clients(buf) > 0 end, 50)
out.reported = vim.wait(60000, function() return errors() > 0 end, 50)
out.message = (vim.diagnostic.get(buf)[1] or {}).message
local line = vim.fn.search("worht") - 1
vim.api.nvim_buf_set_text(buf, line, 8, line, 13, { "worth" })
out.cleared = vim.wait(60000, function() return errors() == 0 end, 50)
local row = vim.fn.search("me_voy: fold") - 1
vim.api.nvim_buf_set_lines(buf, row + 1, row + 1, false, { "  paso: " })
local doc = vim.lsp.util.make_text_document_params()
local got = vim.lsp.buf_request_sync(buf, "textDocument/completion",
  { textDocument = doc, position = { line = row + 1, character = 8 } }, 60000) or {}
out.completion = {}
for _, r in pairs(got) do
  for _, item in ipairs((r.result or {}).items or r.result or {}) do table.insert(out.completion, item.label) end
end
local at = vim.fn.search("tres_pardas ==") - 1
local hover = vim.lsp.buf_request_sync(buf, "textDocument/hover",
  { textDocument = doc, position = { line = at, character = vim.fn.col(".") + 2 } }, 60000) or {}
for _, r in pairs(hover) do out.hover = r.result and r.result.contents.value end
done()
"""


@NO_NVIM
def test_a_headless_neovim_with_the_documented_config_drives_truco_lsp(tmp_path):
    version = subprocess.run([NVIM or "nvim", "--version"], capture_output=True, text=True).stdout
    found = re.search(r"NVIM v0\.(\d+)", version)
    assert found, version
    [config] = [b for b in _blocks("lua") if ("start_client" in b) == (int(found.group(1)) < 11)]
    spec = tmp_path / "casa.yaml"
    text = (ROOT / "docs" / "examples" / "casa.yaml").read_text(encoding="utf-8")
    spec.write_text(text.replace("        max: 1", "        max: 1\n        worht: 3"), encoding="utf-8")
    out = tmp_path / "out.json"
    lua = f"{config}\nSPEC = {json.dumps(str(spec))}\nOUT = {json.dumps(str(out))}\n{DRIVE}"
    run = _nvim(lua, tmp_path)
    assert out.exists(), run.stdout + run.stderr
    got = json.loads(out.read_text(encoding="utf-8"))
    assert got["attached"] and got["reported"] and got["cleared"], got
    assert "worht" in got["message"] and "did you mean 'worth'" in got["message"]
    assert {"accept", "decline", "fold", "play"} <= set(got["completion"])
    assert "option tres_pardas" in got["hover"] and "mano | nadie" in got["hover"]
