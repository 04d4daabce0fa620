"""`truco simulate`: many matches between bots, on every local core or on a Ray cluster.

Each match is played from a seed derived from the run's seed and the match's number, and
reduced to integer tallies (hands won, points by source, match length); tallies add up in
any order, so the report is the same for the same seed whatever the number of workers.
Points are attributed by the `reason` of each score event: a contest's name, or `hand` for
what the hand itself was worth (its stake). Each call (a stake step, a contest call or a
declaration) is counted as made, accepted, declined and won, with the net points its source
brought the caller's team in that hand; `truco balance` reads the same tallies and rows.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from rulespec.errors import TrucoError

from interpreter.bots import MAX_ACTIONS, Bot
from interpreter.engine.game import Deal, Game, load_game
from interpreter.engine.state import State
from interpreter.measure.stats import Interval, Moments, wilson

HAND = "hand"           # the reason of the points a hand itself was worth
OTHER = "other"         # points that reached the score without a score event (a forfeited match)


def bot_factories(spec: str) -> list[Callable[[int | None], Bot]]:
    """Bots by name, one per seat cycling (`heuristic,random`: the teams play different bots)."""
    from interpreter import bots
    table = getattr(bots, "BOTS", {"random": bots.RandomBot})
    names = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = [n for n in names if n not in table]
    if unknown or not names:
        raise TrucoError(f"no bot named {', '.join(map(repr, unknown)) or repr(spec)}; "
                         f"bots: {', '.join(sorted(table))}")
    return [table[n] for n in names]


def match_seed(seed: int, index: int) -> int:
    """The seed of match `index` of a run: independent of how the matches are split up."""
    return random.Random(f"{seed}/{index}").getrandbits(63)


@dataclass
class CallCounts:
    """What came of one call over a set of hands: `net` is the caller's team's points from the
    call's source (its contest, or the hand's own worth for a stake) minus the other teams', in
    the hand it was made; `won` counts the hands where that was positive."""

    made: int = 0
    accepted: int = 0
    declined: int = 0
    won: int = 0
    net: Moments = field(default_factory=Moments)

    def merge(self, other: CallCounts) -> None:
        self.made += other.made
        self.accepted += other.accepted
        self.declined += other.declined
        self.won += other.won
        self.net.merge(other.net)

    def as_dict(self) -> dict[str, Any]:
        return {"made": self.made, "accepted": self.accepted, "declined": self.declined, "won": self.won,
                "accepted_share": wilson(self.accepted, self.made).as_dict(),
                "declined_share": wilson(self.declined, self.made).as_dict(),
                "won_share": wilson(self.won, self.made).as_dict(),
                "net_points": self.net.interval().as_dict()}


def call_source(game: Game, verb: str) -> str | None:
    """The source a call's points are scored under (its contest, or the hand), None for no call."""
    contest = game.contest_of_call.get(verb)
    if contest is not None:
        return str(contest.name)
    return HAND if verb in game.stake_names else None


