"""House rules no bundled spec has, each read with what it speaks of: an annulment with the
turned card as well as the hand, a fold rule out of turn with the folding seat's team."""
from __future__ import annotations

import pytest

from rulespec.errors import SpecError

from interpreter import Deal, load_game


def house_game(tmp_path, text: str, options: dict):
    """The game of a house variant written as `text`, under `options`."""
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return load_game(str(path), options)


def house_finding(tmp_path, text: str, options: dict):
    """The one finding that keeps a house variant written as `text` from loading."""
    with pytest.raises(SpecError) as info:
        house_game(tmp_path, text, options)
    [d] = info.value.diagnostics
    assert d.severity == "error"
    return d


PIEZAS = """\
name: casa_piezas
title: Uruguayo where a pieza in hand may annul the deal
source: "a test's own house rules"
extends: uruguayo
annul:
  una_pieza:
    holds: "trumps >= 1"
    when: "trick == 1 and not played and calls_made == 0"
    dealer: same
    source: "house rule: a hand with a pieza of the muestra may annul the deal"
"""


def test_an_annulment_that_reads_the_turned_card(tmp_path) -> None:
    """uruguayo's piezas are of the muestra's suit (its `turned.trumps`, cited from pytruco's
    Carta.es_pieza: "the 2, 4, 5, 10, 11 of the muestra's suit"): the same
    hand holds a pieza (the 2 of copas) under a muestra of copas and none under one of oros, so a
    house annulment of a hand with a pieza is offered in the first deal only."""
    game = house_game(tmp_path, PIEZAS, {"players": 2})
    hands = (("2c", "7o", "3e"), ("1e", "3b", "6o"))
    under_copas = game.new_match(seed=0, deals=[Deal(hands, "1c")])
    under_oros = game.new_match(seed=0, deals=[Deal(hands, "1o")])
    assert "una_pieza" in under_copas.legal_actions(seat=0)
    assert "una_pieza" not in under_oros.legal_actions(seat=0)


FIGURES = """\
name: casa_figuras
title: teg where a hand of three figures and no trump may annul the deal
source: "a test's own house rules"
extends: teg
annul:
  tres_figuras:
    holds: "figures == 3 and trumps == 0"
    when: "trick == 1 and not played and calls_made == 0"
    dealer: same
    source: "house rule: a hand of three figures without a trump may annul the deal"
"""


def test_a_deck_without_a_turned_card_has_no_trumps(tmp_path) -> None:
    """teg turns no card (no muestra), so no card of any hand is a trump: a house annulment of a
    hand of three figures and no trump holds for every hand of three figures."""
    game = house_game(tmp_path, FIGURES, {"players": 2})
    st = game.new_match(seed=0, deals=[Deal((("10e", "11o", "12c"), ("1e", "3b", "6o")))])
    assert "tres_figuras" in st.legal_actions(seat=0)


OTHER_HANDS = (("1e", "3b", "6o"), ("1b", "2c", "7o"), ("4e", "5b", "7c"), ("2o", "3c", "6b"), ("1o", "4c", "5e"))
"""Hands of no three figures, for the seats after the first."""


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("dealer", ["same", "next"])
def test_an_annulled_deal_is_dealt_again_by_the_dealer_its_rule_names(tmp_path, dealer: str, players: int) -> None:
    """spec-language.md, annulments: "dealer: same — the same dealer deals again (or: next)". The
    last seat deals; seat 0, the mano, annuls with three figures; the deal that follows is the
    last seat's again, or the next seat's (seat 0), and nobody scores."""
    game = house_game(tmp_path, FIGURES.replace("dealer: same", f"dealer: {dealer}"), {"players": players})
    st = game.new_match(seed=0, deals=[Deal((("10e", "11o", "12c"), *OTHER_HANDS[:players - 1]))])
    assert (st.dealer, st.mano) == (players - 1, 0)
    st.apply("tres_figuras", seat=0)
    st.next_hand()
    again = players - 1 if dealer == "same" else 0
    assert (st.hand_number, st.dealer, st.mano, st.score) == (2, again, (again + 1) % players, [0, 0])


TRAILING = """\
name: casa_rezagados
title: teg where only a trailing team may leave the hand
source: "a test's own house rules"
extends: teg
fold:
  when: "not counting and score_us < score_them"
  source: "house rule: only the team behind may go to the deck"
"""


def test_a_fold_rule_out_of_turn_speaks_for_the_folding_seats_team(tmp_path) -> None:
    """teg lets a seat leave the hand whenever no count is under way, in turn or not; under a house
    rule that only the team behind may go, at 5-0 the dealer (seat 1, out of turn) may leave and,
    at 0-5, may not, while the mano's own turn is judged the other way round."""
    game = house_game(tmp_path, TRAILING, {"players": 2})
    hands = (("1e", "7o", "4c"), ("3e", "2b", "5o"))
    ahead = game.new_match(seed=0, deals=[Deal(hands)], score=[5, 0])
    behind = game.new_match(seed=0, deals=[Deal(hands)], score=[0, 5])
    assert "fold" in ahead.legal_actions(seat=1) and "fold" not in ahead.legal_actions(seat=0)
    assert "fold" not in behind.legal_actions(seat=1) and "fold" in behind.legal_actions(seat=0)


NO_TIES = """\
name: casa_sin_empates
title: The board where an envido tied between the teams goes to nobody
source: "a test's own house rules"
extends: board
contests:
  envido:
    count:
      tie: nobody
      source: "house rule: an envido tied between the teams is won by nobody"
"""


NO_TIES_CAN_BEAT = NO_TIES.replace("      tie: nobody\n", "      tie: nobody\n      good: \"not can_beat\"\n")


def test_yours_are_good_where_a_tie_goes_to_nobody(tmp_path) -> None:
    """board: "Yours are good is legal only when you cannot beat the best value an opponent has
    already announced." Where a tie goes to nobody, a seat that can only tie the best value cannot
    beat it, so it may concede (`not beats_opponents`); under a house rule that only a seat that
    cannot change the count concedes (`not can_beat`), tying already takes it from the opponent,
    so it may not. Once the two teams tie, a seat that can do neither may concede under both."""
    hands = (("7o", "12o", "1e"), ("7c", "11c", "1b"), ("4e", "5b", "6o"), ("3e", "2b", "4o"))  # 27, 27, 6, 4
    for text, offered in ((NO_TIES, ["announce", "good"]), (NO_TIES_CAN_BEAT, ["announce"])):
        game = house_game(tmp_path, text, {"players": 4})
        st = game.new_match(seed=0, deals=[Deal(hands)])
        for seat, act in ((0, "envido"), (1, "accept"), (0, "announce")):
            st.apply(act, seat=seat)
        assert st.legal_actions(seat=1) == offered
        st.apply("announce", seat=1)
        assert "good" in st.legal_actions(seat=2)


FLOR_IN_BUENAS = """\
name: casa_flor_en_buenas
title: teg whose flor collects double for a team in the buenas
source: "a test's own house rules"
extends: teg
contests:
  flor:
    unraised:
      mode: each
      pays: "declared_by_caller * (if winner_score >= half then 6 else 3)"
      source: "house rule: a flor collects 3, or 6 for a team past half the match"
"""


def test_an_unraised_flor_is_paid_by_a_rule_that_reads_the_score(tmp_path) -> None:
    """teg: "Flor: 3 puntos. No se contesta, se cobra." Under a house rule that pays double in the
    buenas, each team's unraised flors are paid by the rule read for that team, on the score of the
    match: 6 to a team at 16 of 30, 3 to one at 0; the score is recorded as the flor's."""
    game = house_game(tmp_path, FLOR_IN_BUENAS, {"players": 2, "flor": True})
    hands = (("7c", "6c", "5c"), ("1e", "4o", "12b"))
    for score, paid in (([16, 0], [22, 0]), ([0, 16], [3, 16])):
        st = game.new_match(seed=0, deals=[Deal(hands)], score=score)
        for seat, act in ((0, "flor"), (0, "play 5c"), (1, "play 4o")):
            st.apply(act, seat=seat)
        assert st.score == paid
        assert [e["reason"] for e in st.events if e["type"] == "score"] == ["flor"]


FLOR_TIES = """\
name: casa_flores_iguales
title: teg whose unraised flors go to the best, and equal flors of both teams to nobody
source: "a test's own house rules"
extends: teg
contests:
  flor:
    unraised: {mode: compare, pays: "3 * declared"}
    count: {tie: nobody}
    source: "house rule: the best flor takes every flor sung; equal best flors of both teams take nothing"
"""


