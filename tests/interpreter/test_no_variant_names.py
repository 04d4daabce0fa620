"""The design rule: "Nothing in `interpreter/` knows a variant: no call names, no deck, no
numbers." (README), and "Every mechanism is generic: the spec names the calls, the
interpreter only knows ladders, contests, counts, tricks" (interpreter/engine/state.py).

Every `interpreter/*.py` is tokenized and only its code is looked at: NAME tokens and
STRING tokens that are not docstrings (comments and docstrings may cite rulebooks), and
NUMBER tokens for the specs' numbers. None may use a name some bundled spec defines (stake
calls, contest calls, contest names, hand value names, option names, verb aliases, card
ids, suits) nor a word of the Truco vocabulary (vira, muestra, manilha, espada, basto,
envido, flor, truco, ...), nor an option value of a spec beyond small counts (15, 30).
"""
from __future__ import annotations

import functools
import io
import re
import tokenize
from pathlib import Path

import pytest

from rulespec.errors import TrucoError
from rulespec.load import bundled_names, find_spec, load_tree, open_spec

INTERPRETER = Path(__file__).resolve().parents[2] / "interpreter"
FRONTENDS = ("server", "adapters")        # scanned by tests/server/test_generic.py
# The rulebook's message catalogs (rulespec/rulebook_i18n/, outside this scan) are sentences in the
# rulebooks' languages; tests/checker/test_prose.py checks that they name no call, contest or hand
# value of a spec.
FILES = sorted(p for p in INTERPRETER.rglob("*.py") if p.relative_to(INTERPRETER).parts[0] not in FRONTENDS)

# Words of the rulebooks that no generic mechanism needs (stems: `espada` covers `espadas`).
VOCABULARY = ("vira", "muestra", "manilha", "espada", "basto", "oros", "copas", "envido", "flor",
              "truco", "retruco", "vale_cuatro", "quiero", "tanto", "parda", "mazo", "zap", "seis",
              "nove", "doze", "falta", "real_envido")

# The public contract's verbs and keys (README, CONFORMANCE.md "The verbs every spec
# understands", the table keys every spec has): the interpreter must know these.
CONTRACT = {"play", "cover", "accept", "decline", "fold", "announce", "good", "players", "target"}

# Names that carry the project's own name or the conformance file format, not a variant:
ALLOWED_EVERYWHERE = {
    "trucoerror",       # rulespec.errors.TrucoError, the project's exception family (public API)
}
ALLOWED_IN = {
    # the command's name and its one-line description name the project, `truco`
    "cli.py": {"truco"},
    # CONFORMANCE.md's case-file keys (`vira:`, `envido_of:`, `flor_of:`) are the public
    # case format that `truco replay` reads; it must know those keys by name.
    "replay.py": {"vira", "envido_of", "flor_of"},
    # the rulebook's worked examples are written as case files, with the same `vira:` key
    "examples.py": {"vira"},
    # the language server completes cards under a case file's `hands:` and `vira:` keys
    "features.py": {"vira"},
    # ... and completes and explains every key of the case format, `vira:`, `envido_of:` and
    # `flor_of:` included, as `truco replay` reads them
    "designer/lsp/cases.py": {"vira", "envido_of", "flor_of", "truco"},
    # the language server names the project: the command `truco lsp`, its extra, its server name
    "designer/lsp/__init__.py": {"truco"},
    "designer/lsp/server.py": {"truco"},
    # the environment switch that runs the engine's source beside a compiled build names the
    # project, as the build's own switch in setup.py does
    "engine/__init__.py": {"truco_pure"},
}

# Numbers that are counts of the code's own, not a spec's, though a spec has an option of that
# value: the ISMCTS bot draws at most 20 deals for a world before its fallback (a match target
# of 20 is `uruguayo`'s, which the bot never reads).
NUMBERS_ALLOWED_IN = {
    "bots/ismcts.py": {"20"},
}


def _spec_data(name: str) -> dict:
    """A bundled spec's merged tree; a spec being edited that does not validate is still read."""
    try:
        return open_spec(name).tree.data
    except TrucoError:
        return load_tree(find_spec(name)).data


@functools.cache
def variant_names() -> dict[str, set[str]]:
    """Every name the bundled specs define, by kind."""
    kinds: dict[str, set[str]] = {k: set() for k in
                                  ("stake call", "contest", "contest call", "value", "option", "verb", "card",
                                   "suit", "number")}
    for name in bundled_names():
        data = _spec_data(name)
        kinds["stake call"] |= set((data.get("stakes") or {}).get("calls") or {})
        for contest, node in (data.get("contests") or {}).items():
            kinds["contest"].add(contest)
            kinds["contest call"] |= set((node or {}).get("calls") or {})
        kinds["value"] |= set(data.get("values") or {})
        for option, node in (data.get("options") or {}).items():
            kinds["option"].add(option)
            for v in (node or {}).get("values") or []:
                # a variant's numbers: option values beyond the small counts every table
                # uses (seats, teams); e.g. the match targets 15 and 30
                if isinstance(v, int) and not isinstance(v, bool) and v > 6:
                    kinds["number"].add(str(v))
        kinds["verb"] |= set(data.get("verbs") or {}) - {"source", "note"}   # citations, not verbs
        deck = data.get("deck") or {}
        suits = [str(s) for s in deck.get("suits") or []]
        kinds["suit"] |= set(suits)
        kinds["card"] |= {f"{r}{s}" for r in deck.get("ranks") or [] for s in suits}
    kinds["option"] -= CONTRACT
    return kinds


