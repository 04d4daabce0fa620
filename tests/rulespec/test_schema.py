"""The spec JSON Schema: a full spec passes, and every mistake is located and explained."""
from __future__ import annotations

import json
from importlib import resources

import pytest
from jsonschema import Draft202012Validator

from rulespec.errors import Loc
from rulespec.schema import SCHEMA, validate
from rulespec.yamlload import load_yaml

SPEC = """\
name: demo
title: Demo truco
source: "Reglamento de prueba"
options:
  players: {values: [2, 4, 6], default: 2, source: "art. 1"}
  target: {values: [15, 30], default: 30}
  flor: {values: [false, true], default: false}
  three_pardas:
    kind: interpretation
    values: [mano, nobody]
    default: mano
    doc: "All three tricks tied."
when:
  flor_on:
    if: "options.flor"
    set:
      contests: {flor: {enabled: true}}
    note: "flor is a table option"
deck:
  suits: [e, b, o, c]
  ranks: [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]
  points: {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 10: 0, 11: 0, 12: 0}
  figures: [10, 11, 12]
  hand_size: 3
ranking: "1e > 1b > 7e > 7o > 3 > 2 > 1o = 1c > 12 > 11 > 10 > 7c = 7b > 6 > 5 > 4"
turned:
  trumps:
    kind: next_rank
    cycle: [4, 5, 6, 7, Q, J, K, A, 2, 3]
    suits: "d < s < h < c"
    substitute: 5
values:
  envido:
    formula: "if suited(2) then 20 + best_suited(2) else best_single"
  flor:
    holds: "suited(3)"
    formula: "20 + best_suited(3)"
table:
  players: "options.players"
  teams: 2
  dealer: next
  answer: next_opponent
tricks:
  count: 3
  lead: mano
  after_win: winner
  after_tie: same_leader
  partners_tie: team_wins
  cover:
    when: "trick > 1"
  outcome:
    "A A": A
    "A B A": A
    "A B B": B
    "T T T": mano
    note: "patterns are matched in order"
stakes:
  base: 1
  calls:
    truco: {worth: 2}
    retruco: {worth: 3, declined: 2}
    vale_cuatro: {worth: 4}
  declined: previous
  when: true
  raise: accepting_team
contests:
  envido:
    value: envido
    window: "trick == 1 and not played and stake_level == 0"
    interrupt: "pending_step == 1"
    calls:
      envido: {worth: 2, opens: true, max: 2}
      real_envido: {worth: 3, opens: true, after: [envido]}
      falta_envido: {worth: "target - leader", opens: true, after: [envido, real_envido], accept: "last"}
    accept: "total"
    decline: "if calls == 1 then 1 else total_but_last"
    count:
      procedure: announce
      good: "opponent_announced"
      tie: nearer_lead
    cancels: []
  flor:
    enabled: false
    value: flor
    calls:
      flor: {worth: 3, declare: true, opens: true, enabled: "options.flor"}
    unraised: {mode: each, pays: "3 * declared"}
    cancels: [envido]
fold:
  when: "my_turn or answering"
  pays: "stake"
  pending_contest: declined
special_hands:
  eleven:
    if: "max_score == target - 1"
    base: 3
    forbid_stakes: lose_match
  iron:
    if: "min_score == target - 1"
    blind: true
match:
  target: "options.target"
  end: immediately
verbs:
  quiero: accept
  source: "art. 9"
"""


def errors_for(text: str) -> list:
    return validate(load_yaml(text, "spec.yaml"))


