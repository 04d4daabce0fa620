"""The `extends`/`when` merge: the documented rules, and locations that follow each node."""
from __future__ import annotations

import pytest

from rulespec.errors import Loc
from rulespec.load import load_spec
from rulespec.merge import extend, graft, merge, subtree
from rulespec.yamlload import load_yaml

BASE = """\
name: base
title: Base truco
source: Reglamento A
extends: grandparent
stakes:
  base: 1
  calls:
    truco: {worth: 2}
    retruco: {worth: 3}
  raise: accepting_team
deck:
  suits: [e, b, o, c]
  hand_size: 3
fold:
  when: "my_turn"
"""

CHILD = """\
name: child
extends: base
stakes:
  calls:
    retruco: {worth: 4}
    vale_cuatro: {worth: 5}
deck:
  suits: [x, y]
fold: ~
match: {target: 15}
"""


@pytest.fixture
def merged():
    return merge(load_yaml(BASE, "base.yaml"), load_yaml(CHILD, "child.yaml"))


def test_merge_data(merged) -> None:
    assert merged.data == {
        "name": "child",
        "title": "Base truco",
        "source": "Reglamento A",
        "extends": "base",
        "stakes": {
            "base": 1,
            "calls": {"truco": {"worth": 2}, "retruco": {"worth": 4}, "vale_cuatro": {"worth": 5}},
            "raise": "accepting_team",
        },
        "deck": {"suits": ["x", "y"], "hand_size": 3},
        "match": {"target": 15},
    }


def test_key_order_base_first_then_new(merged) -> None:
    assert list(merged.data) == ["name", "title", "source", "extends", "stakes", "deck", "match"]
    assert list(merged.data["stakes"]["calls"]) == ["truco", "retruco", "vale_cuatro"]


def test_scalar_override_points_at_child(merged) -> None:
    assert merged.locs[("stakes", "calls", "retruco", "worth")] == Loc("child.yaml", 5, 22)
    assert merged.locs[("stakes", "calls", "truco", "worth")] == Loc("base.yaml", 8, 20)
    assert merged.locs[("stakes", "base")] == Loc("base.yaml", 6, 9)
    assert merged.locs[("stakes", "calls", "vale_cuatro")] == Loc("child.yaml", 6, 18)
    assert merged.key_locs[("stakes", "calls", "vale_cuatro")] == Loc("child.yaml", 6, 5)


def test_list_replaces_and_old_items_are_gone(merged) -> None:
    assert merged.locs[("deck", "suits")] == Loc("child.yaml", 8, 10)
    assert merged.locs[("deck", "suits", 1)] == Loc("child.yaml", 8, 14)
    assert ("deck", "suits", 2) not in merged.locs
    assert ("deck", "suits", 2) not in merged.texts
    assert merged.texts[("deck", "suits", 0)].file == "child.yaml"
    assert merged.locs[("deck", "hand_size")] == Loc("base.yaml", 13, 14)


def test_null_removes_base_key_and_its_locations(merged) -> None:
    assert "fold" not in merged.data
    assert not any(path[:1] == ("fold",) for path in merged.locs)
    assert not any(path[:1] == ("fold",) for path in merged.texts)


def test_null_without_base_key_is_dropped() -> None:
    result = merge(load_yaml("a: 1\n", "b.yaml"), load_yaml("b: ~\nc: {d: ~, l: [~]}\n", "o.yaml"))
    assert result.data == {"a": 1, "c": {"l": [None]}}
    assert ("c", "d") not in result.locs
    assert result.locs[("c", "l", 0)] == Loc("o.yaml", 2, 15)


def test_merged_mapping_keeps_base_loc(merged) -> None:
    assert merged.locs[()] == Loc("base.yaml", 1, 1)
    assert merged.locs[("stakes",)] == Loc("base.yaml", 6, 3)
    assert merged.key_locs[("stakes",)] == Loc("base.yaml", 5, 1)


def test_locate_in_follows_the_file(merged) -> None:
    assert merged.locate_in(("fold",), 0) == Loc("base.yaml", 1, 1)  # gone: root loc
    assert merged.locate_in(("name",), 2) == Loc("child.yaml", 1, 9)
    assert merged.locate_in(("title",), 5) == Loc("base.yaml", 2, 13)


