"""The wording of every kind of refusal (interpreter/engine/explain.py and the state's own checks).

Each case reaches a position, asks why one action is refused, and checks the whole reason: it
names the rule that refuses it, and cites the rule's clause where the spec gives one: the turn, the waiting call, the ladder, the contest's
window, its chain, its `allowed:` formula, the count, the fold rule, the maldón. A reason
that names another rule than the one at work (as "at most None" once did for a falta
refused by `allowed:`) fails here.
"""
from __future__ import annotations

import pytest

from rulespec.errors import IllegalAction
from tests.interpreter.test_house_rules import TRAILING, house_game

from interpreter import Deal, load_game

TRUCO = [["1e", "7o", "4c"], ["3e", "2b", "5o"]]
ENVIDO = [["5e", "2b", "12o"], ["7o", "6o", "1c"]]          # tanto 5 against 33
FLOR = [["7c", "6c", "5c"], ["4o", "10o", "11o"]]
FLOR4 = [["7c", "6c", "5c"], ["4o", "10o", "11o"], ["4e", "6e", "2e"], ["1b", "3b", "7b"]]
MALDON = [["4c", "4o", "12b"], ["3e", "2b", "5o"]]
VANIKAR = [["4c", "5d", "Js"], ["7d", "6d", "Ah"]]
PAULISTA = [["4d", "5d", "6d"], ["4s", "5s", "6s"], ["4h", "5h", "6h"], ["4c", "5c", "6c"]]
URUGUAYO = [["7o", "6o", "5c"], ["1c", "2o", "3b"]]
MALDON2 = [["1e", "7c", "4e"], ["4b", "4c", "10b"]]
UY4 = Deal((("3e", "10e", "11e"), ("12b", "4o", "11o"), ("6b", "2b", "7c"), ("2c", "12o", "5o")), "1c")
UY6 = Deal((("12c", "5c", "11b"), ("7o", "3c", "10e"), ("11e", "2c", "2e"), ("4o", "4e", "1b"), ("12o", "5o", "6o"),
            ("11c", "7c", "6e")), "10b")

