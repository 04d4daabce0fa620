"""The engine's speed-ups change nothing a seed or a caller can see."""
from __future__ import annotations

import itertools
import random

import pytest

from interpreter.engine.game import Deal, load_game
from interpreter.engine.shuffle import shuffled


@pytest.mark.parametrize("n", [1, 2, 3, 40, 52, 255, 256, 300])
def test_inlined_shuffle_draws_what_random_shuffle_draws(n: int) -> None:
    """Same deck, and the generator left in the same state, so every seed deals as before."""
    for seed in range(300):
        mine, theirs = random.Random(seed), random.Random(seed)
        deck = list(range(n))
        theirs.shuffle(deck)
        assert shuffled(mine, n) == deck
        assert mine.getstate() == theirs.getstate()


def test_hand_values_do_not_depend_on_the_order_of_the_cards() -> None:
    game = load_game("uruguayo")
    rng = random.Random(2)
    for table in game.values.values():
        for _ in range(50):
            hand = tuple(rng.sample(range(len(game.cards)), game.hand_size))
            turned = rng.choice([c for c in range(len(game.cards)) if c not in hand])
            values = {table(order, turned) for order in itertools.permutations(hand)}
            assert len(values) == 1 and table(list(hand), turned) in values


def test_remembered_legal_actions_follow_the_seat_and_every_change() -> None:
    game = load_game("board", players=2, target=15)       # a seat folds on its own turn only
    st = game.new_match(seed=1, deals=[Deal((("7c", "6c", "1e"), ("4o", "5b", "12e")))] * 2)
    assert st.legal_actions(1) == []                       # not seat 1's turn
    assert "play 1e" in st.legal_actions(0)
    assert st.legal_actions(1) == []
    st.apply("envido")
    assert st.legal_actions() == st.legal_actions(1) and "accept" in st.legal_actions()
    assert st.legal_actions(0) == []
    st.apply("fold", seat=1)                               # the envido declined, the hand lost
    assert st.hand_over and st.legal_actions(0) == [] and st.legal_actions(1) == []
    st.next_hand()
    assert st.current_player() == 1 and "play 4o" in st.legal_actions()
    copy = st.clone()
    copy.apply("play 4o")
    assert "play 4o" in st.legal_actions() and "play 4o" not in copy.legal_actions(1)
