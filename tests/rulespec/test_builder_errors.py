"""What the builder refuses once the schema and the type check have passed: a deck, a card
order, trumps, a table, contests, a schedule or a target that cannot make a game. Each is
reported as `file:line:col at $.path: message` (README, "Check it") in the variant that caused
it, the base's place added when the finding is about the base's node (rulespec/blame.py); a key
the variant removed (`~`) is reported at the variant's `extends:` line."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.errors import Diagnostic, SpecError
from rulespec.load import open_spec
from tests.rulespec.test_defaults import BARE, NEXT_RANK

REMOVED = (1, 1, "$.extends")       # where a finding about a key the variant removed is read


def refusals(path: Path, text: str, options: dict[str, object] | None = None) -> list[Diagnostic]:
    """What keeps the spec `text`, written at `path`, from being built under `options`."""
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        open_spec(path).build(options)
    return info.value.diagnostics


CASES: dict[str, tuple[str, str, dict[str, object], tuple[int, int, str], str]] = {
    # deck: "points: the value of each rank for the envido": every rank has one, and only ranks
    "a rank without a point value": (
        "teg", "deck:\n  points: {1: ~}\n", {}, REMOVED, "rank '1' has no point value"),
    "a point value for no rank": (
        "teg", "deck:\n  points: {13: 10}\n", {}, (4, 16, '$.deck.points["13"]'),
        "'13' is not a rank of the deck ['1', '2', '3', '4', '5', '6', '7', '10', '11', '12']"),
    "a figure that is no rank": (
        "teg", "deck:\n  figures: [10, 13]\n", {}, (4, 12, "$.deck.figures"), "figure '13' is not a rank of the deck"),
    "no ranking": ("teg", "ranking: ~\n", {}, REMOVED, "the spec needs a ranking"),
    # turned: a next_rank trump follows the turned card's rank in `cycle`, its suits in `suits`
    "a trump suit order without a suit": (
        "paulista", "turned:\n  trumps:\n    suits: 'd < s < h'\n", {}, (5, 12, "$.turned.trumps.suits"),
        "the trump suit order must name each suit ['d', 's', 'h', 'c'] once"),
    "a next_rank trump without its cycle": (
        "paulista", "turned:\n  trumps:\n    cycle: ~\n", {}, REMOVED, "a next_rank trump needs the rank cycle"),
    "a cycle without a rank": (
        "paulista", "turned:\n  trumps:\n    cycle: [4, 5, 6, 7, Q, J, K, A, 2]\n", {}, (5, 12, "$.turned.trumps.cycle"),
        "the cycle leaves out 3: with such a card turned, no rank follows it"),
    "a cycle with a rank twice": (
        "paulista", "turned:\n  trumps:\n    cycle: [4, 5, 6, 7, Q, J, K, A, 2, 3, 4]\n", {},
        (5, 12, "$.turned.trumps.cycle"), "the cycle lists 4 more than once"),
    "a cycle naming no rank of the deck": (
        "paulista", "turned:\n  trumps:\n    cycle: [4, 5, 6, 7, Q, J, K, A, 2, 3, 9]\n", {},
        (5, 12, "$.turned.trumps.cycle"), "'9' is not a rank of the deck"),
    "a same_suit trump without its ranks": (
        "uruguayo", "turned:\n  trumps:\n    ranks: ~\n    points: ~\n", {}, REMOVED,
        "a same_suit trump needs its ranks, strongest first"),
    "a substitute that is no rank": (
        "uruguayo", "turned:\n  trumps:\n    substitute: 13\n", {}, (5, 17, "$.turned.trumps.substitute"),
        "'13' is not a rank of the deck"),
    "a trump point value for no rank": (
        "uruguayo", "turned:\n  trumps:\n    points: {13: 30}\n", {}, (5, 18, '$.turned.trumps.points["13"]'),
        "'13' is not a rank of the deck"),
    # every seat gets a whole hand, and the turned card is left to turn
    "a deck too small for the hands": (
        "teg", "options:\n  players: {values: [2, 12], default: 12}\ndeck:\n  hand_size: 4\n", {},
        (6, 14, "$.deck.hand_size"), "the deck has 40 cards: 12 players × 4 cards need 48"),
    "a deck the hands take whole, with a card to turn": (
        "uruguayo", "options:\n  players: {values: [2, 4, 6, 10], default: 10}\ndeck:\n  hand_size: 4\n", {},
        (6, 14, "$.deck.hand_size"), "the deck has 40 cards: 10 players × 4 cards plus the turned card need 41"),
    # table: two alternating teams
    "three teams": (
        "teg", "table:\n  teams: 3\n", {}, (4, 10, "$.table.teams"),
        "a table has exactly 2 teams: a call is answered by the other team, and a fold, a lost match and a "
        "decided hand score for it; got 3"),
    "a table of nobody": ("teg", "table:\n  players: 0\n", {}, (4, 12, "$.table.players"),
                          "0 players cannot sit in 2 alternating teams"),
    "an odd table offered by an option": (
        "teg", "options:\n  players: {values: [2, 3], default: 3}\n", {}, (4, 21, "$.options.players.values"),
        "3 players cannot sit in 2 alternating teams"),
    "an odd table": ("teg", "table:\n  players: 3\n", {}, (4, 12, "$.table.players"),
                     "3 players cannot sit in 2 alternating teams"),
    # contests: `after` names calls of the same contest; a declaration needs what scores it unanswered
    "an answer to a misspelt call": (
        "teg", "contests:\n  envido:\n    calls:\n      real_envido: {after: [envdo]}\n", {},
        (6, 28, "$.contests.envido.calls.real_envido.after"),
        "'envdo' is not a call of contest 'envido' (did you mean 'envido'?); its calls: envido, real_envido, "
        "falta_envido"),
    "an answer to an unknown call": (
        "teg", "contests:\n  envido:\n    calls:\n      real_envido: {after: [xyzzy]}\n", {},
        (6, 28, "$.contests.envido.calls.real_envido.after"),
        "'xyzzy' is not a call of contest 'envido'; its calls: envido, real_envido, falta_envido"),
    "a declaration nothing scores unanswered": (
        "teg", "contests:\n  envido:\n    calls:\n      envido: {declare: true}\n", {},
        (6, 25, "$.contests.envido.calls.envido.declare"),
        "contest 'envido' has declarations (declare: true) but no `unraised:` rule saying what a declaration "
        "nobody answers scores"),
    "a contest over no hand value": (
        "teg", "contests:\n  envido:\n    value: nope\n", {}, (5, 12, "$.contests.envido.value"),
        "'nope' is not a hand value defined under values"),
    # schedule: facing pairs need the seat across on the other team (6 players, not 4)
    "facing seats at four": (
        "uruguayo", "schedule:\n  enabled: true\n  formats:\n    - {name: duel, seats: facing}\n", {"players": 4},
        (6, 27, "$.schedule.formats[0].seats"),
        "at 4 players a seat does not face an opponent: facing pairs need the seat across the table on the other "
        "team"),
    # match: a target of points
    "a target of nothing": ("teg", "match:\n  target: 0\n", {}, (4, 11, "$.match.target"),
                            "the target must be a positive number of points, not 0"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_spec_that_cannot_make_a_game_is_refused_where_its_author_wrote_it(tmp_path: Path, case: str) -> None:
    base, body, options, (line, col, path), message = CASES[case]
    variant = tmp_path / "variant.yaml"
    [d] = refusals(variant, f"extends: {base}\nname: variant\n{body}", options)
    assert d.severity == "error"
    assert d.loc is not None and (d.loc.file, d.loc.line, d.loc.col, d.path) == (str(variant), line, col, path)
    said, _, base = d.message.partition(" [in the base: ")
    assert said == message
    assert base or (line, col, path) != REMOVED         # a removed key's finding keeps the base's place


def test_a_deck_the_hands_take_whole_is_enough_when_no_card_is_turned(tmp_path: Path) -> None:
    """Ten hands of four take teg's 40 cards to the last one: nothing is left, and nothing needs to be."""
    variant = tmp_path / "variant.yaml"
    variant.write_text("extends: teg\nname: variant\noptions:\n  players: {values: [2, 10], default: 10}\n"
                       "deck:\n  hand_size: 4\n", encoding="utf-8")
    spec = open_spec(variant).build()
    assert spec.table.players * spec.deck.hand_size == len(spec.deck.cards) == 40