T2 = ("teg", {"players": 2})
CASES = [
    # the turn and the waiting call
    ("out of turn", T2, TRUCO, [], "1 play 3e", "it is seat 0's turn, not seat 1's"),
    ("caller waits", T2, TRUCO, ["0 truco"], "0 play 1e", "truco by seat 0 is waiting for seat 1's answer; seat 0 "
     "cannot act now"),
    ("answer first", T2, TRUCO, ["0 truco"], "1 play 3e", "seat 1 must first answer truco (accept, decline, retruco, "
     "envido, real envido or falta envido)"),
    ("cover before answering", T2, TRUCO, ["0 truco"], "1 cover 3e", "seat 1 must first answer truco (accept, "
     "decline, retruco, envido, real envido or falta envido)"),
    ("play by position before answering", T2, TRUCO, ["0 truco"], "1 play @1", "seat 1 must first answer truco "
     "(accept, decline, retruco, envido, real envido or falta envido)"),
    ("nothing to answer", T2, TRUCO, [], "0 accept", "no call is waiting for an answer"),
    # cards
    ("card not held", T2, TRUCO, [], "0 play 3e", "3e is not in seat 0's hand"),
    ("position outside a blind hand", T2, TRUCO, [], "0 play @1", "play by position only in a blind hand; name the "
     "card"),
    ("cover too early", ("paulista", {"players": 4}), PAULISTA, [], "0 cover 4d",
     "4d may not be played face down now: it is the first trick (Carte Couverte - Carte jouée face cachée, qui n'a "
     "aucune valeur.)"),
    ("no covered cards", T2, TRUCO, [], "0 cover 1e", "this spec has no covered cards"),
    # the stake ladder
    ("ladder in order", T2, TRUCO, [], "0 retruco", "the ladder goes in order: the next call is truco, not retruco"),
    ("ladder skips a step", T2, TRUCO, ["0 truco"], "1 vale_cuatro", "the ladder goes in order: the next call is "
     "retruco, not vale_cuatro"),
    ("stake called twice", T2, TRUCO, ["0 truco", "1 accept"], "0 truco", "truco has already been called in this hand"),
    ("own call not raised", T2, TRUCO, ["0 truco", "1 accept"], "0 retruco",
     "only the team that accepted the last call (team 1) may raise; a team cannot raise its own call"),
    # contests: answers, windows, chains, allowed:, interruptions
    ("truco does not answer envido", T2, TRUCO, ["0 envido"], "1 truco", "truco cannot answer envido"),
    ("envido does not answer envido (vanikar)", ("vanikar", {"players": 2}), VANIKAR, ["0 envido"], "1 envido",
     "envido cannot answer envido"),
    ("envido window", ("teg", {"players": 2, "flor": False}), TRUCO, ["0 play 1e", "1 play 5o"], "0 envido",
     "envido may not be called now: the first trick is over and the player has played a card this hand (El envido "
     "se canta en la primera baza y se juega aparte de la mano: son puntos que se cobran igual de quien gane las "
     "cartas.)"),
    # the interruption is allowed (the first truco waits), the window is not: the reason says which
    ("envido answering truco after the first trick", ("teg", {"players": 2, "flor": False}), TRUCO,
     ["0 play 1e", "1 play 5o", "0 truco"], "1 envido",
     "envido cannot be the answer to truco now: the first trick is over and the player has played a card this hand "
     "(El envido se canta en la primera baza y se juega aparte de la mano: son puntos que se cobran igual de quien "
     "gane las cartas.)"),
    ("envido over", T2, TRUCO, ["0 envido", "1 accept", "0 announce", "1 good"], "0 envido",
     "the envido is over for this hand: it has been settled"),
    ("envido wiped by a flor", ("board", {"players": 2, "flor": True}), FLOR, ["0 flor"], "0 envido",
     "the envido is over for this hand: seat 0 declared flor, which wipes the envido"),
    # the raise accepted the truco, which closes the envido: the window says so before the interruption's rule
    ("envido after retruco", T2, TRUCO, ["0 truco", "1 retruco"], "0 envido",
     "envido cannot be the answer to retruco now: a stake call has been accepted (El envido se canta en la primera "
     "baza y se juega aparte de la mano: son puntos que se cobran igual de quien gane las cartas.)"),
    ("envido after retruco (board)", ("board", {"players": 2}), TRUCO, ["0 truco", "1 retruco"], "0 envido",
     "envido cannot be the answer to retruco now: a stake call has been accepted (Envido ... may be called only "
     "during the first trick, and only by a player who has not yet played a card. Once Truco has been accepted — "
     "including a raise, which accepts the call it raises — envido is closed for the hand.)"),
    ("chain cap", ("uruguayo", {"players": 2}), URUGUAYO, ["0 envido", "1 envido"], "0 envido",
     "envido cannot be called again in this chain (it may be called at most 2 times)"),
    ("allowed: formula", ("reglamento", {"players": 2, "falta_after_double": False}), TRUCO,
     ["0 envido", "1 envido"], "0 falta_envido",
     "falta_envido is not allowed after this chain: the number of envido calls in the chain so far is at least 2 "
     "(Falta Envido | Les "
     "points qui manquent à l'équipe en tête pour gagner la partie. Ne se relance pas. Falta au demi-parcours — tant "
     "que les deux camps sont dans les malas, la falta ne vaut que ce qui manque pour atteindre 15.)"),
    # flor
    ("flor without one", ("teg", {"players": 2, "flor": True}), TRUCO, [], "0 flor",
     "seat 0 does not hold a flor: it cannot be called without one"),
    ("flor off", T2, FLOR, [], "0 flor", "flor is not played under these table options"),
    ("a flor holder must declare first", ("teg", {"players": 2, "flor": True}), FLOR, [], "0 play 7c",
     "seat 0 holds a flor and must declare it before anything else (La flor se canta en la primera baza y mata al "
     "envido: si hay flor, el envido no se juega.)"),
    # teg: "Flor: 3 puntos. No se contesta, se cobra. Contraflor: la canta el que también tiene flor."
    ("a flor is not accepted", ("teg", {"players": 2, "flor": True}), FLOR, ["0 flor"], "1 accept",
     "flor is not answered with accept: seat 1, asked, answers it with flor, contraflor or contraflor al resto "
     "(Flor: 3 puntos. No se contesta, se cobra. Contraflor: la canta el que también tiene flor.)"),
    ("a flor is not declined", ("teg", {"players": 2, "flor": True}), FLOR, ["0 flor"], "1 decline",
     "flor is not answered with decline: seat 1, asked, answers it with flor, contraflor or contraflor al resto "
     "(Flor: 3 puntos. No se contesta, se cobra. Contraflor: la canta el que también tiene flor.)"),
    # uruguayo's flor takes "con flor me achico" (a decline) but no quiero
    ("a flor is not accepted (uruguayo)", ("uruguayo", {"players": 4}), UY4, ["0 flor"], "3 accept",
     "flor is not answered with accept: seat 3, asked, answers it with flor, contraflor or contraflor al resto "
     "(pytruco pdt/jugada.py CantarFlor.hacer: 'es el ultimo en cantar flor que faltaba?' (every holder sings, in "
     "turn, before the flors are settled); ResponderQuiero.ok: 'no se le puede decir quiero a la flor'; 'con flor me "
     "achico' pays as flor_decline reads it)"),
    ("only a holder answers a flor", ("uruguayo", {"players": 4}), UY4, ["0 flor"], "1 contraflor",
     "seat 1 does not hold a flor: only a holder answers flor, and seat 3 is asked"),
    # the caller never answers his own call: the seat asked acts first (uruguayo: 'Cantada una flor, cada uno de
    # los otros que tiene flor la canta enseguida, por turno desde el que cantó, también los compañeros')
    ("the declarer does not answer his own flor", ("uruguayo", {"players": 6}), UY6, ["0 flor"], "0 accept",
     "seat 4, who holds a flor too, must first declare it: seat 0's flor asks every other holder in turn; seat 0 "
     "cannot act now " + "(pytruco pdt/jugada.py CantarFlor.hacer: 'es el ultimo en cantar flor que faltaba?' (every holder sings, in "
     "turn, before the flors are settled); ResponderQuiero.ok: 'no se le puede decir quiero a la flor'; 'con flor me "
     "achico' pays as flor_decline reads it)"),
    ("the declarer does not play before the holders it asks", ("uruguayo", {"players": 6}), UY6, ["0 flor"],
     "0 play 12c", "seat 4, who holds a flor too, must first declare it: seat 0's flor asks every other holder in "
     "turn; seat 0 cannot act now " + "(pytruco pdt/jugada.py CantarFlor.hacer: 'es el ultimo en cantar flor que faltaba?' (every holder sings, in "
     "turn, before the flors are settled); ResponderQuiero.ok: 'no se le puede decir quiero a la flor'; 'con flor me "
     "achico' pays as flor_decline reads it)"),
    ("a partner asked does not accept a flor", ("uruguayo", {"players": 6}), UY6, ["0 flor"], "4 accept",
     "flor was declared by seat 0, seat 4's partner: a partner does not accept it, he may only declare his own flor "
     "(pytruco pdt/jugada.py CantarFlor.hacer: 'es el ultimo en cantar flor que faltaba?' (every holder sings, in "
     "turn, before the flors are settled); ResponderQuiero.ok: 'no se le puede decir quiero a la flor'; 'con flor me "
     "achico' pays as flor_decline reads it)"),
    ("flor declared twice", ("teg", {"players": 4, "flor": True}), FLOR4, ["0 flor", "1 flor"], "0 flor",
     "seat 0 has already declared its flor in this hand"),
    ("contraflor does not answer contraflor", ("teg", {"players": 4, "flor": True}), FLOR4,
     ["0 flor", "1 contraflor"], "0 contraflor", "contraflor cannot answer contraflor"),
    # the count
    ("count order", T2, ENVIDO, ["0 envido", "1 accept"], "1 announce",
     "it is seat 0's turn to speak in the envido count, not seat 1's"),
    ("good before anyone announced", T2, ENVIDO, ["0 envido", "1 accept"], "0 good", "nobody has announced yet, "
     "nothing to concede: the first to speak must announce"),
    ("no call during the count", T2, ENVIDO, ["0 envido", "1 accept"], "0 truco",
     "the envido count is under way: seat 0 must announce or say good before anything else"),
    ("no fold during the count (board)", ("board", {"players": 2}), ENVIDO, ["0 envido", "1 accept"], "0 fold",
     "seat 0 may not fold while the envido count is under way (Fold leaves the hand. You may fold on your own turn "
     "or while you are the one being asked. You may not fold while players are announcing an accepted envido.)"),
    ("no count", T2, ENVIDO, [], "0 announce", "no count is under way"),
    # folding, the maldón, the end of a hand
    ("fold refused while an envido waits", ("vanikar", {"players": 2}), VANIKAR, ["0 envido"], "1 fold",
     "seat 1 may not fold now: it is not the player's turn and the player is not answering a stake call (FOLD : à "
     "votre tour, ou en répondant à un Truco, Fold abandonne la donne et l'autre camp marque ce qu'elle vaut — 1, ou "
     "le niveau accepté.)"),
    ("no maldon in the hand", ("reglamento", {"players": 2, "maldon": True}), TRUCO, [], "0 maldon",
     "seat 0's hand is no maldon: the number of cards of rank 4 is not 2 or the number of figures in the hand is not "
     "1 (Maldón — deux 4 et une figure : le joueur peut annuler la donne.)"),
    ("maldon too late", ("reglamento", {"players": 2, "maldon": True}), MALDON, ["0 truco", "1 accept"], "0 maldon",
     "maldon may not be claimed now: the number of calls made this hand is not 0 (Maldón — deux 4 et une figure : le "
     "joueur peut annuler la donne.)"),
    ("maldon while a call waits", ("reglamento", {"players": 2, "maldon": True}), MALDON2, ["0 falta_envido"],
     "1 maldon", "maldon may not be claimed now: the number of calls made this hand is not 0 (Maldón — deux 4 et une "
     "figure : le joueur peut annuler la donne.)"),
    ("maldon off", ("reglamento", {"players": 2}), MALDON, [], "0 maldon",
     "maldon is not played under these table options"),
    ("hand over", T2, TRUCO, ["0 fold"], "0 truco", "the hand is over; deal the next one"),
]


