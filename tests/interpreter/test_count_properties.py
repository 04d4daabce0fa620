"""Property tests of the full-table rules: counts, flors, tie rules and blind tricks.

Each property plays random deals (hypothesis, derandomized) at 2, 4 and 6 players and checks
the engine against an expectation computed here, independently of the engine's count code:
the envido and flor values are recomputed from the seeds' own sentences, and the winning
seat from the seats' places from the mano under the spec's tie rule.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from interpreter.engine.game import Deal, Game, load_game
from interpreter.engine.randomplay import check_observations
from interpreter.engine.records import CLOSED
from interpreter.engine.state import State
from interpreter.terminal.transcript import describe

ROOT = Path(__file__).resolve().parents[2]

PROPS = settings(max_examples=300, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

FIGURES = (10, 11, 12)


# -- the seeds' values, recomputed here ----------------------------------------------------------

def _card(card: str) -> tuple[int, str]:
    return int(card[:-1]), card[-1]


def _pip(rank: int) -> int:
    """seed 000: 'chaque carte vaut son chiffre, sauf les figures (10, 11, 12) qui valent zéro'."""
    return 0 if rank in FIGURES else rank


def envido_of(hand: list[str]) -> int:
    """seed 000: 'Deux cartes du même palo : leur somme + 20. Sinon, la valeur de la plus haute
    carte seule.' (three of a palo without flor: the best two of them)."""
    by_suit: dict[str, list[int]] = {}
    for card in hand:
        rank, suit = _card(card)
        by_suit.setdefault(suit, []).append(_pip(rank))
    pairs = [20 + sum(sorted(p, reverse=True)[:2]) for p in by_suit.values() if len(p) >= 2]
    return max(pairs) if pairs else max(_pip(_card(c)[0]) for c in hand)


def flor_of(hand: list[str]) -> int | None:
    """seed 000: 'Trois cartes du même palo. Sa valeur : la somme des trois cartes + 20.'"""
    suits = {_card(c)[1] for c in hand}
    return 20 + sum(_pip(_card(c)[0]) for c in hand) if len(suits) == 1 else None


def expected_winner(values: dict[int, int], mano: int, n: int, tie: str) -> int | None:
    """The seat whose value wins, ranking equal values by place from the mano (seed 000: 'En cas
    d'égalité parfaite, la priorité va au joueur le plus proche de la mano'), or as `tie` says."""
    if not values:
        return None
    best = max(values.values())
    top = [s for s in ((mano + k) % n for k in range(n)) if values.get(s) == best]
    if len({s % 2 for s in top}) == 1 or tie == "nearer_lead":
        return top[0]
    if tie == "farther_lead":
        return top[-1]
    if tie == "mano_team":
        return next(s for s in top if s % 2 == mano % 2)
    assert tie == "nobody"
    return None


def hands_of(st: State) -> list[list[str]]:
    ids = st.game.cards.ids
    return [[ids[c] for c in st.dealt[s]] for s in range(st.game.num_players)]


def hand_events(st: State) -> list[dict[str, Any]]:
    start = max(i for i, e in enumerate(st.events) if e["type"] == "deal")
    return st.events[start:]


def contest_index(game: Game, name: str) -> int:
    return next(c.index for c in game.contests if c.name == name)


# -- the variants with other tie rules, written as a house variant would be --------------------

def tie_variant(tmp: Path, base: str, tie: str) -> str:
    """`base` with envido ties to `tie`, counted in the `leaders_wait` order (a seat whose team leads
    waits and is asked once an opponent leads), where a seat may always announce and says good only
    when its value cannot change the count (`not can_beat`: a tie to nobody changes it), so that a
    tie is reached whatever the base's own rule for good."""
    path = tmp / f"{base}-tie-{tie}.yaml"
    path.write_text(f"name: {base}-tie-{tie}\ntitle: {base} with envido ties to {tie}\nextends: {base}\n"
                    f"contests:\n  envido:\n    count: {{tie: {tie}, order: leaders_wait, good: 'not can_beat', "
                    "announce: true}\n",
                    encoding="utf-8")
    return str(path)


def _variant_specs() -> dict[str, str]:
    """Tie variants for the property tests, written once to a temporary folder (a hypothesis
    test cannot take the function-scoped tmp_path)."""
    import tempfile
    tmp = Path(tempfile.mkdtemp(prefix="truco-tie-variants-"))
    return {tie: tie_variant(tmp, "reglamento", tie) for tie in ("nobody", "farther_lead", "mano_team")}