SHORT_POINTS = "  points: {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6}\n"                 # no 7
EXTRA_POINTS = "  points: {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 9: 9}\n"    # and a 9
OWN = {
    # `deck.hand_size` is left to its default (3), so the finding is at the deck the spec writes
    "a deck too small": (BARE + "table:\n  players: 10\n", (5, 3, "$.deck.hand_size"),
                         "the deck has 28 cards: 10 players × 3 cards plus the turned card need 31"),
    "a rank without a point value": (
        BARE.replace("deck:\n", "deck:\n" + SHORT_POINTS), (5, 11, "$.deck.points"), "rank '7' has no point value"),
    "a point value for no rank": (
        BARE.replace("deck:\n", "deck:\n" + EXTRA_POINTS), (5, EXTRA_POINTS.index("9: 9") + 4, '$.deck.points["9"]'),
        "'9' is not a rank of the deck ['1', '2', '3', '4', '5', '6', '7']"),
    "a figure that is no rank": (
        BARE.replace("deck:\n", "deck:\n  figures: [7, 9]\n"), (5, 12, "$.deck.figures"), "figure '9' is not a rank of the deck"),
    "a trump suit order without a suit": (
        BARE.replace(NEXT_RANK, '  trumps: {cycle: [1, 2, 3, 4, 5, 6, 7], suits: "e < b < o"}\n'),
        (10, 49, "$.turned.trumps.suits"), "the trump suit order must name each suit ['e', 'b', 'o', 'c'] once"),
    "a cycle naming no rank of the deck": (
        BARE.replace(NEXT_RANK, '  trumps: {cycle: [1, 2, 3, 4, 5, 6, 7, 9], suits: "e < b < o < c"}\n'),
        (10, 19, "$.turned.trumps.cycle"), "'9' is not a rank of the deck"),
    "same_suit trumps naming no rank of the deck": (
        BARE.replace(NEXT_RANK, "  trumps: {kind: same_suit, ranks: [2, 9]}\n"),
        (10, 36, "$.turned.trumps.ranks"), "'9' is not a rank of the deck"),
    "a next_rank trump without its cycle": (
        BARE.replace(NEXT_RANK, '  trumps: {suits: "e < b < o < c"}\n'), (10, 11, "$.turned.trumps.cycle"),
        "a next_rank trump needs the rank cycle"),
    "a cycle with ranks twice": (
        BARE.replace(NEXT_RANK, '  trumps: {cycle: [1, 2, 3, 4, 5, 6, 7, 1, 2], suits: "e < b < o < c"}\n'),
        (10, 19, "$.turned.trumps.cycle"), "the cycle lists 1, 2 more than once"),
    "same_suit trumps without their ranks": (
        BARE.replace(NEXT_RANK, "  trumps: {kind: same_suit}\n"), (10, 11, "$.turned.trumps.ranks"),
        "a same_suit trump needs its ranks, strongest first"),
    "a substitute for no rank": (
        BARE.replace(NEXT_RANK, "  trumps: {kind: same_suit, ranks: [2, 4], substitute: 9}\n"),
        (10, 56, "$.turned.trumps.substitute"), "'9' is not a rank of the deck"),
    "a cycle without a rank": (
        BARE.replace(NEXT_RANK, '  trumps: {cycle: [1, 2, 3, 4, 5, 6], suits: "e < b < o < c"}\n'),
        (10, 19, "$.turned.trumps.cycle"), "the cycle leaves out 7: with such a card turned, no rank follows it"),
    "an answer to an unknown call": (
        BARE.replace("real_envido: {worth: 3, after: [envido]}", "real_envido: {worth: 3, after: [xyzzy]}"),
        (23, 38, "$.contests.envido.calls.real_envido.after"),
        "'xyzzy' is not a call of contest 'envido'; its calls: envido, real_envido"),
    "a trump point value for no rank": (
        BARE.replace(NEXT_RANK, "  trumps: {kind: same_suit, ranks: [2, 4], points: {9: 30}}\n"),
        (10, 52, "$.turned.trumps.points"), "'9' is not a rank of the deck"),
    "a contest over no hand value": (
        BARE.replace("    value: envido\n", "    value: nope\n"), (25, 12, "$.contests.flor.value"),
        "'nope' is not a hand value defined under values"),
}


