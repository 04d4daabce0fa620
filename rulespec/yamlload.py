"""Load YAML into plain data plus the file:line:col of every node.

Specs are data, so every later error (schema, DSL, semantic checks) must point back into the
file that wrote the offending value; this module keeps those positions next to the data.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any, Literal

import yaml
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .errors import Diagnostic, Loc, SpecError, SpecNotFound, missing_file

NodePath = tuple[str | int, ...]
Style = Literal["plain", "'", '"', "|", ">"]

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def format_path(path: tuple[str | int, ...]) -> str:
    """Print a node path the way diagnostics show it: `$.a.b[0].c`, `$.a["1"]`."""
    out = "$"
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part}]"
        elif _IDENTIFIER.match(str(part)):
            out += f".{part}"
        else:
            out += f"[{json.dumps(str(part), ensure_ascii=False)}]"
    return out


@dataclass(frozen=True)
class ScalarText:
    """Where a string scalar's content sits in its file, to locate offsets inside it.

    `line`/`col` (1-based) are the first content character (after the opening quote; for
    blocks the first content line at its indentation). `raw` is the source text of the
    content as written (between the quotes; for blocks whole lines from `line` on).
    """

    file: str
    style: Style
    line: int
    col: int
    indent: int
    raw: str

    def locate(self, offset: int) -> Loc:
        """The Loc of the character at `offset` in the scalar's value (clamped, never raising)."""
        try:
            positions = _positions(self)
        except Exception:  # best effort: a position is a hint, never a failure
            positions = []
        if not positions:
            return Loc(self.file, self.line, self.col)
        line, col = positions[max(0, min(offset, len(positions) - 1))]
        return Loc(self.file, line, col)


@dataclass(frozen=True)
class Located:
    """Plain YAML data with the Loc of every node (by path) and the text of every string.

    `key_locs` maps an entry's path to the Loc of its key, so "unknown key" errors can point
    at the key itself rather than at its value. `overrides` holds what merging a variant over
    its base found wrong (rulespec.overrides): a merged tree has lost the keys that removed
    nothing, so they are told while both trees are at hand.
    """

    data: Any
    locs: dict[NodePath, Loc]
    texts: dict[NodePath, ScalarText] = field(default_factory=dict)
    key_locs: dict[NodePath, Loc] = field(default_factory=dict)
    replaces: frozenset[NodePath] = frozenset()
    overrides: tuple[Diagnostic, ...] = ()

    def loc(self, path: NodePath) -> Loc | None:
        """The Loc of the deepest prefix of `path` that exists (None if nothing is known)."""
        path = tuple(path)
        for n in range(len(path), -1, -1):
            found = self.locs.get(path[:n])
            if found is not None:
                return found
        return None

    def key_loc(self, path: NodePath) -> Loc | None:
        """The Loc of the key of the entry at `path`, else the best node Loc."""
        path = tuple(path)
        return self.key_locs.get(path) or self.loc(path)

    def locate_in(self, path: NodePath, offset: int) -> Loc:
        """Map a 0-based offset inside the string at `path` to file:line:col; never raises."""
        text = self.texts.get(tuple(path))
        if text is not None:
            return text.locate(offset)
        return self.loc(path) or Loc("<unknown>", 1, 1)


# --------------------------------------------------------------------------- resolvers

_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_INT = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)

_TAG = "tag:yaml.org,2002:"
REPLACE_TAG = "!replace"


class SpecLoader(yaml.SafeLoader):
    """A SafeLoader resolving plain scalars by the YAML 1.2 core schema.

    YAML 1.1 turns `no`, `on`, `off`, `yes` into booleans and `012` into octal; Truco
    rulebooks use such words as values, so only `true`/`false` are booleans.
    Aliases are refused (see `compose_node`): `extends` and `when` are the reuse mechanisms.
    """

    yaml_implicit_resolvers: dict[str, Any] = {}

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        """Turn an alias into a marker node so the walk can refuse it at its own location."""
        if self.check_event(AliasEvent):
            event: AliasEvent = self.peek_event()  # type: ignore[no-untyped-call]  # PyYAML's stubs leave it untyped
            if event.anchor in self.anchors:
                self.get_event()  # type: ignore[no-untyped-call]  # PyYAML's stubs leave it untyped
                return ScalarNode("!alias", event.anchor, event.start_mark, event.end_mark)  # type: ignore[arg-type]  # the C and the Python Mark are one to PyYAML
        return super().compose_node(parent, index)


