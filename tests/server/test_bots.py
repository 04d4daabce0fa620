"""The bots that fill server seats, usable from Python too (interpreter/bots/): the
heuristic bot bets with strong hands and declines weak ones, beats the random bot, and both
play every bundled spec to the end through the public State API."""
from __future__ import annotations

import pytest

from rulespec.load import bundled_names

from interpreter import Deal, load_game
from interpreter.bots import BOTS, HeuristicBot, IsmctsBot, RandomBot, play_out

STRONG = ("1e", "1b", "7e")           # the three best cards of the Argentine order
WEAK = ("4c", "5o", "6e")             # among the worst: no two of a suit, low values


def test_the_bot_names_are_the_server_and_command_line_names() -> None:
    assert set(BOTS) == {"random", "heuristic", "ismcts"}
    assert isinstance(BOTS["heuristic"](1), HeuristicBot) and isinstance(BOTS["random"](1), RandomBot)
    assert isinstance(BOTS["ismcts"](1), IsmctsBot) and "ismcts:40" in BOTS


def test_a_strong_hand_bets() -> None:
    game = load_game("teg", players=2)
    st = game.new_match(seed=1, deals=[Deal((STRONG, WEAK))])
    action = HeuristicBot(1).choose(st, 0)
    assert action in game.call_names, action


def test_a_weak_hand_declines_a_call_and_a_strong_one_takes_it_on() -> None:
    """A strong hand accepts, raises, or first calls its own bet ("el envido está primero")."""
    game = load_game("teg", players=2)
    for hand, expected in ((WEAK, {"decline"}), (STRONG, {"accept"} | game.call_names)):
        st = game.new_match(seed=1, deals=[Deal((("2b", "3c", "12o"), hand))])
        st.apply(game.stake_names[0], 0)
        assert HeuristicBot(1).choose(st, 1) in expected


def test_a_weak_hand_does_not_open_a_bet() -> None:
    game = load_game("teg", players=2)
    st = game.new_match(seed=1, deals=[Deal((WEAK, STRONG))])
    assert HeuristicBot(1).choose(st, 0).startswith("play ")


@pytest.mark.parametrize("spec", bundled_names())
def test_the_heuristic_bot_beats_the_random_bot(spec) -> None:
    game = load_game(spec)
    wins = 0
    for seed in range(12):
        st = game.new_match(seed=seed)
        bots = [HeuristicBot(seed) if game.team_of[s] == seed % 2 else RandomBot(seed) for s in range(game.num_players)]
        play_out(st, bots)
        wins += st.winner == seed % 2
    assert wins >= 9, f"{spec}: the heuristic bot won {wins} of 12"


def test_two_strong_hands_end_an_uncapped_envido_chain() -> None:
    """reglamento lets an envido be raised 'autant qu'on veut' (as often as one likes): two
    hands of 33 raise it once each, then it is accepted, instead of raising for ever."""
    game = load_game("reglamento", players=2)
    st = game.new_match(seed=1, deals=[Deal((("7o", "6o", "1e"), ("7c", "6c", "1b")))])
    bots = [HeuristicBot(1), HeuristicBot(2)]
    st.apply("envido", seat=0)
    for _ in range(20):
        if any(e["type"] == "accepted" and e["call"] == "envido" for e in st.events):
            break
        seat = st.current_player()
        st.apply(bots[seat].choose(st, seat), seat=seat)
    calls = [e["action"] for e in st.events if e["type"] == "action" and e["action"] == "envido"]
    assert any(e["type"] == "accepted" and e["call"] == "envido" for e in st.events)
    assert len(calls) <= 3