def test_equal_unraised_flors_of_both_teams_go_to_nobody(tmp_path) -> None:
    """Under a house rule where the best flor takes them all and a tie between the teams takes
    nothing, two flors of 38 (7, 6 and 5 of one suit) score nothing, and the log says which contest
    was tied."""
    game = house_game(tmp_path, FLOR_TIES, {"players": 2, "flor": True})
    st = game.new_match(seed=0, deals=[Deal((("7c", "6c", "5c"), ("7o", "6o", "5o")))])
    st.apply("flor", seat=0)
    st.apply("flor", seat=1)
    assert st.score == [0, 0]
    assert {"type": "contest_tied", "contest": "flor"} in st.events


BEST_FLOR = """\
name: casa_mejor_flor
title: teg whose best flor collects its team's flors, double in the buenas, and is shown at the end
source: "a test's own house rules"
extends: teg
contests:
  flor:
    unraised: {mode: compare, pays: "declared_by_caller * (if winner_score >= half then 6 else 3)"}
    count: {show: hand_end}
    source: "house rule: the best flor collects 3 for each flor of its team, 6 past half the match, and is shown"
"""


def test_the_best_unraised_flor_is_paid_by_a_rule_that_reads_the_score_and_shown(tmp_path) -> None:
    """Under a house rule where the best of the flors sung collects its team's (3 each, 6 for a
    team past half the match), the 38 beats the 24: 6 to team 0 at 16 of 30, recorded as the
    flor's, and its three cards are shown once the hand is over."""
    game = house_game(tmp_path, BEST_FLOR, {"players": 2, "flor": True})
    st = game.new_match(seed=0, deals=[Deal((("7c", "6c", "5c"), ("4o", "10o", "11o")))], score=[16, 0])
    st.apply("flor", seat=0)
    st.apply("flor", seat=1)
    assert st.score == [22, 0]
    assert [e["reason"] for e in st.events if e["type"] == "score"] == ["flor"]
    for seat, card in ((0, "5c"), (1, "4o"), (0, "7c"), (1, "10o"), (1, "11o"), (0, "6c")):
        st.apply(f"play {card}", seat=seat)
    shown = [e for e in st.events if e["type"] == "revealed"]
    assert [(e["contest"], e["seat"], sorted(e["cards"])) for e in shown] == [("flor", 0, ["5c", "6c", "7c"])]


BUENAS_BEHIND = """\
name: casa_buenas_del_que_pierde
title: teg where only a team not ahead in the match may say son buenas
source: "a test's own house rules"
extends: teg
contests:
  envido:
    count:
      good: "score_us <= score_them"
      source: "house rule: a team ahead in the match must announce its tanto"
"""


def test_a_count_rule_speaks_for_the_seat_in_the_counts_team(tmp_path) -> None:
    """teg: "«Son buenas»: cuando el otro canta su tanto, uno no está obligado a decir el suyo".
    Under a house rule that only a team not ahead may say it, the pie (seat 1), asked after the
    mano announced, may say son buenas at 5-0 and must announce at 0-5: the count's rule is read
    for the team of the seat speaking."""
    game = house_game(tmp_path, BUENAS_BEHIND, {"players": 2})
    hands = (("5e", "2b", "12o"), ("7o", "6o", "1c"))
    for score, offered in (([0, 5], ["fold", "announce"]), ([5, 0], ["fold", "announce", "good"])):
        st = game.new_match(seed=0, deals=[Deal(hands)], score=score)
        for seat, act in ((0, "envido"), (1, "accept"), (0, "announce")):
            st.apply(act, seat=seat)
        assert st.legal_actions(seat=1) == offered


ONE_CONTRAFLOR = """\
name: casa_una_contraflor
title: Reglamento where a hand has at most one contraflor
source: "a test's own house rules"
extends: reglamento
contests:
  flor:
    calls:
      contraflor: {max: 1, source: "house rule: at most one contraflor a hand"}
"""


def test_a_capped_raise_not_yet_called_is_offered_to_a_flor_sung_on_its_turn(tmp_path) -> None:
    """Reglamento: "Contraflor | Relance : on met les flors en jeu." At 4 players, after seat 1's
    flor answered seat 0's, seat 2 holds a flor it has not sung: on its turn it may sing it or
    raise against the other camp's flor, and a house cap of one contraflor a hand, not yet
    reached, does not take the contraflor away."""
    game = house_game(tmp_path, ONE_CONTRAFLOR, {"players": 4, "flor": True})
    hands = (("7c", "6c", "5c"), ("7o", "6o", "5o"), ("4e", "5e", "6e"), ("1b", "4b", "12c"))
    st = game.new_match(seed=0, deals=[Deal(hands)])
    for seat, act in ((0, "flor"), (1, "flor"), (0, "play 5c"), (1, "play 6o")):
        st.apply(act, seat=seat)
    assert {"flor", "contraflor", "contraflor_al_resto"} <= set(st.legal_actions(seat=2))


OPEN_CONTRAFLOR = """\
name: casa_contraflor_de_entrada
title: Reglamento where a flor may be sung straight as a contraflor
source: "a test's own house rules"
extends: reglamento
contests:
  flor:
    calls:
      contraflor: {opens: true, source: "house rule: a flor may be sung straight as a contraflor"}
"""


def test_a_raise_that_may_open_does_not_raise_a_partners_flor(tmp_path) -> None:
    """Reglamento: "Contraflor | Relance : on met les flors en jeu", a raise against the other
    camp's flor. Where a house rule lets a contraflor open the flor, the mano may open with it;
    but once the mano sang a flor no opponent holds, his partner (seat 2, with a flor of his own)
    may only sing it on his turn: a contraflor would raise his own camp's flor."""
    game = house_game(tmp_path, OPEN_CONTRAFLOR, {"players": 4, "flor": True})
    hands = (("7c", "6c", "5c"), ("1o", "4o", "5b"), ("4e", "5e", "6e"), ("1b", "4b", "12c"))
    st = game.new_match(seed=0, deals=[Deal(hands)])
    assert {"flor", "contraflor"} <= set(st.legal_actions(seat=0))
    for seat, act in ((0, "flor"), (0, "play 5c"), (1, "play 5b")):
        st.apply(act, seat=seat)
    legal = st.legal_actions(seat=2)
    assert "flor" in legal and "contraflor" not in legal


CONTRAFLOR_IN_MALAS = """\
name: casa_contraflor_en_malas
title: Reglamento where only a camp in the malas may call a contraflor
source: "a test's own house rules"
extends: reglamento
contests:
  flor:
    calls:
      contraflor: {allowed: "score_us < half", source: "house rule: a contraflor only for a camp in the malas"}
"""


def test_a_raise_against_a_flor_sung_earlier_is_judged_by_its_rule(tmp_path) -> None:
    """Reglamento: "Contraflor | Relance : on met les flors en jeu." Where a house rule keeps the
    contraflor for a camp in the malas, seat 2, on its turn after seat 1's flor answered seat 0's,
    may raise at 0-0 but not once its camp has 15 of 30; it may still sing its flor."""
    game = house_game(tmp_path, CONTRAFLOR_IN_MALAS, {"players": 4, "flor": True})
    hands = (("7c", "6c", "5c"), ("7o", "6o", "5o"), ("4e", "5e", "6e"), ("1b", "4b", "12c"))
    for score, offered in (([0, 0], True), ([15, 0], False)):
        st = game.new_match(seed=0, deals=[Deal(hands)], score=score)
        for seat, act in ((0, "flor"), (1, "flor"), (0, "play 5c"), (1, "play 6o")):
            st.apply(act, seat=seat)
        legal = st.legal_actions(seat=2)
        assert "flor" in legal and ("contraflor" in legal) == offered


FLOR_IN_MALAS = """\
name: casa_flor_en_malas
title: teg where a flor is sung only by a camp in the malas
source: "a test's own house rules"
extends: teg
contests:
  flor:
    window: "trick == 1 and not played and score_us < half"
    source: "house rule: a camp in the buenas plays its flor as three cards"
"""


def test_a_flor_owed_in_a_count_is_judged_by_its_window_for_the_seats_team(tmp_path) -> None:
    """teg: "La flor se canta en la primera baza y mata al envido." At 4 players, seat 2 holds a
    flor and is to speak in the envido count: it must sing the flor, which wipes the envido, where
    its window is open; under a house rule that only a camp in the malas sings it, at 0-0 the flor
    is all it may say, and at 20-0 (its camp past half of 30) it speaks in the count."""
    game = house_game(tmp_path, FLOR_IN_MALAS, {"players": 4, "flor": True})
    hands = (("1e", "4o", "12b"), ("7o", "5b", "3e"), ("7c", "6c", "5c"), ("4e", "5o", "12c"))
    for score, offered in (([0, 0], ["flor", "fold"]), ([20, 0], ["fold", "announce", "good"])):
        st = game.new_match(seed=0, deals=[Deal(hands)], score=score)
        for seat, act in ((0, "envido"), (1, "accept"), (0, "announce"), (1, "good")):
            st.apply(act, seat=seat)
        assert st.legal_actions(seat=2) == offered