@dataclass
class Tally:
    """Integer counts of a set of matches; `merge` adds another set's."""

    teams: int
    seats: int
    matches: int = 0
    matches_won: list[int] = field(default_factory=list)
    hands: int = 0
    hands_won: list[int] = field(default_factory=list)
    points: dict[str, list[list[int]]] = field(default_factory=dict)   # source -> team -> [sum, sum of squares]
    mano_hands: int = 0                     # hands that one team won
    mano_won: int = 0                       # ... won by the mano's team
    mano_margin: Moments = field(default_factory=Moments)   # per hand: mano's team's points minus the others'
    seat_mano: list[int] = field(default_factory=list)      # hands each seat was the mano of
    seat_mano_decided: list[int] = field(default_factory=list)   # ... that one team won
    seat_mano_won: list[int] = field(default_factory=list)  # ... that its team won
    contest_wins: dict[str, list[int]] = field(default_factory=dict)   # contest -> seat -> counts won
    match_hands: Moments = field(default_factory=Moments)
    match_actions: Moments = field(default_factory=Moments)
    lengths: dict[int, int] = field(default_factory=dict)    # hands in a match -> matches
    dealer_margin: Moments = field(default_factory=Moments)  # per hand: dealer's team's points minus the others'
    first_mano_won: int = 0                 # matches won by the team of the first hand's mano
    first_dealer_won: int = 0               # ... of the first hand's dealer
    calls: dict[str, CallCounts] = field(default_factory=dict)   # call -> what came of it

    def __post_init__(self) -> None:
        for name, size in (("matches_won", self.teams), ("hands_won", self.teams), ("seat_mano", self.seats),
                           ("seat_mano_decided", self.seats), ("seat_mano_won", self.seats)):
            if not getattr(self, name):
                setattr(self, name, [0] * size)

    def merge(self, other: Tally) -> None:
        self.matches += other.matches
        self.hands += other.hands
        self.mano_hands += other.mano_hands
        self.mano_won += other.mano_won
        self.first_mano_won += other.first_mano_won
        self.first_dealer_won += other.first_dealer_won
        self.dealer_margin.merge(other.dealer_margin)
        for call, counts in other.calls.items():
            self.calls.setdefault(call, CallCounts()).merge(counts)
        for mine, theirs in ((self.matches_won, other.matches_won), (self.hands_won, other.hands_won),
                             (self.seat_mano, other.seat_mano), (self.seat_mano_decided, other.seat_mano_decided),
                             (self.seat_mano_won, other.seat_mano_won)):
            for i, x in enumerate(theirs):
                mine[i] += x
        for source, per_team in other.points.items():
            sums = self._source(source)
            for team, (total, squares) in enumerate(per_team):
                sums[team][0] += total
                sums[team][1] += squares
        for contest, per_seat in other.contest_wins.items():
            wins = self.contest_wins.setdefault(contest, [0] * self.seats)
            for seat, x in enumerate(per_seat):
                wins[seat] += x
        self.mano_margin.merge(other.mano_margin)
        self.match_hands.merge(other.match_hands)
        self.match_actions.merge(other.match_actions)
        for hands, count in other.lengths.items():
            self.lengths[hands] = self.lengths.get(hands, 0) + count

    def _source(self, source: str) -> list[list[int]]:
        return self.points.setdefault(source, [[0, 0] for _ in range(self.teams)])

    def add_match(self, game: Game, events: Sequence[dict[str, Any]]) -> dict[str, int]:
        """Count one finished match from its events; returns its points by source and team."""
        hands = actions = 0
        winner = None
        mano: int | None = None
        dealer = 0
        first: tuple[int, int] | None = None     # the teams of the first hand's mano and dealer
        hand_points: dict[str, list[int]] = {}
        totals: dict[str, list[int]] = {}
        made: list[tuple[str, str, int]] = []     # this hand's calls: (call, source, caller's team)
        row_calls: dict[str, list[int]] = {}      # call -> made, accepted, declined, won, net over the match
        margins = [0, 0]                          # the match's mano and dealer margins

        def net_for(team: int, source: str) -> int:
            per_team = hand_points.get(source, [])
            return sum(x if t == team else -x for t, x in enumerate(per_team))

        def close_hand(won_by: int | None) -> None:
            nonlocal mano
            if mano is None:
                return
            mano_team, seat, mano = game.team_of[mano], mano, None
            for call, source, team in made:
                net = net_for(team, source)
                counts = self.calls.setdefault(call, CallCounts())
                counts.net.add(net)
                mine = row_calls.setdefault(call, [0, 0, 0, 0, 0])
                mine[0] += 1
                mine[4] += net
                if net > 0:
                    counts.won += 1
                    mine[3] += 1
            made.clear()
            scored = [0] * self.teams
            for source, per_team in hand_points.items():
                sums = self._source(source)
                for team, x in enumerate(per_team):
                    sums[team][0] += x
                    sums[team][1] += x * x
                    scored[team] += x
            self.mano_margin.add(2 * scored[mano_team] - sum(scored))
            self.dealer_margin.add(2 * scored[game.team_of[dealer]] - sum(scored))
            margins[0] += 2 * scored[mano_team] - sum(scored)
            margins[1] += 2 * scored[game.team_of[dealer]] - sum(scored)
            self.seat_mano[seat] += 1
            if won_by is not None:
                self.hands_won[won_by] += 1
                self.mano_hands += 1
                self.seat_mano_decided[seat] += 1
                if won_by == mano_team:
                    self.mano_won += 1
                    self.seat_mano_won[seat] += 1

        for e in events:
            kind = e["type"]
            if kind == "action":
                actions += 1
                verb = e["action"].split()[0]
                source = call_source(game, verb)
                if source is not None:
                    made.append((verb, source, game.team_of[e["seat"]]))
                    self.calls.setdefault(verb, CallCounts()).made += 1
            elif kind in ("accepted", "declined"):
                counts = self.calls.setdefault(e["call"], CallCounts())
                mine = row_calls.setdefault(e["call"], [0, 0, 0, 0, 0])
                if kind == "accepted":
                    counts.accepted += 1
                    mine[1] += 1
                else:
                    counts.declined += 1
                    mine[2] += 1
            elif kind == "deal":
                close_hand(None)           # an annulled hand ends without a hand_over event
                hands += 1
                mano, dealer, hand_points = e["mano"], e["dealer"], {}
                if first is None:
                    first = (game.team_of[mano], game.team_of[dealer])
            elif kind == "score":
                source = e.get("reason") or OTHER
                hand_points.setdefault(source, [0] * self.teams)[e["team"]] += e["points"]
                totals.setdefault(source, [0] * self.teams)[e["team"]] += e["points"]
            elif kind == "contest_won":
                self.contest_wins.setdefault(e["contest"], [0] * self.seats)[e["seat"]] += 1
            elif kind == "hand_over":
                close_hand(e["winner"])
            elif kind == "match_over":
                winner = e["winner"]
                for team, final in enumerate(e["score"]):
                    missing = final - sum(per_team[team] for per_team in totals.values())
                    if missing > 0:
                        hand_points.setdefault(OTHER, [0] * self.teams)[team] += missing
                        totals.setdefault(OTHER, [0] * self.teams)[team] += missing
                # the last hand ends with the match: won by whoever scored its worth, if anyone did
                worth = hand_points.get(HAND, [])
                close_hand(next((team for team, x in enumerate(worth) if x > 0), None))
        self.matches += 1
        if winner is not None:
            self.matches_won[winner] += 1
        first_mano_won = int(first is not None and winner == first[0])
        first_dealer_won = int(first is not None and winner == first[1])
        self.first_mano_won += first_mano_won
        self.first_dealer_won += first_dealer_won
        self.hands += hands
        self.match_hands.add(hands)
        self.match_actions.add(actions)
        self.lengths[hands] = self.lengths.get(hands, 0) + 1
        row = {"winner": -1 if winner is None else winner, "hands": hands, "actions": actions,
               "mano_margin": margins[0], "dealer_margin": margins[1],
               "first_mano_won": first_mano_won, "first_dealer_won": first_dealer_won}
        for source, per_team in sorted(totals.items()):
            for team, x in enumerate(per_team):
                row[f"{source}_{team}"] = x
        for call, (n, accepted, declined, won, net) in sorted(row_calls.items()):
            row.update({f"call.{call}.made": n, f"call.{call}.accepted": accepted,
                        f"call.{call}.declined": declined, f"call.{call}.won": won, f"call.{call}.net": net})
        return row