TIE_SPECS = _variant_specs()

# (spec, options): every table at 2, 4 and 6 where a spoken count applies, and uruguayo's automatic one
ENVIDO_CASES: list[tuple[str, dict[str, object]]] = [
    *[("teg", {"players": p, "flor": f}) for p in (2, 4, 6) for f in (False, True)],
    *[("reglamento", {"players": p, "flor": f}) for p in (2, 4, 6) for f in (False, True)],
    *[("reglamento", {"players": p, "flor": True, "contraflor_6": True}) for p in (2, 4, 6)],
    *[("board", {"players": p, "flor": True}) for p in (2, 4, 6)],
    *[("uruguayo", {"players": p}) for p in (2, 4, 6)],
    *[(TIE_SPECS[t], {"players": p}) for p in (2, 4, 6) for t in TIE_SPECS],
]

OPENERS = {"envido": 2, "real_envido": 3}
ENVIDO_PHASE = {*OPENERS, "accept", "announce", "good", "flor"}


def _spoken_rule(game: Game, contest: str) -> tuple[str, str, str]:
    cont = next(c for c in game.spec.contests if c.name == contest)
    return cont.count.procedure, cont.count.good.text, cont.count.tie


def _argentine(game: Game) -> bool:
    return not game.turns_card


@PROPS
@given(case=st.sampled_from([c for c in ENVIDO_CASES if c[0] != TIE_SPECS["nobody"]]),
       seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 5), data=st.data())
def test_accepted_envido_goes_to_the_best_value(case: tuple[str, dict[str, object]], seed: int, dealer: int,
                                                data: st.DataObject) -> None:
    """seed 000: 'Si le pari est accepté, chacun annonce ses points en partant de la mano. Celui qui
    ne peut pas battre ce qui a déjà été annoncé dit « son buenas » ... En cas d'égalité parfaite, la
    priorité va au joueur le plus proche de la mano.' seed 004: 'Yours are good is legal only when you
    cannot beat the best value an opponent has already announced. A tie goes to the player nearer the
    lead.' seed 002: 'El que canta más. En caso de empate gana el mano ... uno no está obligado a decir
    el suyo' (there the winner is the best announced value). seed 002: 'si hay flor, el envido no se
    juega'.

    The envido is called and accepted before any card is played, every announce-or-good choice is
    random, and the winner is recomputed from the dealt hands."""
    check_envido_count(case, seed, dealer, data)


@PROPS
@given(case=st.sampled_from([c for c in ENVIDO_CASES if c[0] == TIE_SPECS["nobody"]]),
       seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 5), data=st.data())
def test_accepted_envido_tied_to_nobody(case: tuple[str, dict[str, object]], seed: int, dealer: int,
                                        data: st.DataObject) -> None:
    """The same property under a house variant whose `count: {tie: nobody}`: equal best values on
    both sides score nobody, whatever the seats concede."""
    check_envido_count(case, seed, dealer, data)