TRIO = """\
name: casa_trio
title: teg where a trio of figures is declared before anything else, and shuts out the flor
source: "a test's own house rules"
extends: teg
values:
  trio:
    holds: "figures == 3"
    formula: "figures"
    source: "house rule: a trio is a hand of three figures"
contests:
  trio:
    value: trio
    window: "trick == 1 and not played"
    cancels: [flor]
    declaration: compulsory
    calls:
      trio: {declare: true, opens: true, worth: 1, source: "house rule: a trio is declared before anything else"}
    unraised: {mode: each, pays: "declared"}
"""
TRIO_AND_FLOR = (("10c", "11o", "12b"), ("1e", "5e", "7e"))


def test_a_second_compulsory_declaration_is_owed_by_a_seat_without_the_first(tmp_path) -> None:
    """teg: "si hay flor, el envido no se juega" makes its flor compulsory (`declaration:
    compulsory`: "quien la tiene la canta antes de cualquier otra cosa"). A house rule makes a second
    contest compulsory, a trio of figures: the mano holds a trio and no flor, so the flor asks
    nothing of him, and the trio is still all he may declare before anything else (or fold). The
    trio cites no clause of its own (a contest's `source:` is optional; its call cites one), so the
    reason ends with the rule."""
    game = house_game(tmp_path, TRIO, {"players": 2, "flor": True})
    st = game.new_match(seed=0, deals=[Deal(TRIO_AND_FLOR)])
    assert st.legal_actions(seat=0) == ["trio", "fold"]
    assert st.why_illegal("play 10c", seat=0) == "seat 0 holds a trio and must declare it before anything else"


def test_a_compulsory_declaration_wiped_is_not_owed_in_a_count(tmp_path) -> None:
    """teg: "La flor se canta en la primera baza y mata al envido", and a holder who has not
    played "is asked during an envido's count, so that his flor may still kill it" (its note). Under
    a house rule where a trio declared shuts out every flor of the hand (`cancels: [flor]`), the
    flor is over once the mano declares his trio: in the envido's count, the pie, holding a flor he
    has neither sung nor played, is not asked for it and speaks in the count."""
    game = house_game(tmp_path, TRIO, {"players": 2, "flor": True})
    st = game.new_match(seed=0, deals=[Deal(TRIO_AND_FLOR)])
    for seat, act in ((0, "trio"), (0, "envido"), (1, "accept"), (0, "announce")):
        st.apply(act, seat=seat)
    assert {"type": "wiped", "contest": "flor", "by": "trio"} in st.events
    assert st.legal_actions(seat=1) == ["fold", "announce", "good"]


DECLINED_BY_THE_MANO = """\
name: casa_mano_cobra
title: teg where a declined envido pays the mano double while his team is far from the target
source: "a test's own house rules"
extends: teg
contests:
  envido:
    decline: "if is_mano and score_us + 10 < target then 2 else 1"
"""


def test_a_declined_envido_is_paid_by_a_rule_read_for_its_caller(tmp_path) -> None:
    """teg: "Envido | 2 puntos | 1 punto" (accepted, declined). Under a house rule that pays 2 for
    an envido the mano calls and the other declines while his team is more than 10 points from
    the target, the rule is read for the caller, his team and the match: the mano's declined envido
    pays his team 2 at 0-0 and 1 at 25-0, the dealer's pays 1; each point is recorded as the
    envido's."""
    game = house_game(tmp_path, DECLINED_BY_THE_MANO, {"players": 2})
    hands = (("1e", "7o", "4c"), ("3e", "2b", "5o"))
    for score, paid in (([0, 0], [2, 0]), ([25, 0], [26, 0])):
        st = game.new_match(seed=0, deals=[Deal(hands)], score=score)
        st.apply("envido", seat=0)
        st.apply("decline", seat=1)
        assert st.score == paid
        assert [e["reason"] for e in st.events if e["type"] == "score"] == ["envido"]
    st = game.new_match(seed=0, deals=[Deal(hands)])
    for seat, act in ((0, "play 4c"), (1, "envido"), (0, "decline")):
        st.apply(act, seat=seat)
    assert st.score == [0, 1]


def test_an_envido_tied_between_the_teams_goes_to_nobody_and_the_log_says_so(tmp_path) -> None:
    """Under the house rule above (an envido tied between the teams is won by nobody), an
    accepted envido whose best values tie, 27 for each team, scores nothing, and the log says
    the contest was tied."""
    game = house_game(tmp_path, NO_TIES, {"players": 4})
    hands = (("7o", "12o", "1e"), ("7c", "11c", "1b"), ("4e", "5b", "6o"), ("3e", "2b", "4o"))  # 27, 27, 6, 4
    st = game.new_match(seed=0, deals=[Deal(hands)])
    for seat, act in ((0, "envido"), (1, "accept"), (0, "announce"), (1, "announce")):
        st.apply(act, seat=seat)
    while st.count is not None:
        seat = st.current_player()
        st.apply("good" if "good" in st.legal_actions(seat=seat) else "announce", seat=seat)
    assert st.score == [0, 0]
    assert {"type": "contest_tied", "contest": "envido"} in st.events


FLOR_OF_THE_MANO = """\
name: casa_flor_del_mano
title: teg where only the mano may sing flor
source: "a test's own house rules"
extends: teg
contests:
  flor:
    calls:
      flor:
        allowed: "is_mano"
"""


def test_a_second_flor_is_judged_by_its_rule_on_its_own_turn(tmp_path) -> None:
    """teg: "La flor se canta en la primera baza." Under a house rule that only the mano may sing
    it, the mano's flor is sung, and his partner's is refused by the rule when his own turn comes,
    with the rule as the reason, as it is when he would be the first to sing one."""
    game = house_game(tmp_path, FLOR_OF_THE_MANO, {"players": 4, "flor": True})
    hands = (("7c", "6c", "5c"), ("4e", "5b", "6o"), ("1o", "2o", "3o"), ("3e", "2b", "4o"))
    st = game.new_match(seed=0, deals=[Deal(hands)])
    for seat, act in ((0, "flor"), (0, "play 5c"), (1, "play 4e")):
        st.apply(act, seat=seat)
    assert st.current_player() == 2 and "flor" not in st.legal_actions()
    assert st.why_illegal("flor", seat=2).startswith("flor is not allowed now: the player is not the mano (")
    first = game.new_match(seed=0, deals=[Deal((hands[1], hands[3], hands[2], hands[0]))])
    first.apply("play 4e", seat=0)
    first.apply("play 3e", seat=1)
    assert "flor" not in first.legal_actions(seat=2)
    assert first.why_illegal("flor", seat=2).startswith("flor is not allowed to open the flor now: the player is not "
                                                        "the mano (")


PAID_BY_WHAT_WAS_SUNG = """\
name: casa_lo_cantado
title: teg whose accepted envido and contraflor pay for what was sung, and the mano's envido a point more
source: "a test's own house rules"
extends: teg
contests:
  envido:
    accept: "total + declared + (if is_mano and score_us < 20 then 1 else 0)"
  flor:
    calls:
      contraflor:
        accept: "6 + 10 * declared_by_caller"
"""


def _count_to_the_end(st) -> None:
    while st.count is not None:
        seat = st.current_player()
        st.apply("good" if "good" in st.legal_actions(seat=seat) else "announce", seat=seat)


def test_an_accepted_chain_is_paid_by_its_rule_read_for_the_winner_and_the_caller(tmp_path) -> None:
    """teg: "Envido | 2 puntos | 1 punto"; "Contraflor: ... 6 si se la quieren". Under house rules
    that pay an accepted envido a point more to a mano below 20 (and one per flor declared, none in
    an envido), and an accepted contraflor 10 more per flor of the team that called it, the rules
    are read for the count's winner, his team and the calling team: the mano's 33 takes 3 at 0-0
    and 2 at 25-0, and seat 0's flor of 38 takes 16 from the contraflor seat 1 called; each
    score is recorded as its contest's."""
    game = house_game(tmp_path, PAID_BY_WHAT_WAS_SUNG, {"players": 2})
    hands = (("7o", "6o", "1e"), ("4e", "5b", "6c"))          # envido 33 and 6
    for score, paid in (([0, 0], [3, 0]), ([25, 0], [27, 0])):
        st = game.new_match(seed=0, deals=[Deal(hands)], score=score)
        st.apply("envido", seat=0)
        st.apply("accept", seat=1)
        _count_to_the_end(st)
        assert st.score == paid
        assert [e["reason"] for e in st.events if e["type"] == "score"] == ["envido"]
    game = house_game(tmp_path, PAID_BY_WHAT_WAS_SUNG, {"players": 2, "flor": True})
    st = game.new_match(seed=0, deals=[Deal((("7c", "6c", "5c"), ("1o", "2o", "3o")))])    # flors of 38 and 26
    for seat, act in ((0, "flor"), (1, "contraflor"), (0, "accept")):
        st.apply(act, seat=seat)
    _count_to_the_end(st)
    assert st.score == [16, 0]
    assert [e["reason"] for e in st.events if e["type"] == "score"] == ["flor"]


