"""The State API that bots and frontends drive (OpenSpiel-shaped), on the bundled teg spec.

README ("Drive a match from Python"): "`legal_action_ids()` and `action_mask()` give stable
integer ids, `observation(seat)` the match as that seat may see it, `to_json()`/
`game.state_from_json()` and `clone()` copy it, and an illegal `apply` raises
`IllegalAction` with the reason, leaving the state unchanged."
"""
from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.interpreter.test_house_rules import house_game

from interpreter import Deal, Game, IllegalAction, load_game
from interpreter.engine.state import State, turns
from interpreter.engine.tables import HandValues, hand_values, places

README_DEAL = Deal((("7c", "6c", "1e"), ("4o", "5b", "12e")))


@pytest.fixture
def game():
    return load_game("teg", players=2, target=15)


@pytest.fixture
def game4():
    return load_game("teg", players=4, target=30)


def fresh(game, **kw) -> State:
    return game.new_match(seed=1, deals=[README_DEAL], **kw)


def walk(st: State, seed: int, steps: int) -> list[str]:
    """Apply up to `steps` random legal actions (the same ones for the same seed)."""
    rng = random.Random(seed)
    done = []
    for _ in range(steps):
        if st.hand_over:
            break
        action = rng.choice(st.legal_actions())
        st.apply(action)
        done.append(action)
    return done


def strings(value: Any) -> set[str]:
    """Every string anywhere in a JSON-like value, keys included."""
    out: set[str] = set()
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out |= strings(k) | strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            out |= strings(v)
    return out


# -- who acts, what is legal ----------------------------------------------------------------


def test_current_player_and_legal_actions_at_the_start(game) -> None:
    """CONFORMANCE: "The mano (lead) is the seat after the dealer; with the default dealer,
    seat 0"; the mano may play a card, call truco, open the envido or fold (flor is off)."""
    st = fresh(game)
    assert st.current_player() == 0
    assert set(st.legal_actions()) == {"play 7c", "play 6c", "play 1e", "truco", "envido", "real_envido",
                                       "falta_envido", "fold"}
    assert st.legal_actions(1) == ["fold"]    # not seat 1's turn: "En cualquier momento uno puede tirar las cartas"


def test_readme_walkthrough(game) -> None:
    """README: envido, accept, announce; seat 1 may then announce, say "son buenas", or throw his
    cards ("En cualquier momento uno puede tirar las cartas")."""
    st = fresh(game)
    st.apply("envido")
    assert st.current_player() == 1
    st.apply("accept")
    st.apply("announce")
    assert st.legal_actions() == ["fold", "announce", "good"]
    st.apply("good")
    assert st.score == [2, 0]


@pytest.mark.parametrize("seed", range(6))
def test_ids_and_mask_match_the_strings(game, seed: int) -> None:
    """"`legal_action_ids()` and `action_mask()` give stable integer ids": each id is the
    index of its string in `game.actions`, the mask is true exactly at those ids."""
    actions = game.actions
    assert len(set(actions)) == len(actions)
    st = game.new_match(seed=seed)
    rng = random.Random(seed)
    for _ in range(40):
        if st.match_over:
            break
        if st.hand_over:
            st.next_hand()
            continue
        legal = st.legal_actions()
        ids = st.legal_action_ids()
        mask = st.action_mask()
        assert legal and ids == sorted(ids)
        assert sorted(actions[i] for i in ids) == sorted(legal)
        assert len(mask) == len(actions)
        assert [i for i, m in enumerate(mask) if m] == ids
        for a in legal:
            assert st.why_illegal(a) is None
            assert st.why_illegal(game.action_index[a]) is None
        st.apply(rng.choice(legal))


def test_apply_by_string_and_by_id_agree(game) -> None:
    """An action may be given as its string or as its id; both do the same."""
    a, b = fresh(game), fresh(game)
    for action in ["envido", "real_envido", "accept", "announce", "announce", "truco", "accept", "play 1e"]:
        a.apply(action)
        b.apply(game.action_index[action])
        assert a.to_json() == b.to_json()
    assert a.score == [5, 0]          # 33 (7c 6c) against 5: envido + real envido, 5 points