def replace_once(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_schema_is_valid_draft_2020_12() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"]


def test_schema_is_package_data() -> None:
    text = resources.files("rulespec").joinpath("spec.schema.json").read_text(encoding="utf-8")
    assert json.loads(text) == SCHEMA


def test_every_top_level_key_documented() -> None:
    keys = {"name", "title", "language", "source", "note", "extends", "options", "when", "deck", "ranking",
            "turned", "values", "table", "tricks", "stakes", "contests", "fold", "special_hands",
            "annul", "schedule", "signals", "match", "verbs", "display"}
    assert set(SCHEMA["properties"]) == keys
    for key, prop in SCHEMA["properties"].items():
        target = prop if "title" in prop else SCHEMA["$defs"][prop["$ref"].split("/")[-1]]
        assert target.get("title") and target.get("description"), key


def test_full_spec_is_valid() -> None:
    assert errors_for(SPEC) == []


def test_minimal_spec_is_valid() -> None:
    assert errors_for("name: tiny\n") == []


def test_typo_key_located_at_the_key_with_suggestion() -> None:
    text = replace_once(SPEC, "envido: {worth: 2, opens", "envido: {worht: 2, opens")
    [diag] = errors_for(text)
    line = line_of(text, "worht")
    col = text.splitlines()[line - 1].index("worht") + 1
    assert diag.loc == Loc("spec.yaml", line, col)
    assert diag.path == "$.contests.envido.calls.envido.worht"
    assert diag.message.startswith("unknown key 'worht' (did you mean 'worth'?); the keys here: worth, opens, ")
    assert diag.severity == "error"


def test_typo_top_level_key() -> None:
    text = SPEC + "specal_hands: {}\n"
    [diag] = errors_for(text)
    assert diag.loc == Loc("spec.yaml", line_of(text, "specal_hands"), 1)
    assert diag.message.startswith("unknown key 'specal_hands' (did you mean 'special_hands'?); the keys here: ")
    assert "special_hands, annul," in diag.message


def test_unknown_key_without_suggestion_lists_keys() -> None:
    [diag] = errors_for("match: {zzz: 1}\n")
    assert diag.loc == Loc("spec.yaml", 1, 9)
    assert diag.message.startswith("unknown key 'zzz'; the keys here: target, end")


def test_wrong_type_reported_at_the_value() -> None:
    text = replace_once(SPEC, "  hand_size: 3", "  hand_size: three")
    [diag] = errors_for(text)
    assert diag.loc == Loc("spec.yaml", line_of(text, "hand_size"), 14)
    assert diag.path == "$.deck.hand_size"
    assert diag.message == "expected an integer, got the string 'three'"


def test_formula_accepts_string_or_int_but_not_bool() -> None:
    text = replace_once(SPEC, "truco: {worth: 2}", "truco: {worth: true}")
    [diag] = errors_for(text)
    assert diag.path == "$.stakes.calls.truco.worth"
    assert diag.message == "expected a string or an integer, got the boolean true"


def test_condition_rejects_numbers() -> None:
    [diag] = errors_for("fold: {when: 3}\n")
    assert diag.message == "expected a string or true or false, got the integer 3"
    assert diag.loc == Loc("spec.yaml", 1, 14)


def test_yes_is_not_a_boolean() -> None:
    text = replace_once(SPEC, '    when: "trick > 1"', '    when: "trick > 1"\n    counts: yes')
    [diag] = errors_for(text)
    assert diag.path == "$.tricks.cover.counts"
    assert diag.message == "expected true or false, got the string 'yes'"


def test_enum_with_suggestion() -> None:
    [diag] = errors_for("table:\n  dealer: nxt\n")
    assert diag.loc == Loc("spec.yaml", 2, 11)
    assert diag.message == (
        "the string 'nxt' is not allowed here; expected one of 'next', 'previous' "
        "(did you mean 'next'?)"
    )


def test_missing_required_key() -> None:
    [diag] = errors_for("options:\n  target: {values: [15, 30]}\n")
    assert diag.path == "$.options.target"
    assert diag.loc == Loc("spec.yaml", 2, 11)
    assert diag.message == "missing required key 'default'"


def test_bad_option_name_points_at_the_key() -> None:
    [diag] = errors_for("options:\n  two-players: {values: [2], default: 2}\n")
    assert diag.path == '$.options["two-players"]'
    assert diag.loc == Loc("spec.yaml", 2, 3)
    assert "not a usable name" in diag.message


def test_outcome_patterns() -> None:
    [diag] = errors_for('tricks:\n  outcome:\n    "A X": A\n    "T": none\n')
    assert diag.loc == Loc("spec.yaml", 3, 5)
    assert diag.path == '$.tricks.outcome["A X"]'
    assert "must match" in diag.message
    errors = errors_for('tricks:\n  outcome:\n    "A A": C\n')
    assert [(d.path, d.loc.line) for d in errors] == [('$.tricks.outcome["A A"]', 3)]


def test_option_values_must_be_non_empty_scalars() -> None:
    errors = errors_for("options:\n  a: {values: [], default: 1}\n  b: {values: [[1]], default: 1}\n")
    assert [(d.path, d.message) for d in errors] == [
        ("$.options.b.values[0]", "expected an integer or true or false or a string, got a list"),
        ("$.options.a.values", "must have at least 1 item"),
    ]


def test_when_set_keys_checked() -> None:
    [diag] = errors_for("when:\n  flor_on:\n    if: options.flor\n    set: {contest: {}}\n")
    assert diag.path == "$.when.flor_on.set.contest"
    assert diag.loc == Loc("spec.yaml", 4, 11)
    assert diag.message.startswith("unknown key 'contest' (did you mean 'contests'?); the keys here: ")


def test_source_of_the_enclosing_mapping_is_cited() -> None:
    [diag] = errors_for("options:\n  p: {values: [2], default: 2, source: 'art. 3', kidn: table}\n")
    assert diag.source == "art. 3"
    [diag] = errors_for("source: whole rulebook\nmatch: {end: never}\n")
    assert diag.source is None


@pytest.mark.parametrize("text, path, want", [
    ("options:\n  source: art. 1\n", "$.options.source", "a mapping"),
    ("deck:\n  points:\n    source: art. 1\n", "$.deck.points.source", "an integer"),
    ("values:\n  source: art. 1\n", "$.values.source", "a mapping"),
    ("stakes:\n  calls:\n    source: art. 1\n", "$.stakes.calls.source", "a mapping"),
    ("contests:\n  source: art. 1\n", "$.contests.source", "a mapping"),
    ("contests:\n  envido:\n    calls:\n      source: art. 1\n", "$.contests.envido.calls.source", "a mapping"),
    ("special_hands:\n  source: art. 1\n", "$.special_hands.source", "a mapping"),
    ("annul:\n  source: art. 1\n", "$.annul.source", "a mapping"),
])
def test_a_map_of_named_entries_takes_no_source_of_its_own(text: str, path: str, want: str) -> None:
    """In a map of named entries (options, calls, contests...) every key names an entry, and each
    entry cites its own clause: `source:` there would be read as an entry's name by everything
    that lists the entries, so it is refused at its value, which is not cited as the clause."""
    [diag] = [d for d in errors_for(text) if d.path == path]
    assert diag.loc == Loc("spec.yaml", text.count("\n"), text.splitlines()[-1].index("art") + 1)
    assert diag.message == f"expected {want}, got the string 'art. 1'"
    assert diag.source is None


def test_several_errors_all_reported_deepest_first_then_in_order() -> None:
    text = SPEC
    text = replace_once(text, "  hand_size: 3", "  hand_size: 0")
    text = replace_once(text, "  dealer: next", "  dealer: nxt")
    text = replace_once(text, "envido: {worth: 2, opens: true, max: 2}",
                        "envido: {worht: 2, opens: yes, max: 2}")
    text = replace_once(text, "  end: immediately", "  end: immediately\n  ned: 1")
    text = replace_once(text, "    blind: true", "    blind: 1")
    errors = validate(load_yaml(text, "spec.yaml"))
    found = [(d.path, d.loc.line) for d in errors]
    assert found == [
        ("$.contests.envido.calls.envido.worht", line_of(text, "worht")),
        ("$.contests.envido.calls.envido.opens", line_of(text, "worht")),
        ("$.special_hands.iron.blind", line_of(text, "blind: 1")),
        ("$.deck.hand_size", line_of(text, "hand_size")),
        ("$.match.ned", line_of(text, "ned: 1")),
        ("$.table.dealer", line_of(text, "dealer")),
    ]
    assert errors[3].message == "must be at least 1, got the integer 0"
    assert validate(load_yaml(text, "spec.yaml")) == errors  # stable


@pytest.mark.parametrize(
    "snippet",
    [
        "contests:\n  e:\n    calls:\n      c: {max: 0}\n",
        "contests:\n  e:\n    unraised: {mode: all}\n",
        "contests:\n  e:\n    count: {tie: dealer}\n",
        "stakes: {raise: anyone}\n",
        "tricks: {after_tie: winner}\n",
        "fold: {pending_contest: lost}\n",
        "special_hands:\n  h: {if: 'true', forbid_stakes: allow}\n",
        "special_hands:\n  h: {base: 3}\n",
        "match: {target: 1.5}\n",
        "turned: {trumps: {kind: random}}\n",
        "values:\n  envido: {formla: x}\n",
        "verbs: {quiero: 1}\n",
        "deck: {points: {1: one}}\n",
        "when:\n  - set: {}\n",
        "extends: [a, b]\n",
    ],
)
def test_invalid_snippets_rejected(snippet: str) -> None:
    errors = errors_for(snippet)
    assert errors, snippet
    assert all(d.loc is not None and d.loc.file == "spec.yaml" for d in errors)
