"""`truco analyze`: exact distributions over every possible deal, not samples.

Every hand value the spec defines is computed for every hand under every turned card (a
deal to one seat: the turned card uniform over the deck, the hand uniform over the rest),
and every contest's odds for the mano against one random opponent hand are counted over
every pair of disjoint hands, by inclusion and exclusion over the cards they could share.
"""
from __future__ import annotations

import argparse
import itertools
import json
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from interpreter.engine.game import Game, load_game

Hand = tuple[int, ...]
TIES_TO_MANO = ("nearer_lead", "mano_team")   # tie rules under which a tied count goes to the mano


@dataclass
class Distribution:
    """How often each value occurs among all (turned card, hand) deals to one seat."""

    name: str
    deals: int = 0                       # every (turned card, hand) pair
    counts: dict[int, int] = field(default_factory=dict)   # value -> deals, holders only

    @property
    def holders(self) -> int:
        return sum(self.counts.values())

    def as_dict(self) -> dict[str, Any]:
        holders = self.holders
        mean = sum(v * n for v, n in self.counts.items()) / holders if holders else None
        return {"name": self.name, "deals": self.deals, "holders": holders,
                "holds": holders / self.deals if self.deals else None,
                "min": min(self.counts, default=None), "max": max(self.counts, default=None), "mean": mean,
                "probability": {str(v): n / self.deals for v, n in sorted(self.counts.items())}}


@dataclass
class Odds:
    """Ordered pairs (mano's hand, opponent's hand) of disjoint hands, under every turned card."""

    name: str
    ties_to_mano: bool = True
    pairs: int = 0                       # every pair of disjoint hands
    both: int = 0                        # ... where both hands hold the value
    greater: int = 0                     # ... and the mano's is higher
    equal: int = 0

    def add(self, other: tuple[int, int, int, int]) -> None:
        pairs, both, greater, equal = other
        self.pairs += pairs
        self.both += both
        self.greater += greater
        self.equal += equal

    @property
    def mano_wins(self) -> float:
        """The mano's chance to win when both hold the value (ties count as the tie rule says)."""
        won = self.greater + (self.equal if self.ties_to_mano else 0)
        return won / self.both if self.both else float("nan")

    def as_dict(self) -> dict[str, Any]:
        less = self.both - self.greater - self.equal
        share = (lambda n: n / self.both) if self.both else (lambda n: None)
        return {"name": self.name, "pairs": self.pairs, "both_hold": self.both / self.pairs if self.pairs else None,
                "greater": share(self.greater), "equal": share(self.equal), "less": share(less),
                "ties_to_mano": self.ties_to_mano, "mano_wins": self.mano_wins if self.both else None}


def deals(game: Game) -> Iterator[tuple[int | None, list[Hand]]]:
    """Each turned card (None without one) with every hand the rest of the deck can deal."""
    for turned in game.views:
        deck = [c for c in range(len(game.cards)) if c != turned]
        yield turned, list(itertools.combinations(deck, game.hand_size))


def pair_counts(values: Mapping[Hand, int], pool: int, size: int) -> tuple[int, int, int, int]:
    """(pairs, both hold, mano higher, equal) over ordered pairs of disjoint hands of `size`
    cards drawn from `pool` cards, where `values` holds the holders' values (sorted hands).

    For each hand, the opponent hands sharing no card with it are counted by inclusion and
    exclusion over the subsets of its cards: hands containing a subset S are looked up in a
    sorted list of their values, so each hand costs 2^k bisections instead of a pass."""
    containing: dict[Hand, list[int]] = {}
    for hand, v in values.items():
        for r in range(len(hand) + 1):
            for sub in itertools.combinations(hand, r):
                containing.setdefault(sub, []).append(v)
    for found in containing.values():
        found.sort()
    both = greater = equal = 0
    for hand, v in values.items():
        for r in range(len(hand) + 1):
            sign = -1 if r % 2 else 1
            for sub in itertools.combinations(hand, r):
                found = containing.get(sub, [])
                below, upto = bisect_left(found, v), bisect_right(found, v)
                both += sign * len(found)
                greater += sign * below
                equal += sign * (upto - below)
    return _choose(pool, size) * _choose(pool - size, size), both, greater, equal