SHOWN_WITH_THE_MUESTRA = """\
name: casa_envido_mostrado
title: Uruguayo whose winning envido is shown when the hand is over
source: "a test's own house rules"
extends: uruguayo
contests:
  envido:
    count:
      show: hand_end
"""


def test_a_winning_envido_is_shown_by_the_cards_that_make_it_under_the_muestra(tmp_path) -> None:
    """uruguayo's envido counts a pieza of the muestra's suit (the 2 of copas under a muestra of
    copas is worth 30). Under a house rule that the winning envido is shown at the hand's end, the
    cards shown are those that make it under that muestra: the 2 of copas and the 7 of oros (37),
    and the 7 alone under a muestra of espadas, where no two cards make more than it does."""
    game = house_game(tmp_path, SHOWN_WITH_THE_MUESTRA, {"players": 2})
    for muestra, cards in (("4c", ["2c", "7o"]), ("4e", ["7o"])):
        st = game.new_match(seed=0, deals=[Deal((("2c", "7o", "1e"), ("3e", "5b", "6o")), muestra)])
        st.apply("envido", seat=0)
        st.apply("accept", seat=1)
        _count_to_the_end(st)
        while not st.hand_over:
            st.apply(next(a for a in st.legal_actions() if a.startswith("play ")))
        (shown,) = [e for e in st.events if e["type"] == "revealed"]
        assert (shown["seat"], sorted(shown["cards"]), shown["whole_hand"]) == (0, cards, False)


ENVIDO_OF_THE_MANO = """\
name: casa_envido_del_mano
title: teg where an envido the mano calls is worth 3
source: "a test's own house rules"
extends: teg
contests:
  envido:
    calls:
      envido:
        worth: "if is_mano then 3 else 2"
        source: "house rule: an envido called by the mano is worth 3"
"""


def test_a_calls_worth_is_read_for_the_seat_that_called_it(tmp_path) -> None:
    """teg: "Envido | 2 puntos | 1 punto". Under a house rule that an envido the mano calls is
    worth 3, each call's worth is read for its caller: the mano's envido, accepted, pays the 33
    3; the dealer's, 2; and the mano's envido raised by the dealer's, 3 + 2 = 5."""
    game = house_game(tmp_path, ENVIDO_OF_THE_MANO, {"players": 2})
    hands = (("7o", "6o", "1e"), ("4e", "5b", "6c"))          # envido 33 and 6
    for acts, paid in (([(0, "envido"), (1, "accept")], [3, 0]),
                       ([(0, "play 1e"), (1, "envido"), (0, "accept")], [2, 0]),
                       ([(0, "envido"), (1, "envido"), (0, "accept")], [5, 0])):
        st = game.new_match(seed=0, deals=[Deal(hands)])
        for seat, act in acts:
            st.apply(act, seat=seat)
        _count_to_the_end(st)
        assert st.score == paid, acts


FARTHER_WINS = """\
name: casa_gana_el_pie
title: teg whose tied envido goes to the tied seat farther from the mano
source: "a test's own house rules"
extends: teg
contests:
  envido:
    count:
      tie: farther_lead
      source: "house rule: equal envidos go to the tied seat farther from the mano"
"""


def _announce_to_the_end(st) -> None:
    while st.count is not None:
        st.apply("announce", seat=st.current_player())


def test_a_tie_that_goes_to_the_farther_seat(tmp_path) -> None:
    """teg: "En caso de empate gana el mano". Under the house rule the other way round (equal
    envidos go to the tied seat farther from the mano): at two players the dealer's 33 takes the
    mano's 33; at four, where seats 0, 1 and 2 announce 33 in turn, seat 2, the farthest, takes
    the envido for team 0, and seat 3 (team 1, 5) speaks last."""
    game = house_game(tmp_path, FARTHER_WINS, {"players": 2})
    hands = (("7o", "6o", "1b"), ("7c", "6c", "2b"), ("7e", "6e", "4b"), ("4o", "5c", "12b"))  # 33, 33, 33, 5
    st = game.new_match(seed=0, deals=[Deal(hands[:2])])
    st.apply("envido", seat=0)
    st.apply("accept", seat=1)
    _announce_to_the_end(st)
    assert st.score == [0, 2]
    assert [(e["seat"], e["value"]) for e in st.events if e["type"] == "contest_won"] == [(1, 33)]
    game = house_game(tmp_path, FARTHER_WINS, {"players": 4})
    st = game.new_match(seed=0, deals=[Deal(hands)])
    st.apply("envido", seat=0)
    st.apply("accept", seat=1)
    _announce_to_the_end(st)
    assert [e["seat"] for e in st.events if e["type"] == "announce"] == [0, 1, 2, 3]
    assert st.score == [2, 0]
    assert [(e["seat"], e["value"]) for e in st.events if e["type"] == "contest_won"] == [(2, 33)]


THREE_TEAMS = """\
name: casa_tres_equipos
title: teg for {players} players in three teams
source: "a test's own house rules"
extends: teg
table:
  players: {players}
  teams: 3
  source: "house rule: three teams"
"""


@pytest.mark.parametrize("players", [3, 6])
def test_a_table_of_three_teams_is_refused_at_its_teams_key(tmp_path, players: int) -> None:
    """A table has two teams: the engine pays a fold, a lost match and a decided hand to the one
    other team, and no source rulebook plays three teams to say whom else they would go to. Three
    players each alone, or six in three pairs, are refused where the designer wrote `teams: 3`
    (never loaded to play wrong); three players cannot sit in two alternating teams either."""
    with pytest.raises(SpecError) as info:
        house_game(tmp_path, THREE_TEAMS.format(players=players), {})
    found = [(str(d.loc), d.path, d.message) for d in info.value.diagnostics if d.severity == "error"]
    where = str(tmp_path / "house.yaml")
    teams = (f"{where}:7:10", "$.table.teams", "a table has exactly 2 teams: a call is answered by the other "
             "team, and a fold, a lost match and a decided hand score for it; got 3")
    seats = (f"{where}:6:12", "$.table.players", "3 players cannot sit in 2 alternating teams")
    assert found == ([teams, seats] if players == 3 else [teams])


PAIRS_ONLY = """\
name: casa_solo_pares
title: teg whose envido counts a pair of one suit only, without the 20
source: "a test's own house rules"
extends: teg
values:
  envido:
    holds: "suited(2)"
    formula: "best_suited(2)"
    source: "house rule: only two cards of one suit make an envido, worth their points (figures 0); a hand without them has none"
"""


def test_a_hand_without_the_value_loses_to_any_hand_with_it(tmp_path) -> None:
    """Under a house rule where only a pair of one suit makes an envido, worth its points
    alone (a pair of figures is worth 0), the dealer, without a pair, has no envido: his
    announcement says so (value -1, below every value) and the mano's pair of figures, worth 0,
    takes the envido."""
    game = house_game(tmp_path, PAIRS_ONLY, {"players": 2})
    hands = (("10o", "11o", "4c"), ("1e", "2b", "3c"))
    st = game.new_match(seed=0, deals=[Deal(hands)])
    st.apply("envido", seat=0)
    st.apply("accept", seat=1)
    _announce_to_the_end(st)
    assert [(e["seat"], e["value"]) for e in st.events if e["type"] == "announce"] == [(0, 0), (1, -1)]
    assert [(e["seat"], e["value"]) for e in st.events if e["type"] == "contest_won"] == [(0, 0)]
    assert st.score == [2, 0]


PARTNERS_TIE = """\
name: casa_parda_entre_companeros
title: teg where partners tied for the best card tie the trick
source: "a test's own house rules"
extends: teg
tricks:
  partners_tie: tie
"""