def luck(game: Game, state: State, counts: dict[str, int]) -> None:
    """Add the luck of the hand just dealt to `counts`, for two teams of equal size: per contest,
    whether the mano's team holds the better value (+1, -1, 0 on a tie), alone and times the points
    the leader still lacks (what a contest to the end of the match is worth), and the mano's team's
    card strength minus the other's. A shuffled deck deals every team alike, so each has mean 0
    whatever the play: `truco balance` takes them as control variates of the mano's edge."""
    n = game.num_players
    if game.teams != 2 or n % 2 or game.schedule_when is not None:
        return
    mine = game.team_of[state.mano]
    strength = game.strength[state.turned]
    left = game.target - max(state.score)
    power = sum(strength[c] * (1 if game.team_of[s] == mine else -1) for s in range(n) for c in state.dealt[s])
    counts["luck.hand"] = counts.get("luck.hand", 0) + power
    for cont in game.contests:
        value = game.values[cont.value]
        best = [-1, -1]
        for s in range(n):
            v = value(state.dealt[s], state.turned)
            if v is not None:
                side = 0 if game.team_of[s] == mine else 1
                best[side] = max(best[side], int(v))
        sign = (best[0] > best[1]) - (best[0] < best[1])
        counts[f"luck.{cont.name}"] = counts.get(f"luck.{cont.name}", 0) + sign
        counts[f"luck.{cont.name}.left"] = counts.get(f"luck.{cont.name}.left", 0) + sign * left