# -- illegal actions ------------------------------------------------------------------------


def _out_of_turn(game) -> tuple[State, str | int, int | None, str]:
    return fresh(game), "play 4o", 1, "it is seat 0's turn, not seat 1's"


def _card_not_in_hand(game):
    return fresh(game), "play 4o", None, "4o is not in seat 0's hand"


def _raise_while_own_call_waits(game):
    st = fresh(game)
    st.apply("truco")
    return st, "retruco", 0, "truco by seat 0 is waiting for seat 1's answer; seat 0 cannot act now"


def _raise_own_accepted_call(game):
    """Seat 1 calls truco, seat 0 accepts: only team 0 may now raise (teg: "Sube el que quiso
    el canto anterior ... el que puede retrucar sos vos, no yo")."""
    st = fresh(game)
    st.apply("play 7c")
    st.apply("truco")
    st.apply("accept")
    st.apply("play 4o")
    st.apply("play 1e")      # seat 0 won trick 1 (7c > 4o), leads trick 2; seat 1 now plays
    assert st.current_player() == 1
    return st, "retruco", None, ("only the team that accepted the last call (team 0) may raise; "
                                 "a team cannot raise its own call")


def _answer_nothing(game):
    return fresh(game), "accept", None, "no call is waiting for an answer"


def _envido_after_first_trick(game):
    st = fresh(game)
    st.apply("play 7c")
    st.apply("play 4o")
    assert st.current_player() == 0
    return st, "envido", None, (
        "envido may not be called now: the first trick is over and the player has played a card "
        "this hand (El envido se canta en la primera baza y se juega aparte de la mano: "
        "son puntos que se cobran igual de quien gane las cartas.)")


def _unknown_verb(game):
    return fresh(game), "paso", None, (
        "unknown verb 'paso'; this spec knows: envido, falta_envido, real_envido, retruco, truco, "
        "vale_cuatro, play, accept, decline, fold, announce, good, sena")


def _not_a_card(game):
    return fresh(game), "play 9e", None, "'9e' is not a card of this deck"


def _id_out_of_range(game):
    last = len(game.actions) - 1
    return fresh(game), last + 1, None, f"no action has the id {last + 1} (ids run 0..{last})"


def _empty(game):
    return fresh(game), "  ", None, "empty action"


def _two_arguments(game):
    return fresh(game), "play 7c 6c", None, "an action is a verb and at most one argument"


def _card_verb_without_card(game):
    return fresh(game), "play", None, f"play needs a card, e.g. 'play {game.cards.ids[0]}'"


def _place_given_to_cover(game):
    """`@N` (a card by its place, for a hand played blind) belongs to `play` only."""
    return fresh(game), "cover @1", None, "'@1' is not a card of this deck"


def _signal_without_a_name(game):
    return fresh(game), "sena", None, "sena needs one of: ancho_espada, ancho_basto, siete_espada, siete_oro"


def _argument_to_an_answer(game):
    st = fresh(game)
    st.apply("truco")
    return st, "accept now", None, "'accept' takes no argument"


def _after_the_hand(game):
    st = fresh(game)
    st.apply("fold")
    return st, "play 7c", None, "the hand is over; deal the next one"


def _after_the_match(game):
    st = game.new_match(seed=1, score=[14, 0])
    st.apply(f"play {sorted(st.observation(0)['hand'])[0]}")
    st.apply("fold")                 # team 0 reaches 15
    return st, "play 7c", None, "the match is over"


def _no_such_seat(game):
    return fresh(game), "play 7c", game.num_players, f"there is no seat {game.num_players}"


def _call_of_an_option_not_played(game):
    """teg without its optional flor ("hay mesas que juegan con flor y mesas que no")."""
    return fresh(game), "flor", None, "flor is not played under these table options"


