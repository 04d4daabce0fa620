"""Place a finding in the file the designer wrote.

A variant that `extends:` a base may break one of the base's rules without touching it
(option values of another type, more players, a bigger hand). The finding is then made at
the base's node; the designer must read it at the override that caused it, with the base's
line as context. Candidates, in order: the nodes the finding names as related, the options
the failing formula reads, the failing node and its entry; failing all, the `extends:` line.
"""
from __future__ import annotations

import os
import re
from dataclasses import replace
from typing import Any

from rulespec.errors import Diagnostic, Loc
from rulespec.yamlload import Located, NodePath, format_path

_PART = re.compile(r'\.([A-Za-z_][A-Za-z0-9_]*)|\["((?:[^"\\]|\\.)*)"\]|\[(\d+)\]')
PROSE = frozenset({"source", "note", "doc", "title"})
"""Keys whose text explains a rule: never what made a rule fail."""
_OPTION = re.compile(r"\boptions\.([A-Za-z_][A-Za-z0-9_]*)")


def parse_path(text: str) -> NodePath:
    """`$.a["b c"][0]` back to ("a", "b c", 0)."""
    out: list[str | int] = []
    for name, quoted, index in _PART.findall(text):
        out.append(int(index) if index else (name or quoted.replace('\\"', '"')))
    return tuple(out)


def same_file(loc: Loc | None, file: str) -> bool:
    return loc is not None and os.path.realpath(loc.file) == os.path.realpath(file)


def written_in(tree: Located, path: NodePath, own: str) -> NodePath | None:
    """`path`, or the first node under it, that `own` wrote (None when it wrote none)."""
    if same_file(tree.locs.get(path), own):
        return path
    node: Any = tree.data
    for part in path:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            return None
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, _ in children:
        if key in PROSE:
            continue
        found = written_in(tree, path + (key,), own)
        if found is not None:
            return found
    return None


def _value(tree: Located, path: NodePath) -> Any:
    node: Any = tree.data
    for part in path:
        if not isinstance(node, (dict, list)):
            return None
        try:
            node = node[part]  # type: ignore[index]  # a str into a list raises TypeError, caught below
        except (KeyError, IndexError, TypeError):
            return None
    return node


def relocate(d: Diagnostic, tree: Located, own: str) -> Diagnostic:
    """`d` as the designer of `own` must read it: at a node of `own`, the original place
    kept as context. Findings already in `own` (or placed nowhere) are unchanged."""
    if d.loc is None or same_file(d.loc, own) or not isinstance(tree.data, dict):
        return d
    path = parse_path(d.path)
    text = _value(tree, path)
    reads = [("options", m) for m in _OPTION.findall(text)] if isinstance(text, str) else []
    candidates = [*d.related, *reads, path, *(path[:n] for n in range(len(path) - 1, 1, -1))]
    for candidate in candidates:
        found = written_in(tree, tuple(candidate), own)
        if found is not None:
            loc = tree.locs.get(found) or tree.key_loc(found)
            return _moved(d, loc, format_path(found))
    if "extends" in tree.data and same_file(tree.key_loc(("extends",)), own):
        return _moved(d, tree.key_loc(("extends",)), "$.extends")
    return d


def _moved(d: Diagnostic, loc: Loc | None, path: str) -> Diagnostic:
    head, sep, rest = d.message.partition("\n")
    context = f" [in the base: {d.loc} at {d.path}]"
    return replace(d, loc=loc, path=path, message=head + context + sep + rest)


def relocate_all(diagnostics: list[Diagnostic], tree: Located, own: str) -> list[Diagnostic]:
    return [relocate(d, tree, own) for d in diagnostics]
