"""`truco simulate`: tallies that add up, points attributed by source, and the same report for
the same seed whatever the number of workers."""
from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

import pytest

from rulespec.errors import TrucoError

from interpreter.bots import RandomBot, play_out
from interpreter.cli import main
from interpreter.engine.game import Deal, load_game
from interpreter.measure.simulate import HAND, Run, Tally, bot_factories, chunks, report, simulate, write_outputs


def _without_workers(r: dict) -> dict:
    return {k: v for k, v in r.items() if k not in ("workers", "backend")}


def test_same_seed_same_report_whatever_the_workers() -> None:
    one = simulate("teg", {"players": 4}, 24, seed=7, workers=1)
    two = simulate("teg", {"players": 4}, 24, seed=7, workers=2)
    assert _without_workers(report(one)) == _without_workers(report(two))
    assert one.rows == two.rows
    other = simulate("teg", {"players": 4}, 24, seed=8, workers=1)
    assert report(other)["hands"] != report(one)["hands"] or other.rows != one.rows


def test_chunks_cover_every_match_once() -> None:
    for matches, workers in ((1, 4), (7, 2), (1000, 2), (5000, 16)):
        parts = chunks(matches, workers)
        assert [i for part in parts for i in part] == list(range(matches))


def test_tallies_add_up_to_the_matches_played() -> None:
    """Every point on the final scores is attributed to one source and one hand; every hand
    has one mano; matches won and hands won add up."""
    run = simulate("reglamento", {"players": 2, "flor": True, "target": 15}, 30, seed=1)
    t = run.tally
    assert t.matches == 30 == sum(t.matches_won) == len(run.rows)
    assert t.hands == sum(r["hands"] for r in run.rows) == sum(t.seat_mano) == t.match_hands.total
    assert sum(t.hands_won) == t.mano_hands == sum(t.seat_mano_decided) <= t.hands
    scored = sum(total for per_team in t.points.values() for total, _ in per_team)
    finals = sum(v for r in run.rows for k, v in r.items() if k.rsplit("_", 1)[0] in t.points)
    assert scored == finals
    assert all(sum(r.get(f"{s}_{r['winner']}", 0) for s in t.points) >= 15 for r in run.rows)


def test_points_are_attributed_by_the_reason_of_each_score() -> None:
    """README: the accepted envido of this deal scores 2 for seat 0's team; the hand itself
    (won by the cards) is the `hand` source."""
    game = load_game("teg", players=2, target=15)
    st = game.new_match(seed=1, deals=[Deal((("7c", "6c", "1e"), ("4o", "5b", "12e")))])
    for action in ("envido", "accept", "announce", "good", "play 1e", "play 4o", "play 7c", "play 5b"):
        st.apply(action)
    tally = Tally(game.teams, game.num_players)
    row = tally.add_match(game, st.events)
    assert tally.points["envido"] == [[2, 4], [0, 0]]
    assert tally.points[HAND] == [[1, 1], [0, 0]]
    assert tally.hands_won == [1, 0] and tally.seat_mano_won == [1, 0]
    assert tally.contest_wins["envido"] == [1, 0]
    assert tally.mano_margin.total == 3
    assert row["envido_0"] == 2 and row["hand_0"] == 1


def test_each_call_is_counted_with_what_it_brought_the_caller() -> None:
    """The README deal: seat 0 (the mano) calls envido, seat 1 accepts, seat 0 wins it (2
    points); then seat 1 calls truco and seat 0 declines it, so the hand's own worth (1) goes to
    seat 1. Calls made, accepted, declined and won, net points to the caller, and the mano's and
    the dealer's margins; then a whole match, whose first mano's team wins it or not."""
    game = load_game("teg", players=2, target=15)
    st = game.new_match(seed=1, deals=[Deal((("7c", "6c", "1e"), ("4o", "5b", "12e")))])
    for action in ("envido", "accept", "announce", "good", "play 1e", "truco", "decline"):
        st.apply(action)
    first_hand = st.events[:next(i for i, e in enumerate(st.events) if e["type"] == "hand_over") + 1]
    tally = Tally(game.teams, game.num_players)
    row = tally.add_match(game, first_hand)
    envido, truco = tally.calls["envido"], tally.calls["truco"]
    assert (envido.made, envido.accepted, envido.declined, envido.won, envido.net.total) == (1, 1, 0, 1, 2)
    assert (truco.made, truco.accepted, truco.declined, truco.won, truco.net.total) == (1, 0, 1, 1, 1)
    assert row["call.envido.made"] == 1 and row["call.envido.net"] == 2 and row["call.truco.declined"] == 1
    assert row["mano_margin"] == 1 and row["dealer_margin"] == -1
    assert set(report(Run("teg", {}, "x", 0, 1, "local", tally, [row]))["calls"]) == {"envido", "truco"}

    play_out(st, [RandomBot(1), RandomBot(2)])
    row = Tally(game.teams, game.num_players).add_match(game, st.events)
    assert row["first_mano_won"] == int(row["winner"] == 0) and row["first_dealer_won"] == int(row["winner"] == 1)


def test_bots_by_name_one_per_seat_cycling() -> None:
    assert len(bot_factories("random")) == 1
    assert len(bot_factories("heuristic,random")) == 2
    with pytest.raises(TrucoError, match="no bot named 'clever'; bots: .*random"):
        bot_factories("clever")
    run = simulate("vanikar", {"players": 4, "target": 10}, 4, bots="heuristic,random", seed=2)
    assert run.tally.matches == 4


def test_outputs_are_json_and_csv(tmp_path: Path) -> None:
    run = simulate("board", {"players": 6, "target": 15}, 5, seed=3)
    written = write_outputs(run, tmp_path)
    data = json.loads((tmp_path / "report.json").read_text())
    assert data["matches"] == 5 and len(data["teams"]) == 2 and len(data["seats"]) == 6
    rows = list(csv.DictReader((tmp_path / "matches.csv").open()))
    assert [int(r["match"]) for r in rows] == list(range(5))
    if importlib.util.find_spec("matplotlib") is not None:
        assert {p.name for p in written} >= {"match_length.png", "points_by_source.svg", "mano_advantage.png"}


def test_every_bundled_spec_simulates() -> None:
    from rulespec.load import bundled_names
    for name in bundled_names():
        run = simulate(name, {}, 2, seed=0)
        assert run.tally.matches == 2 and run.tally.hands >= 2


def test_cli_writes_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "teg", "--matches", "6", "--workers", "2", "--seed", "4", "--json",
                 "--out", str(tmp_path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["matches"] == 6 and (tmp_path / "report.json").is_file()
    assert main(["simulate", "teg", "--matches", "2", "--bots", "clever"]) == 1


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is the optional `ray` extra")
def test_ray_backend_gives_the_local_report() -> None:
    """On a local Ray instance bound to loopback, the same seed gives the same report."""
    import ray
    ray.init(num_cpus=2, _node_ip_address="127.0.0.1", include_dashboard=False, log_to_driver=False)
    try:
        remote = simulate("teg", {}, 12, seed=5, backend="ray")
    finally:
        ray.shutdown()
    local = simulate("teg", {}, 12, seed=5, workers=1)
    assert _without_workers(report(remote)) == _without_workers(report(local))
    assert remote.rows == local.rows