def _add_resolvers() -> None:
    """Install the YAML 1.2 core resolvers (order matters: int before float)."""
    SpecLoader.add_implicit_resolver(_TAG + "bool", _BOOL, list("tTfF"))
    SpecLoader.add_implicit_resolver(_TAG + "null", _NULL, ["~", "n", "N", ""])
    SpecLoader.add_implicit_resolver(_TAG + "int", _INT, list("-+0123456789"))
    SpecLoader.add_implicit_resolver(_TAG + "float", _FLOAT, list("-+.0123456789"))


_add_resolvers()


# --------------------------------------------------------------------------- loading


class _Walk:
    """Converts a composed node tree into data, locs and texts, checking keys as it goes."""

    def __init__(self, text: str, filename: str) -> None:
        self.text = text
        self.file = filename
        self.locs: dict[NodePath, Loc] = {}
        self.texts: dict[NodePath, ScalarText] = {}
        self.key_locs: dict[NodePath, Loc] = {}
        self.replaces: set[NodePath] = set()

    def loc(self, node: Node) -> Loc:
        return Loc(self.file, node.start_mark.line + 1, node.start_mark.column + 1)

    def fail(self, node: Node, path: NodePath, message: str) -> SpecError:
        return SpecError([Diagnostic("error", self.loc(node), format_path(path), message)])

    def node(self, node: Node, path: NodePath) -> Any:
        self.locs[path] = self.loc(node)
        if isinstance(node, MappingNode):
            return self.mapping(node, path)
        if isinstance(node, SequenceNode):
            if node.tag != _TAG + "seq":
                raise self.fail(node, path, f"unsupported tag {node.tag!r} on a list")
            return [self.node(item, path + (i,)) for i, item in enumerate(node.value)]
        assert isinstance(node, ScalarNode)
        return self.scalar(node, path)

    def mapping(self, node: MappingNode, path: NodePath) -> dict[str, Any]:
        if node.tag == REPLACE_TAG:
            self.replaces.add(path)          # merged over a base, it replaces instead of merging
        elif node.tag != _TAG + "map":
            raise self.fail(node, path, f"unsupported tag {node.tag!r} on a mapping")
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = self.key(key_node, path)
            child = path + (key,)
            if key in out:
                first = self.key_locs[child]
                raise self.fail(key_node, child, f"duplicate key {key!r} (first defined at {first})")
            self.key_locs[child] = self.loc(key_node)
            out[key] = self.node(value_node, child)
        return out

    def key(self, node: Node, path: NodePath) -> str:
        """Keys are the text as written: `1: x` has key "1", `true: x` has key "true"."""
        if not isinstance(node, ScalarNode):
            raise self.fail(node, path, "a mapping key must be a plain value, not a list or mapping")
        if node.tag == "!alias":
            raise self.fail(node, path, _ALIAS_MESSAGE.format(node.value))
        return str(node.value)

    def scalar(self, node: ScalarNode, path: NodePath) -> Any:
        if node.tag == "!alias":
            raise self.fail(node, path, _ALIAS_MESSAGE.format(node.value))
        try:
            value = _convert(node.tag, node.value)
        except ValueError as exc:
            raise self.fail(node, path, str(exc)) from None
        if isinstance(value, str):
            self.texts[path] = self.scalar_text(node)
        return value

    def scalar_text(self, node: ScalarNode) -> ScalarText:
        style = node.style or "plain"
        start = _skip_properties(self.text, node.start_mark.index, node.end_mark.index)
        if style == "|":
            return self.block_text(node, "|", start)
        if style == ">":
            return self.block_text(node, ">", start)
        line, col = _line_col(self.text, start)
        if style in ("'", '"'):
            raw = self.text[start + 1 : max(start + 1, node.end_mark.index - 1)]
            col += 1
        else:
            raw = self.text[start : node.end_mark.index]
        return ScalarText(self.file, style, line, col, 0, raw)  # type: ignore[arg-type]

    def block_text(self, node: ScalarNode, style: Style, start: int) -> ScalarText:
        newline = self.text.find("\n", start, node.end_mark.index)
        body_start = node.end_mark.index if newline < 0 else newline + 1
        raw = self.text[body_start : node.end_mark.index]
        line, _ = _line_col(self.text, body_start)
        indent = _block_indent(raw, str(node.value))
        return ScalarText(self.file, style, line, indent + 1, indent, raw)