ILLEGAL: dict[str, Callable] = {f.__name__.lstrip("_"): f for f in (
    _out_of_turn, _card_not_in_hand, _raise_while_own_call_waits, _raise_own_accepted_call,
    _answer_nothing, _envido_after_first_trick, _unknown_verb, _not_a_card, _id_out_of_range,
    _after_the_hand, _empty, _two_arguments, _card_verb_without_card, _place_given_to_cover,
    _signal_without_a_name, _argument_to_an_answer, _after_the_match, _no_such_seat,
    _call_of_an_option_not_played)}


@pytest.mark.parametrize("kind", sorted(ILLEGAL))
def test_illegal_action_raises_with_reason_and_changes_nothing(game, kind: str) -> None:
    """"an illegal `apply` raises `IllegalAction` with the reason, leaving the state
    unchanged"; `why_illegal` gives the same reason without raising. Each kind of refusal is
    held to its whole wording, the text a player reads."""
    st, action, seat, reason = ILLEGAL[kind](game)
    before = st.to_json()
    assert st.why_illegal(action, seat) == reason
    with pytest.raises(IllegalAction) as info:
        st.apply(action, seat=seat)
    assert info.value.reason == reason and info.value.action == str(action)
    assert st.to_json() == before
    after = json.dumps(st.to_json(), sort_keys=True)
    assert after == json.dumps(before, sort_keys=True)


def test_illegal_action_not_among_legal(game) -> None:
    """Whatever `why_illegal` refuses is not listed as legal, and vice versa."""
    st = fresh(game)
    for action in game.actions:
        assert (st.why_illegal(action) is None) == (action in st.legal_actions())


# -- observations ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_observation_shows_own_cards_and_never_others_unplayed(game4, seed: int) -> None:
    """views.py: "Another seat's unplayed cards ... never leave the state through these
    functions"; the observation holds the seat's own cards."""
    st = game4.new_match(seed=seed)
    ids = game4.cards.ids
    for _ in range(8):
        if st.hand_over:
            break
        for seat in range(4):
            obs = st.observation(seat)
            json.dumps(obs)                                     # JSON-ready
            own = [ids[c] for c in st.hands[seat]]
            assert sorted(obs["hand"]) == sorted(own)
            seen = strings(obs)
            for other in range(4):
                if other == seat:
                    continue
                for c in st.hands[other]:
                    card = ids[c]
                    assert card not in seen, (seat, other, card)
                    assert not any(card in s.split() for s in seen), (seat, other, card)
        plays = [a for a in st.legal_actions() if a.startswith("play ") and "@" not in a]
        st.apply(plays[0] if plays else st.legal_actions()[0])


# -- copies ---------------------------------------------------------------------------------


def test_clone_is_independent(game) -> None:
    """"`clone()` copies it": the copy is equal, and changing it leaves the original alone."""
    st = fresh(game)
    st.apply("envido")
    original = st.to_json()
    copy = st.clone()
    assert copy == st and copy is not st
    copy.apply("accept")
    copy.apply("announce")
    copy.apply("announce")
    copy.hands[0].clear()
    copy.score[1] += 5
    copy.events.append({"type": "noise"})
    assert st.to_json() == original
    assert st.current_player() == 1 and st.legal_actions()[:2] == ["accept", "decline"]


def _states_for_round_trip(game) -> list[State]:
    """A fresh deal, a waiting call, a count under way, an ended hand."""
    out = []
    st = game.new_match(seed=5)
    out.append(st.clone())
    st.apply("truco")
    out.append(st.clone())
    st.apply("envido")
    st.apply("accept")
    out.append(st.clone())           # the envido count, the truco suspended
    st.apply("announce")
    out.append(st.clone())
    while not st.hand_over:
        st.apply(st.legal_actions()[-1])
    out.append(st.clone())
    return out


def test_json_round_trip_is_equal_and_continues_identically(game) -> None:
    """to_json()/game.state_from_json(): "every field, the random generator included, so a
    restored match continues exactly as the original would" (serial.py)."""
    for st in _states_for_round_trip(game):
        data = json.loads(json.dumps(st.to_json()))
        back = game.state_from_json(data)
        assert back == st
        assert back.to_json() == st.to_json()
        rng_a, rng_b = random.Random(9), random.Random(9)
        for _ in range(60):
            if st.match_over:
                assert back.match_over
                break
            if st.hand_over:
                st.next_hand()
                back.next_hand()
                assert back.dealt == st.dealt       # the same next deal from the generator
                continue
            assert back.legal_actions() == st.legal_actions()
            legal = st.legal_actions()
            st.apply(rng_a.choice(legal))
            back.apply(rng_b.choice(legal))
            assert back.events == st.events
            assert back.to_json() == st.to_json()