def _state(spec: tuple[str, dict], hands: list[list[str]] | Deal, actions: list[str], score: list[int] | None = None):
    deal = hands if isinstance(hands, Deal) else Deal(tuple(map(tuple, hands)))
    st = load_game(spec[0], spec[1]).new_match(seed=0, deals=[deal], score=score)
    for a in actions:
        seat, act = a.split(" ", 1)
        st.apply(act, seat=int(seat))
    return st


@pytest.mark.parametrize("name,spec,hands,actions,probe,want", CASES, ids=[c[0] for c in CASES])
def test_refusal_names_its_rule(name, spec, hands, actions, probe, want) -> None:
    st = _state(spec, hands, actions)
    seat, act = probe.split(" ", 1)
    reason = st.why_illegal(act, seat=int(seat))
    assert reason is not None, f"{probe} should be refused"
    assert reason == want


def test_good_refused_when_one_can_beat() -> None:
    """board: "Yours are good is legal only when you cannot beat the best value an opponent has
    already announced": seat 1, with 33 against the announced 5, is refused and told the rule."""
    st = _state(("board", {"players": 2}), ENVIDO, ["0 envido", "1 accept", "0 announce"])
    source = st.game.spec.contests[0].count.cited.source
    assert _refusal(st, "good", 1) == (
        "good is not allowed now: the player's value beats the best value an opponent has announced, or no "
        f"opponent has announced one ({source})",
        "good is allowed only when the player's value cannot beat the best value an opponent has announced "
        "[not beats_opponents]")


def test_good_refused_by_the_reglamentos_words() -> None:
    """reglamento: "Celui qui ne peut pas battre ce qui a déjà été annoncé dit « son buenas »": at
    four players seat 2 (33), whose partner announced 25, may not say son buenas (it can beat what
    has been announced, its partner's value too), and seat 3 (30) may not announce; each is told
    the fact and the sentence, the formula kept for the detail."""
    hands = [["5e", "10e", "1b"], ["10o", "11o", "4c"], ["7c", "6c", "4b"], ["7b", "3b", "12o"]]
    st = _state(("reglamento", {"players": 4}), hands, ["0 envido", "1 accept", "0 announce", "1 good"])
    source = st.game.spec.contests[0].count.cited.source
    assert source is not None and "Celui qui ne peut pas battre ce qui a déjà été annoncé" in source
    assert _refusal(st, "good", 2) == (
        f"good is not allowed now: the player's value beats the best value announced so far ({source})",
        "good is allowed only when the player's value cannot beat what has been announced [not beats_announced]")
    st.apply("announce", seat=2)
    assert _refusal(st, "announce", 3) == (
        f"announce is not allowed now: the player's value cannot beat what has been announced ({source})",
        "announce is allowed only when the player's value beats the best value announced so far [beats_announced]")


def test_match_over() -> None:
    st = load_game("teg", players=2, target=15).new_match(
        seed=0, score=[14, 0], deals=[Deal(tuple(map(tuple, TRUCO)))])
    st.apply("play 1e"), st.apply("play 5o"), st.apply("play 7o"), st.apply("play 2b")
    assert st.match_over
    assert st.why_illegal("play 4c") == "the match is over"


def test_a_blind_hand_is_played_by_position() -> None:
    """paulista: "Iron Hand - Lorsque les deux paires sont à 11 points ... les joueurs ne peuvent pas voir
    leurs cartes" (the spec's note: the seats play by position): a card named is refused with the way to
    play, and a position already played is refused."""
    st = _state(("paulista", {"players": 4}), Deal(tuple(map(tuple, PAULISTA)), "7d"), [], score=[11, 11])
    assert st.why_illegal("play 4d", seat=0) == "this hand is played blind: play by position, e.g. 'play @1'"
    for _ in range(4):
        st.apply("play @1", seat=st.current_player())
    assert st.why_illegal("play @1", seat=st.current_player()) == "position @1 holds no unplayed card"
    assert st.why_illegal("play @4", seat=st.current_player()) == "position @4 holds no unplayed card"


def test_a_stake_call_refused_by_its_rule() -> None:
    """paulista, raise_cap match_point (the option's doc: "a pair may not raise once the hand is already
    worth what it lacks to reach 12"): with six accepted at [6, 0], nove is refused by the stake's `when:`,
    said in words."""
    deal = Deal(tuple(map(tuple, [["3d", "Kd", "6d"], ["2s", "Js", "6s"], ["Ad", "Qh", "7h"], ["Kc", "Jc", "7c"]])),
                "4s")
    st = _state(("paulista", {"players": 4, "raise_cap": "match_point"}), deal, ["0 truco", "1 seis", "2 accept"],
                score=[6, 0])
    assert _refusal(st, "nove", 0) == (
        "nove may not be called now: what the hand is worth at that moment is at least the points needed to win the "
        f"match minus the player's team's score ({st.game.spec.stakes.cited.source})",
        "a stake call may be made only when what the hand is worth at that moment is less than the points needed to "
        "win the match minus the player's team's score [options.raise_cap == 'none' or stake < target - score_us]")


def test_a_declaration_does_not_answer_a_raise() -> None:
    """teg: "Contraflor: la canta el que también tiene flor"; the flor answers nothing but a flor
    (its own is the answer to another's): to seat 1's contraflor, seat 0's flor is no answer, and the
    reason says so and nothing else."""
    st = _state(("teg", {"players": 4, "flor": True}), FLOR4, ["0 flor", "1 contraflor"])
    assert st.why_illegal("flor", seat=0) == "flor cannot answer contraflor"


HOUSE = """\
name: casa_de_prueba
title: A house variant whose rules have several parts
source: "a test's own house rules"
extends: teg
fold:
  when: "not counting and trick == 1"
  source: "house rule: one leaves the hand in the first trick only"
contests:
  envido:
    calls:
      real_envido:
        allowed: "in_chain('envido') == 0 and score_us < 20"
        source: "house rule: no real envido after an envido, nor from 20 points on"
"""


