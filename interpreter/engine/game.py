"""A compiled game: one spec under one choice of table options, ready to start matches."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulespec.blame import relocate_all
from rulespec.errors import OptionError, SpecError
from rulespec.load import open_spec

from interpreter.engine.records import Deal
from interpreter.engine.rules import Rules
from interpreter.engine.state import State

__all__ = ["Deal", "Game", "load_game", "parse_options"]


class Game(Rules):
    """Compiled tables and closures for one spec + options; `new_match` starts a State."""

    __slots__ = ()

    def new_match(self, seed: int | None = None, dealer: int | None = None,
                  deals: Sequence[Deal] | None = None, score: Sequence[int] | None = None) -> State:
        """Start a match: the first hand is dealt at once (scripted deals come first)."""
        return State.start(self, seed, dealer, deals, score)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State.from_json(self, data)


_GAMES: dict[tuple[Any, ...], Game] = {}


def load_game(name_or_path: str, options: Mapping[str, object] | None = None, **more: object) -> Game:
    """A compiled game for a bundled spec name or a spec path; compiled once per options."""
    source = open_spec(name_or_path)
    chosen = source.resolve({**(options or {}), **more})
    key = (str(source.path), tuple(sorted(chosen.items())), id(source))
    game = _GAMES.get(key)
    if game is None:
        try:
            game = _GAMES[key] = Game(source.build(chosen))
        except SpecError as err:
            raise SpecError(relocate_all(err.diagnostics, source.tree, str(source.path))) from None
    return game


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """`NAME=VALUE` pairs from a command line, as load_game takes them."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise OptionError(f"an option is NAME=VALUE, not {pair!r}")
        out[key] = value
    return out