def test_same_seed_same_deals(game4) -> None:
    """A seed makes the deals replayable: the same seed deals the same hands, hand after hand."""
    a, b = game4.new_match(seed=123), game4.new_match(seed=123)
    other = game4.new_match(seed=124)
    assert a.dealt == b.dealt
    assert other.dealt != a.dealt
    for _ in range(3):
        for st in (a, b):
            while not st.hand_over:
                st.apply("fold" if "fold" in st.legal_actions() else st.legal_actions()[0])
            st.next_hand()
        assert a.dealt == b.dealt
        assert sorted(c for h in a.dealt for c in h) == sorted(set(c for h in a.dealt for c in h))


# -- the end of hands and matches -----------------------------------------------------------


def test_returns(game4) -> None:
    """returns(): "+1 for the winning team's seats, -1 for the others, 0 while the match goes
    on"; team 0 is the even seats."""
    st = game4.new_match(seed=2, score=[29, 0])
    assert st.returns() == [0.0, 0.0, 0.0, 0.0]
    st.apply(st.legal_actions()[0])              # seat 0 plays, seat 1 leaves the hand
    assert st.current_player() == 1
    st.apply("fold")
    assert st.match_over and st.winner == 0 and st.score == [30, 0]
    assert st.returns() == [1.0, -1.0, 1.0, -1.0]
    assert st.current_player() is None and st.legal_actions() == []


def test_next_hand_rotates_the_dealer_and_is_refused_while_live(game) -> None:
    """teg `table.dealer: next`: "the deal passes to the next seat"; the mano is the seat
    after the dealer. `next_hand` deals only "after one has ended"."""
    st = fresh(game)
    assert (st.dealer, st.mano) == (1, 0)
    before = st.to_json()
    with pytest.raises(IllegalAction) as info:
        st.next_hand()
    assert (info.value.action, info.value.reason) == ("next_hand", "the hand is still being played")
    assert st.to_json() == before
    st.apply("fold")
    assert st.hand_over and st.current_player() is None
    st.next_hand()
    assert (st.dealer, st.mano, st.hand_number) == (0, 1, 2)
    assert st.current_player() == 1 and not st.hand_over
    st.apply("fold")
    st.next_hand()
    assert (st.dealer, st.mano, st.current_player()) == (1, 0, 0)


def test_next_hand_refused_after_the_match(game) -> None:
    """A fold whose point ends the match leaves nobody to act and nothing waiting: the state
    copies through JSON as it is, and no next hand is dealt."""
    st = game.new_match(seed=1, score=[0, 14])
    st.apply("fold")
    assert st.match_over and st.winner == 1
    assert st.current_player() is None and st.pending is None and st.suspended is None
    assert game.state_from_json(json.loads(json.dumps(st.to_json()))) == st
    with pytest.raises(IllegalAction) as info:
        st.next_hand()
    assert info.value.action == "next_hand" and info.value.reason == "the match is over"


def test_next_hand_deals_the_deal_it_is_given(game) -> None:
    """`next_hand(deal)` deals that deal: each seat's cards are the ones given, ahead of the
    deals the match was scripted with, which follow in their order."""
    given = Deal((("1e", "7o", "4c"), ("3e", "2b", "5o")))
    scripted = Deal((("1b", "7e", "12c"), ("3c", "2o", "5e")))
    st = game.new_match(seed=1, deals=[README_DEAL, scripted])
    st.apply("fold")
    st.next_hand(given)
    assert [sorted(st.observation(s)["hand"]) for s in (0, 1)] == [sorted(h) for h in given.hands]
    st.apply("fold")
    st.next_hand()
    assert [sorted(st.observation(s)["hand"]) for s in (0, 1)] == [sorted(h) for h in scripted.hands]