def test_a_rule_of_several_parts_names_the_parts_that_fail(tmp_path) -> None:
    """A condition of parts joined by `and` (here a house variant's fold and `allowed:` rules) is
    said in words with the parts that fail now first, for every kind of rule."""
    game = house_game(tmp_path, HOUSE, {"players": 2})
    st = game.new_match(seed=0, deals=[Deal(tuple(map(tuple, TRUCO)))])
    st.apply("play 1e", seat=0)
    st.apply("play 5o", seat=1)
    assert _refusal(st, "fold", 0) == (
        "seat 0 may not fold now: the first trick is over (house rule: one leaves the hand in the first trick only)",
        "a player may fold only when no count is under way and it is the first trick [not counting and trick == 1]")
    st = game.new_match(seed=0, score=[20, 0], deals=[Deal(tuple(map(tuple, TRUCO)))])
    st.apply("envido", seat=0)
    assert _refusal(st, "real_envido", 1) == (
        "real_envido is not allowed after this chain: the number of envido calls in the chain so far is not 0 "
        "(house rule: no real envido after an envido, nor from 20 points on)",
        "real_envido is allowed only when the number of envido calls in the chain so far is 0 and the player's "
        "team's score is less than 20 [in_chain('envido') == 0 and score_us < 20]")


def test_a_fold_rule_of_several_parts_refused_while_a_call_waits_at_four(tmp_path) -> None:
    """teg: "En cualquier momento uno puede tirar las cartas." Under a house rule that only the
    team behind may leave the hand, at four players and 0-5, seat 3 (of team 1, ahead), asked to
    answer seat 2's truco, may not fold: the reason says which part of the rule fails, read for
    seat 3 and its team while the truco waits."""
    game = house_game(tmp_path, TRAILING, {"players": 4})
    hands = (("1e", "7o", "4c"), ("3e", "2b", "5o"), ("4e", "5b", "6o"), ("7e", "6b", "12o"))
    st = game.new_match(seed=0, deals=[Deal(hands)], score=[0, 5])
    for seat, act in ((0, "play 4c"), (1, "play 5o"), (2, "truco")):
        st.apply(act, seat=seat)
    assert st.pending is not None and st.pending.answerer == 3
    assert _refusal(st, "fold", 3) == (
        "seat 3 may not fold now: the player's team's score is at least the other team's score "
        "(house rule: only the team behind may go to the deck)",
        "a player may fold only when no count is under way and the player's team's score is less than the other "
        "team's score [not counting and score_us < score_them]")


FIRST_CARD = """\
name: casa_mazo_de_entrada
title: teg where a player leaves the hand only before his first card, and only in the malas
source: "a test's own house rules"
extends: teg
fold:
  when: "not played and score_us < half"
  source: "house rule: one leaves the hand before playing a card, and only while one's team is in the malas"
"""


def test_a_fold_rule_of_several_parts_is_read_for_the_seat_under_the_rules(tmp_path) -> None:
    """teg: "En cualquier momento uno puede tirar las cartas." Under a house rule that one leaves
    the hand only before playing a card, and only in the malas (`half`, read from the match's
    rules), the mano at 0-0, on his turn in the second trick, may not fold: the reason names the
    part about his own cards."""
    game = house_game(tmp_path, FIRST_CARD, {"players": 2})
    st = game.new_match(seed=0, deals=[Deal(tuple(map(tuple, TRUCO)))])
    assert "fold" in st.legal_actions(seat=0)
    st.apply("play 1e", seat=0)
    st.apply("play 5o", seat=1)
    assert _refusal(st, "fold", 0) == (
        "seat 0 may not fold now: the player has played a card this hand "
        "(house rule: one leaves the hand before playing a card, and only while one's team is in the malas)",
        "a player may fold only when the player has not played a card yet and the player's team's score is less "
        "than half the points needed to win the match [not played and score_us < half]")


BUENAS_NOT_AHEAD = """\
name: casa_buenas_del_que_pierde
title: teg where son buenas is said only by a seat that cannot win the count, of a team not ahead
source: "a test's own house rules"
extends: teg
contests:
  envido:
    count:
      good: "not can_beat and score_us <= score_them"
      source: "house rule: a team ahead in the match must announce its tanto"
"""


def test_a_count_rule_of_several_parts_names_the_parts_that_fail(tmp_path) -> None:
    """teg: "«Son buenas»: cuando el otro canta su tanto, uno no está obligado a decir el suyo."
    Under a house rule that a seat says it only when it cannot win the count and its team is not
    ahead, the pie (5 against the mano's 33 announced), ahead 5-0, must announce: the reason says
    the part that fails, for the seat speaking and its team."""
    game = house_game(tmp_path, BUENAS_NOT_AHEAD, {"players": 2})
    st = game.new_match(seed=0, deals=[Deal((("7o", "6o", "1c"), ("5e", "2b", "12o")))], score=[0, 5])
    for seat, act in ((0, "envido"), (1, "accept"), (0, "announce")):
        st.apply(act, seat=seat)
    assert st.legal_actions(seat=1) == ["fold", "announce"]
    assert _refusal(st, "good", 1) == (
        "good is not allowed now: the player's team's score is more than the other team's score "
        "(house rule: a team ahead in the match must announce its tanto)",
        "good is allowed only when the player's value cannot win the count for its team and the player's team's "
        "score is at most the other team's score [not can_beat and score_us <= score_them]")


def test_an_opener_refused_by_its_rule_is_refused_as_the_contests_first_call(tmp_path) -> None:
    """A call that opens its contest (teg: "Real envido | 3 puntos | 1 punto", `opens: true`) may
    carry an `allowed:` rule of its own. Under the house rule "no real envido after an envido, nor
    from 20 points on", at 20-0 the mano may not open the envido with a real envido: the reason
    says it may not open the contest and which part of the rule fails (there is no chain yet for
    it to follow)."""
    game = house_game(tmp_path, HOUSE, {"players": 2})
    st = game.new_match(seed=0, score=[20, 0], deals=[Deal(tuple(map(tuple, TRUCO)))])
    assert "envido" in st.legal_actions(seat=0) and "real_envido" not in st.legal_actions(seat=0)
    assert _refusal(st, "real_envido", 0) == (
        "real_envido is not allowed to open the envido now: the player's team's score is at least 20 "
        "(house rule: no real envido after an envido, nor from 20 points on)",
        "real_envido is allowed only when the number of envido calls in the chain so far is 0 and the player's "
        "team's score is less than 20 [in_chain('envido') == 0 and score_us < 20]")


BOTH_IN_MALAS = """\
name: casa_contraflor_en_malas
title: Reglamento where a contraflor is called only while both camps are in the malas
source: "a test's own house rules"
extends: reglamento
contests:
  flor:
    calls:
      contraflor:
        allowed: "score_us < half and score_them < half"
        source: "house rule: a contraflor only while both camps are in the malas"
"""