def test_type_change_replaces() -> None:
    base = load_yaml("a: {x: 1}\nb: [1]\nc: 3\n", "b.yaml")
    over = load_yaml("a: 2\nb: {y: 1}\nc: [4]\n", "o.yaml")
    result = merge(base, over)
    assert result.data == {"a": 2, "b": {"y": 1}, "c": [4]}
    assert ("a", "x") not in result.locs
    assert result.locs[("b", "y")] == Loc("o.yaml", 2, 8)


def test_inputs_untouched_and_result_independent() -> None:
    base = load_yaml(BASE, "base.yaml")
    over = load_yaml(CHILD, "child.yaml")
    before = (repr(base.data), dict(base.locs), repr(over.data), dict(over.locs))
    result = merge(base, over)
    result.data["deck"]["suits"].append("z")
    result.data["stakes"]["calls"]["truco"]["worth"] = 99
    assert before == (repr(base.data), dict(base.locs), repr(over.data), dict(over.locs))


def test_empty_override_changes_nothing() -> None:
    base = load_yaml(BASE, "base.yaml")
    result = merge(base, load_yaml("", "empty.yaml"))
    assert result.data == base.data
    assert result.locs == base.locs


def test_extend_drops_what_is_never_inherited() -> None:
    base = load_yaml(BASE, "base.yaml")
    child = load_yaml("extends: base\nname: child\ndeck: {hand_size: 4}\n", "child.yaml")
    result = extend(base, child)
    assert result.data["name"] == "child"
    assert "title" not in result.data and "source" not in result.data
    assert result.data["extends"] == "base"
    assert result.data["deck"] == {"suits": ["e", "b", "o", "c"], "hand_size": 4}
    assert not any(loc.file == "base.yaml" for path, loc in result.locs.items() if path[:1] == ("title",))


@pytest.mark.parametrize("written,name,title", [
    ("", "", ""), ("name: mine\n", "mine", "mine"), ("name: mine\ntitle: My truco\n", "mine", "My truco"),
])
def test_a_built_variant_is_named_and_titled_by_what_it_writes(tmp_path, written, name, title) -> None:
    """spec-language.md: "`name`, `title` and `source` are never inherited"; a spec without a
    `title` is titled by its `name`."""
    path = tmp_path / "variant.yaml"
    path.write_text(f"extends: teg\n{written}", encoding="utf-8")
    spec = load_spec(str(path))
    assert (spec.name, spec.title, spec.source) == (name, title, None)


def test_when_entry_via_subtree() -> None:
    spec = load_yaml(
        "contests:\n  flor: {enabled: false, value: flor}\n"
        "when:\n  - if: options.flor\n    set:\n      contests: {flor: {enabled: true}}\n",
        "s.yaml",
    )
    override = subtree(spec, ("when", 0, "set"))
    assert override.data == {"contests": {"flor": {"enabled": True}}}
    assert override.locs[()] == Loc("s.yaml", 6, 7)
    result = merge(spec, override)
    assert result.data["contests"]["flor"] == {"enabled": True, "value": "flor"}
    assert result.locs[("contests", "flor", "enabled")] == Loc("s.yaml", 6, 34)
    assert result.locs[("contests", "flor", "value")] == Loc("s.yaml", 2, 33)


def test_subtree_missing_path() -> None:
    with pytest.raises(KeyError):
        subtree(load_yaml("a: 1\n", "s.yaml"), ("b",))


def test_graft_replaces_and_appends() -> None:
    spec = load_yaml("a:\n  b: 1\n  c: [1, 2]\n", "s.yaml")
    sub = load_yaml("{x: y}\n", "sub.yaml")
    replaced = graft(spec, ("a", "b"), sub)
    assert replaced.data == {"a": {"b": {"x": "y"}, "c": [1, 2]}}
    assert replaced.locs[("a", "b", "x")] == Loc("sub.yaml", 1, 5)
    assert replaced.key_locs[("a", "b")] == Loc("s.yaml", 2, 3)
    assert replaced.locs[("a", "c", 1)] == Loc("s.yaml", 3, 10)
    added = graft(spec, ("a", "new"), sub)
    assert list(added.data["a"]) == ["b", "c", "new"]
    appended = graft(spec, ("a", "c", 2), sub)
    assert appended.data["a"]["c"] == [1, 2, {"x": "y"}]
    assert appended.locs[("a", "c", 2)] == Loc("sub.yaml", 1, 1)
    with pytest.raises(KeyError):
        graft(spec, ("a", "c", 5), sub)
    with pytest.raises(KeyError):
        graft(spec, ("zz", "y"), sub)