def test_a_scripted_deal_without_its_turned_card_turns_one_nobody_holds() -> None:
    """uruguayo turns a card after the deal ("reparto 3 cartas al azar a cada jugador y ademas
    una muestra"): when a scripted deal gives only the hands, the muestra is drawn from the
    cards no seat was dealt."""
    game = load_game("uruguayo", players=2)
    hands = (("1e", "7o", "4c"), ("3e", "2b", "5o"))
    for seed in range(5):
        st = game.new_match(seed=seed, deals=[Deal(hands)])
        assert st.turned is not None and game.cards.ids[st.turned] not in hands[0] + hands[1]


def test_the_first_dealer_is_a_seat_of_the_table_and_the_seed_is_kept(game) -> None:
    """`new_match(dealer=...)` picks the first dealer among the table's seats, and anything else
    is a ValueError that says which seats there are; the match keeps the seed it started from,
    saved with it."""
    st = game.new_match(seed=7, dealer=1)
    assert (st.dealer, st.mano, st.seed, st.to_json()["seed"]) == (1, 0, 7, 7)
    for dealer in (-1, game.num_players):
        with pytest.raises(ValueError) as info:
            game.new_match(seed=7, dealer=dealer)
        assert str(info.value) == f"dealer must be a seat 0..{game.num_players - 1}, not {dealer}"


BACKWARDS = """\
name: casa_al_reves
title: teg dealt the other way round
source: "a test's own house rules"
extends: teg
table:
  dealer: previous
"""


def test_the_deal_passes_to_the_previous_seat_where_the_spec_says_so(tmp_path) -> None:
    """`table.dealer`: "How the deal passes", to the next seat or to the previous one. At four
    players, teg's deal passes to the next seat hand after hand (the dealers 3, 0, 1, 2); under a
    house rule that it passes to the previous one, the dealers are 3, 2, 1, 0, each hand's mano
    the seat after its dealer."""
    for game, dealers in ((load_game("teg", players=4), [3, 0, 1, 2]),
                          (house_game(tmp_path, BACKWARDS, {"players": 4}), [3, 2, 1, 0])):
        st = game.new_match(seed=1)
        seen = []
        for _ in dealers:
            if seen:
                st.next_hand()
            seen.append((st.dealer, st.mano))
            st.apply("fold", seat=st.current_player())
        assert seen == [(d, (d + 1) % 4) for d in dealers]


def test_turns_deals_no_more_hands_than_asked(game) -> None:
    """`turns(state, max_hands)` gives the seat to decide "until the match ends (or `max_hands`
    hands are over)": playing the first legal action at each turn, two hands are played and
    the third is never dealt."""
    st = fresh(game)
    for seat in turns(st, max_hands=2):
        st.apply(st.legal_actions(seat)[0], seat=seat)
    assert st.hand_over and st.hand_number == 2 and not st.match_over


def test_ids_and_mask_of_a_seat_out_of_turn_are_its_own(game) -> None:
    """`legal_action_ids(seat)` and `action_mask(seat)` speak for the seat asked: teg lets a seat
    leave the hand at any time ("En cualquier momento uno puede tirar las cartas"), so the
    dealer, out of turn, has the fold alone while the mano, on turn, has his cards and calls."""
    st = fresh(game)
    assert st.current_player() == 0
    fold = game.action_index["fold"]
    assert st.legal_action_ids(1) == [fold]
    assert [i for i, on in enumerate(st.action_mask(1)) if on] == [fold]
    assert len(st.legal_action_ids(0)) > 1 and st.action_mask(0) != st.action_mask(1)


