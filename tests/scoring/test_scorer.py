"""The engine's payments against an independent scorer written from the seeds' tables.

Random legal play (Hypothesis chooses every option the spec offers, the seed of the deals and of
the choices); at every hand's end the points the engine gave each team in that hand must equal
what tests/scoring/scorer.py computes from the hand's events alone. Every Argentine spec (teg,
reglamento, board), vanikar and paulista, at each table size the spec allows.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec.load import open_spec
from tests.scoring.scorer import KNOWN_OPTIONS, Hand, score_hand, table_for

from interpreter.engine.game import Deal, load_game

SPECS = sorted(KNOWN_OPTIONS)
TABLES = [(spec, n) for spec in SPECS for n in open_spec(spec).option("players").values]
HANDS_PER_MATCH = 24
FLOR_CHANCE = 0.4          # each seat is dealt three cards of one suit this often: flors meet flors
FOLD_WEIGHT = 0.15         # random play folds less often than it calls, so hands go on to be scored


def _options(spec: str):
    """Every option of the spec but the table size, drawn from its allowed values."""
    decls = {d.name: d for d in open_spec(spec).options if d.name != "players"}
    return st.fixed_dictionaries({name: st.sampled_from(d.values) for name, d in decls.items()})


def _deals(game, rng: random.Random) -> list[Deal]:
    """Deals where many seats hold three cards of one suit (a flor, a high envido)."""
    deals = []
    for _ in range(HANDS_PER_MATCH):
        deck = list(game.cards.ids)
        rng.shuffle(deck)
        hands = []
        for _seat in range(game.num_players):
            suit = deck[0][-1]
            same = [c for c in deck if c[-1] == suit]
            hand = same[:3] if rng.random() < FLOR_CHANCE and len(same) >= 3 else deck[:3]
            for c in hand:
                deck.remove(c)
            hands.append(tuple(hand))
        deals.append(Deal(tuple(hands)))
    return deals


def _choose(rng: random.Random, legal: list[str]) -> str:
    weights = [FOLD_WEIGHT if a == "fold" else 1.0 for a in legal]
    return rng.choices(legal, weights)[0]


# What each kind of event in the log carries (interpreter/engine/state.py, contests.py): the log is the
# record that transcripts, replays and the server show, so its outcomes are checked too.
EVENT_KEYS = {
    "deal": {"hand", "dealer", "mano", "turned", "special"}, "hand": {"seat", "cards"},
    "action": {"seat", "action"}, "trick": {"number", "winner", "seat"}, "accepted": {"call", "team"},
    "declined": {"call", "seat"}, "score": {"team", "points", "reason", "score"},
    "hand_over": {"winner", "score"}, "match_over": {"winner", "score"}, "announce": {"seat", "contest", "value"},
    "good": {"seat"}, "contest_won": {"contest", "seat", "team", "value"}, "contest_tied": {"contest"},
    "contest_conceded": {"contest", "team"},
    "wiped": {"contest", "by"}, "annulled": {"seat", "by"}, "forbidden": {"seat", "call"},
    "revealed": {"contest", "seat", "team", "value", "cards", "whole_hand"},
}


def _check_log(state, events: list[dict], before: list[int]) -> None:
    """The hand's log says what the engine did: every event has its fields, the score events add
    up to the points paid, a contest won goes to the winner's team, a call accepted is one that
    was made, and the match's end names the team that reached the target."""
    made = {e["action"] for e in events if e["type"] == "action"}
    paid = [0, 0]
    for e in events:
        assert e["type"] in EVENT_KEYS and EVENT_KEYS[e["type"]] <= set(e), e
        if e["type"] == "score":
            paid[e["team"]] += e["points"]
            assert e["score"] == [b + p for b, p in zip(before, paid, strict=False)], e
        if e["type"] == "contest_won":
            assert e["team"] == e["seat"] % 2, e
        if e["type"] == "contest_conceded":         # to the team that stays when the other folds
            folder = next(x["seat"] for x in events if x["type"] == "action" and x["action"] == "fold")
            assert e["team"] != folder % 2 and "value" not in e, e
        if e["type"] in ("accepted", "declined"):
            assert e["call"] in made, e
    if not any(e["type"] == "forbidden" for e in events):      # paulista's lost match scores no event
        assert paid == [a - b for a, b in zip(state.score, before, strict=False)], (paid, state.score, before)
    if state.match_over:
        ends = [e for e in events if e["type"] == "match_over"]
        assert len(ends) == 1 and ends[0]["winner"] == state.winner and ends[0]["score"] == state.score
        assert state.score[state.winner] >= state.game.target