def hand_seed(seed: int, hand: int, rotation: int, seat: int) -> int:
    """The seed of a seat's bot for one hand of a duplicate match: the same in every variant."""
    return random.Random(f"{seed}/{hand}/{rotation}/{seat}").getrandbits(63)


def replay(game: Game, before: State | None, state: State, rotation: int, seed: int,
           factories: Sequence[Callable[[int | None], Bot]], counts: dict[str, int]) -> None:
    """Play the hand just dealt in `state` again from `before` (the match just before the deal;
    None before the first), each seat holding the cards of the seat `rotation` places on, and add
    what it scored to `counts`: the mano's and the dealer's margins, the points by source and team."""
    n = game.num_players
    ids = game.cards.ids
    deal = Deal(tuple(tuple(ids[c] for c in state.dealt[(s + rotation) % n]) for s in range(n)),
                None if state.turned is None else ids[state.turned])
    if before is None:
        copy = game.new_match(seed=seed, dealer=state.dealer, deals=[deal])
    else:
        copy = before.clone()
        copy.next_hand(deal)
    start = len(copy.events)
    players = [factories[s % len(factories)](hand_seed(seed, state.hand_number, rotation, s)) for s in range(n)]
    while not (copy.hand_over or copy.match_over):
        seat = copy.current_player()
        assert seat is not None
        copy.apply(players[seat].choose(copy, seat), seat=seat)
    scored = [0] * game.teams
    for e in copy.events[start:]:
        if e["type"] == "score":
            key = f"{e.get('reason') or OTHER}_{e['team']}"
            counts[key] = counts.get(key, 0) + e["points"]
            scored[e["team"]] += e["points"]
    total = sum(scored)
    counts["mano_margin"] = counts.get("mano_margin", 0) + 2 * scored[game.team_of[copy.mano]] - total
    counts["dealer_margin"] = counts.get("dealer_margin", 0) + 2 * scored[game.team_of[copy.dealer]] - total
    counts["plays"] = counts.get("plays", 0) + 1