def _choose(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


@dataclass
class Analysis:
    """A spec's exact figures: its hand values, its contests' odds, and the best card's."""

    spec: str
    options: dict[str, Any]
    players: int
    turns_card: bool
    values: list[Distribution]
    contests: list[Odds]
    best_card: Odds

    def as_dict(self) -> dict[str, Any]:
        return {"spec": self.spec, "options": self.options, "players": self.players, "turns_card": self.turns_card,
                "values": [d.as_dict() for d in self.values], "contests": [o.as_dict() for o in self.contests],
                "best_card": self.best_card.as_dict()}


def analyze(game: Game) -> Analysis:
    """Every figure, exactly: each hand value over every deal, each contest's odds for the mano
    against one opponent hand, and the odds of the mano's best card against the opponent's."""
    dists = {name: Distribution(name) for name in game.values}
    contests = [Odds(c.name, c.tie in TIES_TO_MANO) for c in game.contests]
    best = Odds("best card", ties_to_mano=False)
    for turned, hands in deals(game):
        pool = len(game.cards) - (turned is not None)
        tables: dict[str, dict[Hand, int]] = {}
        for name, value_of in game.values.items():
            table = tables[name] = _holders(hands, value_of, turned)
            dist = dists[name]
            dist.deals += len(hands)
            for v in table.values():
                dist.counts[v] = dist.counts.get(v, 0) + 1
        for cont, odds in zip(game.contests, contests, strict=False):
            odds.add(pair_counts(tables[cont.value], pool, game.hand_size))
        strength = game.strength[turned]
        best.add(pair_counts({h: max(strength[c] for c in h) for h in hands}, pool, game.hand_size))
    return Analysis(game.name, dict(game.options), game.num_players, game.turns_card, list(dists.values()),
                    contests, best)


def _holders(hands: list[Hand], value_of: Callable[[Hand, int | None], int | None],
             turned: int | None) -> dict[Hand, int]:
    out = {}
    for h in hands:
        v = value_of(h, turned)
        if v is not None:
            out[h] = v
    return out


# -- the report ---------------------------------------------------------------------------

def render(a: Analysis, console: Console) -> None:
    console.print(f"[bold]{a.spec}[/]: exact figures over every deal", highlight=False)
    if a.values:
        table = Table("value", "hands holding it", "min", "max", "mean", "most frequent",
                      title="Hand values over every hand" + (" under every turned card" if a.turns_card else ""))
        for d in a.values:
            s = d.as_dict()
            common = sorted(d.counts.items(), key=lambda vn: -vn[1])[:3]
            table.add_row(d.name, f"{s['holders']:,} of {s['deals']:,} ({100 * s['holds']:.2f}%)",
                          str(s["min"]), str(s["max"]), f"{s['mean']:.2f}",
                          ", ".join(f"{v} ({100 * n / d.deals:.1f}%)" for v, n in common))
        console.print(table)
    else:
        console.print("this spec defines no hand values", highlight=False)
    table = Table("contest", "both hands hold it", "mano higher", "tie", "mano lower", "mano wins",
                  title="The mano against one random opponent hand")
    for o in a.contests + [a.best_card]:
        s = o.as_dict()
        if not o.both:
            table.add_row(o.name, "never", "", "", "", "")
            continue
        table.add_row(o.name, f"{100 * s['both_hold']:.3f}%",
                      *(f"{100 * s[k]:.2f}%" for k in ("greater", "equal", "less")),
                      f"{100 * s['mano_wins']:.2f}%" + ("" if o.ties_to_mano else " (ties apart)"))
    console.print(table)


def plot(a: Analysis, out: Path) -> list[Path]:
    from interpreter.measure.simulate import pyplot, save
    plt = pyplot()
    if plt is None:
        return []
    written: list[Path] = []
    for d in a.values:
        fig, ax = plt.subplots(figsize=(7, 4))
        values = sorted(d.counts)
        ax.bar(values, [100 * d.counts[v] / d.deals for v in values], color="#4c72b0")
        ax.set(xlabel=d.name, ylabel="% of hands",
               title=f"{a.spec}: {d.name} over every hand ({100 * d.holders / d.deals:.2f}% hold it)")
        written += save(plt, fig, out, f"value_{d.name}")
    return written


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("analyze", help="exact hand-value distributions and odds over every deal")
    p.add_argument("spec", help="a bundled spec name or a spec file")
    p.add_argument("--players", type=int, default=None, help="shorthand for -o players=N")
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE", help="a table option")
    p.add_argument("--out", type=Path, default=None, help="write analysis.json and the plots here")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, console: Console) -> int:
    from interpreter.measure.bench import table_options
    result = analyze(load_game(args.spec, table_options(args)))
    if args.json:
        print(json.dumps(result.as_dict(), indent=2))
    else:
        render(result, console)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        path = args.out / "analysis.json"
        path.write_text(json.dumps(result.as_dict(), indent=2) + "\n", encoding="utf-8")
        written = [path, *plot(result, args.out)]
        if not args.json:                   # --json keeps standard output for the figures alone
            if len(written) == 1 and result.values:
                console.print("plots skipped: they need matplotlib, the `plots` extra", markup=False)
            console.print(f"wrote {', '.join(str(p) for p in written)}", highlight=False)
    return 0
