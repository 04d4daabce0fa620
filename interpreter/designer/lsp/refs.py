"""References from the spec's structure, not from its text.

A name is referenced where the spec's structure uses it: a call in `after:` lists and in
`called('…')`-like arguments of a formula, a contest in `cancels:` and `idle('…')`, a hand
value in a contest's `value:`, an option as `options.NAME` in a formula, an option's value
in its `values`, its `default` and in `options.NAME == '…'`; a call or an annulment (both
are verbs) as the verb a `verbs:` alias stands for; a call, annulment, hand value, option or
special hand as a key of its `display` labels. `when:` entries are named nowhere else: an
entry is declared in each file that writes it (a variant's entry merges with its base's of
the same name), as a special hand or an annulment is also declared by a `when` entry's `set`.
Formulas are parsed (rulespec.dsl) and located by offset, so a word spelled alike in a note,
a source quote or a comment is no reference. Each file of the `extends` chain is read on its
own, so every use is found where it is written.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulespec import dsl
from rulespec.errors import Loc, SpecError
from rulespec.vocabulary import FUNCTIONS, site_of
from rulespec.yamlload import Located, NodePath, load_yaml


@dataclass(frozen=True)
class Target:
    """What a name stands for: `kind` is call, contest, value, option, choice (an option's
    value, `option` naming the option), special_hand, annulment or when (a `when:` entry)."""

    kind: str
    name: str
    option: str = ""


@dataclass(frozen=True)
class Use:
    loc: Loc
    length: int
    declaration: bool


DECLARED = {"options": "option", "contests": "contest", "values": "value", "special_hands": "special_hand",
            "annul": "annulment", "when": "when"}
"""The top-level mappings whose entries are declarations, and what each declares."""


PROSE = ("source", "note")
"""Keys of a declaring mapping that are no entry of it."""


def _set_path(path: NodePath) -> NodePath:
    """The spec path a node of a `when` entry's `set` stands for."""
    return path[3:] if len(path) > 3 and path[0] == "when" and path[2] == "set" else path


def declares(path: NodePath) -> Target | None:
    """The target whose declaration is the key at `path`, if it is one."""
    p = _set_path(path)
    if len(p) == 3 and p[:2] == ("stakes", "calls"):
        return Target("call", str(p[2]))
    if len(p) == 4 and p[0] == "contests" and p[2] == "calls":
        return Target("call", str(p[3]))
    if len(p) == 2 and p[0] in DECLARED and p[1] not in PROSE and (p[0] != "options" or path == p):
        return Target(DECLARED[str(p[0])], str(p[1]))
    return None


LABELLED = {"calls": ("call", "annulment"), "values": ("value",), "options": ("option",),
            "hands": ("special_hand",)}
"""What the keys of a `display` language's label mappings name (a `calls` label may be a verb's)."""


def _walk(data: Any, path: NodePath = ()) -> Iterator[tuple[NodePath, Any]]:
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _walk(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _walk(v, path + (i,))


def uses(tree: Located) -> Iterator[tuple[Target, Loc, bool]]:
    """Every declaration and use written in one file's tree: (target, where, is a declaration)."""
    for path, value in _walk(tree.data):
        if not path:
            continue
        target = declares(path)
        key = tree.key_locs.get(path)
        if target is not None and key is not None:
            yield target, key, True
        if len(path) == 4 and path[0] == "display" and path[2] in LABELLED and key is not None:
            yield from ((Target(kind, str(path[3])), key, False) for kind in LABELLED[str(path[2])])
        p = _set_path(path)
        loc = tree.locs.get(path)
        if loc is None:
            continue
        if len(p) == 4 and p[0] == "options" and p[2] == "values" and not isinstance(value, (dict, list)):
            yield Target("choice", _text(value), str(p[1])), loc, True
        elif len(p) == 3 and p[0] == "options" and p[2] == "default" and not isinstance(value, (dict, list)):
            yield Target("choice", _text(value), str(p[1])), loc, False
        elif len(p) >= 2 and p[-2] == "after" and isinstance(p[-1], int) and isinstance(value, str):
            yield Target("call", value), loc, False
        elif len(p) == 2 and p[0] == "verbs" and p[1] not in PROSE and isinstance(value, str):
            yield from ((Target(kind, value), loc, False) for kind in ("call", "annulment"))
        elif len(p) == 4 and p[0] == "contests" and p[2] == "cancels" and isinstance(value, str):
            yield Target("contest", value), loc, False
        elif len(p) == 3 and p[0] == "contests" and p[2] == "value" and isinstance(value, str):
            yield Target("value", value), loc, False
        if isinstance(value, str) and site_of(path) is not None:
            yield from _formula(tree, path, value)


def _text(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _formula(tree: Located, path: NodePath, text: str) -> Iterator[tuple[Target, Loc, bool]]:
    try:
        expr = dsl.parse_expr(text, functools.partial(tree.locate_in, path))
    except SpecError:       # a formula that does not parse names nothing yet
        return
    locate: Callable[[int], Loc] = functools.partial(tree.locate_in, path)
    for node in dsl.walk(expr):
        if isinstance(node, dsl.Name) and node.dotted.startswith("options."):
            yield Target("option", node.dotted[len("options."):]), locate(node.offset + len("options.")), False
        elif isinstance(node, dsl.Call) and node.name in FUNCTIONS and node.args:
            arg = node.args[0]
            kind = FUNCTIONS[node.name].names
            if isinstance(arg, dsl.Str) and kind in ("call", "contest"):
                yield Target(kind, arg.value), locate(arg.offset + 1), False
        elif isinstance(node, dsl.Binary) and node.op in ("==", "!=", "in", "not in"):
            for one, other in ((node.left, node.right), (node.right, node.left)):
                if isinstance(one, dsl.Name) and one.dotted.startswith("options."):
                    option = one.dotted[len("options."):]
                    items = other.items if isinstance(other, dsl.ListLit) else (other,)
                    for item in items:
                        if isinstance(item, (dsl.Str, dsl.Num, dsl.Bool)):
                            quoted = isinstance(item, dsl.Str)
                            yield Target("choice", _text(item.value), option), locate(item.offset + quoted), False


def references(files: list[Path], read: Callable[[Path], str | None], targets: set[Target],
               declaration: bool = True) -> list[Use]:
    """The uses of `targets` in every file of a chain (`read` gives a file's text)."""
    out: list[Use] = []
    for path in files:
        text = read(path)
        if text is None:
            continue
        try:
            tree = load_yaml(text, str(path))
        except SpecError:       # a file that does not load has no structure to search
            continue
        for target, loc, is_declaration in uses(tree):
            if target in targets and (declaration or not is_declaration):
                out.append(Use(loc, len(target.name), is_declaration))
    return out