def play_match(game: Game, seed: int, factories: Sequence[Callable[[int | None], Bot]],
               duplicate: bool = False) -> tuple[State, dict[str, int]]:
    """Play one match; returns it and the counts beyond its events: each hand's luck (`luck`)
    and, `duplicate`, each hand played again with the cards rotated between the teams (`replay`),
    every hand by bots seeded afresh for the hand, so that card luck cancels within the match and
    variants share the bots' chances hand by hand."""
    n = game.num_players
    if duplicate and game.schedule_when is not None:
        raise TrucoError("--duplicate needs a spec where every seat plays every hand")
    players = [factories[s % len(factories)](seed + s + 1) for s in range(n)]
    counts: dict[str, int] = {}
    state = game.new_match(seed=seed)
    before: State | None = None
    hand = actions = 0
    while not state.match_over:
        if state.hand_over:
            before = state.clone() if duplicate else None
            state.next_hand()
            continue
        if state.hand_number != hand:
            hand = state.hand_number
            luck(game, state, counts)
            if duplicate:
                players = [factories[s % len(factories)](hand_seed(seed, hand, 0, s)) for s in range(n)]
                for rotation in range(1, game.teams):
                    replay(game, before, state, rotation, seed, factories, counts)
        seat = state.current_player()
        assert seat is not None
        state.apply(players[seat].choose(state, seat), seat=seat)
        actions += 1
        if actions >= MAX_ACTIONS:
            raise RuntimeError(f"the match did not end within {MAX_ACTIONS} actions")
    return state, counts


def play_chunk(spec: str, options: dict[str, Any], bots: str, seed: int,
               indices: Sequence[int], duplicate: bool = False) -> tuple[Tally, list[dict[str, Any]]]:
    """Play the matches `indices` of a run (in a worker): their tally and one row per match. A
    duplicate match's row adds its replays to the margins and points, `plays` counting every hand
    played (each hand and its replays); its tally is the matches' own."""
    game = load_game(spec, options)
    factories = bot_factories(bots)
    tally = Tally(game.teams, game.num_players)
    rows = []
    for index in indices:
        s = match_seed(seed, index)
        state, counts = play_match(game, s, factories, duplicate)
        row: dict[str, Any] = {"match": index, "seed": s, **tally.add_match(game, state.events)}
        if duplicate:
            counts["plays"] = counts.get("plays", 0) + row["hands"]
        for key, x in counts.items():
            row[key] = row.get(key, 0) + x
        rows.append(row)
    return tally, rows


