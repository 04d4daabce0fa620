"""The option combinations the exhaustive pass walks: a covering array of strength 3 by
default, in which every three options take every combination of their values together, so
that a house rule that breaks only where three options meet is walked, and found."""
from __future__ import annotations

import itertools
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.ir import Cited, OptionDecl
from rulespec.load import open_spec

from interpreter.cli import main
from interpreter.designer.check import STRENGTH, combinations, covering, diagnose, restrict


def _option(name: str, values: tuple[object, ...], default: object) -> OptionDecl:
    return OptionDecl(name=name, type="int", values=values, default=default, kind="table", doc=None,
                      cited=Cited(None, None))


def _missing(options: tuple[OptionDecl, ...], combos: list[dict], strength: int) -> list[tuple]:
    """Every `strength` option values that no combination holds together."""
    out = []
    for group in itertools.combinations(options, strength):
        for values in itertools.product(*(o.values for o in group)):
            if not any(all(c[o.name] == v for o, v in zip(group, values, strict=True)) for c in combos):
                out.append(tuple(zip((o.name for o in group), values, strict=True)))
    return out


domains = st.lists(st.integers(min_value=1, max_value=4), min_size=0, max_size=7)


@settings(max_examples=60, deadline=None)
@given(domains, st.integers(min_value=1, max_value=4), st.data())
def test_a_covering_array_holds_every_tuple_of_option_values(sizes: list[int], strength: int,
                                                             data: st.DataObject) -> None:
    """Whatever the options and their values, every `strength` options take every combination of
    their values in some combination walked (every combination when there are fewer options),
    the defaults come first, each combination is a value of each option, and none repeats."""
    options = tuple(_option(f"o{k}", tuple(range(n)), data.draw(st.integers(0, n - 1), label=f"default o{k}"))
                    for k, n in enumerate(sizes))
    combos = covering(options, strength)
    assert combos[0] == {o.name: o.default for o in options}
    assert all(set(c) == {o.name for o in options} and all(c[o.name] in o.values for o in options)
               for c in combos)
    assert len({tuple(sorted(c.items())) for c in combos}) == len(combos)
    assert _missing(options, combos, min(strength, len(options))) == []
    if strength >= len(options):
        assert len(combos) == len(list(itertools.product(*(o.values for o in options))))


def test_strength_two_is_the_pairwise_array() -> None:
    options = open_spec("reglamento").options
    assert len(covering(options, 2)) == 13, "the combinations every earlier check walked"


def test_every_triple_of_reglamento_values_is_walked_and_checked() -> None:
    """'players × flor × contraflor_6', 'target × falta × maldon': every triple of option values of
    reglamento is in the covering array, and every combination of the array is checked."""
    options = open_spec("reglamento").options
    triples = covering(options, STRENGTH)
    assert STRENGTH == 3 and _missing(options, triples, 3) == []
    assert len(triples) < 60, "far fewer than the 884,736 combinations of the options"
    combos, total = combinations(options)
    keys = {tuple(sorted(c.items())) for c in combos}
    assert total == 884_736 and all(tuple(sorted(c.items())) in keys for c in triples)


PLANTED = """\
extends: teg
options:
  luz:
    values: [false, true]
    default: false
    source: "a house rule"
  sombra:
    values: [false, true]
    default: false
    source: "a house rule"
  humo:
    values: [false, true]
    default: false
    source: "a house rule"
stakes:
  when: "trick > 3 or not (options.luz == {luz} and options.sombra == {sombra} and options.humo == {humo})"
"""


def _planted(tmp_path: Path, fixed: dict[str, object]) -> tuple[Path, dict[str, bool]]:
    """A teg variant whose truco is never legal where three house options take values that no
    pair of option values walked holds together: only a walk of every triple meets it (the
    condition is not false as written, `trick > 3`, so no check that plays no hand sees it)."""
    names = ("luz", "sombra", "humo")
    spec = tmp_path / "planted.yaml"
    spec.write_text(PLANTED.format(luz="true", sombra="true", humo="true"))
    walked = covering(restrict(open_spec(str(spec)), fixed), 2)
    hidden = next(vs for vs in itertools.product((False, True), repeat=3)
                  if not any(all(c[n] == v for n, v in zip(names, vs, strict=True)) for c in walked))
    planted = dict(zip(names, hidden, strict=True))
    spec.write_text(PLANTED.format(**{n: str(v).lower() for n, v in planted.items()}))
    return spec, planted


def test_a_rule_broken_only_where_three_options_meet_is_found_only_at_strength_three(tmp_path: Path) -> None:
    fixed = {"players": 2, "target": 15, "flor": False}
    spec, planted = _planted(tmp_path, fixed)
    pairs = diagnose(str(spec), fixed=fixed, jobs=1, strength=2)
    assert [str(f.diagnostic) for f in pairs.findings] == [], "every pair of values walked, and none breaks"
    triples = diagnose(str(spec), fixed=fixed, jobs=1)
    found = [str(f.diagnostic) for f in triples.findings]
    assert len(found) == 1 and "no stake call is ever legal in any hand explored" in found[0], found
    shown = ", ".join(f"{n}={str(v).lower()}" for n, v in planted.items())
    assert all(f"{n}={str(v).lower()}" in found[0] for n, v in planted.items() if v), (found[0], shown)
    assert pairs.coverage().startswith("every pair of option values: 6 of 16") and triples.strength == 3


def test_the_command_walks_pairs_on_request(tmp_path: Path, capsys) -> None:
    fixed = {"players": 2, "target": 15, "flor": False}
    spec, _ = _planted(tmp_path, fixed)
    args = ["check", "-j", "1", *(a for k, v in fixed.items() for a in ("-o", f"{k}={str(v).lower()}")), str(spec)]
    assert main([*args, "--strength", "2"]) == 0
    assert main(args) == 1
    assert "no stake call is ever legal" in capsys.readouterr().out
