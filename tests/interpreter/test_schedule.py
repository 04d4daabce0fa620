"""A schedule of hand formats (`schedule:` in the spec language), played by the engine: who is
dealt, who acts, and where the points go, on `uruguayo` at six players, whose pico a pico is
one.

The rule, "Reglamento Oficial del Truco" (utnianos.com.ar), Número de jugadores: 'se comienza
jugando un bando contra otro ... (mano general o redonda), para continuar a la vuelta siguiente
jugando individualmente cada jugador con su contrario, sentado en lugar opuesto'; Wikipedia (pt),
"Truco": 'os pontos individuais contam para a equipe como um todo'.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulespec.errors import SpecError
from rulespec.load import load_spec
from tests.interpreter.test_house_rules import PIEZAS, house_game
from tests.interpreter.test_noninterference import twins_look_alike

from interpreter import Deal, load_game
from interpreter.engine.state import State

SPECS = Path(__file__).resolve().parents[2] / "specs"


@pytest.fixture
def game():
    return load_game("uruguayo", players=6)


def play_hand(st: State, rng: random.Random) -> list[int]:
    """Random legal actions to the end of the hand; returns the seats that acted."""
    acted = []
    while not st.hand_over:
        seat = st.current_player()
        assert seat is not None
        acted.append(seat)
        st.apply(rng.choice(st.legal_actions()))
    return acted


def test_a_round_is_a_redondilla_then_each_seat_against_the_seat_facing_it(game) -> None:
    st = game.new_match(seed=4)
    rng = random.Random(4)
    first_dealer = st.dealer
    formats = []
    for number in range(4):
        if number:
            st.next_hand()
        formats.append((st.hand_format, list(st.seats)))
        deal = [e for e in st.events if e["type"] == "deal"][-1]
        assert (deal["format"], deal["playing"]) == formats[-1]     # the table sees who plays
        dealt = [s for s in range(6) if st.dealt[s]]
        assert dealt == st.seats
        assert st.mano in st.seats
        for other in set(range(6)) - set(st.seats):
            assert st.legal_actions(other) == []
            assert st.why_illegal("fold", seat=other) == (
                f"seat {other} does not play this hand: it is played by seats {', '.join(map(str, st.seats))}")
            assert st.observation(other)["values"] == {}
        before = list(st.score)
        acted = play_hand(st, rng)
        assert set(acted) <= set(st.seats)
        if st.match_over:
            pytest.fail("the match should not end in one round")
        gained = [a - b for a, b in zip(st.score, before, strict=True)]
        assert sum(gained) > 0
    first = [(first_dealer + 1 + k) % 6 for k in range(3)]
    assert formats == [("redondilla", list(range(6)))] + \
        [("pico_a_pico", sorted((s, (s + 3) % 6))) for s in first]


def test_a_duel_scores_for_the_teams_of_its_two_seats(game) -> None:
    """The table's teams are unchanged: in a duel seat s still plays for team s mod 2, so when
    one of the two leaves the hand, the team of the seat facing it takes the point."""
    st = game.new_match(seed=9)
    play_hand(st, random.Random(9))
    for _ in range(3):
        st.next_hand()
        folder = st.current_player()
        assert folder is not None
        other = next(s for s in st.seats if s != folder)
        assert other % 2 != folder % 2
        before = list(st.score)
        st.apply("fold")
        assert st.hand_over
        assert st.score[other % 2] == before[other % 2] + 1 and st.score[folder % 2] == before[folder % 2]


def test_the_schedule_applies_only_while_its_condition_holds(game) -> None:
    """`if: max_score < half` under pico_a_pico: malas: from 20 of 40 on, the whole table plays."""
    st = game.new_match(seed=2, score=[20, 3])
    rng = random.Random(2)
    for _ in range(3):
        assert st.seats == list(range(6)) and st.hand_format == ""
        assert "format" not in [e for e in st.events if e["type"] == "deal"][-1]
        play_hand(st, rng)
        if st.match_over:
            break
        st.next_hand()


def test_a_match_mid_round_survives_json_and_clone(game) -> None:
    """The round's remaining duels are part of the state: a copy deals the same next hands."""
    st = game.new_match(seed=5)
    play_hand(st, random.Random(5))
    st.next_hand()
    assert st.hand_format == "pico_a_pico" and len(st.plan) == 2
    copies = [game.state_from_json(st.to_json()), st.clone()]
    for copy in copies:
        assert copy == st
    for twin in [st, *copies]:
        play_hand(twin, random.Random(1))
        twin.next_hand()
    assert copies[0] == st and copies[1] == st
    assert st.hand_format == "pico_a_pico" and len(st.plan) == 1


