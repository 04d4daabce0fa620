"""Shared fixtures: the bundled specs and every option combination they offer."""
from __future__ import annotations

import itertools

from rulespec.load import bundled_names, open_spec


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
