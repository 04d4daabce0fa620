"""Find a spec by name or path, resolve `extends`, validate, and build it for chosen options."""
from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from rulespec import dsl, formula, schema
from rulespec.blame import relocate_all
from rulespec.build import Builder, build_options
from rulespec.errors import SPEC_SUFFIXES, Diagnostic, OptionError, SpecError, SpecNotFound, missing_file, unknown
from rulespec.ir import OptionDecl, OptionValue, Spec
from rulespec.merge import extend, merge, subtree
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
        return tree
    try:
        base_path = find_spec(str(base_name), relative_to=path.parent)
    except SpecNotFound as err:
        raise SpecError([Diagnostic("error", tree.loc(("extends",)), "$.extends", str(err))]) from None
    return extend(load_tree(base_path, seen + (path,), read), tree)


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
    """A merged tree validated (schema, options, formulas' types) as the spec at `path`."""
    try:
        errors = schema.validate(tree)
        if errors:
            raise SpecError(errors)
        options = build_options(tree)
        errors = check_types(tree, options)
        if errors:
            raise SpecError(errors)
    except SpecError as err:
        raise SpecError(relocate_all(err.diagnostics, tree, str(path))) from None
    return SpecSource(path, tree, options)


def load_spec(name_or_path: str | Path, options: Mapping[str, object] | None = None) -> Spec:
    return open_spec(name_or_path).build(options)