def test_a_raise_of_a_flor_sung_earlier_is_refused_by_its_rule(tmp_path) -> None:
    """Reglamento: "Contraflor | Relance : on met les flors en jeu." At 4 players, after seat 1's
    flor answered seat 0's, seat 2 (with a flor it has not sung) may on its turn raise the other
    camp's flor; a house rule keeps the contraflor for tables where both camps are in the malas,
    and at 15-0 (half of 30) the reason names the part of that rule seat 2's camp fails."""
    game = house_game(tmp_path, BOTH_IN_MALAS, {"players": 4, "flor": True})
    hands = (("7c", "6c", "5c"), ("7o", "6o", "5o"), ("4e", "5e", "6e"), ("1b", "4b", "12c"))
    st = game.new_match(seed=0, deals=[Deal(hands)], score=[15, 0])
    for seat, act in ((0, "flor"), (1, "flor"), (0, "play 5c"), (1, "play 6o")):
        st.apply(act, seat=seat)
    assert st.pending is None and "flor" in st.legal_actions(seat=2)
    assert _refusal(st, "contraflor", 2) == (
        "contraflor is not allowed after this chain: the player's team's score is at least half the points needed "
        "to win the match (house rule: a contraflor only while both camps are in the malas)",
        "contraflor is allowed only when the player's team's score is less than half the points needed to win the "
        "match and the other team's score is less than half the points needed to win the match "
        "[score_us < half and score_them < half]")


DE_VUELTA = """\
name: casa_flor_de_vuelta
title: teg where a flor of the other camp may answer a flor as a flor de vuelta, once a hand
source: "a test's own house rules"
extends: teg
contests:
  flor:
    declaration: optional
    calls:
      de_vuelta:
        declare: true
        after: [flor, de_vuelta]
        max: 1
        worth: 3
        source: "house rule: a flor of the other camp answers a flor as a flor de vuelta, once a hand"
"""


def test_a_declaration_that_follows_is_capped_by_its_chain(tmp_path) -> None:
    """teg: "Contraflor: la canta el que también tiene flor" (a flor of the other camp answers a
    flor). A house rule lets it answer as a declaration of its own that follows a flor and does not
    open the contest (`after:`, no `opens:`), at most once a hand (`max: 1`): after seat 1's flor
    de vuelta answered seat 0's flor, seat 2, of the other camp and with a flor it has not sung,
    may sing it but not answer with a second flor de vuelta, and the reason is the cap."""
    game = house_game(tmp_path, DE_VUELTA, {"players": 4, "flor": True})
    hands = (("7c", "6c", "5c"), ("7o", "6o", "5o"), ("4e", "5e", "6e"), ("1b", "4b", "12c"))
    st = game.new_match(seed=0, deals=[Deal(hands)])
    for seat, act in ((0, "flor"), (1, "de_vuelta"), (0, "play 5c"), (1, "play 6o")):
        st.apply(act, seat=seat)
    assert st.pending is None and "flor" in st.legal_actions(seat=2)
    assert _refused(st, "de_vuelta", 2) == \
        "de_vuelta cannot be called again in this chain (it may be called at most once)"


FLOR_UNDER_20 = """\
name: casa_flor_hasta_veinte
title: teg where a team with 20 points or more no longer sings flor, but may still raise one
source: "a test's own house rules"
extends: teg
contests:
  flor:
    calls:
      flor:
        allowed: "score_us < 20"
        source: "house rule: a team with 20 points or more no longer sings flor"
"""


def test_a_flor_its_rule_refuses_is_not_owed_before_an_answer(tmp_path) -> None:
    """teg: "Contraflor: la canta el que también tiene flor", and its flor is compulsory ("quien la
    tiene la canta antes de cualquier otra cosa"). Under a house rule that a team with 20 points no
    longer sings flor, seat 1 (at 20), asked by seat 0's flor, may only raise it or fold: a card is
    refused because the flor waits for his answer, not because he owes a flor he may not sing, and
    his own flor is refused by the rule."""
    game = house_game(tmp_path, FLOR_UNDER_20, {"players": 2, "flor": True})
    st = game.new_match(seed=0, deals=[Deal(tuple(map(tuple, FLOR)))], score=[0, 20])
    st.apply("flor", seat=0)
    assert st.legal_actions(seat=1) == ["contraflor", "contraflor_al_resto", "fold"]
    assert _refused(st, "play 4o", 1).startswith("seat 1 must first answer flor")
    assert _refusal(st, "flor", 1) == (
        "flor is not allowed after this chain: the player's team's score is at least 20 "
        "(house rule: a team with 20 points or more no longer sings flor)",
        "flor is allowed only when the player's team's score is less than 20 [score_us < 20]")


def test_a_flor_taken_with_a_decline_but_no_accept() -> None:
    """uruguayo's flor takes "con flor me achico" (a decline) but no quiero: at four players the
    asked seat 3 may decline seat 0's flor and may not accept it."""
    st = _state(("uruguayo", {"players": 4}), UY4, ["0 flor"])
    assert st.why_illegal("decline", seat=3) is None
    assert _refused(st, "accept", 3).startswith("flor is not answered with accept: seat 3, asked, answers it with")


FLOR_SILENT = FLOR_UNDER_20.replace("but may still raise one", "nor raises one") + """\
      contraflor: {allowed: "score_us < 20", source: "house rule: nor raises one"}
      contraflor_al_resto: {allowed: "score_us < 20", source: "house rule: nor raises one"}
"""


def test_a_flor_answered_by_nothing_but_a_fold(tmp_path) -> None:
    """Under a house rule that a team with 20 points neither sings nor raises a flor, seat 1 (at
    20), asked by seat 0's flor, has nothing to answer it with but folding, and is told so."""
    game = house_game(tmp_path, FLOR_SILENT, {"players": 2, "flor": True})
    st = game.new_match(seed=0, deals=[Deal(tuple(map(tuple, FLOR)))], score=[0, 20])
    st.apply("flor", seat=0)
    assert st.legal_actions(seat=1) == ["fold"]
    assert _refused(st, "accept", 1).startswith(
        "flor is not answered with accept: seat 1, asked, answers it with nothing but a fold (")
    assert _refused(st, "play 4o", 1) == "seat 1 must first answer flor"


def test_a_card_before_the_answer_is_refused_with_the_answers_the_call_takes() -> None:
    """uruguayo's flor takes "con flor me achico" (a decline) but no quiero: at four players the
    asked seat 3, playing a card before answering seat 0's flor, is told the answers he has,
    without an accept; a teg truco answered at two players lists its raise and the envidos that
    may interrupt it ("el envido está primero")."""
    st = _state(("uruguayo", {"players": 4}), UY4, ["0 flor"])
    assert st.legal_actions(seat=3) == ["decline", "flor", "contraflor", "contraflor_al_resto", "fold"]
    assert _refused(st, "play 2c", 3) == \
        "seat 3 must first answer flor (decline, flor, contraflor or contraflor al resto)"
    st = _state(T2, FLOR, ["0 truco"])
    assert _refused(st, "play 4o", 1) == \
        "seat 1 must first answer truco (accept, decline, retruco, envido, real envido or falta envido)"


NO_ACHIQUE = """\
name: casa_flor_sin_achique
title: Reglamento whose flor is taken or raised, never declined
source: "a test's own house rules"
extends: reglamento
contests:
  flor:
    calls:
      flor: !replace
        declare: true
        asks: true
        opens: true
        worth: 3
        accept: "3 * declared"
"""