def _is_docstring(tokens: list[tokenize.TokenInfo], i: int) -> bool:
    """A STRING that is a statement by itself (module, class or function docstring, or a bare
    string expression), possibly several implicitly concatenated strings."""
    lead = {tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT,
            tokenize.ENCODING}
    j = i - 1
    while j >= 0 and tokens[j].type in (tokenize.STRING, tokenize.NL, tokenize.COMMENT):
        j -= 1
    k = i + 1
    while k < len(tokens) and tokens[k].type in (tokenize.STRING, tokenize.NL, tokenize.COMMENT):
        k += 1
    starts = j < 0 or tokens[j].type in lead
    ends = k >= len(tokens) or tokens[k].type in (tokenize.NEWLINE, tokenize.ENDMARKER)
    return starts and ends


def code_tokens(path: Path) -> list[tuple[int, str, str]]:
    """(line, kind, text) of every NAME and every non-docstring STRING of a file."""
    tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline))
    out = []
    for i, tok in enumerate(tokens):
        if tok.type == tokenize.NAME:
            out.append((tok.start[0], "NAME", tok.string))
        elif tok.type == tokenize.STRING and not _is_docstring(tokens, i):
            out.append((tok.start[0], "STRING", tok.string))
        elif tok.type == tokenize.NUMBER:
            out.append((tok.start[0], "NUMBER", tok.string))
    return out


def word_groups(text: str) -> list[list[str]]:
    """Identifier-like words of a token, each with its parts split at `_` and camelCase."""
    out = []
    for word in re.findall(r"[A-Za-z0-9_]+", text):
        parts = [p for p in re.split(r"_|(?<=[a-z])(?=[A-Z])", word) if p]
        out.append([word, *parts] if len(parts) > 1 else [word])
    return out


def _string_value(literal: str) -> str | None:
    """The value of a plain string literal (None for f-strings and other prefixes)."""
    m = re.fullmatch(r"""[rRbB]?(['"])(.*)\1""", literal, re.S)
    return m.group(2) if m else None


def findings(path: Path, names: dict[str, set[str]]) -> list[str]:
    relative = path.relative_to(INTERPRETER).as_posix() if path.is_relative_to(INTERPRETER) else path.name
    allowed = ALLOWED_EVERYWHERE | ALLOWED_IN.get(path.name, set()) | ALLOWED_IN.get(relative, set())
    defined = {w.lower(): kind for kind in ("stake call", "contest", "contest call", "value", "option", "verb")
               for w in names[kind]}
    cards = names["card"]          # case matters: the card `As` is not the word "as"
    out = []
    for line, kind, text in code_tokens(path):
        where = f"{path.name}:{line}"
        if kind == "NUMBER":
            if text in names["number"] and text not in NUMBERS_ALLOWED_IN.get(relative, set()):
                out.append(f"{where}: the number {text} (a bundled spec's option value)")
            continue
        if kind == "STRING" and _string_value(text) in names["suit"]:
            out.append(f"{where}: the suit {text}")
        # one-letter suits (e, b, o, c) are ordinary variable names, so suits are looked for
        # only as whole string literals (above), never inside words
        for group in word_groups(text):
            if group[0].lower() in allowed:       # an allowed word, with all its parts
                continue
            for word in group:
                low = word.lower()
                if low in CONTRACT:
                    continue
                if low in defined:
                    out.append(f"{where}: {kind} {text!r} uses the {defined[low]} name {word!r}")
                elif kind == "STRING" and word in cards:
                    out.append(f"{where}: {kind} {text!r} names the card {word!r}")
                elif any(low.startswith(stem) for stem in VOCABULARY):
                    out.append(f"{where}: {kind} {text!r} uses the rulebook word {word!r}")
    return out


def test_there_is_something_to_check() -> None:
    """The scan is not vacuous: the interpreter has files and the specs define names."""
    names = variant_names()
    assert len(FILES) >= 10
    assert {"truco", "envido"} <= names["stake call"] | names["contest call"]
    assert "1e" in names["card"] and "e" in names["suit"]


def test_the_scanner_finds_what_it_looks_for(tmp_path) -> None:
    """A planted variant name in code is found; the same word in a comment or docstring is not."""
    planted = tmp_path / "planted.py"
    planted.write_text(
        '"""Docstring about the envido and the vira."""\n'
        "# a comment on the truco\n"
        "def f(x):\n"
        '    """The flor."""\n'
        '    if x == "envido":\n'
        "        return 30\n"
        "    retruco_level = 1\n"
        '    return f"{x} is the 1e" + ("e")\n',
        encoding="utf-8")
    found = findings(planted, variant_names())
    joined = "\n".join(found)
    assert "planted.py:5" in joined and "'envido'" in joined
    assert "planted.py:6: the number 30" in joined
    assert "planted.py:7" in joined and "retruco" in joined
    assert "planted.py:8" in joined and "'1e'" in joined and "the suit" in joined
    assert not any(f.startswith(("planted.py:1:", "planted.py:2:", "planted.py:4:")) for f in found)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_interpreter_file_names_no_variant(path: Path) -> None:
    """README: "Nothing in `interpreter/` knows a variant: no call names, no deck, no numbers.\""""
    assert findings(path, variant_names()) == []
