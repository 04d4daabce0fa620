"""Find a spec by name or path, resolve `extends`, validate, and build it for chosen options."""
from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from rulespec import dsl, formula, schema
from rulespec.blame import parse_path, relocate, relocate_all
from rulespec.build import Builder, read_options
from rulespec.errors import SPEC_SUFFIXES, Diagnostic, OptionError, SpecError, SpecNotFound, missing_file, unknown
from rulespec.ir import OptionDecl, OptionValue, Spec
from rulespec.merge import extend, merge, subtree
from rulespec.overrides import unknown_in_when, unknown_overrides
from rulespec.typecheck import check_types
from rulespec.yamlload import Located, format_path, load_yaml, load_yaml_file


def bundled_dir() -> Path:
    """The folder of the specs shipped with the package."""
    return Path(str(resources.files("truco_specs")))


def bundled_names() -> list[str]:
    return sorted(p.stem for p in bundled_dir().glob("*.yaml"))


def find_spec(name_or_path: str | Path, relative_to: Path | None = None) -> Path:
    """A bundled spec's name, or a path (absolute, or relative to `relative_to` or the cwd).

    Every command that takes a spec finds it here, so they all say alike what is wrong:
    SpecNotFound names a file that does not exist, a file or folder that is not a spec, or a
    name no bundled spec has."""
    text = str(name_or_path)
    candidates = []
    if relative_to is not None:
        candidates.append(relative_to / text)
    candidates.append(Path(text))
    for c in candidates:
        if c.suffix in SPEC_SUFFIXES and c.is_file():
            return c.resolve()
    bundled = bundled_dir() / f"{text}.yaml"
    if bundled.is_file():
        return bundled
    raise SpecNotFound(not_found(text, candidates))


def not_found(text: str, candidates: list[Path]) -> str:
    """Why no spec answers to `text`, in the words of what was meant: a folder or a file that is
    no spec, a path that names no file (a missing file), a bare word no bundled spec has."""
    names = bundled_names()
    for c in candidates:
        if c.is_dir():
            return (f"{text!r} is a folder, not a spec: name a spec file (.yaml or .yml) or a "
                    f"bundled spec ({', '.join(names)})")
        if c.exists():
            return f"{text!r} is not a spec: a spec is a YAML file whose name ends in .yaml or .yml"
    path = Path(text)
    if path.suffix in SPEC_SUFFIXES or len(path.parts) > 1:
        bundled_hint = f"; the bundled spec {path.stem!r} is named without .yaml" if path.stem in names else ""
        return missing_file(text, candidates, "spec file") + bundled_hint
    return f"no spec named {text!r}{unknown(text, names, 'the bundled specs')}"


Reader = Callable[[Path], "str | None"]
"""The text of a file when it is not to be read from disk (an editor's unsaved buffer)."""


def load_tree(path: Path, seen: tuple[Path, ...] = (), read: Reader | None = None) -> Located:
    """Load a spec file and merge it over its `extends` chain; `read` may give a file's text."""
    text = read(path) if read is not None else None
    tree = load_yaml(text, str(path)) if text is not None else load_yaml_file(path)
    if path in seen:
        chain = " -> ".join(str(p) for p in seen + (path,))
        raise SpecError([Diagnostic("error", tree.loc(("extends",)), "$.extends", f"extends cycle: {chain}")])
    if not isinstance(tree.data, dict):
        raise SpecError([Diagnostic("error", tree.loc(()), "$", "a spec must be a YAML mapping")])
    base_name = tree.data.get("extends")
    if base_name is None:
        return replace(tree, overrides=tuple(unknown_in_when(tree, tree)))
    try:
        base_path = find_spec(str(base_name), relative_to=path.parent)
    except SpecNotFound as err:
        raise SpecError([Diagnostic("error", tree.loc(("extends",)), "$.extends", str(err))]) from None
    base = load_tree(base_path, seen + (path,), read)
    merged = extend(base, tree)
    return replace(merged, overrides=(*base.overrides, *unknown_overrides(base, tree), *unknown_in_when(tree, merged)))