def test_partners_tied_for_the_best_card_tie_the_trick_where_the_house_says_so(tmp_path) -> None:
    """teg: "La baza la gana la carta más brava" (its `partners_tie: team_wins`: partners tied
    for the best card win the trick for their team). Under a house rule that such a tie ties the
    trick, at 4 players a trick whose best card is one seat's alone still goes to that seat, and
    one where partners (seats 0 and 2) tie with their 3s is tied (parda)."""
    game = house_game(tmp_path, PARTNERS_TIE, {"players": 4})
    hands = (("3e", "4o", "5c"), ("4e", "5o", "6c"), ("3b", "6o", "7c"), ("5e", "6b", "4c"))
    st = game.new_match(seed=0, deals=[Deal(hands)])
    for seat, act in ((0, "play 3e"), (1, "play 4e"), (2, "play 3b"), (3, "play 5e")):
        st.apply(act, seat=seat)
    tricks = [e for e in st.events if e["type"] == "trick"]
    assert tricks == [{"type": "trick", "number": 1, "winner": None, "seat": None}]
    alone = game.new_match(seed=0, deals=[Deal(hands)])
    for seat, act in ((0, "play 3e"), (1, "play 4e"), (2, "play 6o"), (3, "play 5e")):
        alone.apply(act, seat=seat)
    tricks = [e for e in alone.events if e["type"] == "trick"]
    assert tricks == [{"type": "trick", "number": 1, "winner": 0, "seat": 0}]


ENVIDO_AFTER_TRUCO = """\
name: casa_envido_tras_truco
title: teg where a declined envido pays only when a truco was called before it
source: "a test's own house rules"
extends: teg
contests:
  envido:
    decline: "if called('truco') then 2 else 0"
"""


def test_a_declined_envido_paying_nothing_scores_nothing_and_called_reads_the_calls_made(tmp_path) -> None:
    """teg: "Envido | 2 puntos | 1 punto" (accepted, declined), and the envido may answer the
    first truco ('el envido está primero'). Under a house rule that a declined envido pays 2 once
    a truco has been called in the hand and nothing otherwise, the envido declined at once
    scores nothing (no point, no score in the log), and the one sung in answer to a truco and
    declined pays its caller 2."""
    game = house_game(tmp_path, ENVIDO_AFTER_TRUCO, {"players": 2})
    hands = (("1e", "7o", "4c"), ("3e", "2b", "5o"))
    st = game.new_match(seed=0, deals=[Deal(hands)])
    st.apply("envido", seat=0)
    st.apply("decline", seat=1)
    assert st.score == [0, 0]
    assert [e for e in st.events if e["type"] == "score"] == []
    st = game.new_match(seed=0, deals=[Deal(hands)])
    for seat, act in ((0, "truco"), (1, "envido"), (0, "decline")):
        st.apply(act, seat=seat)
    assert st.score == [0, 2]
    assert [(e["team"], e["points"], e["reason"]) for e in st.events if e["type"] == "score"] == [(1, 2, "envido")]


ANY_RAISES = """\
name: casa_sube_cualquiera
title: teg where either team may raise an accepted truco
source: "a test's own house rules"
extends: teg
stakes:
  raise: any
"""


def test_an_accepted_truco_may_be_raised_by_either_team_where_the_house_says_so(tmp_path) -> None:
    """teg: "Sube el que quiso el canto anterior": once the dealer accepts the mano's truco,
    only the dealer may call retruco. Under a house rule that either team may raise, the mano,
    whose truco was accepted, may call retruco on his own turn too."""
    hands = (("1e", "7o", "4c"), ("3e", "2b", "5o"))
    for text, offered in ((ANY_RAISES, True), (ANY_RAISES.replace("  raise: any\n", "  raise: accepting_team\n"), False)):
        game = house_game(tmp_path, text, {"players": 2})
        st = game.new_match(seed=0, deals=[Deal(hands)])
        st.apply("truco", seat=0)
        st.apply("accept", seat=1)
        assert st.current_player() == 0
        assert ("retruco" in st.legal_actions(seat=0)) is offered


DIVIDED_BY_THE_SCORE = """\
name: casa_dividido
title: teg where a declined envido pays 10 divided by the caller's points
source: "a test's own house rules"
extends: teg
contests:
  envido:
    decline: "10 // score_us"
"""


def test_a_formula_that_divides_by_zero_in_play_names_its_place_in_the_spec(tmp_path) -> None:
    """A house rule that divides by a number known only in play (here the caller's points,
    0 at the start) is the spec's error when that number is 0, located at the formula's key:
    the envido's `decline:` on its line, and it pays 10 // 5 = 2 at 5-0."""
    game = house_game(tmp_path, DIVIDED_BY_THE_SCORE, {"players": 2})
    hands = (("1e", "7o", "4c"), ("3e", "2b", "5o"))
    st = game.new_match(seed=0, deals=[Deal(hands)], score=[5, 0])
    st.apply("envido", seat=0)
    st.apply("decline", seat=1)
    assert st.score == [7, 0]
    st = game.new_match(seed=0, deals=[Deal(hands)])
    st.apply("envido", seat=0)
    with pytest.raises(SpecError) as err:
        st.apply("decline", seat=1)
    (found,) = err.value.diagnostics
    assert found.path == "$.contests.envido.decline" and found.loc is not None and found.loc.line == 7
    assert "division by zero: the divisor is 0 in this situation" in found.message


RAISE_ACCEPTS = """\
name: casa_subir_es_querer
title: teg where a declined envido chain pays 3 once an envido in it was accepted
source: "a test's own house rules"
extends: teg
contests:
  envido:
    decline: "if accepted('envido') then 3 else 1"
"""


def test_a_raise_accepts_the_call_it_answers(tmp_path) -> None:
    """teg: "Envido y real envido | 5 puntos | 2 puntos": the real envido raised over an envido
    has accepted that envido, so declining the raise still pays for it. Under a house rule that
    a declined envido chain pays 3 once an envido in it was accepted (`accepted('envido')`), the
    real envido answering the mano's envido and then declined pays its caller 3; the envido
    declined at once pays the mano 1."""
    game = house_game(tmp_path, RAISE_ACCEPTS, {"players": 2})
    hands = (("1e", "7o", "4c"), ("3e", "2b", "5o"))
    st = game.new_match(seed=0, deals=[Deal(hands)])
    for seat, act in ((0, "envido"), (1, "real_envido"), (0, "decline")):
        st.apply(act, seat=seat)
    assert st.score == [0, 3]
    st = game.new_match(seed=0, deals=[Deal(hands)])
    st.apply("envido", seat=0)
    st.apply("decline", seat=1)
    assert st.score == [1, 0]


def test_a_declaration_no_one_may_still_make_is_paid_without_waiting_for_another(tmp_path) -> None:
    """teg's flor "se cobra" once every seat has sung it or played (no seat may still sing one,
    so the moment shows nothing of a hidden hand). Under the house trio above, here alongside the
    flor instead of shutting it out, the dealer's trio, the only one any seat may still declare
    once the mano has played, is paid at once, while the mano's flor waits for the dealer's
    card: the trio's point comes first, the flor's 3 after the dealer plays."""
    game = house_game(tmp_path, TRIO.replace("    cancels: [flor]\n", "    cancels: []\n"),
                      {"players": 2, "flor": True})
    st = game.new_match(seed=0, deals=[Deal((("1e", "5e", "7e"), ("10c", "11o", "12b")))])
    for seat, act in ((0, "flor"), (0, "play 5e"), (1, "trio")):
        st.apply(act, seat=seat)
    assert st.score == [0, 1]
    st.apply("play 10c", seat=1)
    assert [(e["reason"], e["score"]) for e in st.events if e["type"] == "score"] == [("trio", [0, 1]),
                                                                                    ("flor", [3, 1])]


CALLS_COUNTED = """\
name: casa_cuenta_cantos
title: teg where a declined envido pays one point for every call made in the hand
source: "a test's own house rules"
extends: teg
contests:
  envido:
    decline: "calls_made"
"""


def test_calls_made_counts_every_call_of_the_hand_and_starts_again_with_the_next(tmp_path) -> None:
    """`calls_made` is "calls made this hand", stake calls and contest calls alike. Under a house
    rule that a declined envido pays its caller one point a call: truco, envido (the answer that
    goes first), envido again and real envido, declined, pay 4; the truco then declined pays 1
    ("Truco | 2 puntos | 1 punto"); the next hand counts from 0, so an envido declined at once
    there pays 1."""
    game = house_game(tmp_path, CALLS_COUNTED, {"players": 2})
    hands = (("1e", "7o", "4c"), ("3e", "2b", "5o"))
    st = game.new_match(seed=0, deals=[Deal(hands), Deal(hands)])
    for seat, act in ((0, "truco"), (1, "envido"), (0, "envido"), (1, "real_envido"), (0, "decline")):
        st.apply(act, seat=seat)
    assert st.score == [0, 4]
    st.apply("decline", seat=1)
    assert st.hand_over and st.score == [1, 4]
    st.next_hand()
    assert st.mano == 1
    st.apply("envido", seat=1)
    st.apply("decline", seat=0)
    assert st.score == [1, 5]