def test_a_flor_taken_but_never_declined(tmp_path) -> None:
    """Reglamento: "Con flor quiero | J'accepte : on compare. Con flor me achico | Je me couche."
    A house flor drops "con flor me achico" (an accept, no decline) and cites no clause of its own
    (a call's `source:` is optional): seat 1, asked by seat 0's flor, may accept it but not decline
    it, and the reason lists his answers and ends there."""
    game = house_game(tmp_path, NO_ACHIQUE, {"players": 2, "flor": True})
    st = game.new_match(seed=0, deals=[Deal(tuple(map(tuple, FLOR)))])
    st.apply("flor", seat=0)
    assert "accept" in st.legal_actions(seat=1) and "decline" not in st.legal_actions(seat=1)
    assert _refused(st, "decline", 1) == (
        "flor is not answered with decline: seat 1, asked, answers it with flor, contraflor or contraflor al resto")


def _refused(st, action: str, seat: int) -> str:
    """The reason `action` by `seat` is refused; applying it anyway raises that reason and leaves
    the state as it was."""
    return _refusal(st, action, seat)[0]


def _refusal(st, action: str, seat: int) -> tuple[str, str]:
    """The reason `action` by `seat` is refused and its detail, as `apply` raises them (and as
    `why_illegal` gives the reason), leaving the state as it was."""
    before = st.to_json()
    reason = st.why_illegal(action, seat=seat)
    assert reason is not None, f"{action} by seat {seat} should be refused"
    with pytest.raises(IllegalAction) as err:
        st.apply(action, seat=seat)
    assert err.value.reason == reason
    assert st.to_json() == before
    return reason, err.value.detail


ELEVEN = """\
name: casa_once
title: Paulista whose hand of eleven refuses the truco instead of losing the match for it
source: "a test's own house rules"
extends: paulista
special_hands:
  eleven:
    forbid_stakes: refuse
    source: "house rule: at the hand of eleven a truco is refused, not a lost match"
"""


def test_a_stake_call_a_special_hand_forbids(tmp_path) -> None:
    """paulista: "À la main du 11, les joueurs ne peuvent pas demander le Truco. S'ils le font, ils
    perdent automatiquement le jeu." The bundled spec lets the truco be called and lose the match
    (`forbid_stakes: lose_match`); a house variant that refuses it (`forbid_stakes: refuse`) names the
    special hand that forbids it."""
    deal = Deal(tuple(map(tuple, PAULISTA)), "7d")
    assert _state(("paulista", {"players": 4}), deal, [], score=[11, 3]).why_illegal("truco", seat=0) is None
    st = house_game(tmp_path, ELEVEN, {"players": 4}).new_match(seed=0, deals=[deal], score=[11, 3])
    assert st.special == ["eleven"]
    assert _refused(st, "truco", 0) == "truco is forbidden in this hand (eleven)"
    st = house_game(tmp_path, ELEVEN, {"players": 4}).new_match(seed=0, deals=[deal], score=[11, 11])
    assert _refused(st, "truco", 0) == "truco is forbidden in this hand (eleven, iron)"


# teg's flor, made optional (a holder may keep it quiet), no longer wiping the envido, and raised
# al resto only over a contraflor: the chain checks the compulsory flor hides become reachable
HOUSE_FLOR = """\
name: casa_flor
title: A house flor one may keep quiet, that lets the envido stand, raised al resto over a contraflor only
source: "a test's own house rules"
extends: teg
contests:
  flor:
    cancels: []
    declaration: optional
    calls:
      contraflor_al_resto:
        after: [contraflor]
        source: "house rule: the contraflor al resto raises a contraflor only"
"""
NO_FLOR_FLOR = [["1e", "7o", "4c"], ["4o", "10o", "11o"]]
# seats 0 and 2 hold a flor, their opponents none: seat 0's flor asks nobody
FLOR_PARTNERS = [["7c", "6c", "5c"], ["4e", "6e", "2b"], ["4o", "10o", "11o"], ["1b", "3e", "7b"]]


def _house(tmp_path, text: str, players: int, hands, actions: list[str]):
    deal = hands if isinstance(hands, Deal) else Deal(tuple(map(tuple, hands)))
    options = {"players": players} | ({"flor": True} if "extends: teg" in text else {})
    st = house_game(tmp_path, text, options).new_match(seed=0, deals=[deal])
    for a in actions:
        seat, act = a.split(" ", 1)
        st.apply(act, seat=int(seat))
    return st


def test_a_declaration_waits_for_a_call_it_does_not_wipe(tmp_path) -> None:
    """teg: "La flor se canta en la primera baza y mata al envido": a flor may be declared while an
    envido waits only because it wipes the envido (`cancels: [envido]`). In a house variant where it
    does not, the waiting envido is answered first, and the reason says the envido waits."""
    st = _house(tmp_path, HOUSE_FLOR, 2, NO_FLOR_FLOR, ["0 envido"])
    assert _refused(st, "flor", 1) == "flor cannot be called while envido waits for an answer"
    assert st.why_illegal("accept", seat=1) is None


def test_a_declaration_answered_by_two_calls_names_both(tmp_path) -> None:
    """teg: "Flor: 3 puntos. No se contesta, se cobra. Contraflor: la canta el que también tiene
    flor." Where a house rule raises al resto only over a contraflor, a flor is answered by a holder
    with his own flor or a contraflor: the reason for a refused accept names those two."""
    st = _house(tmp_path, HOUSE_FLOR, 2, FLOR, ["0 flor"])
    assert st.legal_actions(seat=1) == ["flor", "contraflor", "fold"]
    assert _refused(st, "accept", 1) == (
        "flor is not answered with accept: seat 1, asked, answers it with flor or contraflor (Flor: 3 puntos. "
        "No se contesta, se cobra. Contraflor: la canta el que también tiene flor.)")


def test_a_raise_does_not_open_its_contest(tmp_path) -> None:
    """teg: "Contraflor: la canta el que también tiene flor": a contraflor answers a flor declared,
    it does not start the flor (`contraflor` has `after: [flor]`, so it does not open). With the flor
    optional, a holder who tries it first is told so (the bundled teg asks him to declare first)."""
    st = _house(tmp_path, HOUSE_FLOR, 2, FLOR, [])
    assert _refused(st, "contraflor", 0) == "contraflor cannot open the flor"
    assert _state(("teg", {"players": 2, "flor": True}), FLOR, []).why_illegal("contraflor", seat=0) == (
        "seat 0 holds a flor and must declare it before anything else (" + _flor_source() + ")")


def _flor_source() -> str:
    game = load_game("teg", {"players": 2, "flor": True})
    return next(c for c in game.contests if c.name == "flor").ir.cited.source


def test_a_raise_follows_only_the_calls_it_names(tmp_path) -> None:
    """A raise follows the calls its `after:` names (teg: "Contraflor al resto" answers a flor or a
    contraflor). The house rule "the contraflor al resto raises a contraflor only" refuses it over a
    plain flor, and says which call it cannot follow."""
    st = _house(tmp_path, HOUSE_FLOR, 4, FLOR_PARTNERS, ["0 flor", "0 play 7c", "1 play 4e"])
    assert st.pending is None
    assert _refused(st, "contraflor_al_resto", 2) == "contraflor_al_resto cannot follow flor"