@dataclass
class SpecSource:
    """A loaded, validated spec file: its options, and its IR under any choice of them."""

    path: Path
    tree: Located
    options: tuple[OptionDecl, ...]
    _built: dict[tuple[Any, ...], Spec] = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        return str(self.tree.data.get("name") or self.path.stem)

    def option(self, name: str) -> OptionDecl:
        for o in self.options:
            if o.name == name:
                return o
        hint = unknown(name, [o.name for o in self.options], "its options")
        raise OptionError(f"spec {self.name!r} has no option {name!r}{hint}")

    def resolve(self, chosen: Mapping[str, object] | None = None) -> dict[str, OptionValue]:
        """Defaults overlaid with `chosen`, every name and value checked."""
        out: dict[str, OptionValue] = {o.name: o.default for o in self.options}
        for name, value in (chosen or {}).items():
            decl = self.option(name)
            value = coerce(value, decl)
            out[name] = value
        return out

    def build(self, chosen: Mapping[str, object] | None = None) -> Spec:
        options = self.resolve(chosen)
        key = tuple(sorted(options.items()))
        if key not in self._built:
            try:
                tree = apply_when(self.tree, options)
                errors = schema.validate(tree)
                if errors:
                    raise SpecError(errors)
                self._built[key] = Builder(tree, options).build(str(self.path), self.options)
            except SpecError as err:
                raise SpecError(relocate_all(err.diagnostics, self.tree, str(self.path))) from None
        return self._built[key]


def option_text(value: OptionValue) -> str:
    """An option value as a spec and a command line write it: `true`, `30`, `all_but_last`."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def coerce(value: object, decl: OptionDecl) -> OptionValue:
    """Accept `"30"` for 30 and `"true"` for True (command lines pass strings)."""
    for allowed in decl.values:
        if value == allowed and type(value) is type(allowed):
            return allowed
        if isinstance(value, str) and option_text(allowed).lower() == value.lower():
            return allowed
    given = option_text(value) if isinstance(value, (bool, int)) else repr(value)
    allowed_text = ", ".join(option_text(v) for v in decl.values)
    raise OptionError(f"option {decl.name!r} cannot be {given}; allowed: {allowed_text}")


def apply_when(tree: Located, options: Mapping[str, OptionValue]) -> Located:
    """Merge every `when` entry whose condition holds for these options, in order."""
    entries = tree.data.get("when") or {}
    env = formula.Env(constants=formula.option_constants(options))
    for name in entries:
        path = ("when", name, "if")
        locate = functools.partial(tree.locate_in, path)     # the tree this entry was read from
        expr = dsl.parse_value(entries[name]["if"], locate, path=format_path(path))
        if formula.compile_expr(expr, env, locate, format_path(path)).fn(None):
            tree = merge(tree, subtree(tree, ("when", name, "set")))
    return tree


_SOURCES: dict[Path, tuple[float, SpecSource]] = {}


def open_spec(name_or_path: str | Path) -> SpecSource:
    """Load and validate a spec file (cached until the file changes)."""
    path = find_spec(name_or_path)
    mtime = path.stat().st_mtime
    cached = _SOURCES.get(path)
    if cached and cached[0] == mtime:
        return cached[1]
    source = source_of(path, load_tree(path))
    _SOURCES[path] = (mtime, source)
    return source


def source_of(path: Path, tree: Located) -> SpecSource:
    """A merged tree validated (overrides, schema, options, formulas' types) as the spec at `path`."""
    options, found = validate(tree, str(path))
    if found:
        raise SpecError([d for _, d in found])
    return SpecSource(path, tree, options)


def validate(tree: Located, own: str) -> tuple[tuple[OptionDecl, ...], list[tuple[str, Diagnostic]]]:
    """The option declarations of a merged tree and every mistake loading can tell in it, at
    once, each placed in the file `own` where it can be and named by the pass that found it
    (override, schema, options, types, in this order): a misspelt key does not hide a
    formula's type error on another line. A finding that would only repeat another is left
    out: the schema's under an override already refused, the options' of a declaration the
    schema refused, a formula's the schema refused, or one that reads an option declared so
    wrongly that its type is unknown."""
    found = [("override", d) for d in tree.overrides]
    told = [parse_path(d.path) for _, d in found]
    shapes = [d for d in schema.validate(tree) if not any(parse_path(d.path)[:len(p)] == p for p in told)]
    found += [("schema", d) for d in shapes]
    refused = frozenset(told + [parse_path(d.path) for d in shapes])
    shapeless = frozenset(str(p[1]) for p in refused if len(p) > 1 and p[0] == "options")
    options, wrong = read_options(tree, shapeless)
    found += [("options", d) for d in wrong]
    found += [("types", d) for d in check_types(tree, options, refused, shapeless)]
    return options, [(step, relocate(d, tree, own)) for step, d in found]


def load_spec(name_or_path: str | Path, options: Mapping[str, object] | None = None) -> Spec:
    return open_spec(name_or_path).build(options)