def check_envido_count(case: tuple[str, dict[str, object]], seed: int, dealer: int, data: st.DataObject) -> None:
    """Call and accept an envido at the start of a random deal, count it with random choices, and
    check the winner and the points against the values recomputed from the dealt hands."""
    name, options = case
    game = load_game(name, options)
    n = game.num_players
    state = game.new_match(seed=seed, dealer=dealer % n)
    hands, mano = hands_of(state), state.mano
    env = contest_index(game, "envido")
    procedure, good, tie = _spoken_rule(game, "envido")
    chain: list[str] = []
    log: list[str] = []
    while state.contests[env].status != CLOSED:
        legal = [a for a in state.legal_actions() if a in ENVIDO_PHASE]
        assert legal, f"no way on with the envido: {state.legal_actions()} after {log}"
        action = data.draw(st.sampled_from(legal))
        if action in OPENERS:
            chain.append(action)
        log.append(f"{state.current_player()} {action}")
        state.apply(action)
    events = hand_events(state)
    where = f"{name} {options} dealer {dealer % n} hands {hands} actions {log}"
    if _argentine(game):
        flors = [s for s in range(n) if flor_of(hands[s]) is not None]
        assert flors == [s for s in range(n) if game.values["flor"](state.dealt[s], None) is not None]
    else:                                             # uruguayo: piezas make a flor too
        flors = [s for s in range(n) if game.values["flor"](state.dealt[s], state.turned) is not None]
    envido_points = [e for e in events if e["type"] == "score" and e["reason"] == "envido"]
    if any(e["type"] == "wiped" and e["contest"] == "envido" for e in events):
        event(f"{name} envido wiped by a flor")
        assert flors and game.options.get("flor", name.startswith("uruguayo")), where
        assert not envido_points, where
        return
    if name == "teg" and game.options["flor"]:
        assert not flors, f"a flor was held and the envido was played: {where}"
    assert chain, where
    values = {s: (envido_of(hands[s]) if _argentine(game) else game.values["envido"](state.dealt[s], state.turned))
              for s in range(n)}
    if _argentine(game):
        assert all(game.values["envido"](state.dealt[s], None) == values[s] for s in range(n)), where
    announced = {e["seat"]: e["value"] for e in events if e["type"] == "announce" and e["contest"] == "envido"}
    assert all(values[s] == v for s, v in announced.items()), f"a value announced is not the hand's: {where}"
    eligible = values if procedure == "automatic" or good != "true" else announced
    winner = expected_winner(eligible, mano, n, tie)
    event(f"{procedure} {good} {tie} {'tied' if winner is None else 'won'}")
    won = [e for e in events if e["type"] == "contest_won" and e["contest"] == "envido"]
    if winner is None:
        assert not won and not envido_points, where
        assert any(e["type"] == "contest_tied" and e["contest"] == "envido" for e in events), where
        return
    team = game.team_of[winner]
    assert [e["team"] for e in won] == [team], f"expected team {team} (seat {winner}) to win: {where}"
    assert [(e["team"], e["points"]) for e in envido_points] == [(team, sum(OPENERS[c] for c in chain))], where
    if procedure == "announce":
        spoken = [e["seat"] for e in events if e["type"] in ("announce", "good")]
        assert all(s in spoken for s in range(n) if game.team_of[s] != team), \
            f"a seat of the losing team was never asked: {where}"
        if next(c for c in game.spec.contests if c.name == "envido").count.order == "in_turn":
            # 000: 'chacun annonce ses points en partant de la mano'; 004: 'Announcing starts at the
            # lead and goes to the right': each seat once, in the order of play from the mano
            assert spoken == [(mano + k) % n for k in range(n)], f"the count's order is not the table's: {where}"


# -- flors --------------------------------------------------------------------------------------------

def flor_deal(rng: random.Random, ids: tuple[str, ...], n: int, holders: list[int]) -> Deal:
    """A deal where exactly the seats in `holders` hold a flor (three cards of one palo)."""
    while True:
        deck = list(ids)
        rng.shuffle(deck)
        hands: list[tuple[str, ...]] = []
        for seat in range(n):
            if seat in holders:
                suit = rng.choice(sorted({c[-1] for c in deck if sum(d[-1] == c[-1] for d in deck) >= 3}))
                hand = tuple(c for c in deck if c[-1] == suit)[:3]
            else:
                hand = tuple(deck[:3])
            for c in hand:
                deck.remove(c)
            hands.append(hand)
        if all((flor_of(list(h)) is not None) == (s in holders) for s, h in enumerate(hands)):
            return Deal(tuple(hands))


FLOR_CASES: list[tuple[str, dict[str, object]]] = [
    *[("reglamento", {"players": p, "flor": True}) for p in (2, 4, 6)],
    *[("reglamento", {"players": p, "flor": True, "contraflor_6": True}) for p in (2, 4, 6)],
    *[("teg", {"players": p, "flor": True}) for p in (2, 4, 6)],
    *[("board", {"players": p, "flor": True}) for p in (2, 4, 6)],
]
FLOR_CALLS = {"flor", "contraflor", "contraflor_al_resto"}
FLOR_PHASE = {*FLOR_CALLS, "accept", "decline", "announce", "good"}


def _flor_accept_pays(game: Game, call: str, k: int, leader: int) -> int:
    """seed 000: 'Si un seul camp a une flor, il marque 3 points par flor annoncée'; 'Contraflor al
    Resto | ... les points qui manquent à l'équipe en tête pour finir la partie, plus 3 par flor';
    'Contraflor à 6 points — au lieu de 3 par flor' (read as 6 per flor); seed 002: 'Contraflor ... 6
    si se la quieren'; 'Contraflor al resto ... si la quieren, se juega lo que le falta al que va ganando'."""
    if game.name == "teg":
        return {"contraflor": 6, "contraflor_al_resto": game.target - leader}[call]
    if call == "contraflor_al_resto":
        return game.target - leader + 3 * k
    if call == "contraflor" and game.options.get("contraflor_6"):
        return 6 * k
    return 3 * k