FOR_THE_CALLER = """\
name: casa_del_que_canta
title: teg where the mano's truco is worth what his team lacks to half the target
source: "a test's own house rules"
extends: teg
stakes:
  calls:
    truco: {worth: "if is_mano then max(2, half - score_us) else 2"}
    retruco: {declined: "stake + 2"}
  declined: "if is_mano and score_us >= half then stake + 1 else stake"
"""


def test_a_stake_calls_worth_and_its_decline_are_read_for_the_seat_that_called(tmp_path) -> None:
    """A stake call's `worth` and `declined` are "at a seat's moment of play": the seat that
    called. Under a house rule that the mano's truco is worth what his team lacks to half the
    target (at least 2), at 0-5 with the target 15 the mano's truco is worth 7 (half 7, his team
    has 0), not 2 (what the answering team lacks); the dealer's truco is worth 2. A call declined
    pays the stake, and one more to a mano whose team has half the target: the mano's truco
    declined at 7-0 pays him 2, the dealer's at 0-7 pays 1. The retruco declined pays its own
    "stake + 2": the truco it raised was accepted by the raise, worth 7, so 9."""
    game = house_game(tmp_path, FOR_THE_CALLER, {"players": 2, "target": 15})
    hands = (("1e", "7o", "4c"), ("3e", "2b", "5o"))
    st = game.new_match(seed=0, deals=[Deal(hands)], score=[0, 5])
    st.apply("truco", seat=0)
    st.apply("accept", seat=1)
    assert st.worth == 7
    assert st.events[-1] == {"type": "accepted", "call": "truco", "team": 1, "worth": 7}
    st = game.new_match(seed=0, deals=[Deal(hands)], score=[0, 5])
    st.apply("play 4c", seat=0)
    st.apply("truco", seat=1)
    st.apply("accept", seat=0)
    assert st.worth == 2
    for score, seat, paid in (([7, 0], 0, [9, 0]), ([0, 7], 1, [0, 8])):
        st = game.new_match(seed=0, deals=[Deal(hands)], score=score)
        if seat:
            st.apply("play 4c", seat=0)
        st.apply("truco", seat=seat)
        st.apply("decline", seat=1 - seat)
        assert st.hand_over and st.score == paid and st.pending is None, (score, seat)
        assert [e for e in st.events if e["type"] == "score"] == [
            {"type": "score", "team": seat, "points": paid[seat] - score[seat], "reason": "hand", "score": paid}]
    st = game.new_match(seed=0, deals=[Deal(hands)], score=[0, 5])
    st.apply("truco", seat=0)
    st.apply("retruco", seat=1)
    assert {"type": "accepted", "call": "truco", "team": 1, "worth": 7} in st.events
    st.apply("decline", seat=0)
    assert st.hand_over and st.score == [0, 5 + 7 + 2]


FOLD_FOR_THE_FOLDER = """\
name: casa_del_que_se_va
title: teg where the mano's team, folding at half the target or more, gives one point more
source: "a test's own house rules"
extends: teg
fold:
  pays: "if is_mano and score_us >= half then stake + 1 else stake"
"""


FOLD_ON_A_CALL = """\
name: casa_irse_ante_el_truco
title: teg where leaving the hand in answer to a truco gives one point more
source: "a test's own house rules"
extends: teg
fold:
  pays: "if pending_step > 0 then stake + 1 else stake"
"""


def test_what_a_fold_pays_is_read_for_the_folding_seat_as_it_folds(tmp_path) -> None:
    """`fold.pays` is read for the seat that folds, as `fold.when` is: `score_us` is the folding
    team's score. Under a house rule that the mano's team, folding at half the target (7 of 15)
    or more, gives one point more, the mano folding at 7-0 gives 2 and at 0-7 gives 1; the
    dealer folding at 0-7 gives 1. It is read as the seat folds, the truco it leaves unanswered
    still waiting: under a house rule that leaving in answer to a truco gives one point more,
    that fold gives 2, and one with nothing called gives 1."""
    game = house_game(tmp_path, FOLD_FOR_THE_FOLDER, {"players": 2, "target": 15})
    hands = (("1e", "7o", "4c"), ("3e", "2b", "5o"))
    for score, seat, paid in (([7, 0], 0, [7, 2]), ([0, 7], 0, [0, 8]), ([0, 7], 1, [1, 7])):
        st = game.new_match(seed=0, deals=[Deal(hands)], score=score)
        st.apply("fold", seat=seat)
        assert st.hand_over and st.score == paid, (score, seat)
    game = house_game(tmp_path, FOLD_ON_A_CALL, {"players": 2, "target": 15})
    for called, paid in ((True, [2, 0]), (False, [0, 1])):
        st = game.new_match(seed=0, deals=[Deal(hands)])
        if called:
            st.apply("truco", seat=0)
        st.apply("fold", seat=1 if called else 0)
        assert st.hand_over and st.score == paid and st.pending is None, called


AT_THE_HANDS_END = """\
name: casa_al_final_de_la_mano
title: teg where the match ends only when the hand that reaches the target is over
source: "a test's own house rules"
extends: teg
match:
  end: end_of_hand
"""


def test_a_match_that_ends_with_the_hand_goes_to_the_higher_score_then_to_the_first_there(tmp_path) -> None:
    """`match.end: end_of_hand`: "The match ends the moment a team reaches the target, or at the
    end of that hand." At 13-13 (target 15), the dealer's envido (33 against 4) takes him to 15
    and the hand goes on; the mano then wins both tricks. With the retruco accepted (3) the mano
    ends at 16 and wins on the higher score; with the truco (2) both teams have 15, and the
    dealer's team, there first, wins. A team at the target with the other below it wins too."""
    game = house_game(tmp_path, AT_THE_HANDS_END, {"players": 2, "target": 15})
    hands = (("1e", "1b", "4c"), ("7c", "6c", "5o"))
    for stake, final, winner in ((("truco", "retruco", "accept"), [16, 15], 0), (("truco", "accept"), [15, 15], 1)):
        st = game.new_match(seed=0, deals=[Deal(hands)], score=[13, 13])
        for seat, act in ((0, "envido"), (1, "accept"), (0, "announce"), (1, "announce")):
            st.apply(act, seat=seat)
        assert st.score == [13, 15] and not st.match_over and not st.hand_over
        for i, act in enumerate(stake):
            st.apply(act, seat=i % 2)
        for seat, act in ((0, "play 1e"), (1, "play 5o"), (0, "play 1b"), (1, "play 6c")):
            st.apply(act, seat=seat)
        assert st.score == final and st.match_over and st.winner == winner, stake
    st = game.new_match(seed=0, deals=[Deal(hands)], score=[14, 3])
    st.apply("truco", seat=0)
    st.apply("decline", seat=1)
    assert st.score == [15, 3] and st.match_over and st.winner == 0
    with pytest.raises(ValueError, match="each from 0 to 14"):
        game.new_match(seed=0, score=[15, 3])


COVERED_TIE = """\
name: casa_parda_tapada
title: paulista where the first to play a tying card leads after a tie
source: "a test's own house rules"
extends: paulista
tricks:
  after_tie: first_best
"""


def test_a_tie_of_covered_cards_only_leaves_the_lead_where_it_was(tmp_path) -> None:
    """`after_tie: first_best`: "the seat that first played the tying card" leads after a tied
    trick. paulista: "Carte Couverte - Carte jouée face cachée, qui n'a aucune valeur", and a
    trick of covered cards only is a tie with no card shown: nobody played a tying card, so the
    seat that led it leads again: the mano, whose turn it is once more."""
    game = house_game(tmp_path, COVERED_TIE, {"players": 4, "cover_from": 1})
    st = game.new_match(seed=0)
    mano = st.current_player()
    hands = {s: sorted(st.observation(s)["hand"]) for s in range(4)}
    for k in range(4):
        seat = (mano + k) % 4
        st.apply(f"cover {hands[seat][0]}", seat=seat)
    assert not st.hand_over and st.trick_no == 1
    assert st.current_player() == mano and f"play {hands[mano][1]}" in st.legal_actions(seat=mano)