def test_a_state_equals_only_a_state_of_the_same_game(tmp_path) -> None:
    """Two states are equal when they are of the same game and their JSON is the same: a clone
    equals its state; two house variants of one name whose rules differ only in how the deal
    passes start with the same JSON, but they are two games, so their states are not equal; and
    a state compared with what is not a state is simply unequal."""
    games = []
    for folder, text in (("next", BACKWARDS.split("table:")[0]), ("previous", BACKWARDS)):
        (tmp_path / folder).mkdir()
        games.append(house_game(tmp_path / folder, text, {"players": 2}))
    a, b = (fresh(g) for g in games)
    assert a == a.clone()
    assert a.to_json() == b.to_json() and a != b
    assert a != "a state" and a != None  # noqa: E711


def test_spec_aliases_are_verbs_of_their_own() -> None:
    """CONFORMANCE.md: 'A spec may define more verbs and aliases (a house variant's quiero for
    accept)': teg's `quiero` accepts and `no_quiero` declines, exactly like the common verbs."""
    from interpreter.engine.game import load_game
    game = load_game("teg")
    state = game.new_match(seed=3)
    state.apply("truco")
    state.apply("quiero")
    assert state.hand_worth == 2
    other = game.new_match(seed=3)
    other.apply("truco")
    other.apply("no_quiero")
    assert other.hand_over and other.score == [1, 0]


def test_an_action_is_read_by_its_words_and_an_alias_by_its_verb() -> None:
    """Spaces around and between an action's words change nothing, and a spec's alias is the
    verb it stands for, here under reglamento with the maldón, whose annulment is a verb of its
    own ("Maldón — deux 4 et une figure : le joueur peut annuler la donne")."""
    game = load_game("reglamento", players=2, maldon=True)
    deal = Deal((("4o", "4e", "12c"), ("7c", "6c", "1e")))
    for canonical, written in [("maldon", "  maldon "), ("truco", " truco"), ("accept", "quiero"),
                               ("play 4o", "play   4o")]:
        a, b = game.new_match(seed=1, deals=[deal]), game.new_match(seed=1, deals=[deal])
        if canonical == "accept":
            a.apply("truco")
            b.apply("truco")
        a.apply(canonical)
        b.apply(written)
        assert a == b and [e for e in b.events if e["type"] == "action"][-1]["action"] == canonical


def test_signals_to_partners_reach_only_the_partners(tmp_path) -> None:
    """A spec's signals (señas) with `to: partners` are shown to the signalling team only;
    with `to: table` (reglamento: 'une seña envoyée est visible de toute la table') to all."""
    from interpreter.engine.game import load_game
    spec = tmp_path / "quiet.yaml"
    spec.write_text("extends: reglamento\nname: quiet\nsignals: {verb: sena, names: [tres], to: partners}\n")
    game = load_game(str(spec), players=4)
    state = game.new_match(seed=2)
    state.apply("sena tres", seat=2)
    seen = [any(e.get("action") == "sena tres" for e in state.visible_events(s)) for s in range(4)]
    assert seen == [True, False, True, False]
    assert state.current_player() == 0 and "sena tres" not in state.legal_actions()
    table = load_game("reglamento", players=4).new_match(seed=2)
    table.apply("sena tres", seat=3)
    assert all(any(e.get("action") == "sena tres" for e in table.visible_events(s)) for s in range(4))


def test_a_game_shows_its_spec_and_every_table_option(game) -> None:
    """A game prints as its class, the spec's name and each table option's value."""
    assert repr(game) == "Game('teg', players=2, target=15, flor=False, falta='chico')"


def test_nobody_may_act_once_the_hand_is_over(game) -> None:
    """A bot asking for a seat's actions between hands gets none, not the fold teg allows at any
    time ("En cualquier momento uno puede tirar las cartas") nor the cards still held: the
    truco declined ends the hand, and every seat's list and mask are empty until the next deal."""
    st = game.new_match(seed=0, deals=[README_DEAL])
    st.apply("truco", seat=0)
    st.apply("decline", seat=1)
    assert st.hand_over and not st.match_over
    for seat in (0, 1):
        assert st.legal_actions(seat=seat) == [] and not any(st.action_mask(seat=seat))