_ALIAS_MESSAGE = (
    "YAML aliases (*{0}) are not supported: write the value out, "
    "or use `extends`/`when` to share rules"
)


def _convert(tag: str, value: str) -> Any:
    """The Python value of a resolved scalar (YAML 1.2 core), or ValueError for a bad tag."""
    if tag == _TAG + "str" or tag == "!":
        return value
    if tag == _TAG + "null" and _NULL.match(value):
        return None
    if tag == _TAG + "bool" and _BOOL.match(value):
        return value.lower() == "true"
    if tag == _TAG + "int" and _INT.match(value):
        return _to_int(value)
    if tag == _TAG + "float" and _FLOAT.match(value):
        return _to_float(value)
    kind = tag[len(_TAG) :] if tag.startswith(_TAG) else tag
    if kind in ("null", "bool", "int", "float"):
        raise ValueError(f"{value!r} is not a valid {kind}")
    raise ValueError(f"unsupported YAML tag {tag!r}")


def _to_int(value: str) -> int:
    if value.startswith("0o"):
        return int(value[2:], 8)
    if value.startswith("0x"):
        return int(value[2:], 16)
    return int(value, 10)


def _to_float(value: str) -> float:
    lowered = value.lower()
    if lowered.endswith(".inf"):
        return -math.inf if lowered.startswith("-") else math.inf
    if lowered == ".nan":
        return math.nan
    return float(value)


def _skip_properties(text: str, start: int, end: int) -> int:
    """Skip an anchor (`&a`) or tag (`!!str`) before a scalar's content."""
    i = start
    while i < end and text[i] in "&!":
        while i < end and text[i] not in " \t\r\n":
            i += 1
        while i < end and text[i] in " \t\r\n":
            i += 1
    return i


