"""Where the cursor is in a spec being typed, read from the text alone (it may not parse).

Block mappings are followed by indentation; a flow mapping or list open at the cursor
(`envido: {worth: 2, after: [env`, on the cursor's line or opened on a line above) is scanned
for the keys still open before the cursor.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

KEY = re.compile(r"""\s*(?:-\s+)*(?P<key>[A-Za-z_][A-Za-z0-9_]*|"[^"]*"|'[^']*')\s*:(?=\s|$)""")


@dataclass(frozen=True)
class Context:
    """The mapping path the cursor is in; `key` is set when it is in that key's value (then
    `text` is the value written before the cursor, `in_list` whether it is a list item),
    otherwise it is at a key (`text` is the key's part typed so far)."""

    path: tuple[str, ...]
    key: str | None
    text: str
    in_list: bool = False
    indent: int = 0
    written: tuple[str, ...] = ()
    """The keys of the flow mapping at the cursor written before it (the text may not parse)."""

    @property
    def value_path(self) -> tuple[str, ...]:
        return self.path + ((self.key,) if self.key is not None else ())


def _unquote(key: str) -> str:
    return key[1:-1] if key[:1] in "\"'" else key


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def parents(lines: list[str], line: int, indent: int) -> tuple[str, ...]:
    """The keys of the block mappings enclosing a line indented by `indent`."""
    stack: list[str] = []
    want = indent
    for text in reversed(lines[:line]):
        if want == 0:
            break
        body = text.strip()
        if not body or body.startswith(("#", "-")) or _indent(text) >= want:
            continue
        m = KEY.match(text)
        if m:
            stack.append(_unquote(m.group("key")))
            want = _indent(text)
    return tuple(reversed(stack))


_BLOCK_SCALAR = re.compile(r":\s*[|>][-+0-9]*\s*(#.*)?$")


def flow_start(lines: list[str], line: int, char: int) -> tuple[int, str]:
    """The line where the flow collection open at the cursor began (the cursor's own line when
    none is open), and the text from there to the cursor on one line, comments dropped.

    Brackets count at block level only as the first character of a value, and inside a flow
    anywhere outside quotes; a block scalar's lines (`note: >-`) are prose and skipped."""
    start, depth, joined = 0, 0, ""
    scalar: int | None = None                   # the indentation a block scalar's lines exceed
    for i in range(line + 1):
        text = lines[i] if i < line else lines[i][:char]
        if depth == 0:
            if scalar is not None and (not text.strip() or _indent(text) > scalar):
                continue
            scalar = None
            start, joined = i, ""
        kept, quote, token_start = [], "", depth == 0
        for n, ch in enumerate(text):
            if quote:
                quote = "" if ch == quote else quote
            elif ch == "#" and (n == 0 or text[n - 1] in " \t"):
                break
            elif ch in "\"'" and (depth > 0 or token_start) and (n == 0 or text[n - 1] in " \t[{,:"):
                quote = ch
            elif ch in "[{" and (depth > 0 or _value_starts(text, n)):
                depth += 1
            elif ch in "]}" and depth > 0:
                depth -= 1
            kept.append(ch)
        body = "".join(kept)
        if depth == 0 and _BLOCK_SCALAR.search(body):
            scalar = _indent(text)
        joined = body if i == start else joined + " " + body.strip()
    return start, joined


def _value_starts(text: str, n: int) -> bool:
    """Whether column n of a block-level line is the first character of a value."""
    before = text[:n].rstrip()
    return before == "" or before.endswith((":", "-")) or before.lstrip("- ") == ""


def context_at(text: str, line: int, char: int) -> Context:
    lines = text.split("\n")
    while len(lines) <= line:
        lines.append("")
    line, current = flow_start(lines, line, char)
    stripped = current.lstrip(" ")
    in_list = False
    indent = _indent(current)
    while stripped.startswith("- "):
        in_list = True
        indent += 2
        stripped = stripped[2:].lstrip(" ")
        indent = len(current) - len(stripped)
    path = parents(lines, line, _indent(current) if in_list else indent)
    m = KEY.match(stripped)
    if m is None:
        if in_list and path and _opens(stripped):    # `- {reject: …`: a flow item open at the cursor
            return _flow(path[:-1], path[-1], stripped, indent)
        if in_list:       # `- item` under a key: the value of the key above
            return Context(path[:-1], path[-1] if path else None, stripped, True, indent)
        return Context(path, None, stripped, False, indent)
    key = _unquote(m.group("key"))
    rest = stripped[m.end():]
    return _flow(path, key, rest, indent)


def _opens(text: str) -> bool:
    """Whether a value opens a flow collection left open at its end (quotes aside)."""
    if text[:1] not in "{[":
        return False
    depth, quote = 0, ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
    return depth > 0


def _flow(path: tuple[str, ...], key: str, rest: str, indent: int) -> Context:
    """Scan a flow value for the mapping keys and lists open at its end."""
    stack: list[tuple[str, str | None]] = []        # (bracket, the key it is the value of)
    written: list[list[str]] = []                   # the keys written in each open bracket
    current: str | None = key
    token = ""
    quote = ""
    after_colon = True
    for ch in rest:
        if quote:
            token += ch
            if ch == quote:
                quote = ""
            continue
        if ch in "\"'" and not token.strip():
            quote = ch
            token = ch
        elif ch in "{[":
            stack.append((ch, current))
            written.append([])
            current, token, after_colon = None, "", ch == "["
        elif ch in "}]":
            if stack:
                _, current = stack.pop()
                written.pop()
            token = ""
        elif ch == ",":
            token = ""
            after_colon = bool(stack and stack[-1][0] == "[")
            if stack and stack[-1][0] == "{":
                current = None
        elif ch == ":" and stack and stack[-1][0] == "{":
            current, token, after_colon = _unquote(token.strip()), "", True
            written[-1].append(current)
        else:
            token += ch
    keys = [k for _, k in stack if k is not None]
    if not stack:
        return Context(path, key, token.strip(), False, indent)
    bracket, owner = stack[-1]
    if bracket == "[":
        return Context(path + tuple(keys[:-1]), owner, token.strip(), True, indent)
    inner = path + tuple(keys)
    if current is not None and after_colon:
        return Context(inner, current, token.strip(), False, indent)
    return Context(inner, None, token.strip(), False, indent, tuple(written[-1]))
