"""What `extends` made of a variant: the merged spec with each node's origin, and the base
entries that survived beside the variant's where it clearly meant to replace them.

A merge is silent: a five-trick variant that writes its own outcome patterns keeps the
base's three-trick ones unless it says `!replace`. `truco check --resolved` shows the
merged spec line by line with file:line; `merge_findings` warns about such survivors.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from rulespec.blame import same_file
from rulespec.errors import Diagnostic, Loc
from rulespec.load import find_spec, load_tree
from rulespec.yamlload import Located, NodePath, format_path, load_yaml_file

PROSE = ("source", "note", "doc")


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "~"
    if isinstance(value, (int, float)):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def _key(key: Any) -> str:
    text = str(key)
    return text if text.replace("_", "").isalnum() and not text[0].isdigit() else json.dumps(text)


def _origin(loc: Loc | None) -> str:
    if loc is None:
        return "?"
    near = os.path.relpath(loc.file)
    return f"{loc.file if near.startswith('..') else near}:{loc.line}"


def render(tree: Located, base: Located | None = None) -> str:
    """The merged spec as YAML, each line ending with the file:line it came from; a note
    the variant wrote over the base's says so."""
    lines: list[str] = []

    def walk(node: Any, path: NodePath, indent: str) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in items:
            child = path + (key,)
            head = f"{indent}- " if isinstance(node, list) else f"{indent}{_key(key)}: "
            origin = _origin(tree.locs.get(child) or tree.key_loc(child))
            if isinstance(value, (dict, list)) and value:
                lines.append(f"{head.rstrip()}  # {origin}")
                walk(value, child, indent + "  ")
                continue
            shown = "{}" if value == {} else "[]" if value == [] else _scalar(value)
            comment = origin
            if key == "note" and base is not None and _differs(base, child, value):
                comment += f" (replaces the base's note at {_origin(base.locs.get(child))})"
            lines.append(f"{head}{shown}  # {comment}")

    walk(tree.data, (), "")
    return "\n".join(lines) + "\n"


def _differs(base: Located, path: NodePath, value: Any) -> bool:
    node: Any = base.data
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return bool(node != value)


def base_of(path: Path) -> Located | None:
    """The merged tree of the spec a file extends, None when it extends nothing."""
    own = load_yaml_file(path)
    name = own.data.get("extends") if isinstance(own.data, dict) else None
    if name is None:
        return None
    return load_tree(find_spec(str(name), relative_to=path.parent))


def merge_findings(path: Path, tree: Located, base: Located | None = None) -> list[Diagnostic]:
    """Base entries left beside the variant's in mappings the variant clearly rewrote:
    trick-outcome patterns when it changed the number of tricks, and the ladder when it wrote
    at least two new calls and left every call of the base untouched. `base` is the merged
    tree of what the file extends, read from disk when not given."""
    base = base if base is not None else base_of(path)
    if base is None:
        return []
    own = str(path)
    out = []
    for where, reason in _rewritten(base, tree, own):
        mapping = _at(tree.data, where)
        kept = [k for k in mapping if k not in PROSE and not same_file(tree.locs.get(where + (k,)), own)]
        if not kept:
            continue
        first = next(k for k in mapping if same_file(tree.locs.get(where + (k,)), own))
        shown = ", ".join(repr(k) for k in kept)
        out.append(Diagnostic("warning", tree.key_loc(where + (first,)), format_path(where),
                              f"the base's entries {shown} survive beside this file's ({reason}): write "
                              f"`{where[-1]}: !replace {{...}}` to replace them", related=(where,)))
    return out


def _at(data: Any, path: NodePath) -> Any:
    for part in path:
        data = data.get(part) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def _rewritten(base: Located, tree: Located, own: str) -> list[tuple[NodePath, str]]:
    out = []
    outcome: NodePath = ("tricks", "outcome")
    written = [k for k in _at(tree.data, outcome) if k not in PROSE and same_file(tree.locs.get(outcome + (k,)), own)]
    count = _at(tree.data, ("tricks",)).get("count")
    if written and count != _at(base.data, ("tricks",)).get("count"):
        out.append((outcome, f"this file plays {count} tricks"))
    calls: NodePath = ("stakes", "calls")
    mine = [k for k in _at(tree.data, calls) if k not in _at(base.data, calls)]
    overridden = [k for k in _at(base.data, calls) if k in mine or _touched(tree, calls + (k,), own)]
    if len(mine) >= 2 and not overridden:
        out.append((calls, "a ladder of new calls"))
    return out


def _touched(tree: Located, path: NodePath, own: str) -> bool:
    return same_file(tree.locs.get(path), own) or any(
        same_file(loc, own) for p, loc in tree.locs.items() if p[:len(path)] == path)

