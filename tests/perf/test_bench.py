"""`truco bench` counts what it says it counts; its speed is reported, never asserted here."""
from __future__ import annotations

import json
import random

import pytest

from rulespec.errors import TrucoError
from rulespec.load import bundled_names

from interpreter.cli import main
from interpreter.engine.game import load_game
from interpreter.measure.bench import (
    Interpreter,
    Pytruco,
    _nearest,
    _pick,
    bench,
    bytes_per_state,
    load_times,
    measure,
    peer_available,
    reference_module,
    timed,
)


def test_random_play_counts_every_deal_and_action() -> None:
    """Hands are deals (the first of each match too) and actions are applied actions: the same
    matches replayed by hand give the counts the bench reports."""
    game = load_game("teg", players=4)
    played = Interpreter(game).play(None, 3, seed=11, fold=False)
    rng = random.Random(11)
    deals = actions = 0
    for m in range(3):
        st = game.new_match(seed=11 + m)
        while not st.match_over:
            if st.hand_over:
                st.next_hand()
                continue
            st.apply(_pick(rng, st.legal_actions(), fold=False))
        deals += sum(1 for e in st.events if e["type"] == "deal")
        actions += sum(1 for e in st.events if e["type"] == "action")
    assert (played.matches, played.hands, played.actions) == (3, deals, actions)


def test_without_fold_random_play_leaves_only_when_nothing_else_is_legal() -> None:
    rng = random.Random(0)
    assert all(_pick(rng, ["play 1e", "fold", "accept"], fold=False) != "fold" for _ in range(200))
    assert _pick(rng, ["fold"], fold=False) == "fold"
    assert {_pick(rng, ["play 1e", "fold"], fold=True) for _ in range(200)} == {"play 1e", "fold"}


def test_copies_and_texts_round_trip_for_sampled_states() -> None:
    game = load_game("paulista")
    engine = Interpreter(game)
    states = engine.sample(10, seed=3)
    assert len(states) == 10 and len({json.dumps(s.to_json()) for s in states}) == 10
    for s in states:
        assert engine.clone(s) == s
        assert engine.from_text(engine.to_text(s)) == s


def test_timed_cycles_through_the_items_and_memory_is_positive() -> None:
    seen: list[int] = []
    calls, elapsed = timed(seen.append, [1, 2, 3], seconds=0.0, first=2)
    assert calls == 1 and seen == [3] and elapsed >= 0
    calls, _ = timed(seen.append, [1, 2, 3], seconds=0.001)
    assert seen[1:] == [1, 2, 3] * (calls // 3) + [1, 2, 3][:calls % 3]
    states = Interpreter(load_game("teg")).sample(4, seed=1)
    assert bytes_per_state(lambda s: s.clone(), states) > 0


def test_load_times_are_measured_on_a_fresh_load() -> None:
    load_s, compile_s = load_times("vanikar", {}, repeat=1)
    assert load_s > 0 and compile_s > 0


def test_nearest_accepted_value() -> None:
    accepts = {20, 30, 40}

    def make(t: int) -> int:
        if t not in accepts:
            raise Exception("refused")
        return t
    assert _nearest(make, 30) == 30
    assert _nearest(make, 12) == 20
    assert _nearest(make, 36) == 40
    assert _nearest(make, 25) == 20          # equally near: the lower one
    with pytest.raises(TrucoError):
        _nearest(make, 1000, reach=10)


def test_report_without_the_peer_is_json_and_says_why() -> None:
    report = bench("teg", {"players": 2}, seconds=0.01, with_peer=False, matches=1)
    data = json.loads(json.dumps(report.as_dict()))
    assert data["peer"] is None and "--no-peer" in data["peer_missing"]
    ours = data["interpreter"]
    assert ours["play"]["matches"] == 1 and ours["hands_per_s"] > 0 and ours["actions_per_s"] > 0
    assert ours["load_s"] > 0 and ours["compile_s"] > 0 and ours["precompute_s"] >= 0


def test_the_report_measures_the_hand_written_engine_in_the_same_run() -> None:
    """The ratio to the hand-written engine is of random play measured in the same run, and
    says whether the reference plays the rules benched (2-player teg) or is a yardstick."""
    same = bench("teg", {"players": 2}, seconds=0.01, with_peer=False, matches=2)
    data = json.loads(json.dumps(same.as_dict()))
    reference = data["reference"]
    assert reference["same_rules"] is True and reference["matches"] == 2 and reference["hands"] > 2
    assert data["reference_ratios"]["hands_per_s"] == pytest.approx(
        data["interpreter"]["hands_per_s"] / reference["hands_per_s"])
    assert data["engine"] in ("compiled (mypyc)", "pure Python") or data["engine"].startswith("pure Python (")
    other = bench("teg", {"players": 4}, seconds=0.01, with_peer=False, matches=1)
    assert other.reference is not None and other.same_rules is False
    alone = bench("teg", {}, seconds=0.01, with_peer=False, matches=1, with_reference=False)
    assert alone.reference is None and "--no-reference" in alone.reference_missing


def test_the_report_says_where_the_hand_written_engine_is_missing(tmp_path) -> None:
    """A wheel ships no tools/: the reference is looked up in a source checkout only."""
    assert reference_module(tmp_path / "handwritten.py") is None


def test_cli_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "board", "--players", "4", "--seconds", "0.01", "--no-peer", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["spec"] == "board" and data["options"]["players"] == 4


@pytest.mark.skipif(not peer_available(), reason="pytruco is the optional `bench` extra")
def test_peer_counts_deals_and_ratios_are_interpreter_over_peer() -> None:
    peer = Pytruco(players=2, target=30)
    played = peer.play(None, 1, seed=5, fold=False)
    assert played.matches == 1 and played.hands >= 2 and played.actions > played.hands
    again = peer.play(None, 1, seed=5, fold=False)        # seeded: the same match again
    assert (again.hands, again.actions) == (played.hands, played.actions)
    state = peer.sample(1, seed=2)[0]
    assert peer.from_text(peer.to_text(state)).to_json() == state.to_json()
    (ours, theirs), _ = measure([Interpreter(load_game("teg")), peer], 0.01, 0, False, 2, matches=1)
    assert theirs.engine == "pytruco" and theirs.play.matches == 1
    report = bench("teg", {}, seconds=0.01, matches=1)
    assert report.peer is not None
    assert report.ratios["hands_per_s"] == pytest.approx(report.ours.play.hands_per_s / report.peer.play.hands_per_s)


@pytest.mark.skipif(not peer_available(), reason="pytruco is the optional `bench` extra")
def test_peer_seats_only_what_it_plays() -> None:
    report = bench("teg", {"players": 6}, seconds=0.01, matches=1)
    assert report.peer is not None and report.peer.players == 6
    with pytest.raises(TrucoError):
        Pytruco(players=3, target=30)


@pytest.mark.parametrize("spec", bundled_names())
def test_every_bundled_spec_benches(spec: str) -> None:
    engine = Interpreter(load_game(spec))
    played = engine.play(None, 1, seed=0, fold=False)
    assert played.matches == 1 and played.actions > 0
    for state in engine.sample(3, seed=0):
        assert engine.from_text(engine.to_text(state)) == state