@PROPS
@given(case=st.sampled_from(FLOR_CASES), seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 5),
       data=st.data())
def test_every_flor_at_the_table_is_paid_once(case: tuple[str, dict[str, object]], seed: int, dealer: int,
                                              data: st.DataObject) -> None:
    """seed 000: 'Con flor quiero | J'accepte : on compare.'; 'Le camp de la meilleure flor marque 3
    points par flor annoncée à la table.'; 'Contraflor | Relance : on met les flors en jeu. Acceptée,
    la meilleure flor emporte le total.'; 'Con flor me achico | Je me couche. L'adversaire marque ses
    flors + 1 point.'; 'La flor s'annonce avant de jouer sa première carte'. seed 002: 'Flor: 3 puntos.
    No se contesta, se cobra.' seed 004: 'Flower is scored as soon as every seat has either declared or
    lost the chance'.

    The first trick is played with random flor calls, answers, counts and cards (any partner of the
    asked team may answer), the hand is then played out; the flor points of the hand must be what
    the flors shown at the table pay (annoncée: sung, or shown by answering the call), scored once;
    a holder who showed nothing is neither compared nor paid for."""
    check_flor_payoffs(case, seed, dealer, data)


@PROPS
@given(case=st.sampled_from([c for c in FLOR_CASES if c[1].get("contraflor_6")]), seed=st.integers(0, 2**32 - 1),
       dealer=st.integers(0, 5), data=st.data())
def test_contraflor_6_pays_6_per_flor(case: tuple[str, dict[str, object]], seed: int, dealer: int,
                                      data: st.DataObject) -> None:
    """seed 000: 'Contraflor à 6 points — au lieu de 3 par flor.' (read as 6 per flor at the table):
    the same property, at the tables that play it."""
    check_flor_payoffs(case, seed, dealer, data)


