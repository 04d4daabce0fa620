"""Bots that drive any spec through the public State API only, and the table of their names.

Each bot sees what its seat may see (`observation(seat)`, the events shown to it) plus the
compiled game's public tables. `BOTS` maps the names the command line, the server and the
adapters accept to bot factories; a name may carry a parameter after a colon
(`ismcts:400` searches 400 playouts a decision, 150 without one, `ismcts:50ms` for 50 milliseconds).

The bots' modules (`basic`, whose heuristic is the search's rollout policy, and `ismcts`) may
be compiled with mypyc (setup.py), and are imported from their source when stale, as the engine
is (`interpreter.engine.guard`): the guard runs before this package imports them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from interpreter.engine import build_of, guard

STALE = guard(__name__, Path(__file__).resolve().parent, "bots' code")

from interpreter.bots.basic import Bot, HeuristicBot, RandomBot, Tables, tables  # noqa: E402
from interpreter.bots.ismcts import IsmctsBot  # noqa: E402
from interpreter.engine.state import State, turns  # noqa: E402

__all__ = ["BOTS", "Bot", "BotFactory", "HeuristicBot", "IsmctsBot", "RandomBot", "Tables", "build", "make_bot",
           "play_out", "tables"]


def build() -> str:
    """Which bots run: "compiled (mypyc)" or "pure Python", and why not compiled."""
    from interpreter.bots import basic, ismcts
    search, heuristic = build_of(ismcts, STALE), build_of(basic, STALE)
    return search if heuristic == search else f"{search}, its rollout policy {heuristic}"


BotFactory = Callable[[int | None], Bot]


def _ismcts(param: str | None) -> BotFactory:
    """`ismcts`, `ismcts:N` (playouts a decision) or `ismcts:Nms` (a time budget: not replayable)."""
    if param is None:
        return lambda seed: IsmctsBot(seed)
    text = param.strip().lower()
    if text.endswith("ms") and text[:-2].isdigit() and int(text[:-2]) > 0:
        ms = int(text[:-2])
        return lambda seed: IsmctsBot(seed, milliseconds=ms)
    if text.isdigit() and int(text) > 0:
        playouts = int(text)
        return lambda seed: IsmctsBot(seed, playouts=playouts)
    raise KeyError(f"ismcts:{param}")


def _plain(factory: BotFactory) -> Callable[[str | None], BotFactory]:
    def make(param: str | None) -> BotFactory:
        if param is not None:
            raise KeyError(param)
        return factory
    return make


class BotTable(Mapping[str, BotFactory]):
    """The bots by name. Iterating lists the plain names; a lookup also takes `name:param`
    where the bot has a parameter, so that every place that accepts a bot name (`--bots`, the
    server's `bots`, `truco simulate`) accepts its budget too."""

    def __init__(self, makers: Mapping[str, Callable[[str | None], BotFactory]]) -> None:
        self._makers = dict(makers)

    def __getitem__(self, name: str) -> BotFactory:
        base, sep, param = name.partition(":")
        if base not in self._makers:
            raise KeyError(name)
        return self._makers[base](param if sep else None)

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        try:
            self[name]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)


BOTS: Mapping[str, BotFactory] = BotTable({"random": _plain(RandomBot), "heuristic": _plain(HeuristicBot),
                                           "ismcts": _ismcts})


def make_bot(name: str, seed: int | None = None) -> Bot:
    """The bot `name` (with its parameter, if any) seeded with `seed`."""
    return BOTS[name](seed)


MAX_ACTIONS = 100_000
"""A match still going after this many actions is stuck: the players never end it."""


def play_out(state: State, bots: list[Bot], max_actions: int = MAX_ACTIONS) -> int:
    """Play until the match ends, dealing each next hand; returns the number of actions."""
    actions = 0
    for seat in turns(state):
        state.apply(bots[seat].choose(state, seat), seat=seat)
        actions += 1
        if actions >= max_actions:
            raise RuntimeError(f"the match did not end within {max_actions} actions")
    return actions