def test_only_the_seat_to_speak_in_a_count_may_act(game) -> None:
    """teg's envido count: the mano says his tantos first and the other answers after ("son
    buenas" or his own), so while the count waits for the mano the other seat may not say his own
    tantos; it may only leave ("En cualquier momento uno puede tirar las cartas")."""
    st = game.new_match(seed=0, deals=[README_DEAL])
    st.apply("envido", seat=0)
    st.apply("accept", seat=1)
    assert st.current_player() == 0 and "announce" in st.legal_actions(seat=0)
    assert st.legal_actions(seat=1) == ["fold"]
    assert st.why_illegal("announce", seat=1) == "it is seat 0's turn to speak in the envido count, not seat 1's"


def test_a_flor_owed_in_a_count_waits_for_its_holders_turn() -> None:
    """teg with flor at 4 players: "La flor se canta en la primera baza y mata al envido"; a flor
    holder owes his flor when the envido's count reaches him (the case "the envido's count is
    asked of a flor holder" in tests/conformance/fulltable/teg/legal.yaml), not before: while
    the count waits for the mano, seat 2, holding a flor, may not sing it yet."""
    game = load_game("teg", players=4, flor=True)
    hands = (("7c", "6c", "1e"), ("4o", "5b", "12e"), ("1b", "2b", "3b"), ("4e", "10o", "11c"))
    st = game.new_match(seed=0, deals=[Deal(hands)])
    st.apply("envido", seat=0)
    st.apply("accept", seat=1)
    assert st.current_player() == 0 and st.legal_actions(seat=0) == ["fold", "announce"]
    assert st.legal_actions(seat=2) == ["fold"] and st.why_illegal("flor", seat=2) is not None


def test_a_card_played_blind_shows_as_it_lands() -> None:
    """paulista's iron hand: "les joueurs ne peuvent pas voir leurs cartes"; a seat plays by its
    place (`play @1`), and the card shows as it lands: the action's event names the card dealt
    in that place, for every seat to see."""
    game = load_game("paulista", players=4)
    st = game.new_match(seed=0, score=[11, 11])
    mano = st.current_player()
    assert st.blind and "play @2" in st.legal_actions(seat=mano)
    dealt = game.cards.ids[st.dealt[mano][1]]
    st.apply("play @2", seat=mano)
    assert st.trick == [(mano, st.dealt[mano][1], False)]
    event = {"type": "action", "seat": mano, "action": "play @2", "card": dealt}
    assert st.events[-1] == event
    assert all(event in st.visible_events(seat) for seat in range(4))


def test_a_covered_card_shows_only_to_the_seat_that_covered_it() -> None:
    """paulista: "Carte Couverte - Carte jouée face cachée". The table sees a card played face
    down and not which; the seat that covered it sees it once, as the card it is."""
    game = load_game("paulista", players=4, cover_from=1)
    st = game.new_match(seed=3)
    mano = st.current_player()
    card = sorted(st.observation(mano)["hand"])[0]
    st.apply(f"cover {card}", seat=mano)
    mine = [e for e in st.visible_events(mano) if e["type"] == "action"]
    assert mine == [{"type": "action", "seat": mano, "action": "cover", "card": card}]
    for seat in set(range(4)) - {mano}:
        theirs = [e for e in st.visible_events(seat) if e["type"] == "action"]
        assert theirs == [{"type": "action", "seat": mano, "action": "cover", "hidden": True}]
        assert card not in strings(st.visible_events(seat))


def test_a_refusal_names_the_call_and_the_seat_that_refused_it(game4) -> None:
    """teg at four: seat 1 calls truco, seat 2 (next to speak, of the other team) says no
    quiero; the log says which call was refused and by whom, and the caller's team scores 1
    ("| Truco | 2 puntos | 1 punto |": 1 point if they do not want it)."""
    st = game4.new_match(seed=1)
    st.apply(f"play {sorted(st.observation(0)['hand'])[0]}")
    st.apply("truco", seat=1)
    st.apply("decline", seat=2)
    assert st.events[-3:] == [
        {"type": "declined", "call": "truco", "seat": 2},
        {"type": "score", "team": 1, "points": 1, "reason": "hand", "score": [0, 1]},
        {"type": "hand_over", "winner": 1, "score": [0, 1]}]