def check_flor_payoffs(case: tuple[str, dict[str, object]], seed: int, dealer: int, data: st.DataObject) -> None:
    """Deal flors to random seats, play the first trick with random flor calls, answers, counts and
    cards, then the rest of the hand; compare the hand's flor points with what the flors pay."""
    name, options = case
    game = load_game(name, options)
    n = game.num_players
    holders = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1), label="holders"))
    eager = data.draw(st.booleans(), label="eager")
    rng = random.Random(seed)
    state = game.new_match(seed=seed, dealer=dealer % n, deals=[flor_deal(rng, game.cards.ids, n, holders)])
    hands, mano = hands_of(state), state.mano
    fl = contest_index(game, "flor")
    _, good, tie = _spoken_rule(game, "flor")
    declared: list[int] = []
    compared: list[int] = []
    played = [0] * n
    expected: dict[int, int] | None = None          # team -> flor points, once known
    log: list[str] = []
    while not state.hand_over:
        seat = state.current_player()
        assert seat is not None
        if state.contests[fl].status != CLOSED and state.trick_no == 0:
            seats = [seat]
            p = state.pending
            if p is not None and game.answer_any:
                seats += [s for s in range(n) if s != seat and game.team_of[s] == p.answer_team]
            options_now = [(s, a) for s in seats for a in state.legal_actions(s)
                           if a in FLOR_PHASE or a.startswith("play ")]
            calls = [(s, a) for s, a in options_now if not a.startswith("play ")]
            if eager and calls:                       # sing and answer before playing a card
                options_now = calls
        else:
            options_now = [(seat, a) for a in state.legal_actions(seat) if a.startswith("play ")]
        assert options_now, f"no way on: {state.legal_actions()} after {log}"
        seat, action = data.draw(st.sampled_from(options_now))
        p = state.pending
        if p is not None and p.contest == fl and action in ("accept", "decline"):
            if action == "accept":
                # the flors shown are compared and counted: those sung, the holder the call asked and
                # the one who accepted (only a holder answers); a holder who showed nothing is not
                compared = sorted({*declared, p.answerer, seat})
                assert set(compared) <= set(holders)
                assert expected is None
                points = _flor_accept_pays(game, p.call, len(compared), max(state.score))
                expected = {-1: points}                   # to the team of the best flor, once counted
                event(f"{name} {p.call} accepted, {len(compared)} flors compared of {len(holders)}")
            else:
                caller_team = game.team_of[p.caller]
                sung = sum(1 for s in declared if game.team_of[s] == caller_team)
                decline = {"contraflor": 4, "contraflor_al_resto": 6} if name == "teg" else {}
                expected = {caller_team: decline.get(p.call, 3 * sung + 1)}
            event(f"{name} {action} {p.call}")
        if action in FLOR_CALLS and seat not in declared:
            declared.append(seat)
        if action.startswith("play "):
            played[seat] += 1
        log.append(f"{seat} {action}")
        state.apply(action, seat=seat)
        if state.match_over:
            break
    if expected is None:
        event(f"{name} unraised {len(declared)}")
    if expected is None:                              # unraised: 'no se contesta, se cobra'
        if not declared:
            expected = {}
        elif next(c for c in game.contests if c.name == "flor").unraised_mode == "each":
            expected = {}
            for s in declared:
                expected[game.team_of[s]] = expected.get(game.team_of[s], 0) + 3
        else:
            winner = expected_winner({s: flor_of(hands[s]) for s in declared}, mano, n, tie)  # type: ignore[misc]
            expected = {} if winner is None else {game.team_of[winner]: 3 * len(declared)}
    events = hand_events(state)
    if -1 in expected:
        # the count of an accepted flor: the best flor compared wins, or where a seat may say
        # "son buenas" holding a better one (teg: good: true), the best flor announced
        values = {s: flor_of(hands[s]) for s in compared}
        if good == "true":
            values = {e["seat"]: e["value"] for e in events if e["type"] == "announce" and e["contest"] == "flor"}
        winner = expected_winner(values, mano, n, tie)                   # type: ignore[arg-type]
        expected = {} if winner is None else {game.team_of[winner]: expected[-1]}
    flor_points = [(e["team"], e["points"]) for e in events if e["type"] == "score" and e["reason"] == "flor"]
    where = f"{name} {options} dealer {dealer % n} hands {hands} actions {log}"
    got: dict[int, int] = {}
    for team, pts in flor_points:
        assert team not in got, f"team {team} scored the flor twice: {flor_points}: {where}"
        got[team] = pts
    expected = {t: v for t, v in expected.items() if v}
    if state.match_over:                              # the match may end before a second team scores
        assert all(expected.get(t) == v for t, v in got.items()), f"flor points {got}, expected {expected}: {where}"
    else:
        assert got == expected, f"flor points {got}, expected {expected}: {where}"


# -- tie rules --------------------------------------------------------------------------------------

# seats 0 and 1 tie at 33 (7 and 6 of one palo); at four players seats 1 (team 1) and 2 (team 0)
# tie at 33 and the others hold 20 and 21 (two figures of one palo with a 1).
TIE_DEALS = {
    2: Deal((("7c", "6c", "12e"), ("7e", "6e", "12b"))),
    4: Deal((("1c", "12c", "4e"), ("7e", "6e", "12b"), ("7o", "6o", "11e"), ("10b", "11b", "5c"))),
}


def _tied_count(game: Game, players: int, choices: int) -> list[dict[str, Any]]:
    """Envido called by the mano and accepted on the tie deal; the count's k-th speaker says good
    (where legal) when bit k of `choices` is set."""
    state = game.new_match(seed=0, deals=[TIE_DEALS[players]])
    assert state.mano == 0                             # the dealer is the last seat
    state.apply("envido")
    state.apply("accept")
    k = 0
    while state.count is not None:
        action = "good" if "good" in state.legal_actions() and choices >> k & 1 else "announce"
        k += 1
        state.apply(action)
    return hand_events(state)


def _check_tie(events: list[dict[str, Any]], players: int, winner: str | None, choices: int) -> None:
    tied = [0, 1] if players == 2 else [1, 2]
    where = f"{players} players, choices {choices:b}: {[e for e in events if e['type'] != 'hand']}"
    envido_points = [(e["team"], e["points"]) for e in events if e["type"] == "score" and e["reason"] == "envido"]
    won = [(e["seat"], e["team"], e["value"]) for e in events if e["type"] == "contest_won"]
    if winner is None:
        assert any(e["type"] == "contest_tied" and e["contest"] == "envido" for e in events), where
        assert won == [] and envido_points == [], where
    else:
        seat = tied[0] if winner == "nearer" else tied[1]
        assert won == [(seat, seat % 2, 33)], where
        assert envido_points == [(seat % 2, 2)], where


