"""`truco bench`: how fast the interpreter plays, copies and stores matches.

A rules interpreter earns its place only if it keeps up with the hand-written engines people
would otherwise use, so the same run measures the best Python peer, pytruco (the optional
`bench` extra), the same way, and prints the ratios. Figures are rates per CPU second of
this process; nothing here asserts a speed (tests check that the counting is right).
"""
from __future__ import annotations

import argparse
import copy
import cProfile
import importlib.util
import json
import pstats
import random
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from rich.console import Console
from rich.table import Table

from rulespec.build import build_options
from rulespec.errors import SpecError, TrucoError
from rulespec.load import SpecSource, find_spec, load_tree, open_spec
from rulespec.schema import validate

from interpreter.engine import build as engine_build
from interpreter.engine.game import Game, load_game, parse_options
from interpreter.engine.state import State

# CPU seconds of this process: a machine busy with other work slows neither engine's figures.
clock = time.process_time

SAMPLE_EVERY = 5        # sampled states for the copy and memory figures: one every so many actions
SAMPLE_SIZE = 64


@dataclass
class Play:
    """What random play got through: counted the same way for every engine."""

    matches: int = 0
    hands: int = 0          # deals, the first of each match included
    actions: int = 0
    seconds: float = 0.0

    def add(self, other: Play) -> None:
        self.matches += other.matches
        self.hands += other.hands
        self.actions += other.actions
        self.seconds += other.seconds

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


@dataclass
class Figures:
    """One engine's figures in one run."""

    engine: str
    players: int
    play: Play
    clone_per_s: float
    to_json_per_s: float
    from_json_per_s: float
    bytes_per_state: float
    load_s: float | None = None
    compile_s: float | None = None
    precompute_s: float | None = None
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["hands_per_s"] = self.play.hands_per_s
        out["actions_per_s"] = self.play.actions_per_s
        return out


class Player(Protocol):
    """What the bench needs of an engine it only plays: random play."""

    name: str
    note: str

    def play(self, seconds: float | None, matches: int | None, seed: int, fold: bool) -> Play:
        """Random play from match seeds `seed`, `seed + 1`, ... for `seconds` or `matches`."""


class Engine(Player, Protocol):
    """What the bench needs of an engine it measures whole: random play, and copies of its
    match states."""

    def sample(self, count: int, seed: int) -> list[Any]: ...

    def clone(self, state: Any) -> Any: ...

    def to_text(self, state: Any) -> str: ...

    def from_text(self, text: str) -> Any: ...


def _running(start: float, seconds: float | None, matches: int | None, played: int) -> bool:
    """A budget of CPU seconds or of matches; a started match is always finished."""
    if matches is not None:
        return played < matches
    return clock() - start < (seconds or 0.0)


class Interpreter:
    """This project's engine, driven through its public API as a bot would drive it."""

    name = "interpreter"
    note = ""

    def __init__(self, game: Game) -> None:
        self.game = game

    def play(self, seconds: float | None, matches: int | None, seed: int, fold: bool) -> Play:
        """Random legal play: the legal actions are generated at every step, deals included."""
        return random_play(lambda n: self.game.new_match(seed=n), seconds, matches, seed, fold)

    def sample(self, count: int, seed: int) -> list[State]:
        rng = random.Random(seed)
        states: list[State] = []
        match = 0
        while len(states) < count:
            st = self.game.new_match(seed=seed + match)
            match += 1
            steps = 0
            while not st.match_over and len(states) < count:
                if st.hand_over:
                    st.next_hand()
                    continue
                st.apply(_pick(rng, st.legal_actions(), fold=True))
                steps += 1
                if steps % SAMPLE_EVERY == 0:
                    states.append(st.clone())
        return states

    def clone(self, state: State) -> State:
        return state.clone()

    def to_text(self, state: State) -> str:
        return json.dumps(state.to_json())

    def from_text(self, text: str) -> State:
        return self.game.state_from_json(json.loads(text))


def random_play(new_match: Callable[[int], Any], seconds: float | None, matches: int | None, seed: int,
                fold: bool) -> Play:
    """Matches `new_match(seed)`, `new_match(seed + 1)`, ... played by uniform random choices
    (`_pick`) from `random.Random(seed)`, for `seconds` of CPU or `matches`: the one loop every
    engine that speaks the interpreter's API is timed with."""
    rng = random.Random(seed)
    out = Play()
    start = clock()
    while _running(start, seconds, matches, out.matches):
        st = new_match(seed + out.matches)
        out.hands += 1
        while not st.match_over:
            if st.hand_over:
                st.next_hand()
                out.hands += 1
                continue
            st.apply(_pick(rng, st.legal_actions(), fold))
            out.actions += 1
        out.matches += 1
    out.seconds = clock() - start
    return out