def test_each_card_has_its_place_in_the_trick_order() -> None:
    """The board: "1e > 1b > 7e > 7o > 3 > 2 > 1o = 1c > 12 > 11 > 10 > 7c = 7b > 6 > 5 > 4" (the
    number its seed prints under the cards in hand): 1 the highest, cards of one tier sharing a place,
    the places running from 1 to 14 with no gap."""
    game = load_game("board", {"players": 2})
    place = dict(zip(game.cards.ids, places(game.strength[None]), strict=True))
    tiers = [["1e"], ["1b"], ["7e"], ["7o"], ["3e", "3b", "3o", "3c"], ["2e", "2b", "2o", "2c"], ["1o", "1c"],
             ["12e", "12b", "12o", "12c"], ["11e", "11b", "11o", "11c"], ["10e", "10b", "10o", "10c"], ["7c", "7b"],
             ["6e", "6b", "6o", "6c"], ["5e", "5b", "5o", "5c"], ["4e", "4b", "4o", "4c"]]
    assert place == {card: k + 1 for k, tier in enumerate(tiers) for card in tier}


def _filled_and_lazy(name: str) -> tuple[Game, dict[int | None, Any], dict[str, HandValues], dict[str, HandValues]]:
    """A game, two of its turned cards (two of uruguayo's keep it short; teg turns none), its
    hand-value tables under them filled as `truco bench` fills them, and the same tables
    computing each hand on first sight."""
    game = load_game(name)
    views = {turned: game.views[turned] for turned in list(game.views)[:2]}
    filled = hand_values(game.spec, game.cards, views)
    for table in filled.values():
        table.fill(len(game.cards), game.hand_size)
    return game, views, filled, hand_values(game.spec, game.cards, views)


@pytest.mark.parametrize("name", ["teg", "uruguayo"])
def test_a_filled_hand_value_table_holds_the_values_play_computes(name: str) -> None:
    """`truco bench` fills every hand's value under every turned card before it times play
    (`HandValues.fill`); what it fills is what play computes one hand at a time, with or
    without a turned card (uruguayo turns one, teg none; two of uruguayo's turned cards keep it
    short)."""
    game, views, filled, lazy = _filled_and_lazy(name)
    hands = list(itertools.combinations(range(len(game.cards)), game.hand_size))[::97]
    for value, table in filled.items():
        for turned in views:
            assert [table(h, turned) for h in hands if turned not in h] \
                == [lazy[value](h, turned) for h in hands if turned not in h]


def test_a_hand_finds_its_value_in_any_order_it_is_dealt_in() -> None:
    """Play looks a dealt hand up as it was dealt, in a byte per hand (`HandValues`): every
    order of a hand finds the sorted hand's value, filled or computed on first sight, and
    whether it holds a flor."""
    game, views, filled, lazy = _filled_and_lazy("uruguayo")
    hands = list(itertools.combinations(range(len(game.cards)), game.hand_size))[::53]
    for value, table in filled.items():
        for turned in views:
            for hand in (h for h in hands if turned not in h):
                sorted_value = lazy[value](hand, turned)
                for dealt in itertools.permutations(hand):
                    assert table(dealt, turned) == lazy[value](dealt, turned) == sorted_value
    assert any(filled["flor"](h, turned) is None for h in hands for turned in views if turned not in h)


@pytest.mark.parametrize("worth", [-3, 0, 253, 254, 255, 300])
def test_a_value_a_byte_cannot_hold_is_found_all_the_same(worth: int) -> None:
    """A row keeps 0..253 and marks "no value" and "not known" with 254 and 255; any other
    value is found in the table every time, never mistaken for those marks."""
    game = load_game("teg")

    def holds(ctx: Any) -> bool:
        return sum(ctx.hand) % 2 == 0

    table = HandValues(lambda ctx: worth, holds, game.views, len(game.cards))
    for hand in [(0, 1, 2), (2, 1, 0), (0, 1, 3), (3, 1, 0)]:
        for _ in range(2):                      # computed, then found
            assert table(hand, None) == (worth if sum(hand) % 2 == 0 else None)
