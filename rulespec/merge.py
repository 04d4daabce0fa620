"""Merge located YAML trees for `extends` and `when`, keeping every node's own location.

A child spec (or an option-dependent override) is merged over its base: mappings merge key
by key, anything else replaces, a null removes. Each node keeps the Loc and text of the file
that wrote it, so a merged spec's errors still point into the right file.
"""
from __future__ import annotations

from typing import Any

from .errors import Loc
from .yamlload import Located, NodePath, ScalarText

NOT_INHERITED = ("name", "title", "source")
WHOLE = ("note", "doc")
"""Keys a variant replaces whole: a note {es: ...} over the base's {en: ..., fr: ...} is another
note, not one more translation of the base's."""


class _Builder:
    """Collects the locs, texts and key locs of a tree being rebuilt from several sources."""

    def __init__(self) -> None:
        self.locs: dict[NodePath, Loc] = {}
        self.texts: dict[NodePath, ScalarText] = {}
        self.key_locs: dict[NodePath, Loc] = {}

    def located(self, data: Any) -> Located:
        return Located(data, self.locs, self.texts, self.key_locs)

    def node(self, src: Located, src_path: NodePath, dst_path: NodePath) -> None:
        """Record one node's own loc and text (not its children's)."""
        if src_path in src.locs:
            self.locs[dst_path] = src.locs[src_path]
        if src_path in src.texts:
            self.texts[dst_path] = src.texts[src_path]

    def key(self, src: Located, src_path: NodePath, dst_path: NodePath) -> None:
        if src_path in src.key_locs:
            self.key_locs[dst_path] = src.key_locs[src_path]

    def copy(self, src: Located, value: Any, src_path: NodePath, dst_path: NodePath) -> Any:
        """Deep-copy `value` (found at `src_path` in `src`) to `dst_path`, with its locations."""
        self.node(src, src_path, dst_path)
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                self.key(src, src_path + (k,), dst_path + (k,))
                out[k] = self.copy(src, v, src_path + (k,), dst_path + (k,))
            return out
        if isinstance(value, list):
            return [self.copy(src, v, src_path + (i,), dst_path + (i,)) for i, v in enumerate(value)]
        return value


def merge(base: Located, over: Located) -> Located:
    """`over` merged over `base` by the `extends` rules; neither input is modified.

    A null key in `over` removes the base key (and is dropped if the base has none, also
    inside newly added mappings, since there is nothing to remove). Nulls inside lists are
    values and stay. An empty `over` document changes nothing.
    """
    out = _Builder()
    if over.data is None:
        return out.located(out.copy(base, base.data, (), ()))
    return out.located(_merge(base, over, base.data, over.data, (), out))


def _merge(base: Located, over: Located, b: Any, o: Any, path: NodePath, out: _Builder) -> Any:
    whole = path in over.replaces or bool(path) and path[-1] in WHOLE
    if not (isinstance(b, dict) and isinstance(o, dict)) or whole:
        return out.copy(over, o, path, path)
    out.node(base if path in base.locs else over, path, path)
    result: dict[str, Any] = {}
    for key, value in b.items():
        child = path + (key,)
        if key not in o:
            out.key(base, child, child)
            result[key] = out.copy(base, value, child, child)
        elif o[key] is not None:
            both = isinstance(value, dict) and isinstance(o[key], dict)
            out.key(base if both else over, child, child)
            result[key] = _merge(base, over, value, o[key], child, out)
    for key, value in o.items():
        child = path + (key,)
        if key not in b and value is not None:
            out.key(over, child, child)
            fresh: dict[str, Any] | None = {} if isinstance(value, dict) else None  # drops nulls nested in new mappings
            result[key] = _merge(base, over, fresh, value, child, out)
    return result


def extend(base: Located, child: Located) -> Located:
    """`child` extending `base`: the merge, minus what is never inherited.

    The base's `name`, `title` and `source` describe the base only, and its `extends` is
    already resolved, so they are dropped before merging.
    """
    return merge(_without_top(base, NOT_INHERITED + ("extends",)), child)


def _without_top(located: Located, keys: tuple[str, ...]) -> Located:
    """A copy of `located` without the given top-level keys."""
    if not isinstance(located.data, dict):
        return located
    out = _Builder()
    out.node(located, (), ())
    data = {}
    for key, value in located.data.items():
        if key not in keys:
            out.key(located, (key,), (key,))
            data[key] = out.copy(located, value, (key,), (key,))
    return out.located(data)


def _get(data: Any, path: NodePath) -> Any:
    """The value at `path`; KeyError naming the path if it does not exist."""
    value = data
    for part in path:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            raise KeyError(f"no node at {path!r}") from None
    return value


def subtree(located: Located, path: NodePath) -> Located:
    """The node at `path` as its own Located (paths re-rooted, Locs unchanged).

    Used to merge a `when` entry's `set` over the spec. The node's key Loc is kept under
    `()` so `graft` can reuse it.
    """
    path = tuple(path)
    out = _Builder()
    data = out.copy(located, _get(located.data, path), path, ())
    out.key(located, path, ())
    n = len(path)
    replaces = frozenset(p[n:] for p in located.replaces if p[:n] == path)
    return Located(data, out.locs, out.texts, out.key_locs, replaces)


def graft(located: Located, path: NodePath, sub: Located) -> Located:
    """A copy of `located` with the node at `path` replaced by (or set to) `sub`.

    The parent of `path` must exist; a missing final key is appended, and a list index may
    be one past the end (append). The replaced node's key keeps its Loc.
    """
    path = tuple(path)
    if not path:
        out = _Builder()
        return out.located(out.copy(sub, sub.data, (), ()))
    parent = _get(located.data, path[:-1])
    last = path[-1]
    if isinstance(parent, dict) and not isinstance(last, str):
        raise KeyError(f"mapping keys are strings, got {last!r}")
    if isinstance(parent, list) and not (isinstance(last, int) and 0 <= last <= len(parent)):
        raise KeyError(f"no list index {last!r} at {path[:-1]!r}")
    if not isinstance(parent, (dict, list)):
        raise KeyError(f"no mapping or list at {path[:-1]!r}")
    out = _Builder()
    return out.located(_graft(located, sub, located.data, (), path, out))


def _graft(
    located: Located, sub: Located, value: Any, here: NodePath, target: NodePath, out: _Builder
) -> Any:
    if here == target:
        out.key(sub, (), here)
        out.key(located, here, here)
        return out.copy(sub, sub.data, (), here)
    if here != target[: len(here)]:
        return out.copy(located, value, here, here)
    out.node(located, here, here)
    nxt = target[len(here)]
    if isinstance(value, dict):
        result = {}
        for k, v in value.items():
            out.key(located, here + (k,), here + (k,))
            result[k] = _graft(located, sub, v, here + (k,), target, out)
        if nxt not in value:
            result[nxt] = _graft(located, sub, None, here + (nxt,), target, out)
        return result
    items = [_graft(located, sub, v, here + (i,), target, out) for i, v in enumerate(value)]
    if nxt == len(value):
        items.append(_graft(located, sub, None, here + (nxt,), target, out))
    return items
