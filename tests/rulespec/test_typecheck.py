"""The DSL's types and scopes (rulespec/vocabulary.py, rulespec/typecheck.py): every formula
of a spec checked at load against its position, errors saying what was expected and found;
and the table behind them kept whole: the engine's names, the schema's formula keys and
the reference in docs/spec-language.md."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulespec.errors import SpecError
from rulespec.ir import Cited, Deck
from rulespec.load import load_spec, open_spec
from rulespec.vocabulary import FUNCTIONS, NAMES, SITES, Scope, markdown, with_reference

from interpreter.engine.context import PLAY_NAMES, play_env
from interpreter.engine.tables import Cards, _hand_env

ROOT = Path(__file__).resolve().parents[2]


def variant(tmp_path: Path, body: str, base: str = "teg") -> Path:
    path = tmp_path / "mine.yaml"
    path.write_text(f"extends: {base}\n{body}", encoding="utf-8")
    return path


def errors(path: Path) -> list[str]:
    with pytest.raises(SpecError) as info:
        open_spec(path)
    return [f"{d.loc.line}:{d.loc.col} {d.path}: {d.message}" for d in info.value.diagnostics]


def test_the_reference_in_the_docs_is_the_checkers_table() -> None:
    doc = (ROOT / "docs" / "spec-language.md").read_text(encoding="utf-8")
    assert markdown() in doc
    assert with_reference(doc) == doc, "run: python -m rulespec.vocabulary docs/spec-language.md"


def test_the_engine_reads_exactly_the_names_the_table_types() -> None:
    """A name the engine offers without a type (or typed and never offered) would slip past
    the checker or be refused by it."""
    hand = {n for n, t in NAMES.items() if t.scope is Scope.CARDS}
    cards = Cards(Deck(("e",), ("1",), (("1", 1),), frozenset(), 1, Cited()))
    assert set(_hand_env(cards, {}).names) == hand
    assert set(PLAY_NAMES) == set(NAMES) - hand
    functions = set(play_env({}, set(), {}).functions) | set(_hand_env(cards, {}).functions)
    assert functions | {"max", "min", "abs"} == set(FUNCTIONS)


def test_every_formula_key_of_the_schema_has_a_site_and_back() -> None:
    schema = json.loads((ROOT / "rulespec" / "spec.schema.json").read_text(encoding="utf-8"))
    defs = schema["$defs"]
    where = {"handValue": "values.*", "stakeCall": "stakes.calls.*", "contestCall": "contests.*.calls.*",
             "contest": "contests.*", "specialHand": "special_hands.*", "whenEntry": "when.*"}

    def walk(node: object, path: tuple[str, ...]) -> set[str]:
        found: set[str] = set()
        if isinstance(node, dict):
            if node.get("$ref") in ("#/$defs/formula", "#/$defs/condition"):
                found.add(".".join(p for p in path if p not in ("properties",)).replace("additionalProperties", "*"))
            for k, v in node.items():
                found |= walk(v, path + (k,))
        return found

    keys = walk(schema["properties"], ())
    for name, prefix in where.items():
        keys |= {f"{prefix}.{k}" for k in walk(defs[name]["properties"], ())}
    assert keys == set(SITES)


@pytest.mark.parametrize("body, expected", [
    ("contests:\n  envido:\n    window: \"trick + 1\"\n",
     "4:14 $.contests.envido.window: expected a condition (true or false), got a number"),
    ("fold:\n  pays: \"played\"\n", "3:10 $.fold.pays: expected a number, got a condition"),
    ("fold:\n  pays: \"stake + (trick > 1)\"\n", "3:19 $.fold.pays: expected a number, got a condition"),
    ("fold:\n  when: \"if my_turn then 1 else answering\"\n",
     "3:33 $.fold.when: both branches must give the same type"),
    ("special_hands:\n  x:\n    if: \"is_mano\"\n", "4:10 $.special_hands.x.if: 'is_mano' has a meaning only per trick"),
    ("stakes:\n  base: \"total\"\n", "3:10 $.stakes.base: 'total' has a meaning only in a contest"),
    ("fold:\n  when: \"can_beat\"\n", "3:10 $.fold.when: 'can_beat' has a meaning only in a count"),
    ("values:\n  envido:\n    formula: \"trick\"\n", "4:15 $.values.envido.formula: 'trick' has a meaning only"),
    ("match:\n  target: \"leader\"\n", "3:12 $.match.target: 'leader' has a meaning only per hand"),
    ("fold:\n  when: \"my_turn or no\"\n", "3:21 $.fold.when: unknown name 'no' (did you mean 'false'?)"),
    ("fold:\n  when: \"my_trn\"\n",
     "3:10 $.fold.when: unknown name 'my_trn' (did you mean 'my_turn'?); the names here: target, half, "),
    ("fold:\n  when: \"called('trucco')\"\n",
     "3:17 $.fold.when: called(): no call named 'trucco' (did you mean 'truco'?); the calls: contraflor, "),
    ("fold:\n  when: \"idle('truco')\"\n",
     "3:15 $.fold.when: idle(): no contest named 'truco'; the contests: envido, flor"),
    ("fold:\n  when: \"options.target == 'thirty'\"\n",
     "3:28 $.fold.when: cannot compare a number with a text"),
    ("fold:\n  when: \"options.flor == 1\"\n", "3:26 $.fold.when: cannot compare a condition (true or false) with a number"),
    ("when:\n  w:\n    if: \"options.target == 25\"\n    set: {}\n",
     "4:28 $.when.w.if: option 'target' is never 25; its values: 15, 30"),
    ("when:\n  w:\n    if: \"score_us > 3\"\n    set: {}\n",
     "4:10 $.when.w.if: 'score_us' has a meaning only per trick"),
    ("when:\n  w:\n    if: \"options.flor\"\n    set:\n      fold: {when: \"trick\"}\n",
     "6:21 $.when.w.set.fold.when: expected a condition (true or false), got a number"),
    ("contests:\n  envido:\n    enabled: \"no\"\n",
     "4:15 $.contests.envido.enabled: unknown name 'no' (did you mean 'false'?)"),
    ("fold:\n  when: \"trick(1)\"\n", "3:10 $.fold.when: 'trick' is not a function: drop the parentheses"),
    ("fold:\n  when: \"not trick\"\n", "3:14 $.fold.when: expected a condition (true or false), got a number"),
    ("fold:\n  pays: \"max(stake, played)\"\n", "3:21 $.fold.pays: expected a number, got a condition"),
])
def test_a_wrong_formula_is_refused_at_load_saying_what_was_expected(tmp_path: Path, body: str,
                                                                     expected: str) -> None:
    found = errors(variant(tmp_path, body))
    assert any(e.startswith(expected) for e in found), found


def test_text_values_read_as_a_condition_point_at_the_option_the_variant_declared(tmp_path: Path) -> None:
    path = variant(tmp_path, "options:\n  flor:\n    values: [no, si]\n    default: no\n")
    (found,) = errors(path)
    assert found.startswith("4:13 $.options.flor.values: expected a condition (true or false), got a text: "
                            "option 'flor' has the values 'no', 'si'; write [false, true]")
    assert "[in the base: " in found and "teg.yaml" in found and "$.contests.flor.enabled]" in found


@pytest.mark.parametrize("name", ["teg", "reglamento", "board", "vanikar", "paulista", "uruguayo"])
def test_the_bundled_specs_type_check(name: str) -> None:
    load_spec(name)


def test_rank_count_names_a_rank_of_the_deck(tmp_path: Path) -> None:
    found = errors(variant(tmp_path, "values:\n  envido:\n    formula: \"rank_count(8)\"\n"))
    assert found[0].startswith("4:26 $.values.envido.formula: rank_count(): no rank named '8'")