def test_three_tricks_of_covered_cards_are_three_pardas(tmp_path) -> None:
    """paulista: "Si tous les tours sont à égalité, aucune paire ne gagne un point" (the option
    `three_pardas`: nobody, or the mano's pair). Four seats covering a card in each of the three
    tricks tie them all: tricks 1, 2 and 3, then the hand is over with no winner and no point,
    or, where the mano's pair takes three pardas, won by it for the hand's point."""
    for three_pardas, winner, score in (("nobody", None, [0, 0]), ("mano", 0, [1, 0])):
        game = load_game("paulista", players=4, cover_from=1, three_pardas=three_pardas)
        st = game.new_match(seed=0)
        mano = st.mano
        for _ in range(3):
            for k in range(4):
                seat = (mano + k) % 4
                st.apply(f"cover {sorted(st.observation(seat)['hand'])[0]}", seat=seat)
        assert [(e["number"], e["winner"]) for e in st.events if e["type"] == "trick"] == [(1, None), (2, None), (3, None)]
        over = [e for e in st.events if e["type"] == "hand_over"]
        assert st.hand_over and over == [{"type": "hand_over", "winner": None if winner is None else game.team_of[mano],
                                          "score": score if game.team_of[mano] == 0 else score[::-1]}]


THIRD_AFTER_A_PARDA = """\
name: casa_tercera_decide
title: teg where a parda after a won trick sends the hand to the third trick
source: "a test's own house rules"
extends: teg
tricks:
  after_tie: mano
  outcome: !replace
    "A A": A
    "A B A": A
    "A B B": B
    "A B T": A
    "A T A": A
    "A T B": B
    "A T T": A
    "T A": A
    "T T A": A
    "T T T": mano
"""


def test_who_leads_after_a_tie_led_by_another_seat_than_the_mano(tmp_path) -> None:
    """`after_tie`: "the leader of a tied trick leads again (or: mano ...)". They differ only when
    a tie is led by another seat than the mano and the hand goes on, which a house outcome table
    allows: there the dealer wins the first trick (5 against 4), leads the second, which ties
    (two 3s), and the third trick is led by the mano under `mano`, by the dealer under
    `same_leader`."""
    hands = (("4c", "3e", "6b"), ("5o", "3b", "7c"))
    for rule, leader in (("mano", 0), ("same_leader", 1)):
        game = house_game(tmp_path, THIRD_AFTER_A_PARDA.replace("after_tie: mano", f"after_tie: {rule}"),
                          {"players": 2})
        st = game.new_match(seed=0, deals=[Deal(hands)])
        for seat, act in ((0, "play 4c"), (1, "play 5o"), (1, "play 3b"), (0, "play 3e")):
            st.apply(act, seat=seat)
        assert [e["winner"] for e in st.events if e["type"] == "trick"] == [1, None]
        assert not st.hand_over and st.current_player() == leader, rule


HALF_BLIND = """\
name: ciega_a_medias
title: paulista with its iron hand blind in the first trick only, and hands worth more late in the match
source: "a test's own house rules"
extends: paulista
stakes:
  base: "if max_score >= 6 then 2 else 1"
special_hands:
  eleven:
    base: "if min_score >= 6 then 4 else 3"
  iron:
    blind: "trick == 1 and min_score >= target - 1"
"""


def test_a_hands_worth_and_its_blindness_are_read_in_play(tmp_path) -> None:
    """paulista's iron hand: "les joueurs ne peuvent pas voir leurs cartes"; its hand of 11
    "vaut déjà 3 points". Under a house rule where a hand's base, the hand of 11's base and the
    iron hand's blindness read the match, each is read as the hand is dealt or a trick starts:
    the iron hand is played by place in its first trick, and each seat sees its two cards left
    once the second starts. A hand not blind shows each seat its cards once, at the deal."""
    game = house_game(tmp_path, HALF_BLIND, {"players": 4})
    worth = {str(score): game.new_match(seed=0, score=score).hand_worth
             for score in ([3, 2], [6, 2], [11, 3], [11, 6])}
    assert worth == {"[3, 2]": 1, "[6, 2]": 2, "[11, 3]": 3, "[11, 6]": 4}
    st = game.new_match(seed=0, score=[11, 11])
    assert st.blind and st.special == ["eleven", "iron"] and st.hand_worth == 4
    assert not any(e["type"] == "hand" for e in st.events)
    for _ in range(4):
        st.apply(next(a for a in st.legal_actions() if a.startswith("play @")))
    assert not st.blind
    shown = [e for e in st.events if e["type"] == "hand"]
    assert [(e["seat"], len(e["cards"])) for e in shown] == [(s, 2) for s in range(4)]
    assert all(sorted(e["cards"]) == sorted(st.observation(e["seat"])["hand"]) for e in shown)
    plain = game.new_match(seed=0)
    while not plain.hand_over:
        plain.apply(next(a for a in plain.legal_actions() if a.startswith("play ")))
    assert sorted(e["seat"] for e in plain.events if e["type"] == "hand") == [0, 1, 2, 3]


UNDECIDED = """\
name: casa_sin_pardas
title: teg whose parda table forgets the hands whose first two tricks are tied
source: "a test's own house rules"
extends: teg
tricks:
  outcome: !replace
    "A A": A
    "A B A": A
    "A B B": B
    "T A": A
    "A T": A
    "A B T": A
"""


def test_a_trick_table_that_leaves_results_undecided_is_refused_when_compiled(tmp_path) -> None:
    """teg: "Gana la mano el que gane dos bazas". A house table without "T T A" nor "T T T" decides
    no hand whose first two tricks are tied: the game refuses to compile, naming every sequence of
    three results left undecided, at the table's place in the house file."""
    d = house_finding(tmp_path, UNDECIDED, {"players": 2})
    assert (d.severity, d.path, d.loc.line) == ("error", "$.tricks.outcome", 6)
    assert d.message.startswith("no outcome decides the trick results: T T team0, T T team1, T T T ")


FIRST_TRICK = """\
name: casa_primera
title: teg where the first trick won decides the hand
source: "a test's own house rules"
extends: teg
tricks:
  outcome: !replace
    "A": A
    "T A": A
    "T T A": A
    "T T T": mano
"""


def test_a_hand_decided_by_its_first_trick_ends_there(tmp_path) -> None:
    """teg: "la mano puede terminar en dos bazas y no jugarse la tercera"; a house table whose
    pattern of one result ("A": A) decides the hand as soon as one trick is won: the mano's 1 of
    espadas takes the first trick, and the hand is over and scored for its team."""
    game = house_game(tmp_path, FIRST_TRICK, {"players": 2})
    st = game.new_match(seed=0, deals=[Deal((("1e", "7o", "4c"), ("3e", "2b", "5o")))])
    st.apply("play 1e", seat=0)
    st.apply("play 3e", seat=1)
    assert st.hand_over and st.score == [1, 0]


AFTER_A_TIE = """\
name: casa_empate
title: teg where a tied second trick gives the hand to the team that lost the first
source: "a test's own house rules"
extends: teg
tricks:
  outcome: !replace
    "A A": A
    "A B A": A
    "A B B": B
    "A T": B
    "A B T": A
    "T A": A
    "T T A": A
    "T T T": mano
"""


@pytest.mark.parametrize("plays, score", [
    (((0, "1e"), (1, "3e"), (0, "7c"), (1, "7b")), [0, 1]),     # seat 0 wins the first trick
    (((0, "4c"), (1, "3e"), (1, "7b"), (0, "7c")), [1, 0]),     # seat 1 wins it
])
def test_a_result_the_pattern_does_not_name_is_the_other_team(tmp_path, plays, score: list[int]) -> None:
    """"A is the team that won the first trick not tied, B the other team" (the generated
    rulebook's words for the table): a house table's "A T": B gives the hand to the team that
    did not win the first trick, though no trick of the pattern is B's, whichever team won it."""
    game = house_game(tmp_path, AFTER_A_TIE, {"players": 2})
    st = game.new_match(seed=0, deals=[Deal((("1e", "7c", "4c"), ("3e", "7b", "5o")))])
    for seat, card in plays:
        st.apply(f"play {card}", seat=seat)
    assert st.hand_over and st.score == score


SPLIT_VOID = """\
name: casa_partida
title: teg where a hand whose first two tricks are split goes to nobody
source: "a test's own house rules"
extends: teg
tricks:
  outcome: !replace
    "A B": none
    "A A": A
    "A T": A
    "T A": A
    "T T A": A
    "T T T": mano
"""


@pytest.mark.parametrize("led, answered, score", [("4c", "7o", [0, 0]), ("7c", "5o", [1, 0])])
def test_a_and_b_are_never_one_team(tmp_path, led: str, answered: str, score: list[int]) -> None:
    """A and B stand for the two teams, so "A B" matches only tricks won by each team in turn:
    two tricks won by the mano's team pass over the house table's first line ("A B": none) to
    its second ("A A": A); split ones are decided by the first, and nobody scores."""
    game = house_game(tmp_path, SPLIT_VOID, {"players": 2})
    st = game.new_match(seed=0, deals=[Deal((("1e", "7c", "4c"), ("3e", "7o", "5o")))])
    for seat, card in ((0, "1e"), (1, "3e"), (0, led), (1, answered)):
        st.apply(f"play {card}", seat=seat)
    assert st.hand_over and st.score == score