def test_a_raise_answers_the_other_team(tmp_path) -> None:
    """teg: "Contraflor: la canta el que también tiene flor" (a rival's answer to a flor); uruguayo's
    source: "CantarContraFlor.ok / CantarContraFlorAlResto.ok: only a holder of the other team raises
    it". Seat 2 may not raise his partner's flor, and the reason says the raise answers the other team."""
    st = _house(tmp_path, HOUSE_FLOR, 4, FLOR_PARTNERS, ["0 flor", "0 play 7c", "1 play 4e"])
    assert _refused(st, "contraflor", 2) == "contraflor answers the other team's flor, not a partner's"
    assert "flor" in st.legal_actions(2)


HOUSE_UY = """\
name: casa_uy
title: Uruguayo with a flor one may keep quiet
source: "a test's own house rules"
extends: uruguayo
contests:
  flor:
    declaration: optional
"""


def test_a_partner_asked_does_not_raise(tmp_path) -> None:
    """uruguayo: "Cantada una flor, cada uno de los otros que tiene flor la canta enseguida, por turno
    desde el que cantó, también los compañeros" (`asks: all`), and "only a holder of the other team
    raises it". Seat 4, asked by his partner's flor, may answer it with his own flor, not with a
    contraflor; with the flor optional the reason is the raise's, not the compulsory declaration's."""
    st = _house(tmp_path, HOUSE_UY, 6, UY6, ["0 flor"])
    assert st.pending is not None and st.pending.answerer == 4
    assert _refused(st, "contraflor", 4) == "contraflor answers the other team's flor, not a partner's"
    assert st.legal_actions(4) == ["flor", "fold"]


# What the contest checks once ended with: each was reached only when the call is legal, or
# in a position the engine never makes; the checks before them give the reason.

def test_a_call_of_a_contest_the_table_offers_is_refused_only_by_a_compulsory_declaration() -> None:
    """teg: "'si hay flor, el envido no se juega' hace obligatoria la flor: quien la tiene la canta
    antes de cualquier otra cosa". A call whose contest's window, chain and `allowed:` all let it
    through is legal, unless a compulsory declaration comes first: then that is the reason (and
    never a vague "cannot open the envido now" / "cannot be called now")."""
    st = _state(("teg", {"players": 2, "flor": True}), FLOR, [])
    assert _refused(st, "envido", 0).startswith("seat 0 holds a flor and must declare it before anything else")
    st = _state(("teg", {"players": 4, "flor": True}), FLOR_PARTNERS, ["0 flor", "0 play 7c", "1 play 4e"])
    assert _refused(st, "contraflor", 2).startswith("seat 2 holds a flor and must declare it")
    assert st.why_illegal("flor", seat=2) is None          # a declaration that opens: legal, never refused


def test_an_envido_called_again_is_refused_by_the_stage_its_chain_is_at() -> None:
    """teg: "Envido | 2 puntos | 1 punto; Envido, envido | 4 puntos" (an envido is raised while it
    waits) and "El envido se canta en la primera baza": a chain of calls that is not over has its last
    call waiting or its count under way, so the reason is that call or that count (never "the envido
    has already been called"), then that it is over."""
    st = _state(T2, ENVIDO, ["0 envido", "1 falta_envido"])
    assert _refused(st, "real_envido", 0) == "real_envido cannot answer falta_envido"
    st.apply("accept", seat=0)
    assert _refused(st, "envido", 0).startswith("the envido count is under way")
    st.apply("announce", seat=0)
    st.apply("announce", seat=1)
    assert _refused(st, "envido", 0) == "the envido is over for this hand: it has been settled"


def test_the_call_a_contest_puts_off_is_a_stake_call() -> None:
    """teg: "El envido ... como respuesta al primer truco va primero ('el envido está primero')": the
    only call a contest puts off is the truco it interrupts (by a call or by a declaration that
    asks); a contest call never waits behind another, so no reason names one."""
    st = _state(T2, TRUCO, ["0 truco", "1 envido"])
    assert st.suspended is not None and st.suspended.contest is None and st.suspended.call == "truco"
    assert _refused(st, "real_envido", 1).startswith("envido by seat 1 is waiting for seat 0's answer")
    st = _state(("teg", {"players": 4, "flor": True}), [["1e", "7o", "4c"], ["4o", "10o", "11o"], ["7c", "6c", "5c"],
                                                         ["1b", "3e", "7b"]], ["0 truco", "1 flor"])
    assert st.pending is not None and st.pending.call == "flor" and st.pending.answerer == 2
    assert st.suspended is not None and st.suspended.contest is None and st.suspended.call == "truco"


def test_a_contest_wiped_in_an_earlier_hand_is_closed_now_because_it_was_settled() -> None:
    """board: "A declared flower wipes an envido that has not been scored yet": the flor of the
    first hand wipes that hand's envido only. In the second hand the envido, called, accepted and
    counted, is closed because it was settled; the first hand's flor is no reason any more."""
    game = load_game("board", {"players": 2, "flor": True})
    st = game.new_match(seed=0, deals=[Deal(tuple(map(tuple, FLOR))), Deal((("7o", "6o", "1c"), ("5e", "2b", "12o")))])
    st.apply("flor", seat=0)
    assert _refused(st, "envido", 0) == "the envido is over for this hand: seat 0 declared flor, which wipes the envido"
    st.apply("fold", seat=0)
    st.next_hand()
    for act, seat in (("envido", 1), ("accept", 0), ("announce", 1), ("announce", 0)):
        st.apply(act, seat=seat)
    assert _refused(st, "envido", 1) == "the envido is over for this hand: it has been settled"


MALDON_BEHIND = """\
name: casa_maldon
title: Reglamento where only a team short of half the match may claim the maldón
source: "a test's own house rules"
extends: reglamento
annul:
  maldon:
    when: "trick == 1 and not played and score_us < half"
"""


def test_an_annulment_refused_names_the_part_of_its_rule_that_fails_and_cites_it(tmp_path) -> None:
    """reglamento: "Maldón — deux 4 et une figure : le joueur peut annuler la donne." A hand without
    it is told the rule that makes a maldón, with that clause. Under a house rule that only a team
    short of half the match may claim it, seat 3 (team 1, at 20 of 30) holds one and is told the part
    that fails, read for its own team under the match's rules; with the scores the other way round it may claim it."""
    st = _state(("reglamento", {"players": 2, "maldon": True}), TRUCO, [])
    assert _refusal(st, "maldon", 0) == (
        "seat 0's hand is no maldon: the number of cards of rank 4 is not 2 or the number of figures in the hand is "
        "not 1 (Maldón — deux 4 et une figure : le joueur peut annuler la donne.)",
        "a hand is a maldon when the number of cards of rank 4 is 2 and the number of figures in the hand is 1 "
        "[rank_count(4) == 2 and figures == 1]")
    game = house_game(tmp_path, MALDON_BEHIND, {"players": 4, "maldon": True})
    hands = Deal((("1e", "7o", "5c"), ("3e", "2b", "5o"), ("6e", "2c", "5b"), ("4c", "4o", "12b")))
    ahead, behind = (game.new_match(seed=0, deals=[hands], score=score) for score in ([0, 20], [20, 0]))
    for st in (ahead, behind):
        for card, seat in (("5c", 0), ("5o", 1), ("5b", 2)):
            st.apply(f"play {card}", seat=seat)
    assert "maldon" in behind.legal_actions(seat=3)
    assert _refusal(ahead, "maldon", 3) == (
        "maldon may not be claimed now: the player's team's score is at least half the points needed to win the "
        "match (Maldón — deux 4 et une figure : le joueur peut annuler la donne.)",
        "maldon may be claimed only when it is the first trick, the player has not played a card yet and the "
        "player's team's score is less than half the points needed to win the match [trick == 1 and not played "
        "and score_us < half]")


