"""Imports point down the layers, and no package has an import cycle (docs/architecture.md).

Every import statement is read from the source, at module level, inside functions and under
`TYPE_CHECKING` alike: an upward import hidden in a function is still a dependency.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Bottom to top. A module may import its own layer and the layers below it; two packages that
# share a rank are siblings and may not import each other.
LAYERS: list[tuple[int, str]] = [
    (0, "rulespec"),
    (1, "interpreter.engine"),
    (2, "interpreter.bots"),
    (3, "interpreter.designer"),
    (3, "interpreter.measure"),
    (4, "interpreter.terminal"),
    (4, "interpreter.server"),
    (4, "interpreter.adapters"),
    (5, "interpreter.cli"),
    (6, "interpreter.__main__"),
    (5, "interpreter"),
]


def layer_of(module: str) -> tuple[int, str]:
    """The most specific layer a dotted module name belongs to."""
    best = max((name for _, name in LAYERS if module == name or module.startswith(name + ".")), key=len)
    return next(entry for entry in LAYERS if entry[1] == best)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> set[str]:
    """Every project module `path` imports, anywhere in the file."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:        # `from pkg import mod` imports pkg.mod, not pkg's facade
                found.add(f"{base}.{alias.name}" if _exists(f"{base}.{alias.name}") else base)
    return {m for m in found if m.split(".")[0] in ("rulespec", "interpreter") and _exists(m)}


def _exists(module: str) -> bool:
    path = ROOT.joinpath(*module.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


SOURCES = sorted(p for pkg in ("rulespec", "interpreter") for p in (ROOT / pkg).rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_down(path: Path) -> None:
    module = module_name(path)
    rank, home = layer_of(module)
    wrong = []
    for target in sorted(imports(path)):
        if target == "interpreter" and home != "interpreter":
            wrong.append(f"{target} (the package facade re-exports the engine: import from interpreter.engine)")
            continue
        their_rank, their_home = layer_of(target)
        if their_rank > rank or (their_rank == rank and their_home != home):
            wrong.append(f"{target} ({their_home}, above or beside {home})")
    assert not wrong, f"{module} imports " + "; ".join(wrong)


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `graph` (module -> the modules it imports), or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        if m in path:
            return path[path.index(m):] + [m]
        if m in done:
            return None
        path.append(m)
        for t in sorted(graph[m]):
            found = visit(t)
            if found:
                return found
        path.pop()
        done.add(m)
        return None

    for m in sorted(graph):
        found = visit(m)
        if found:
            return found
    return None


@pytest.mark.parametrize("package", ["rulespec", "interpreter"])
def test_no_import_cycle(package: str) -> None:
    """Two modules that import each other (even inside a function) are one module split in
    two: neither can be read, tested or moved alone."""
    modules = {module_name(p): p for p in SOURCES if module_name(p).startswith(package)}
    graph = {m: {t for t in imports(p) if t in modules and t != m} for m, p in modules.items()}
    found = cycle(graph)
    assert found is None, f"import cycle in {package}: " + " -> ".join(found or [])


def test_a_cycle_is_found() -> None:
    """The search itself: a cycle through a function-level import, as designer had one."""
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_the_layer_table_covers_every_module() -> None:
    """A new folder must be placed in a layer before it can be used."""
    for path in SOURCES:
        module = module_name(path)
        assert any(module == name or module.startswith(name + ".") for _, name in LAYERS), module
