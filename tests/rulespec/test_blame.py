"""Findings about a base's node that a variant caused are placed in the variant's file
(rulespec/blame.py): at a related node the variant wrote, at what the variant wrote under
the failing entry, else at its `extends:` line, the base's place kept as context."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.blame import parse_path, relocate
from rulespec.errors import Diagnostic, Loc, SpecError
from rulespec.load import load_tree

from interpreter import load_game


def tree_of(tmp_path: Path, body: str):
    path = tmp_path / "mine.yaml"
    path.write_text(f"extends: teg\n{body}", encoding="utf-8")
    return path, load_tree(path)


def test_parse_path_reads_back_format_path() -> None:
    assert parse_path('$.tricks.outcome["A B"][2].x') == ("tricks", "outcome", "A B", 2, "x")


def test_a_finding_in_the_variant_is_unchanged(tmp_path: Path) -> None:
    path, tree = tree_of(tmp_path, "fold:\n  pays: 2\n")
    d = Diagnostic("error", Loc(str(path), 3, 9), "$.fold.pays", "bad")
    assert relocate(d, tree, str(path)) == d


def test_a_related_node_the_variant_wrote_takes_the_finding(tmp_path: Path) -> None:
    path, tree = tree_of(tmp_path, "deck:\n  hand_size: 4\n")
    base = tree.loc(("table", "players"))
    d = Diagnostic("error", base, "$.table.players", "too many", related=(("deck", "hand_size"),))
    moved = relocate(d, tree, str(path))
    assert (moved.loc, moved.path) == (Loc(str(path), 3, 14), "$.deck.hand_size")
    assert moved.message == f"too many [in the base: {base} at $.table.players]"


def test_an_option_the_failing_formula_reads_takes_the_finding(tmp_path: Path) -> None:
    path, tree = tree_of(tmp_path, "options:\n  target:\n    values: [15, 31]\n")
    d = Diagnostic("error", tree.loc(("match", "target")), "$.match.target", "odd target")
    moved = relocate(d, tree, str(path))
    assert (moved.loc.file, moved.loc.line, moved.path) == (str(path), 4, "$.options.target.values")


def test_failing_all_the_extends_line_takes_it(tmp_path: Path) -> None:
    path, tree = tree_of(tmp_path, "fold:\n  pays: 2\n")
    d = Diagnostic("error", tree.loc(("stakes", "base")), "$.stakes.base", "odd")
    moved = relocate(d, tree, str(path))
    assert (moved.loc, moved.path) == (Loc(str(path), 1, 1), "$.extends")
    assert "[in the base: " in moved.message and "teg.yaml" in moved.message


def test_a_deck_too_small_for_the_table_a_variant_widened_is_placed_at_that_option(tmp_path: Path) -> None:
    """A house base seats `options.Mesa` players (2 or 4); a variant of it offers 14, and 14 hands of
    3 need 42 of teg's 40 cards. The variant wrote neither the deck nor the table, only the option
    the table's formula reads (a name with capitals), so the finding is placed there."""
    (tmp_path / "casa_base.yaml").write_text(
        'name: casa_base\ntitle: teg seated by a house option\nsource: "a test\'s own house rules"\nextends: teg\n'
        "options:\n  Mesa:\n    values: [2, 4]\n    default: 2\ntable:\n  players: options.Mesa\n", encoding="utf-8")
    variant = tmp_path / "casa.yaml"
    variant.write_text('name: casa\ntitle: the house base for fourteen\nsource: "a test\'s own house rules"\n'
                       "extends: casa_base.yaml\noptions:\n  Mesa:\n    values: [2, 4, 14]\n", encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_game(str(variant), {"Mesa": 14})
    [d] = info.value.diagnostics
    assert (d.loc, d.path) == (Loc(str(variant), 7, 13), "$.options.Mesa.values")
    assert d.message.startswith("the deck has 40 cards: 14 players × 3 cards need 42 [in the base: ")