def _line_col(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of a character index."""
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, col


def _block_indent(raw: str, value: str) -> int:
    """The content indentation of a block scalar, from its first non-blank line.

    Comparing the source line with the value's line also handles explicit indentation
    indicators, where the value may keep some leading spaces.
    """
    src = next((ln for ln in raw.split("\n") if ln.strip()), "")
    val = next((ln for ln in value.split("\n") if ln.strip()), "")
    src_lead = len(src) - len(src.lstrip(" "))
    val_lead = len(val) - len(val.lstrip(" "))
    return max(0, src_lead - val_lead)


# --------------------------------------------------------------------------- offsets

Pos = tuple[int, int]


def _positions(t: ScalarText) -> list[Pos]:
    """The source (line, col) of each character of the scalar's value, by style."""
    if t.style == "|":
        return _literal_positions(t)
    if t.style == ">":
        return _folded_positions(t)
    return _flow_positions(t)


def _literal_positions(t: ScalarText) -> list[Pos]:
    out: list[Pos] = []
    for k, line in enumerate(t.raw.split("\n")):
        line = line.rstrip("\r")
        out.extend((t.line + k, j + 1) for j in range(t.indent, len(line)))
        out.append((t.line + k, max(len(line), t.indent) + 1))
    return out


def _folded_positions(t: ScalarText) -> list[Pos]:
    """Folded blocks: a break between two plain text lines is a space; blank lines are breaks."""
    out: list[Pos] = []
    empties: list[Pos] = []
    prev: str | None = None
    prev_end: Pos = (t.line, t.col)
    for k, line in enumerate(t.raw.split("\n")):
        line = line.rstrip("\r")
        body = line[t.indent :]
        if body == "":
            empties.append((t.line + k, max(len(line), t.indent) + 1))
            continue
        kind = "more" if body[0] in " \t" else "text"
        if prev is None:
            out.extend(empties)
        elif prev == "text" and kind == "text":
            out.extend(empties or [prev_end])
        else:
            out.append(prev_end)
            out.extend(empties)
        empties = []
        out.extend((t.line + k, j + 1) for j in range(t.indent, len(line)))
        prev, prev_end = kind, (t.line + k, len(line) + 1)
    out.append(prev_end)
    return out


def _flow_positions(t: ScalarText) -> list[Pos]:
    """Plain and quoted scalars: unescape per line and fold line breaks into spaces."""
    lines = t.raw.split("\n")
    last = len(lines) - 1
    out: list[Pos] = []
    empties = 0
    prev_end: Pos = (t.line, t.col)
    continued = False
    for k, line in enumerate(lines):
        line = line.rstrip("\r")
        base_col = t.col if k == 0 else 1
        start = 0 if k == 0 else len(line) - len(line.lstrip(" \t"))
        end = len(line) if k == last else len(line.rstrip(" \t"))
        if k > 0 and start >= end and k != last:
            out.append((t.line + k, base_col))
            empties += 1
            continue
        if k > 0 and not empties and not continued:
            out.append(prev_end)
        empties = 0
        chars, continued = _line_positions(t.style, line[start:end], t.line + k, base_col + start)
        out.extend(chars)
        prev_end = (t.line + k, base_col + end)
    return out


def _line_positions(style: str, segment: str, line: int, col: int) -> tuple[list[Pos], bool]:
    """Positions of one line's value characters; True if it ends in an escaped line break."""
    out: list[Pos] = []
    i = 0
    while i < len(segment):
        here = (line, col + i)
        if style == "'" and segment.startswith("''", i):
            i += 2
        elif style == '"' and segment[i] == "\\":
            if i + 1 >= len(segment):
                return out, True
            i += 2 + {"x": 2, "u": 4, "U": 8}.get(segment[i + 1], 0)
        else:
            i += 1
        out.append(here)
    return out, False


# --------------------------------------------------------------------------- entry points


def load_yaml(text: str, filename: str) -> Located:
    """Parse one YAML document, keeping the Loc of every node; SpecError on any problem."""
    text = text.removeprefix("\ufeff")  # a BOM is not a column: keep indexes and columns in step
    root = _compose(text, filename)
    walk = _Walk(text, filename)
    if root is None:
        return Located(None, {(): Loc(filename, 1, 1)})
    data = walk.node(root, ())
    return Located(data, walk.locs, walk.texts, walk.key_locs, frozenset(walk.replaces))


def _compose(text: str, filename: str) -> Node | None:
    """Compose the single document's node tree, turning PyYAML errors into SpecErrors."""
    try:
        loader = SpecLoader(text)
        try:
            return loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, filename) from None
    except yaml.reader.ReaderError as exc:
        line, col = _line_col(text, exc.position)
        message = f"unacceptable character #x{exc.character:04x}: {exc.reason}"
        raise _diag(filename, line, col, message) from None
    except yaml.YAMLError as exc:
        raise _diag(filename, 1, 1, f"YAML error: {exc}") from None


def load_yaml_file(path: str | PathLike[str]) -> Located:
    """Load a YAML file; SpecNotFound if it is missing, SpecError if it is not UTF-8 YAML."""
    file = Path(path)
    try:
        raw = file.read_bytes()
    except FileNotFoundError:
        raise SpecNotFound(missing_file(str(path), [file])) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode("utf-8", "replace")
        line, col = _line_col(before, len(before))
        raise _diag(str(file), line, col, f"not UTF-8 text: {exc.reason}") from None
    return load_yaml(text, str(file))


def _diag(filename: str, line: int, col: int, message: str) -> SpecError:
    return SpecError([Diagnostic("error", Loc(filename, line, col), "$", message)])


def _syntax_error(exc: yaml.MarkedYAMLError, filename: str) -> SpecError:
    """A YAML parse error, at the problem's mark, in words a spec author can act on."""
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    message = f"YAML syntax error: {exc.problem or 'invalid YAML'}"
    if exc.context:
        message += f" ({exc.context}"
        if exc.context_mark and exc.context_mark is not mark:
            message += f" at line {exc.context_mark.line + 1}, column {exc.context_mark.column + 1}"
        message += ")"
    return _diag(filename, line, col, message)