STAKES_SHORT = """\
name: casa_truco_del_que_pierde
title: teg where only a team short of half the match, and never its foot, calls the truco
source: "a test's own house rules"
extends: teg
stakes:
  when: "score_us < half and not is_pie"
  source: "house rule: the truco is called by a team in the malas, and never by its foot"
"""


def test_a_stake_rule_of_several_parts_names_the_parts_that_fail(tmp_path) -> None:
    """teg's `stakes: when:` lets a team call whenever it is its turn; under a house rule of two
    parts, the mano of a two-seat table (its team's last to play, so its foot) at 20 of 30 is told
    both parts fail, read for its seat and team under the match's rules."""
    game = house_game(tmp_path, STAKES_SHORT, {"players": 2})
    st = game.new_match(seed=0, deals=[Deal(tuple(map(tuple, TRUCO)))], score=[20, 0])
    assert _refusal(st, "truco", 0) == (
        "truco may not be called now: the player's team's score is at least half the points needed to win the match "
        "and the player is the pie (last of its team to play) (house rule: the truco is called by a team in the "
        "malas, and never by its foot)",
        "a stake call may be made only when the player's team's score is less than half the points needed to win the "
        "match and the player is not the pie [score_us < half and not is_pie]")


COVER_SHORT = """\
name: casa_tapada
title: Paulista where a card is covered from the second trick, by a pair short of half the match, not by its foot
source: "a test's own house rules"
extends: paulista
tricks:
  cover:
    when: "trick >= options.cover_from and score_us < half and not is_pie"
"""


def test_a_cover_rule_of_several_parts_names_the_parts_that_fail(tmp_path) -> None:
    """paulista: "Carte Couverte - Carte jouée face cachée, qui n'a aucune valeur", from the second
    trick (`cover_from: 2`). Under a house rule of three parts, the mano in the first trick is
    told the one part that fails, the rule being read for its seat and team."""
    game = house_game(tmp_path, COVER_SHORT, {"players": 4})
    st = game.new_match(seed=0, deals=[Deal(tuple(map(tuple, PAULISTA)), "7d")])
    assert _refusal(st, "cover 4d", 0) == (
        "4d may not be played face down now: it is the first trick (Carte Couverte - Carte jouée face cachée, qui "
        "n'a aucune valeur.)",
        "a card may be played face down only when the first trick is over, the player's team's score is less than "
        "half the points needed to win the match and the player is not the pie "
        "[trick >= options.cover_from and score_us < half and not is_pie]")


ANNOUNCE_TO_WIN = """\
name: casa_buenas_obligadas
title: teg where a seat that cannot win the count once a value is announced says son buenas
source: "a test's own house rules"
extends: teg
contests:
  envido:
    count:
      announce: "not opponent_announced or can_beat"
      source: "house rule: a seat that cannot win the count says son buenas"
"""


def test_an_announcement_refused_by_its_count_rule_names_that_rule(tmp_path) -> None:
    """teg: "«Son buenas»: cuando el otro canta su tanto, uno no está obligado a decir el suyo."
    Under a house rule that makes it compulsory, the pie (5 against the mano's 33 announced) may
    only say good, and an announcement is refused by the announce rule (not the good rule)."""
    game = house_game(tmp_path, ANNOUNCE_TO_WIN, {"players": 2})
    st = game.new_match(seed=0, deals=[Deal((("7o", "6o", "1c"), ("5e", "2b", "12o")))])
    for seat, act in ((0, "envido"), (1, "accept"), (0, "announce")):
        st.apply(act, seat=seat)
    assert st.legal_actions(seat=1) == ["fold", "good"]
    assert _refusal(st, "announce", 1) == (
        "announce is not allowed now: an opponent has announced a value in the count and the player's value cannot "
        "win the count for its team (house rule: a seat that cannot win the count says son buenas)",
        "announce is allowed only when no opponent has announced yet or the player's value would win the count for "
        "its team [not opponent_announced or can_beat]")


ENVIDO_FIRST = """\
name: casa_envido_primero
title: The board where an envido called before any flower wipes the flowers of the hand
source: "a test's own house rules"
extends: board
contests:
  envido:
    cancels: [flor]
    source: "house rule: an envido called before any flower is declared wipes the flowers of the hand"
"""


def test_a_contest_wiped_by_a_call_names_the_call(tmp_path) -> None:
    """The board: "A declared flower wipes an envido that has not been scored yet". Under the
    house rule the other way round, an envido called (not declared) wipes the flor, and seat 1,
    holding one, is told who called what."""
    game = house_game(tmp_path, ENVIDO_FIRST, {"players": 2, "flor": True})
    st = game.new_match(seed=0, deals=[Deal(tuple(map(tuple, FLOR)))])
    st.apply("envido", seat=0)
    assert _refused(st, "flor", 1) == "the flor is over for this hand: seat 0 called envido, which wipes the flor"


FLOR_SHORT = """\
name: casa_flor_del_que_pierde
title: The board where a flower is declared in the first trick by a team short of half the match
source: "a test's own house rules"
extends: board
contests:
  flor:
    calls:
      flor:
        allowed: "trick == 1 and score_us < half"
"""


def test_another_holders_declaration_refused_by_its_rule_names_the_parts_that_fail(tmp_path) -> None:
    """The board's flower is declared by each holder on its own turn and asks nothing. Under a
    house rule that a team past half the match may not declare one, seat 0 (at 0) declares and
    seat 1 (at 20 of 30), holding one too, is told the part of the rule that fails for its team."""
    game = house_game(tmp_path, FLOR_SHORT, {"players": 2, "flor": True})
    st = game.new_match(seed=0, deals=[Deal(tuple(map(tuple, FLOR)))], score=[0, 20])
    st.apply("flor", seat=0)
    st.apply("play 5c", seat=0)
    assert _refusal(st, "flor", 1) == (
        "flor is not allowed now: the player's team's score is at least half the points needed to win the match "
        f"({game.contest_of_call['flor'].calls['flor'].cited.source})",
        "flor is allowed only when it is the first trick and the player's team's score is less than half the points "
        "needed to win the match [trick == 1 and score_us < half]")
