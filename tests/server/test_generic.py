"""The server, the adapters and the web board know no variant, like the rest of interpreter/:
"Nothing in `interpreter/` knows a variant: no call names, no deck, no numbers." (README).
The same scan as tests/interpreter/test_no_variant_names.py, over the subpackages' Python and
over the web board's code (comments aside)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.interpreter import test_no_variant_names as scan
from tests.interpreter.test_no_variant_names import CONTRACT, VOCABULARY, findings, variant_names, word_groups

INTERPRETER = Path(__file__).resolve().parents[2] / "interpreter"
PYTHON = sorted(p for folder in scan.FRONTENDS for p in (INTERPRETER / folder).rglob("*.py"))
# cards.js is artwork: how the suits of the two decks the boards draw look (issue: "card faces
# drawn in SVG (Spanish suits; French suits for the French-deck specs)"); its suits are keyed by
# the spec's suit letters and its numbers are drawing coordinates, so it names no rule.
ARTWORK = {"cards.js"}
WEB = sorted(p for p in (INTERPRETER / "server" / "web").glob("*.*") if p.name not in ARTWORK)

# The project's own name, where a convention asks for a name (as the scan allows `truco`
# in cli.py, the command's name):
PROJECT_NAMES = {
    "command.py": {"truco"},                 # `truco serve`, and the distribution's extra in a hint
    "openspiel.py": {"python_truco_rules"},  # OpenSpiel's registered name: python_ + the project's
    "pettingzoo.py": {"truco_rules_v0"},     # PettingZoo's env name: the project's, versioned
}


@pytest.mark.parametrize("path", PYTHON, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_subpackage_names_no_variant(path: Path, monkeypatch) -> None:
    monkeypatch.setitem(scan.ALLOWED_IN, path.name, PROJECT_NAMES.get(path.name, set()))
    assert findings(path, variant_names()) == []


def _code(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/|<!--.*?-->", " ", text, flags=re.S)
    return re.sub(r"(?m)(^|\s)//.*$", " ", text)


def web_findings(path: Path) -> list[str]:
    """No name a spec defines nor a rulebook word anywhere in the code; in the script, no card
    in a string and no variant's number (a style sheet's pixels are not game numbers)."""
    names = variant_names()
    defined = {w.lower() for kind in ("stake call", "contest", "contest call", "value", "option", "verb")
               for w in names[kind]} - CONTRACT
    code = _code(path)
    found = [word for group in word_groups(code) for word in group
             if word.lower() not in CONTRACT and (word.lower() in defined or word.lower().startswith(VOCABULARY))]
    if path.suffix == ".js":
        cards = {c.lower() for c in names["card"]}
        for literal in re.findall(r"""(["'`])((?:\\.|(?!\1).)*)\1""", code):
            found += [w for g in word_groups(literal[1]) for w in g if w.lower() in cards]
        found += [n for n in re.findall(r"\b\d+\b", code) if n in names["number"]]
    return found


@pytest.mark.parametrize("path", WEB, ids=lambda p: p.name)
def test_the_web_board_names_no_variant(path: Path) -> None:
    assert web_findings(path) == []


def test_the_web_scan_finds_what_it_looks_for(tmp_path) -> None:
    planted = tmp_path / "planted.js"
    planted.write_text('// the envido, in a comment\nconst call = "truco";\nif (card === "1e") score = 30;\n',
                       encoding="utf-8")
    assert web_findings(planted) == ["truco", "1e", "30"]


def test_the_scans_look_at_files() -> None:
    assert {p.parent.name for p in PYTHON} >= {"server", "adapters"}
    assert {p.suffix for p in WEB} >= {".js", ".css", ".html"}