@pytest.mark.parametrize("case", sorted(OWN))
def test_a_spec_of_its_own_is_refused_at_the_place_of_the_rule_itself(tmp_path: Path, case: str) -> None:
    """With no base to blame, each finding is the builder's own, at the key its rule is about."""
    text, (line, col, path), message = OWN[case]
    assert NEXT_RANK in BARE and "real_envido: {worth: 3, after: [envido]}" in BARE and "    value: envido\n" in BARE
    own = tmp_path / "own.yaml"
    [d] = refusals(own, text)
    assert d.loc is not None and (d.loc.file, d.loc.line, d.loc.col, d.path) == (str(own), line, col, path)
    assert d.message == message


def test_a_variant_that_drops_a_rank_its_base_names_is_told_at_its_ranks(tmp_path: Path) -> None:
    """teg gives the 12 a point value, makes it a figure and ranks it: a variant whose deck has no
    12 broke all three without writing them, so each finding is placed at the ranks it wrote."""
    variant = tmp_path / "variant.yaml"
    found = [(d.loc.file, d.loc.line, d.loc.col, d.path, d.message.partition(" [in the base: ")[0])
             for d in refusals(variant, "extends: teg\nname: variant\ndeck:\n  ranks: [1, 2, 3, 4, 5, 6, 7, 10, 11]\n")
             if d.loc is not None]
    ranks = (str(variant), 4, 10, "$.deck.ranks")
    assert found == [(*ranks, "'12' is not a rank of the deck ['1', '2', '3', '4', '5', '6', '7', '10', '11']"),
                     (*ranks, "figure '12' is not a rank of the deck"),
                     (*ranks, "'12' is neither a card nor a rank of the deck")]