def test_an_annulled_hand_of_the_round_is_played_again_by_the_same_seats(tmp_path: Path) -> None:
    """An annulment with `dealer: same` deals the hand again; under a schedule, the same seats
    play it again before the round goes on. With a house rule that a pieza of the muestra
    annuls the deal (tests/interpreter/test_house_rules.py), the redondilla annulled by its mano
    (the 2 of copas under a muestra of copas) is dealt again to all six, by the same dealer;
    then the first duel, seats 0 and 3, annulled by its mano (seat 3, after the next dealer), is
    dealt again to them before the round goes on to seats 1 and 4."""
    game = house_game(tmp_path, PIEZAS, {"players": 6})
    six = (("2c", "7o", "3e"), ("1e", "3b", "6o"), ("4c", "5o", "6e"), ("7b", "10e", "11o"),
           ("12b", "4o", "5e"), ("6b", "7e", "10c"))
    duel = (("1e", "3b", "6o"), (), (), ("2c", "7o", "3e"), (), ())
    st = game.new_match(seed=0, deals=[Deal(six, "1c"), Deal(six, "1o"), Deal(duel, "1c"), Deal(duel, "1o")])
    dealer = st.dealer
    assert (st.hand_format, st.mano) == ("redondilla", 0)
    st.apply("una_pieza", seat=0)
    st.next_hand()
    assert (st.hand_format, st.seats, st.dealer) == ("redondilla", list(range(6)), dealer)
    st.apply("fold", seat=st.current_player())
    st.next_hand()
    assert (st.hand_format, st.seats, st.mano) == ("pico_a_pico", [0, 3], 3)
    st.apply("una_pieza", seat=3)
    st.next_hand()
    assert (st.hand_format, st.seats) == ("pico_a_pico", [0, 3])
    st.apply("fold", seat=st.current_player())
    st.next_hand()
    assert (st.hand_format, st.seats) == ("pico_a_pico", [1, 4])


def test_the_off_value_and_other_table_sizes_play_every_hand_with_every_seat() -> None:
    for game in (load_game("uruguayo", players=6, pico_a_pico="off"), load_game("uruguayo", players=4),
                 load_game("uruguayo-pytruco", players=6)):
        assert game.schedule_when is None
        st = game.new_match(seed=1)
        assert st.seats == list(range(game.num_players))


def test_facing_seats_must_be_opponents(tmp_path: Path) -> None:
    """At four seats the seat across the table is a partner: a facing format is refused."""
    spec = tmp_path / "facing4.yaml"
    spec.write_text(f"extends: {SPECS / 'uruguayo.yaml'}\nname: facing4\n"
                    "schedule:\n  enabled: true\n", encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(spec, {"players": 4})
    messages = [d.message for d in info.value.diagnostics]
    assert any("facing pairs need the seat across the table on the other team" in m for m in messages), messages


@pytest.mark.parametrize("seed", range(12))
def test_a_duel_shows_nobody_the_cards_of_its_seats(game, seed: int) -> None:
    """docs/DESIGN "Information flow": two deals of a duel that differ only in one of its seats'
    cards look the same to every other seat, the other four included, until the rules show them."""
    rng = random.Random(seed)
    ids = game.cards.ids
    deck = rng.sample(ids, 6 * 3 + 4)
    redondilla = Deal(tuple(tuple(deck[3 * s:3 * s + 3]) for s in range(6)), deck[18])
    dealer = rng.randrange(6)
    probe = game.new_match(seed=seed, dealer=dealer, deals=[redondilla])
    probe.apply("fold")
    probe.next_hand()
    a_seat, b_seat = probe.seats
    hidden = rng.choice(probe.seats)
    rest = [c for c in ids if c != deck[18]]
    rng.shuffle(rest)
    hands: list[tuple[str, ...]] = [()] * 6
    hands[a_seat], hands[b_seat] = tuple(rest[0:3]), tuple(rest[3:6])
    other = list(hands)
    other[hidden] = tuple(rest[6:9])
    states = []
    for duel in (hands, other):
        st = game.new_match(seed=seed, dealer=dealer, deals=[redondilla, Deal(tuple(duel), deck[18])])
        st.apply("fold")
        st.next_hand()
        states.append(st)
    a, b = states
    assert twins_look_alike(a, b, hidden, rng, f"a duel, seed {seed}") > 0


ROUND = (("7o", "6c", "4b"), ("3o", "5c", "12b"), ("2c", "6b", "11o"), ("1c", "4o", "10b"),
         ("7c", "5b", "12o"), ("6o", "4c", "11c"))
DUEL = (("4o", "5o", "1b"), (), (), ("7c", "6c", "3b"), (), ())


@pytest.mark.parametrize("check, seats_next", [("hand", list(range(6))), ("round", [1, 4])])
def test_check_hand_stops_a_round_as_soon_as_its_condition_fails(tmp_path: Path, check: str,
                                                                 seats_next: list[int]) -> None:
    """`check: hand` asks the condition before every hand: a team that completes its malas (20)
    in the first duel ends the round's duels, and the whole table plays the next hand ("Truco
    Uruguaio (ou Truco de Amostra)": 'quando um trio completa os seus 15 "malos", não há mais
    jogadas em "testa"'); `check: round` deals the second duel all the same."""
    spec = tmp_path / f"check_{check}.yaml"
    spec.write_text(f"extends: {SPECS / 'uruguayo.yaml'}\nname: check_{check}\n"
                    f"schedule:\n  check: {check}\n", encoding="utf-8")
    game = load_game(str(spec), players=6)
    deals = [Deal(ROUND, "1e"), Deal(DUEL, "1e"), Deal(ROUND, "1e"), Deal(ROUND, "1e")]
    st = game.new_match(deals=deals, score=[18, 10])
    for action in ("0 play 7o", "1 fold"):                   # the redondilla: 19 to 10
        seat, text = action.split(" ", 1)
        st.apply(text, seat=int(seat))
    st.next_hand()
    assert (st.hand_format, st.seats) == ("pico_a_pico", [0, 3])
    for action in ("3 play 3b", "0 play 1b", "0 play 5o", "3 fold"):   # the first duel: 20 to 10
        seat, text = action.split(" ", 1)
        st.apply(text, seat=int(seat))
    assert st.score == [20, 10] and st.hand_over
    st.next_hand()
    assert st.seats == seats_next
