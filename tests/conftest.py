"""Shared fixtures: the bundled specs and every option combination they offer."""
from __future__ import annotations

import math
import os

import pytest
from hypothesis import settings

from rulespec.ir import OptionDecl
from rulespec.load import bundled_names, open_spec

# Hypothesis draws its examples from a fixed seed unless asked otherwise, so a failure in CI
# is the same failure on every machine: `derandomize` makes the examples a function of the
# test alone, and no example database carries state between runs. HYPOTHESIS_PROFILE=explore
# draws fresh examples (and keeps them in the local database) to look for new failures.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_sessionstart(session: pytest.Session) -> None:
    """`TRUCO_REQUIRE_COMPILED=1` (CI's second run, on the engine, the checker's walk core and
    the bots compiled with mypyc) fails at once where the compiled modules are not the ones
    imported, rather than passing on the source."""
    if os.environ.get("TRUCO_REQUIRE_COMPILED"):
        from interpreter import bots, designer, engine
        for what, build in (("engine", engine.build()), ("checker's walk", designer.build()),
                            ("bots' code", bots.build())):
            if build != "compiled (mypyc)":
                raise pytest.UsageError(f"TRUCO_REQUIRE_COMPILED is set, but the {what} runs as: {build}")


def nth_combination(options: tuple[OptionDecl, ...], n: int) -> dict[str, object]:
    """The n-th combination of option values in the order of `itertools.product` (the last
    option varies fastest), found without listing the ones before it."""
    picked = []
    for decl in reversed(options):
        n, i = divmod(n, len(decl.values))
        picked.append((decl.name, decl.values[i]))
    return dict(reversed(picked))


def option_sets(limit_per_spec: int = 64) -> list[tuple[str, dict[str, object]]]:
    """(spec, options) for every bundled spec: every `stride`-th combination, then for each
    value not yet used the first combination that uses it. The combinations are counted, never
    listed: reglamento alone has millions."""
    out = []
    for name in bundled_names():
        options = open_spec(name).options
        sizes = [len(o.values) for o in options]
        total = math.prod(sizes)
        chosen = [nth_combination(options, n) for n in range(0, total, max(1, total // limit_per_spec))]
        for k, decl in enumerate(options):   # every single value is covered whatever the stride
            for i, value in enumerate(decl.values):
                if not any(c[decl.name] == value for c in chosen):
                    chosen.append(nth_combination(options, i * math.prod(sizes[k + 1:])))
        out += [(name, c) for c in chosen]
    return out


ALL_OPTION_SETS = option_sets()


def pytest_make_parametrize_id(config: object, val: object, argname: str) -> str | None:
    """A long text or byte string (a crafted 60,000-byte body) is named by its length: pytest puts
    the running test's id in the environment of every process it starts, and an id that size
    makes starting one fail ("Argument list too long")."""
    if isinstance(val, (str, bytes)) and len(val) > 80:
        return f"{argname}-{len(val)}-{'bytes' if isinstance(val, bytes) else 'chars'}"
    return None