def _play(spec: str, options: dict, seed: int, score: tuple[int, int]) -> None:
    game = load_game(spec, options)
    rng = random.Random(seed)
    state = game.new_match(seed=seed, deals=_deals(game, rng), score=list(score))
    table = table_for(spec, options)
    for _ in range(HANDS_PER_MATCH):
        start = next(i for i in range(len(state.events) - 1, -1, -1) if state.events[i]["type"] == "deal")
        before = list(state.score)
        while not state.hand_over:
            state.apply(_choose(rng, state.legal_actions()))
        events = state.events[start:]
        engine = [a - b for a, b in zip(state.score, before, strict=False)]
        mine = score_hand(Hand(table, events[0]["mano"], before), events)
        assert engine == mine, (
            f"{spec} {options}, seed {seed}, hand {events[0]['hand']} from {before}: engine paid {engine}, "
            f"the seed's tables {mine}; deal: {[(e['seat'], e['cards']) for e in events if e['type'] == 'hand']}"
            f"{', turned ' + events[0]['turned'] if events[0]['turned'] else ''}; actions: "
            f"{[(e['seat'], e['action']) for e in events if e['type'] == 'action' and not e.get('hidden')]}")
        _check_log(state, events, before)
        if state.match_over:
            return
        state.next_hand()


def test_the_scorer_knows_every_option() -> None:
    """A spec that grows an option the scorer has no table for fails here, not silently."""
    for spec in SPECS:
        assert {d.name for d in open_spec(spec).options} == KNOWN_OPTIONS[spec], spec


@pytest.mark.parametrize("spec,players", TABLES, ids=[f"{s}-{n}" for s, n in TABLES])
def test_every_hand_pays_what_the_seed_says(spec: str, players: int) -> None:
    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(options=_options(spec), seed=st.integers(0, 2**32 - 1), lead=st.floats(0, 1), behind=st.floats(0, 1),
           swap=st.booleans())
    def check(options: dict, seed: int, lead: float, behind: float, swap: bool) -> None:
        # a starting score anywhere below the target: the falta, the malas, the hand of 11
        target = table_for(spec, {**options, "players": players}).target
        first = int(lead * (target - 1))
        score = (first, int(behind * first))
        _play(spec, {**options, "players": players}, seed, score[::-1] if swap else score)

    check()


def test_an_annulled_deal_pays_nothing_and_says_so() -> None:
    """000: "Maldón — deux 4 et une figure : le joueur peut annuler la donne." The hand's log says
    the deal was annulled, nobody scores, and the same dealer deals again (the spec's note)."""
    game = load_game("reglamento", {"players": 2, "maldon": True})
    state = game.new_match(seed=0, deals=[Deal((("4e", "4o", "12b"), ("1e", "7o", "3c")))])
    assert "maldon" in state.legal_actions()
    dealer = state.dealer
    state.apply("maldon")
    events = state.events
    assert state.hand_over and state.score == [0, 0]
    assert events[-1] == {"type": "annulled", "seat": 0, "by": "maldon"}
    table = table_for("reglamento", {o.name: o.default for o in open_spec("reglamento").options} | {"maldon": True})
    assert score_hand(Hand(table, 0, [0, 0]), events) == [0, 0]
    state.next_hand()
    assert state.dealer == dealer