class Reference:
    """The hand-written engine of one variant kept in `tools/` (no spec, no log, no copies),
    played by the same loop: what the interpretation costs, measured in the same run."""

    name = "hand-written"

    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.note = f"{module.SPEC} ({', '.join(f'{k}={v}' for k, v in module.OPTIONS.items())}), written by hand"

    def play(self, seconds: float | None, matches: int | None, seed: int, fold: bool) -> Play:
        return random_play(self.module.Match, seconds, matches, seed, fold)


REFERENCE = Path(__file__).resolve().parents[2] / "tools" / "handwritten.py"


def reference_module(path: Path = REFERENCE) -> ModuleType | None:
    """The hand-written engine, where a source checkout has it (a wheel does not ship `tools/`)."""
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location("handwritten_reference", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pick(rng: random.Random, legal: list[str], fold: bool) -> str:
    """Uniform over the legal actions; without `fold`, leaving the hand only when nothing else is legal."""
    if not fold and len(legal) > 1:
        legal = [a for a in legal if a != "fold"] or legal
    return rng.choice(legal)


class Pytruco:
    """pytruco (PyPI), the maintained Python engine, played as its own `pytruco-bench` plays it:
    verbose off, each step a uniform choice among the players who have a legal move, then
    among that player's moves (`chi.random_action`)."""

    name = "pytruco"

    def __init__(self, players: int, target: int) -> None:
        from pytruco.pdt.chi import random_action
        from pytruco.pdt.partida import Partida
        self._partida = Partida
        self._random_action = random_action
        self.teams = ([f"A{i}" for i in range((players + 1) // 2)], [f"B{i}" for i in range(players // 2)])
        self.target = self._seeded(0, lambda: _nearest(lambda t: Partida(t, *self.teams, verbose=False), target))
        self.note = f"its own rules (Uruguayan); plays to {self.target}"

    def _new(self) -> Any:
        return self._partida(self.target, *self.teams, verbose=False)

    def _seeded(self, seed: int, body: Callable[[], Any]) -> Any:
        """pytruco draws from the global generator: seed it, and leave it as it was."""
        saved = random.getstate()
        random.seed(seed)
        try:
            return body()
        finally:
            random.setstate(saved)

    def play(self, seconds: float | None, matches: int | None, seed: int, fold: bool) -> Play:
        def body() -> Play:
            out = Play()
            start = clock()
            while _running(start, seconds, matches, out.matches):
                p = self._new()
                out.hands += 1
                deal = p.ronda.manos                  # a new deal replaces the list of tricks
                while not p.terminada():
                    self._random_action(p, fold).hacer(p)
                    out.actions += 1
                    if p.ronda.manos is not deal and not p.terminada():
                        deal = p.ronda.manos
                        out.hands += 1
                out.matches += 1
            out.seconds = clock() - start
            return out
        return self._seeded(seed, body)

    def sample(self, count: int, seed: int) -> list[Any]:
        def body() -> list[Any]:
            states: list[Any] = []
            while len(states) < count:
                p = self._new()
                steps = 0
                while not p.terminada() and len(states) < count:
                    self._random_action(p, True).hacer(p)
                    steps += 1
                    if steps % SAMPLE_EVERY == 0:
                        states.append(copy.deepcopy(p))
            return states
        return self._seeded(seed, body)

    def clone(self, state: Any) -> Any:
        return copy.deepcopy(state)

    def to_text(self, state: Any) -> str:
        return state.to_json()

    def from_text(self, text: str) -> Any:
        return self._partida.parse(text)


def _nearest(make: Callable[[int], Any], wanted: int, reach: int = 100) -> int:
    """The value nearest `wanted` that `make` accepts (a peer offers only some match targets)."""
    for delta in range(reach):
        for value in sorted({wanted - delta, wanted + delta}):
            if value <= 0:
                continue
            try:
                make(value)
            except Exception:       # the peer refuses with a bare Exception
                continue
            return value
    raise TrucoError(f"the peer accepts no value within {reach} of {wanted}")


def timed(fn: Callable[[Any], Any], items: Sequence[Any], seconds: float, first: int = 0) -> tuple[int, float]:
    """(calls, elapsed seconds) of `fn` on `items` in turn from `first`, for one call at least and `seconds`."""
    calls = 0
    start = clock()
    while True:
        fn(items[(first + calls) % len(items)])
        calls += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return calls, elapsed


def bytes_per_state(clone: Callable[[Any], Any], states: Sequence[Any]) -> float:
    """Memory the interpreter's allocator holds per live copy of a sampled state (tracemalloc)."""
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        live = [clone(s) for s in states]
        after = tracemalloc.get_traced_memory()[0]
    finally:
        if not was_tracing:
            tracemalloc.stop()
    return (after - before) / len(live)


def load_times(spec: str, options: dict[str, Any], repeat: int = 3) -> tuple[float, float]:
    """Best of `repeat` fresh runs: (load + validate + build the IR, compile the game)."""
    best_load = best_compile = float("inf")
    for _ in range(repeat):
        start = clock()
        path = find_spec(spec)
        tree = load_tree(path)
        errors = validate(tree)
        if errors:
            raise SpecError(errors)
        ir = SpecSource(path, tree, build_options(tree)).build(options)
        built = clock()
        Game(ir)
        done = clock()
        best_load = min(best_load, built - start)
        best_compile = min(best_compile, done - built)
    return best_load, best_compile


def precompute(game: Game) -> float:
    """Fill every hand-value table before play is timed: CPU seconds it took (0 if done before).

    Play fills them lazily, one new hand at a time; a long simulation pays this once, so the
    bench reports it apart and times play in the steady state."""
    start = clock()
    for table in game.values.values():
        table.fill(len(game.cards), game.hand_size)
    return clock() - start


def measure(engines: Sequence[Engine], seconds: float, seed: int, fold: bool, players: int,
            matches: int | None = None, rounds: int = 4,
            also: Sequence[Player] = ()) -> tuple[list[Figures], list[Play]]:
    """Every figure of each engine, and the random play of each player `also`, all taking turns
    in `rounds` slices of the budget so that a machine busy with something else slows them
    alike; `matches` fixes the play instead."""
    slices = 1 if matches is not None else rounds
    everyone: list[Player] = [*engines, *also]
    plays = [Play() for _ in everyone]
    for _ in range(slices):
        for player, played in zip(everyone, plays, strict=True):
            played.add(player.play(None if matches else seconds / slices, matches, seed + played.matches, fold))
    states = [e.sample(SAMPLE_SIZE, seed) for e in engines]
    texts = [[e.to_text(s) for s in sampled] for e, sampled in zip(engines, states, strict=False)]
    figures = [Figures(engine=e.name, players=players, play=p, clone_per_s=0.0, to_json_per_s=0.0,
                       from_json_per_s=0.0, bytes_per_state=bytes_per_state(e.clone, sampled), note=e.note)
               for e, p, sampled in zip(engines, plays, states, strict=False)]
    for key, pick, inputs in (("clone_per_s", lambda e: e.clone, states),
                              ("to_json_per_s", lambda e: e.to_text, states),
                              ("from_json_per_s", lambda e: e.from_text, texts)):
        calls, spent = [0] * len(engines), [0.0] * len(engines)
        for _ in range(slices):
            for i, (e, items) in enumerate(zip(engines, inputs, strict=False)):
                n, elapsed = timed(pick(e), items, seconds / slices, first=calls[i])
                calls[i] += n
                spent[i] += elapsed
        for fig, n, elapsed in zip(figures, calls, spent, strict=False):
            setattr(fig, key, n / elapsed)
    return figures, plays[len(engines):]


def calls_per_hand(game: Game, hands: int = 200, seed: int = 0) -> dict[str, float]:
    """Python function calls per hand of the engine, the spec language and the generated
    formulas, by function ("engine/legal.py:acts", "formula contests.envido.window:<lambda>"), in
    random play with folds allowed from a
    fixed seed: a count of the work every hand does, the same on every machine, which a test
    holds to a committed budget. A fresh compilation of the game's spec is played, so hand
    values are worked out as play meets them, as in a new process. A compiled engine's own
    functions are invisible to the profiler: only the interpreted code's calls are counted."""
    fresh = Game(game.spec)
    rng = random.Random(seed)
    profile = cProfile.Profile()
    dealt = matches = 0
    profile.enable()
    while dealt < hands:
        st = fresh.new_match(seed=seed + matches)
        matches += 1
        dealt += 1
        while not st.match_over:
            if st.hand_over:
                if dealt >= hands:
                    break
                st.next_hand()
                dealt += 1
                continue
            st.apply(_pick(rng, st.legal_actions(), True))
    profile.disable()
    counts: dict[str, float] = {}
    for (filename, _, function), row in pstats.Stats(profile).stats.items():  # type: ignore[attr-defined]
        where = _counted(filename)
        if where is not None:
            key = f"{where}:{function}"
            counts[key] = counts.get(key, 0.0) + row[1] / hands
    return dict(sorted(counts.items()))


_PACKAGES = Path(__file__).resolve().parents[2]


def _counted(filename: str) -> str | None:
    """Where a profiled function lives, if it is counted: a module of the engine or the spec
    language, a generated formula ("formula contests.envido.window") or a name's getter."""
    if filename.startswith(("<formula ", "<name ")):
        return filename.strip("<>")
    path = Path(filename)
    for package, folder in (("interpreter/engine", _PACKAGES / "interpreter" / "engine"),
                            ("rulespec", _PACKAGES / "rulespec")):
        if path.is_relative_to(folder):
            return f"{package.rsplit('/', 1)[-1]}/{path.relative_to(folder).as_posix()}"
    return None


def peer_available() -> bool:
    return importlib.util.find_spec("pytruco") is not None


@dataclass
class Report:
    """One run: the interpreter's figures, the peer's (if measured) and their ratios, and the
    hand-written engine's random play (if measured) and the interpreter's ratio to it."""

    spec: str
    options: dict[str, Any]
    seconds: float
    fold: bool
    ours: Figures
    engine: str = ""                                    # which build of the engine ran
    defaults: dict[str, Any] = field(default_factory=dict)
    peer: Figures | None = None
    peer_missing: str = ""
    ratios: dict[str, float] = field(default_factory=dict)
    reference: Play | None = None
    reference_note: str = ""
    reference_missing: str = ""
    same_rules: bool = False                            # the reference plays the spec benched
    reference_ratios: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        reference = None if self.reference is None else {
            **asdict(self.reference), "hands_per_s": self.reference.hands_per_s,
            "actions_per_s": self.reference.actions_per_s, "note": self.reference_note,
            "same_rules": self.same_rules}
        return {"spec": self.spec, "options": self.options, "seconds": self.seconds, "fold": self.fold,
                "engine": self.engine, "interpreter": self.ours.as_dict(),
                "peer": self.peer.as_dict() if self.peer else None,
                "peer_missing": self.peer_missing, "ratios": self.ratios,
                "reference": reference, "reference_missing": self.reference_missing,
                "reference_ratios": self.reference_ratios}


RATIO_KEYS = ("hands_per_s", "actions_per_s", "clone_per_s", "to_json_per_s", "from_json_per_s",
              "bytes_per_state")


def ratios(ours: Figures, peer: Figures) -> dict[str, float]:
    """Interpreter ÷ peer for every figure both have (above 1: the interpreter has more of it)."""
    a, b = ours.as_dict(), peer.as_dict()
    return {k: a[k] / b[k] for k in RATIO_KEYS if b[k]}


def bench(spec: str, options: dict[str, Any], seconds: float = 2.0, seed: int = 0, fold: bool = False,
          with_peer: bool = True, matches: int | None = None, with_reference: bool = True) -> Report:
    """Measure the interpreter and, when installed and able to seat the players, pytruco; and the
    hand-written engine's random play, where the source checkout has it."""
    game = load_game(spec, options)
    precompute_s = precompute(game)
    engines: list[Engine] = [Interpreter(game)]
    missing = ""
    if not with_peer:
        missing = "not asked for (--no-peer)"
    elif not peer_available():
        missing = "pytruco is not installed: install the `bench` extra"
    else:
        try:
            engines.append(Pytruco(game.num_players, game.target))
        except TrucoError:
            missing = f"pytruco cannot seat {game.num_players} players"
    module = reference_module() if with_reference else None
    also: list[Player] = [] if module is None else [Reference(module)]
    (ours, *peer), plays = measure(engines, seconds, seed, fold, game.num_players, matches, also=also)
    ours.load_s, ours.compile_s = load_times(spec, game.options)
    ours.precompute_s = precompute_s
    defaults = {o.name: o.default for o in open_spec(spec).options}
    report = Report(game.name, dict(game.options), seconds, fold, ours, engine_build(), defaults,
                    peer_missing=missing)
    if peer:
        report.peer = peer[0]
        report.ratios = ratios(ours, peer[0])
    if module is None:
        report.reference_missing = "not asked for (--no-reference)" if not with_reference else \
            f"{REFERENCE.name} is not here: it lives in tools/ of a source checkout"
    else:
        report.reference, report.reference_note = plays[0], also[0].note
        report.same_rules = game is load_game(module.SPEC, module.OPTIONS)
        report.reference_ratios = {k: getattr(ours.play, k) / getattr(plays[0], k)
                                   for k in ("hands_per_s", "actions_per_s") if getattr(plays[0], k)}
    return report


# -- the command ----------------------------------------------------------------------------

ROWS = (
    ("random play, hands/s", "hands_per_s", "{:,.0f}"),
    ("random play, actions/s", "actions_per_s", "{:,.0f}"),
    ("clone/s", "clone_per_s", "{:,.0f}"),
    ("to JSON text/s", "to_json_per_s", "{:,.0f}"),
    ("from JSON text/s", "from_json_per_s", "{:,.0f}"),
    ("memory per live state (lower is better)", "bytes_per_state", "{:,.0f} B"),
)


def render(report: Report, console: Console) -> None:
    ours, peer = report.ours.as_dict(), report.peer.as_dict() if report.peer else None
    opts = ", ".join(f"{k}={v}" for k, v in report.options.items() if k not in report.defaults or k == "players"
                     or report.defaults[k] != v)
    console.print(f"[bold]{report.spec}[/] ({opts}); {report.seconds:g} CPU s per figure; "
                  f"folding {'allowed' if report.fold else 'only when nothing else is legal'}; "
                  f"engine: {report.engine}", highlight=False)
    table = Table("figure", "interpreter", *(("pytruco", "interpreter ÷ pytruco") if peer else ()))
    for label, key, fmt in ROWS:
        cells = [fmt.format(ours[key])]
        if peer:
            cells += [fmt.format(peer[key]), f"{report.ratios.get(key, 0):.2f}×"]
        table.add_row(label, *cells)
    table.add_row("spec load + validate + IR", f"{1000 * (report.ours.load_s or 0):.1f} ms",
                  *(("—", "") if peer else ()))
    table.add_row("compile", f"{1000 * (report.ours.compile_s or 0):.1f} ms", *(("—", "") if peer else ()))
    table.add_row("hand values of every hand", f"{1000 * (report.ours.precompute_s or 0):.0f} ms",
                  *(("—", "") if peer else ()))
    console.print(table)
    p = report.ours.play
    console.print(f"interpreter: {p.matches} matches, {p.hands} hands, {p.actions} actions in {p.seconds:.1f} s",
                  highlight=False)
    if report.peer:
        q = report.peer.play
        console.print(f"pytruco ({report.peer.note}): {q.matches} matches, {q.hands} hands, {q.actions} actions "
                      f"in {q.seconds:.1f} s", highlight=False)
    else:
        console.print(f"peer not measured: {report.peer_missing}", markup=False, highlight=False)
    r = report.reference
    if r is None:
        console.print(f"hand-written engine not measured: {report.reference_missing}", markup=False, highlight=False)
        return
    same = "the same rules" if report.same_rules else "other rules than these: a yardstick only"
    console.print(f"hand-written engine of {report.reference_note}: {r.hands_per_s:,.0f} hands/s, "
                  f"{r.actions_per_s:,.0f} actions/s ({r.matches} matches, {r.hands} hands, {r.actions} actions "
                  f"in {r.seconds:.1f} s); {same}", markup=False, highlight=False)
    ratio = report.reference_ratios
    console.print(f"[bold]interpreter ÷ hand-written: {ratio.get('hands_per_s', 0):.2f}× hands/s, "
                  f"{ratio.get('actions_per_s', 0):.2f}× actions/s[/]", highlight=False)


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("bench", help="measure play, copy and memory figures, beside pytruco and a "
                                            "hand-written engine")
    p.add_argument("spec", help="a bundled spec name or a spec file")
    p.add_argument("--players", type=int, default=None, help="shorthand for -o players=N")
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE", help="a table option")
    p.add_argument("--seconds", type=float, default=2.0, help="CPU seconds for each timed figure")
    p.add_argument("--seed", type=int, default=0, help="seed of the random play")
    p.add_argument("--fold", action="store_true",
                   help="let random play fold at any time (default: only when nothing else is legal, "
                        "as pytruco's own benchmark plays)")
    p.add_argument("--no-peer", action="store_true", help="leave pytruco out")
    p.add_argument("--no-reference", action="store_true",
                   help="leave out the hand-written engine (tools/handwritten.py in a source checkout)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(run=run)


def table_options(args: argparse.Namespace) -> dict[str, Any]:
    """`-o NAME=VALUE` pairs and `--players`, as load_game takes them."""
    options: dict[str, Any] = parse_options(args.option)
    if args.players is not None:
        options["players"] = str(args.players)
    return options


def run(args: argparse.Namespace, console: Console) -> int:
    report = bench(args.spec, table_options(args), args.seconds, args.seed, args.fold, not args.no_peer,
                   with_reference=not args.no_reference)
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        render(report, console)
    return 0
