"""Overrides that name nothing: a variant's key its base lacks, a `when` entry's key its spec lacks.

`extends` and `when` merge by name, so a key missing from what it is merged over is taken for
a new entry. A misspelt override (`real_envdio: {enabled: false}` under teg's envido) then adds
a call nobody meant and leaves the one it was meant for in play, and no later check has
anything to say of it. So under a map of named entries (calls, contests, options, hand values,
special hands, annulments, aliases, labels...) a key must name an entry of what it is merged
over, or be a new entry written whole: what the schema requires of an entry standing alone,
and what makes one (`DEFINED_BY`). Switching off (`enabled: false`) or removing (`~`) a name
that is not there is always a mistake: it does nothing.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rulespec.errors import Diagnostic, unknown
from rulespec.merge import WHOLE
from rulespec.schema import schema_at
from rulespec.yamlload import Located, NodePath, format_path

DEFINED_BY: dict[NodePath, tuple[str, ...]] = {
    ("contests",): ("calls",),
    ("contests", "*", "calls"): ("worth",),
    ("values",): ("formula",),
}
"""What a new entry of these maps must write, beyond what the schema requires, to be one: a
contest has calls, a contest call adds a worth to its chain, a hand value has a formula. An
entry without it is far more often a misspelt override of an existing one than a definition."""


def unknown_overrides(base: Located, child: Located) -> list[Diagnostic]:
    """The keys `child` (a variant's own file, `when` entries aside) writes that name nothing in
    `base` (the merged spec it extends, with what its `when` entries set) and are no new entry."""
    if not (isinstance(base.data, dict) and isinstance(child.data, dict)):
        return []
    written = {k: v for k, v in child.data.items() if k != "when"}
    return list(_walk(child, written, (), (), _spec_trees(base.data), "the base"))


def unknown_in_when(own: Located, spec: Located) -> list[Diagnostic]:
    """The keys the `when` entries of a file (`own`, as written) set that name nothing in the
    spec they are merged over (`spec`, the file merged over its base): the spec, with what its
    other `when` entries set."""
    if not (isinstance(own.data, dict) and isinstance(spec.data, dict) and isinstance(own.data.get("when"), dict)):
        return []
    out: list[Diagnostic] = []
    for name, entry in own.data["when"].items():
        if isinstance(entry, dict) and isinstance(entry.get("set"), dict):
            at: NodePath = ("when", name, "set")
            out += _walk(own, entry["set"], at, (), _spec_trees(spec.data, but=name), "the spec")
    return out


def _spec_trees(data: dict[str, Any], but: str | None = None) -> list[Any]:
    """The trees a key may name an entry of: the spec, and what its `when` entries (but one) set."""
    sets = [e.get("set") for n, e in (data.get("when") or {}).items() if n != but and isinstance(e, dict)]
    return [{k: v for k, v in data.items() if k != "when"}, *sets]


def _walk(tree: Located, node: dict[str, Any], at: NodePath, path: NodePath,
          known: list[Any], what: str) -> Iterator[Diagnostic]:
    """`node`, written at `at` in `tree` and standing at `path` in the spec, against the nodes
    at `path` of each tree it may name entries of (`known`, which the message calls `what`)."""
    if at in tree.replaces:                       # `!replace`: its entries are new by design
        return
    schema = schema_at(path)
    fixed = set((schema or {}).get("properties") or {})
    named = schema is not None and (isinstance(schema.get("additionalProperties"), dict)
                                    or bool(schema.get("patternProperties")))
    names = list(dict.fromkeys(n for k in known if isinstance(k, dict) for n in k if n not in fixed))
    for key, value in node.items():
        if key in WHOLE:
            continue
        if named and key not in fixed and key not in names:
            why = _no_entry(value, path + (key,))
            if why is not None:
                yield Diagnostic("error", tree.key_loc(at + (key,)), format_path(at + (key,)),
                                 f"{key!r} names nothing in {what}, so {why}{unknown(key, names, f'{what} has here')}")
            continue
        if isinstance(value, dict):       # under a map the base lacks, `below` is empty: every entry is new
            below = [k[key] for k in known if isinstance(k, dict) and isinstance(k.get(key), dict)]
            yield from _walk(tree, value, at + (key,), path + (key,), below, what)


def _no_entry(value: Any, path: NodePath) -> str | None:
    """Why a key new to its map makes no entry there; None when it is one, written whole."""
    if value is None:
        return "`~` removes nothing"
    if not isinstance(value, dict):
        return None
    if value.get("enabled") in (False, "false"):
        return "`enabled: false` switches nothing off"
    entry = schema_at(path) or {}
    defined = next((keys for pattern, keys in DEFINED_BY.items() if _matches(path[:-1], pattern)), ())
    missing = [k for k in (*entry.get("required", ()), *defined) if k not in value]
    if missing:
        return f"it is a new {str(entry.get('title', 'entry')).lower()}, which writes {', '.join(missing)}"
    return None


def _matches(path: NodePath, pattern: NodePath) -> bool:
    return len(path) == len(pattern) and all(p == "*" or p == q for p, q in zip(pattern, path, strict=True))