def chunks(matches: int, workers: int) -> list[range]:
    """Small enough to keep every worker busy to the end and the progress bar moving."""
    size = max(1, min(200, matches // (workers * 8) or 1))
    return [range(i, min(i + size, matches)) for i in range(0, matches, size)]


Runner = Callable[[list[range]], Iterator[tuple[int, tuple[Tally, list[dict[str, Any]]]]]]


def local_runner(spec: str, options: dict[str, Any], bots: str, seed: int, workers: int,
                 duplicate: bool = False) -> Runner:
    """Chunks on a pool of local processes (or in this process for one worker), as they finish."""
    def run(parts: list[range]) -> Iterator[tuple[int, tuple[Tally, list[dict[str, Any]]]]]:
        if workers <= 1:
            for i, part in enumerate(parts):
                yield i, play_chunk(spec, options, bots, seed, part, duplicate)
            return
        with ProcessPoolExecutor(max_workers=workers) as pool:
            pending: dict[Future[Any], int] = {pool.submit(play_chunk, spec, options, bots, seed, part, duplicate): i
                                               for i, part in enumerate(parts)}
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield pending.pop(future), future.result()
    return run


def ray_runner(spec: str, options: dict[str, Any], bots: str, seed: int, address: str | None,
               duplicate: bool = False) -> Runner:
    """The same chunks as Ray tasks: on the cluster at `address`, or on a local Ray instance."""
    try:
        import ray
    except ImportError:
        raise TrucoError("the Ray backend needs Ray: install the `ray` extra") from None

    def run(parts: list[range]) -> Iterator[tuple[int, tuple[Tally, list[dict[str, Any]]]]]:
        with ray_session(address):
            task = ray.remote(play_chunk)
            pending = {task.remote(spec, options, bots, seed, part, duplicate): i for i, part in enumerate(parts)}
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    yield pending.pop(ref), ray.get(ref)
    return run


@contextmanager
def ray_session(address: str | None) -> Iterator[None]:
    """Ray, joined or started for the block unless it already runs (then it is left running):
    several simulations in one block (`truco balance`) share one start."""
    try:
        import ray
    except ImportError:
        raise TrucoError("the Ray backend needs Ray: install the `ray` extra") from None
    started = not ray.is_initialized()
    if started and address is None:     # a Ray of our own, reachable from this machine only
        ray.init(_node_ip_address="127.0.0.1", include_dashboard=False, log_to_driver=False)
    elif started:
        ray.init(address=address, log_to_driver=False)
    try:
        yield
    finally:
        if started:
            ray.shutdown()


@dataclass
class Run:
    """A finished simulation: its parameters, its tally and one row per match."""

    spec: str
    options: dict[str, Any]
    bots: str
    seed: int
    workers: int
    backend: str
    tally: Tally
    rows: list[dict[str, Any]]


def simulate(spec: str, options: dict[str, Any], matches: int, bots: str = "random", seed: int = 0,
             workers: int = 1, backend: str = "local", address: str | None = None,
             progress: Callable[[int], None] | None = None, duplicate: bool = False, first: int = 0) -> Run:
    """Play `matches` matches (numbered from `first`) and tally them; `progress(n)` is told of
    every n matches done. `duplicate`: `play_match`'s replays."""
    if matches < 1:
        raise TrucoError("a simulation needs at least one match")
    game = load_game(spec, options)
    bot_factories(bots)                         # an unknown bot fails here, not in every worker
    opts = dict(game.options)
    parts = [range(first + r.start, first + r.stop) for r in chunks(matches, workers)]
    runner = ray_runner(spec, opts, bots, seed, address, duplicate) if backend == "ray" else \
        local_runner(spec, opts, bots, seed, workers, duplicate)
    results: dict[int, tuple[Tally, list[dict[str, Any]]]] = {}
    for i, result in runner(parts):
        results[i] = result
        if progress is not None:
            progress(len(parts[i]))
    tally = Tally(game.teams, game.num_players)
    rows: list[dict[str, Any]] = []
    for i in range(len(parts)):
        part_tally, part_rows = results[i]
        tally.merge(part_tally)
        rows += part_rows
    return Run(game.name, opts, bots, seed, workers, backend, tally, rows)


# -- the report ---------------------------------------------------------------------------

def sources(tally: Tally) -> list[str]:
    """Sources in a stable order: the hand's own worth first, then the others by name."""
    return sorted(tally.points, key=lambda s: (s != HAND, s == OTHER, s))


def per_hand(tally: Tally, source: str, team: int) -> Interval:
    total, squares = tally.points.get(source, [[0, 0]] * tally.teams)[team]
    return Moments(tally.hands, total, squares).interval()


def report(run: Run) -> dict[str, Any]:
    """Everything the run found, with 95% confidence intervals, ready for JSON."""
    t = run.tally
    teams = []
    for team in range(t.teams):
        teams.append({
            "team": team,
            "matches_won": wilson(t.matches_won[team], t.matches).as_dict(),
            "hands_won": wilson(t.hands_won[team], t.hands).as_dict(),
            "points_per_hand": {s: per_hand(t, s, team).as_dict() for s in sources(t)},
        })
    seats = [{"seat": s, "team": s % t.teams, "hands_as_mano": t.seat_mano[s],
              "won_as_mano": wilson(t.seat_mano_won[s], t.seat_mano_decided[s]).as_dict(),
              "contests_won": {c: wins[s] for c, wins in sorted(t.contest_wins.items())}}
             for s in range(t.seats)]
    return {
        "spec": run.spec, "options": run.options, "bots": run.bots, "seed": run.seed,
        "workers": run.workers, "backend": run.backend, "matches": t.matches, "hands": t.hands,
        "teams": teams, "seats": seats,
        "mano": {"hands_decided": t.mano_hands, "won": wilson(t.mano_won, t.mano_hands).as_dict(),
                 "margin_per_hand": t.mano_margin.interval().as_dict(),
                 "first_hand_team_won_match": wilson(t.first_mano_won, t.matches).as_dict()},
        "dealer": {"margin_per_hand": t.dealer_margin.interval().as_dict(),
                   "first_hand_team_won_match": wilson(t.first_dealer_won, t.matches).as_dict()},
        "calls": {c: counts.as_dict() for c, counts in sorted(t.calls.items())},
        "length": {"hands_per_match": t.match_hands.interval().as_dict(),
                   "actions_per_match": t.match_actions.interval().as_dict(),
                   "histogram": {str(k): v for k, v in sorted(t.lengths.items())}},
    }


def write_outputs(run: Run, out: Path) -> list[Path]:
    """report.json, matches.csv and, with matplotlib installed, the plots as PNG and SVG."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "report.json", out / "matches.csv"]
    written[0].write_text(json.dumps(report(run), indent=2) + "\n", encoding="utf-8")
    columns = ["match", "seed", "winner", "hands", "actions"]
    columns += sorted({k for row in run.rows for k in row} - set(columns))
    with written[1].open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=columns, restval=0)
        writer.writeheader()
        writer.writerows(run.rows)
    return written + plot(run, out)


def pyplot() -> Any:
    """matplotlib's pyplot without a screen, or None when the `plots` extra is not installed."""
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save(plt: Any, fig: Any, out: Path, stem: str) -> list[Path]:
    paths = [out / f"{stem}.png", out / f"{stem}.svg"]
    for p in paths:
        fig.savefig(p, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return paths


def plot(run: Run, out: Path) -> list[Path]:
    plt = pyplot()
    if plt is None:
        return []
    t = run.tally
    title = f"{run.spec}, {t.matches} matches, bots {run.bots}"
    written: list[Path] = []

    fig, ax = plt.subplots(figsize=(7, 4))
    lengths = sorted(t.lengths)
    ax.bar(lengths, [t.lengths[k] for k in lengths], color="#4c72b0")
    ax.set(xlabel="hands in the match", ylabel="matches", title=f"Match length — {title}")
    written += save(plt, fig, out, "match_length")

    fig, ax = plt.subplots(figsize=(7, 4))
    names = sources(t)
    width = 0.8 / t.teams
    for team in range(t.teams):
        cis = [per_hand(t, s, team) for s in names]
        xs = [i + team * width for i in range(len(names))]
        ax.bar(xs, [c.estimate for c in cis], width, label=f"team {team}",
               yerr=[[c.estimate - c.low for c in cis], [c.high - c.estimate for c in cis]], capsize=3)
    ax.set_xticks([i + width * (t.teams - 1) / 2 for i in range(len(names))], names)
    ax.set(ylabel="points per hand (95% CI)", title=f"Points by source — {title}")
    ax.legend()
    written += save(plt, fig, out, "points_by_source")

    fig, ax = plt.subplots(figsize=(7, 4))
    cis = [wilson(t.seat_mano_won[s], t.seat_mano_decided[s]) for s in range(t.seats)]
    ax.bar(range(t.seats), [c.estimate for c in cis], color="#55a868",
           yerr=[[c.estimate - c.low for c in cis], [c.high - c.estimate for c in cis]], capsize=3)
    ax.axhline(0.5, color="grey", linewidth=0.8)
    ax.set_xticks(range(t.seats), [f"seat {s}" for s in range(t.seats)])
    ax.set(ylabel="hands won by the mano's team (95% CI)", ylim=(0, 1), title=f"The mano's advantage — {title}")
    written += save(plt, fig, out, "mano_advantage")
    return written


def render(run: Run, console: Console) -> None:
    r = report(run)
    t = run.tally
    console.print(f"[bold]{run.spec}[/]: {t.matches} matches, {t.hands} hands, bots {run.bots}, seed {run.seed}, "
                  f"{run.workers} workers ({run.backend})", highlight=False)
    names = sources(t)
    table = Table("team", "matches won", "hands won", *(f"{s} pts/hand" for s in names),
                  title="By team (95% confidence intervals)")
    for team in r["teams"]:
        table.add_row(str(team["team"]), _ci(team["matches_won"]), _ci(team["hands_won"]),
                      *(_ci(team["points_per_hand"][s]) for s in names))
    console.print(table)
    contests = sorted(t.contest_wins)
    table = Table("seat", "team", "hands as mano", "its team won (decided hands)", *(f"{c} won" for c in contests),
                  title="By seat")
    for seat in r["seats"]:
        table.add_row(str(seat["seat"]), str(seat["team"]), str(seat["hands_as_mano"]), _ci(seat["won_as_mano"]),
                      *(str(seat["contests_won"].get(c, 0)) for c in contests))
    console.print(table)
    if t.calls:
        table = Table("call", "made", "per hand", "accepted", "declined", "won", "net points to the caller",
                      title="Calls (shares of the calls made; 95% confidence intervals)")
        for call, c in r["calls"].items():
            table.add_row(call, str(c["made"]), f"{c['made'] / max(t.hands, 1):.3f}", _ci(c["accepted_share"]),
                          _ci(c["declined_share"]), _ci(c["won_share"]), _ci(c["net_points"]))
        console.print(table)
    mano, length = r["mano"], r["length"]
    console.print(f"the mano's team wins {_ci(mano['won'])} of the decided hands, by "
                  f"{_ci(mano['margin_per_hand'])} points per hand", highlight=False)
    console.print(f"a match lasts {_ci(length['hands_per_match'])} hands, {_ci(length['actions_per_match'])} "
                  f"actions", highlight=False)


def _ci(d: dict[str, float]) -> str:
    return str(Interval(d["estimate"], d["low"], d["high"]))


# -- the command ----------------------------------------------------------------------------

def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("simulate", help="play many matches between bots and report statistics")
    p.add_argument("spec", help="a bundled spec name or a spec file")
    p.add_argument("--matches", type=int, required=True, help="how many matches to play")
    p.add_argument("--bots", default="random",
                   help="bot names, one per seat cycling: random, heuristic, ismcts (ismcts:N: N playouts a "
                        "decision), or e.g. ismcts,heuristic")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: every core)")
    p.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed, the same report")
    p.add_argument("--out", type=Path, default=None, help="write report.json, matches.csv and plots here")
    p.add_argument("--backend", choices=["local", "ray"], default="local", help="local processes or a Ray cluster")
    p.add_argument("--address", default=None, help="the Ray cluster to join (default: start a local Ray)")
    p.add_argument("--players", type=int, default=None, help="shorthand for -o players=N")
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE", help="a table option")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, console: Console) -> int:
    from interpreter.measure.bench import table_options
    options = table_options(args)
    columns = (TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TaskProgressColumn(), TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True, disable=args.json) as bar:
        task = bar.add_task(f"simulating {args.spec}", total=args.matches, rate="")

        def advance(n: int) -> None:
            bar.advance(task, n)
            elapsed = bar.tasks[0].elapsed or 0.0
            bar.update(task, rate=f"{bar.tasks[0].completed / elapsed:,.0f} matches/s" if elapsed else "")

        result = simulate(args.spec, options, args.matches, args.bots, args.seed, args.workers, args.backend,
                          args.address, advance)
    if args.json:
        print(json.dumps(report(result), indent=2))
    else:
        render(result, console)
    if args.out is not None:
        written = write_outputs(result, args.out)
        if not args.json:                   # --json keeps standard output for the report alone
            if not any(p.suffix == ".png" for p in written):
                console.print("plots skipped: they need matplotlib, the `plots` extra", markup=False)
            console.print(f"wrote {', '.join(str(p) for p in written)}", highlight=False)
    return 0