@pytest.mark.parametrize("written,key", [("ranks: [1, 2, 3]", "ranks"), ("suits: [e]", "suits")])
def test_a_variant_that_shrinks_the_deck_is_told_at_what_it_shrank(tmp_path: Path, written: str, key: str) -> None:
    """A base of four players, with a card to turn and trumps over every rank and suit; a variant
    that keeps three ranks (12 cards) or one suit (7) leaves too few for four hands and the turned
    card, and leaves the base's card order and trumps naming what is gone. It wrote only the deck,
    so every finding is placed there."""
    (tmp_path / "base.yaml").write_text(BARE + "table:\n  players: 4\n", encoding="utf-8")
    variant = tmp_path / "variant.yaml"
    found = refusals(variant, f"extends: base.yaml\nname: variant\ndeck:\n  {written}\n")
    assert {(d.loc.file, d.loc.line, d.loc.col, d.path) for d in found if d.loc} == {(str(variant), 4, 10, f"$.deck.{key}")}
    cards = 12 if key == "ranks" else 7
    assert found[0].message.startswith(f"the deck has {cards} cards: 4 players × 3 cards plus the turned card need 13 ")
    assert len(found) == (9 if key == "ranks" else 2)       # 4 ranks gone from the order and from the cycle


def test_a_spec_of_a_name_alone_is_told_it_needs_a_deck_and_a_ranking(tmp_path: Path) -> None:
    """The schema passes `name: tiny` (every top-level key is optional there); the builder says
    what no game can be made without, at the file's first line."""
    found = refusals(tmp_path / "tiny.yaml", "name: tiny\n")
    assert [(d.loc.line, d.loc.col, d.path, d.message) for d in found if d.loc] == [
        (1, 1, "$.deck", "the spec needs a deck"), (1, 1, "$.ranking", "the spec needs a ranking")]


