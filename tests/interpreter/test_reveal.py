"""The winning envido's cards become public when the rules say so, and not before.

Seed 004 (the board): "The cards of the winning envido are shown at the end of the hand, or at
once when those points end the match. An accepted envido that does not end the match leaves
those cards hidden until the hand is over." The board spec says it with `count.show: hand_end`;
the engine shows the cards that make the value (event `revealed`, public).
"""
from __future__ import annotations

from typing import Any

from interpreter import Deal, load_game
from interpreter.engine.state import State

# Seat 0 (the mano, dealer 1) holds 7c 6c: envido 33, made by those two cards, not the 1e.
DEAL = Deal((("7c", "1e", "6c"), ("4o", "5b", "12e")))


def revealed(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "revealed"]


def envido_won_by_the_mano(st: State) -> None:
    for action in ("envido", "accept", "announce", "good"):
        st.apply(action)


def test_the_winning_cards_are_shown_at_the_end_of_the_hand_and_not_before() -> None:
    """'An accepted envido that does not end the match leaves those cards hidden until the hand
    is over': nothing while the hand is played, then the two cards of the 33, to every seat."""
    st = load_game("board").new_match(seed=1, dealer=1, deals=[DEAL])
    envido_won_by_the_mano(st)
    assert st.score == [2, 0] and not st.hand_over
    assert not revealed(st.events)
    for seat in (0, 1, None):
        assert not revealed(st.visible_events(seat))
    st.apply("play 7c")
    assert not revealed(st.events)
    st.apply("fold")
    assert st.hand_over
    for seat in (0, 1, None):
        shown = revealed(st.visible_events(seat))
        assert [(e["seat"], e["value"], sorted(e["cards"]), e["whole_hand"]) for e in shown] == \
            [(0, 33, ["6c", "7c"], False)], seat
    kinds = [e["type"] for e in st.events]
    assert kinds.index("revealed") < kinds.index("hand_over")


def test_at_once_when_the_envido_ends_the_match() -> None:
    """'or at once when those points end the match': the envido's 2 points take seat 0 from 28
    to 30, and the cards are shown before the match's end, in the middle of the first trick."""
    st = load_game("board").new_match(seed=1, dealer=1, deals=[DEAL], score=[28, 0])
    envido_won_by_the_mano(st)
    assert st.match_over and st.winner == 0 and st.played == [0, 0]
    kinds = [e["type"] for e in st.visible_events(1)]
    assert kinds[-4:] == ["contest_won", "score", "revealed", "match_over"]
    assert sorted(revealed(st.events)[0]["cards"]) == ["6c", "7c"]


def test_a_declined_envido_shows_nothing() -> None:
    """Only the winning envido is shown: a declined one was never compared."""
    st = load_game("board").new_match(seed=1, dealer=1, deals=[DEAL])
    st.apply("envido")
    st.apply("decline")
    st.apply("fold")
    assert st.hand_over and not revealed(st.events)


def test_a_spec_without_the_switch_shows_nothing() -> None:
    """The reveal is the spec's switch: teg says nothing of it, so no cards are shown."""
    st = load_game("teg", players=2).new_match(seed=1, dealer=1, deals=[DEAL])
    envido_won_by_the_mano(st)
    st.apply("fold")
    assert st.hand_over and not revealed(st.events)


def test_the_cards_that_make_a_value() -> None:
    """The first smallest part of the hand worth the same on its own: the best single card
    without two of a suit ('Sinon, la valeur de la plus haute carte seule'), and for a flor the
    whole hand, which the event then says."""
    game = load_game("board", flor=True)
    ids = game.cards.ids
    code = {c: i for i, c in enumerate(ids)}

    def makers(value: str, hand: tuple[str, ...]) -> list[str]:
        return [ids[c] for c in game.values[value].makers(tuple(code[c] for c in hand))]

    assert makers("envido", ("7c", "1e", "6c")) == ["7c", "6c"]
    assert makers("envido", ("4o", "5b", "12e")) == ["5b"]
    assert makers("envido", ("1o", "2c", "12o")) == ["1o", "12o"]      # 1 + 0 + 20 = 21
    assert makers("flor", ("7c", "6c", "5c")) == ["7c", "6c", "5c"]
