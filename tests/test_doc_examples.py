"""Every error example of the docs runs as written and prints what the docs print.

An example is a code block line `$ truco ARGS` followed by the lines the command prints, at
the same indentation (docs/house-variant.md step 5, README "Check it"...). Each is run from the
repository's root, and its output compared line for line; the checker prints a file's
absolute path, which the docs write from the root. A located finding shown in a code block
outside such an example would be text nobody runs: the last test refuses it.
"""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
COMMAND = re.compile(r"^(?P<indent>\s*)\$ truco (?P<args>.+)$")
FINDING = re.compile(r"\S+\.ya?ml:(\d+|…)(:\d+)? at \$")


@dataclass(frozen=True)
class Example:
    doc: str
    line: int
    argv: tuple[str, ...]
    output: tuple[str, ...]


def examples(path: Path) -> list[Example]:
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for i, text in enumerate(lines):
        m = COMMAND.match(text)
        if m is None:
            continue
        indent, printed = m["indent"], []
        for after in lines[i + 1:]:
            if not after.strip() or not after.startswith(indent) or after.strip().startswith(("$ ", "```")):
                break
            printed.append(after[len(indent):])
        out.append(Example(path.name, i + 1, tuple(shlex.split(m["args"])), tuple(printed)))
    return out


EXAMPLES = [e for doc in DOCS for e in examples(doc)]


def test_the_docs_show_error_examples() -> None:
    """The README, the house-variant guide, the spec language and the checker's page each show
    at least one."""
    assert {e.doc for e in EXAMPLES} >= {"README.md", "house-variant.md", "spec-language.md", "checker.md"}


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e.doc}:{e.line}")
def test_an_example_prints_what_the_docs_print(example: Example, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "1000")
    main(list(example.argv))
    printed = capsys.readouterr().out.replace(f"{ROOT}/", "").splitlines()
    assert tuple(printed) == example.output


def test_every_finding_shown_in_the_docs_is_an_example_that_runs() -> None:
    shown = {(e.doc, line) for e in EXAMPLES for line in e.output}
    loose = []
    for doc in DOCS:
        fenced = False
        for text in doc.read_text(encoding="utf-8").splitlines():
            fenced ^= text.strip().startswith("```")
            code = fenced or text.startswith("    ")
            if code and FINDING.search(text) and (doc.name, text.strip()) not in {(d, t.strip()) for d, t in shown}:
                loose.append(f"{doc.name}: {text.strip()}")
    assert loose == []