TIE_RULES = [("nobody", None), ("farther_lead", "farther"), ("nearer_lead", "nearer")]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("tie, winner", TIE_RULES)
def test_tied_envido_follows_the_tie_rule(tmp_path: Path, players: int, tie: str, winner: str | None) -> None:
    """seed 000: 'En cas d'égalité parfaite, la priorité va au joueur le plus proche de la mano.'
    (nearer_lead, the bundled rule). A house variant written with `count: {tie: nobody}` scores the
    tied envido to nobody (`contest_tied`), one with `farther_lead` gives it to the tied seat farther
    from the mano. Every seat announces."""
    game = load_game(tie_variant(tmp_path, "reglamento", tie), players=players)
    _check_tie(_tied_count(game, players, 0), players, winner, 0)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("tie, winner", TIE_RULES)
def test_tied_envido_whatever_is_conceded(tmp_path: Path, players: int, tie: str, winner: str | None) -> None:
    """seed 000: 'Celui qui ne peut pas battre ce qui a déjà été annoncé dit « son buenas »': saying
    good is for a seat that cannot change the result, so every choice of announce or good leaves the
    tied envido to the tie rule."""
    game = load_game(tie_variant(tmp_path, "reglamento", tie), players=players)
    for choices in range(2 ** players):
        _check_tie(_tied_count(game, players, choices), players, winner, choices)


# -- blind tricks -----------------------------------------------------------------------------------

def blind_variant(tmp: Path) -> str:
    path = tmp / "paulista-blind-first.yaml"
    path.write_text(
        "name: paulista-blind-first\ntitle: Paulista, the first trick played blind\nextends: paulista\n"
        "special_hands:\n  blind_first:\n    if: \"max_score < target\"\n    blind: \"trick == 1\"\n", encoding="utf-8")
    return str(path)


def test_first_trick_blind(tmp_path: Path) -> None:
    """seed 003: 'Dans Iron Hand, le jeu se déroule de la même manière, mais les joueurs ne peuvent pas
    voir leurs cartes.' A special hand whose `blind: "trick == 1"`: the first trick is played by
    position (play @1) and no seat sees its cards; from the second trick each seat sees what it has
    left; the transcript shows each blind card once it lands."""
    game = load_game(blind_variant(tmp_path))
    for seed in range(20):
        state = game.new_match(seed=seed)
        n = game.num_players
        assert "blind_first" in state.special and state.blind
        dealt = hands_of(state)
        assert all(state.observation(s)["hand"] is None for s in range(n))
        assert not any(e["type"] == "hand" for e in hand_events(state))
        lines = []
        rng = random.Random(seed)
        while state.trick_no == 0 and not state.hand_over:
            seat = state.current_player()
            assert seat is not None
            cards = [a for a in state.legal_actions() if a.startswith("play ")]
            assert cards and all(a.startswith("play @") for a in cards), cards
            assert all(state.observation(s)["hand"] is None for s in range(n))
            check_observations(state)                 # no seat sees its own unplayed cards
            pos = rng.randrange(len(cards))
            action = cards[pos]
            state.apply(action)
            event = state.events[-1] if state.events[-1]["type"] == "action" else \
                next(e for e in reversed(state.events) if e["type"] == "action")
            card = dealt[seat][int(action[len("play @"):]) - 1]
            assert event["card"] == card
            lines.append(describe(event, game))
            assert card in lines[-1]
        if state.hand_over:
            continue
        assert not state.blind
        for s in range(n):
            seen = state.observation(s)["hand"]
            played = [e["card"] for e in hand_events(state) if e["type"] == "action" and e["seat"] == s]
            assert seen == [c for c in dealt[s] if c not in played] and len(seen) == 2
            shown = [e for e in hand_events(state) if e["type"] == "hand" and e["seat"] == s]
            assert [e["cards"] for e in shown] == [seen] and shown[0]["only"] == s
        legal = state.legal_actions()
        assert not any(a.startswith("play @") for a in legal)
        seat = state.current_player()
        assert any(a == f"play {c}" for a in legal for c in state.observation(seat)["hand"])