def test_a_card_turned_by_a_variant_is_told_where_it_is_turned(tmp_path: Path) -> None:
    """A house base deals teg's 40 cards whole, ten hands of four; a variant of it that turns a
    card after the deal (a muestra without trumps) needs a 41st: it wrote only `turned`, so the
    finding is placed there."""
    (tmp_path / "diez.yaml").write_text("extends: teg\nname: diez\noptions:\n  players: {values: [2, 10], default: 10}\n"
                                         "deck:\n  hand_size: 4\n", encoding="utf-8")
    variant = tmp_path / "variant.yaml"
    [d] = refusals(variant, 'extends: diez.yaml\nname: variant\nturned:\n  source: "a house muestra"\n')
    assert d.loc is not None and (d.loc.file, d.loc.line, d.path) == (str(variant), 4, "$.turned")
    assert d.message.startswith("the deck has 40 cards: 10 players × 4 cards plus the turned card need 41 [in the base: ")


def test_a_variant_that_adds_a_rank_is_told_at_its_ranks_that_the_order_leaves_it_out(tmp_path: Path) -> None:
    """teg's card order names every card of its ten ranks; a variant that adds a rank 13 (and its
    point value) leaves its four cards out of the order it did not write: told at its ranks."""
    variant = tmp_path / "variant.yaml"
    [d] = refusals(variant, "extends: teg\nname: variant\ndeck:\n  ranks: [1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13]\n"
                            "  points: {13: 0}\n")
    assert d.loc is not None and (d.loc.file, d.loc.line, d.loc.col, d.path) == (str(variant), 4, 10, "$.deck.ranks")
    assert d.message.startswith("the ranking leaves out 13e, 13b, 13o, 13c [in the base: ")


def test_a_variant_that_adds_ranks_is_told_at_its_ranks_that_the_cycle_leaves_them_out(tmp_path: Path) -> None:
    """A base whose next_rank trumps cycle through its seven ranks; a variant that adds an 8 and a
    9 to the deck leaves them out of the cycle it did not write (no rank would follow them)."""
    (tmp_path / "base.yaml").write_text(BARE, encoding="utf-8")
    variant = tmp_path / "variant.yaml"
    [d] = refusals(variant, "extends: base.yaml\nname: variant\ndeck:\n  ranks: [1, 2, 3, 4, 5, 6, 7, 8, 9]\n")
    assert d.loc is not None and (d.loc.file, d.loc.line, d.loc.col, d.path) == (str(variant), 4, 10, "$.deck.ranks")
    assert d.message.startswith("the cycle leaves out 8, 9: with such a card turned, no rank follows it [in the base: ")


@pytest.mark.parametrize("players, faces", [(2, True), (4, False), (6, True)])
def test_facing_pairs_need_the_seat_across_on_the_other_team(tmp_path: Path, players: int, faces: bool) -> None:
    """Pico a pico pairs each seat with the one across the table: at 2 players the other seat,
    at 6 the third seat on, an opponent both times; at 4 the seat across is a partner."""
    variant = tmp_path / "variant.yaml"
    text = "extends: uruguayo\nname: variant\nschedule:\n  enabled: true\n  formats:\n    - {name: duel, seats: facing}\n"
    if faces:
        variant.write_text(text, encoding="utf-8")
        spec = open_spec(variant).build({"players": players})
        assert spec.schedule is not None and [f.seats for f in spec.schedule.formats] == ["facing"]
    else:
        [d] = refusals(variant, text, {"players": players})
        assert d.message.startswith(f"at {players} players a seat does not face an opponent")


def test_a_target_of_one_point_is_a_target(tmp_path: Path) -> None:
    """The target must be a positive number of points: 1 is the least."""
    variant = tmp_path / "variant.yaml"
    variant.write_text("extends: teg\nname: variant\nmatch:\n  target: 1\n", encoding="utf-8")
    assert open_spec(variant).build().match.target == 1
