"""Shared fixtures: the bundled specs and every option combination they offer."""
from __future__ import annotations

import os

from hypothesis import settings

from rulespec.load import bundled_names, open_spec

# Hypothesis draws its examples from a fixed seed unless asked otherwise, so a failure in CI
# is the same failure on every machine: `derandomize` makes the examples a function of the
# test alone, and no example database carries state between runs. HYPOTHESIS_PROFILE=explore
# draws fresh examples (and keeps them in the local database) to look for new failures.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def option_sets(limit_per_spec: int = 64) -> list[tuple[str, dict[str, object]]]:
    """(spec, options) for every bundled spec: each option value at least once, then more combinations."""
    out = []
    for name in bundled_names():
        source = open_spec(name)
        combos = list(source.combinations())
        chosen = combos[:: max(1, len(combos) // limit_per_spec)]
        for decl in source.options:          # every single value is covered whatever the stride
            for value in decl.values:
                if not any(c[decl.name] == value for c in chosen):
                    chosen.append(next(c for c in combos if c[decl.name] == value))
        out += [(name, c) for c in chosen]
    return out


ALL_OPTION_SETS = option_sets()