@pytest.mark.parametrize("pattern", ["B A", "T B", "T T B"])
def test_a_pattern_that_names_b_before_a_is_refused_at_its_key(tmp_path, pattern: str) -> None:
    """A is the team of the first trick won, so a pattern whose first won trick is B's has no
    meaning the rulebook gives it: refused at the pattern, not read as another team's A."""
    d = house_finding(tmp_path, AFTER_A_TIE.replace('"A T": B', f'"{pattern}": B'), {"players": 2})
    assert (d.path, d.loc.line, d.loc.col) == (f'$.tricks.outcome["{pattern}"]', 10, 5)
    assert d.message == (f"the pattern {pattern!r} names B before A: A is the team that won the first trick "
                         "not tied, so that trick is written A")


@pytest.mark.parametrize("pattern, result, path, col", [("T", "A", "$.tricks.outcome.T", 10),
                                                        ("T T T", "B", '$.tricks.outcome["T T T"]', 14)])
def test_a_result_that_names_a_team_where_no_trick_was_won_is_refused_at_its_place(tmp_path, pattern: str, result: str,
                                                                                    path: str, col: int) -> None:
    """A and B are named by the tricks won, so a pattern of tied tricks alone cannot give the
    hand to either: refused at the result, with the results that can be given there."""
    d = house_finding(tmp_path, AFTER_A_TIE.replace('"T T T": mano', f'"{pattern}": {result}'), {"players": 2})
    assert (d.path, d.loc.line, d.loc.col) == (path, 14, col)      # at the result
    assert d.message == (f"the result {result!r} names a team, but the pattern {pattern!r} has no trick won to say which: "
                         "give the hand to mano or none")


SUITED_WITH_TRUMPS = """\
name: casa_palos
title: uruguayo whose envido and flor count the piezas in their own suit
source: "a test's own house rules"
extends: uruguayo
values:
  envido:
    formula: "best_suited(2)"
  flor:
    holds: "suited(3)"
"""


@pytest.mark.parametrize("hand, envido, flor", [
    (("5e", "6e", "3c"), 34, None),      # the pieza 5 (28) pairs with the 6 of its suit
    (("5e", "6e", "3e"), 34, 37),        # three of a suit, the pieza among them: a flor
    (("4c", "5o", "6b"), 0, None),       # no two of a suit
])
def test_suited_and_best_suited_count_the_trumps_in_their_suit(tmp_path, hand, envido, flor) -> None:
    """The hand functions `suited(n)` and `best_suited(n)` take every card by its suit, a
    trump too; `suited_plain` and `best_suited_plain` (uruguayo's own) leave the trumps out,
    and `best_suited` of a hand without n of a suit is 0. Muestra: the 1 de espada."""
    game = house_game(tmp_path, SUITED_WITH_TRUMPS, {"players": 2})
    ids = game.cards.ids
    cards, turned = tuple(ids.index(c) for c in hand), ids.index("1e")
    assert (game.values["envido"](cards, turned), game.values["flor"](cards, turned)) == (envido, flor)


DIVIDED_BY_ZERO = """\
name: casa_flor_rota
title: teg whose flor is held by a formula that divides by zero
source: "a test's own house rules"
extends: teg
values:
  flor:
    holds: "suited(3) and 1 // 0 == 0"
"""


def test_a_hand_formula_that_cannot_be_evaluated_is_refused_at_its_place(tmp_path) -> None:
    """A hand's value is compiled when the game is, folding what is constant: a division by
    zero there is the spec's error, at the formula's line and column in the house file."""
    d = house_finding(tmp_path, DIVIDED_BY_ZERO, {"players": 2})
    assert (d.path, d.message, d.loc.line, d.loc.col) == ("$.values.flor.holds", "division by zero", 7, 29)


def test_a_formula_naming_an_unknown_call_or_contest_is_refused_with_the_names_there_are(tmp_path) -> None:
    """A rule that asks about a call or a contest the spec does not have is the spec's error, at the
    name's place, listing the names it could have meant (or that there are none)."""
    calls = "contraflor, contraflor_al_resto, envido, falta_envido, flor, real_envido, retruco, truco, vale_cuatro"
    for rule, contests, message in (
            ("called('tresillo')", "", f"called(): no call named 'tresillo'; the calls: {calls}"),
            ("in_chain('tresillo') == 0", "", f"in_chain(): no call named 'tresillo'; the calls: {calls}"),
            ("idle('chica')", "", "idle(): no contest named 'chica'; the contests: envido, flor"),
            ("idle('envido')", "contests: !replace {}\n", "idle(): no contest named 'envido'; the contests: none")):
        text = (f'name: casa_sin_nombre\ntitle: teg with a fold rule that names what is not there\nsource: "a test\'s own '
                f'house rules"\nextends: teg\n{contests}fold:\n  when: "my_turn and {rule}"\n')
        d = house_finding(tmp_path, text, {"players": 2})
        assert (d.path, d.message, d.loc.line) == ("$.fold.when", message, 6 + bool(contests))


@pytest.mark.parametrize("players", [2, 4])                    # vanikar's tables
@pytest.mark.parametrize("pending, scored", [("void", 1), ("declined", 2)])
def test_a_fold_counts_a_waiting_contest_call_as_its_rule_says(tmp_path, pending: str, scored: int,
                                                                players: int) -> None:
    """vanikar: "FOLD : ... l'autre camp marque ce qu'elle vaut — 1" and its `pending_contest: void`;
    teg's `declined`. Under a house rule that lets a seat fold at any time, the mano calls envido
    and the other seat folds instead of answering: the mano's team scores the hand's 1, and the
    envido's 1 as well only where a waiting call counts as declined."""
    text = ("name: casa_mazo\ntitle: vanikar where a seat may fold at any time\nsource: \"a test's own house rules\"\n"
            f"extends: vanikar\nfold:\n  when: \"true\"\n  pending_contest: {pending}\n"
            "  source: \"house rule: one may go to the deck at any time\"\n")
    game = house_game(tmp_path, text, {"players": players})
    st = game.new_match(seed=0)
    st.apply("envido", seat=st.mano)
    st.apply("fold", seat=(st.mano + 1) % players)
    assert st.hand_over and st.score[game.team_of[st.mano]] == scored and sum(st.score) == scored


LEADERS_WAIT = """\
name: casa_los_que_ganan_esperan
title: The board whose count skips a seat while its team leads
source: "a test's own house rules"
extends: board
contests:
  envido:
    count:
      order: leaders_wait
      good: "not can_beat"
      source: "house rule: a seat whose team leads the count waits, and is asked once an opponent takes the lead"
"""


@pytest.mark.parametrize("players, hands, spoken", [
    # 25, 20, 33, 30: seat 2 waits while its partner's 25 leads, so seat 3 must show its 30 first
    (4, (("5e", "10e", "1b"), ("10o", "11o", "4c"), ("7c", "6c", "4b"), ("7b", "3b", "12o")),
     [(0, 25), (1, None), (3, 30), (2, 33)]),
    # 25, 20, 28, 30, 31, 33: seat 2 waits, asked last, when it can no longer change the winner
    (6, (("5e", "10e", "1b"), ("10o", "11o", "4c"), ("6b", "2b", "1o"), ("7b", "3b", "12o"), ("7e", "4e", "3o"),
         ("7c", "6c", "11b")),
     [(0, 25), (1, None), (3, 30), (4, 31), (5, 33), (2, None)]),
])
def test_the_count_order_where_a_leading_teams_seats_wait(tmp_path, players: int, hands, spoken) -> None:
    """seed 004: "Announcing starts at the lead and goes to the right" (the board's `order:
    in_turn`). A house rule that makes a seat whose team leads wait (`order: leaders_wait`) asks the
    seats in another order on the same deal, and the winner is the same: each seat speaks as the
    count comes to it, and says good only when it cannot change the count (`not can_beat`)."""
    for text, order in ((None, [s for s in range(players)]), (LEADERS_WAIT, [s for s, _ in spoken])):
        game = load_game("board", players=players) if text is None else house_game(tmp_path, text,
                                                                                   {"players": players})
        st = game.new_match(seed=0, deals=[Deal(hands)])
        st.apply("envido", seat=0)
        st.apply("accept", seat=1)
        said = []
        while st.count is not None:
            seat = st.current_player()
            said.append(seat)
            st.apply("good" if "good" in st.legal_actions() else "announce", seat=seat)
        assert said == order
        if text is not None:
            assert [(e["seat"], e.get("value")) for e in st.events if e["type"] in ("announce", "good")] == spoken
        assert [e["team"] for e in st.events if e["type"] == "contest_won"] == [0 if players == 4 else 1]
