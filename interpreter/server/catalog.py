"""The specs a server offers, their options, and a game's public description for boards.

Clients name specs; they never pass paths. The server offers the bundled specs plus any
spec files its operator named on the command line.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from rulespec.errors import OptionError, SpecError, SpecNotFound
from rulespec.ir import COMMON_VERBS
from rulespec.load import bundled_names, open_spec

from interpreter.game import Game, load_game
from interpreter.server.errors import ApiError


class Catalog:
    """Spec names → where to load them from."""

    def __init__(self, extra: Sequence[str] = ()) -> None:
        self.sources: dict[str, str] = {name: name for name in bundled_names()}
        for path in extra:
            self.sources[open_spec(path).name] = path

    def specs(self) -> list[dict[str, Any]]:
        out = []
        for name, where in sorted(self.sources.items()):
            source = open_spec(where)
            out.append({
                "name": name,
                "title": str(source.tree.data.get("title", name)),
                "options": [{"name": o.name, "values": list(o.values), "default": o.default, "kind": o.kind,
                             "doc": o.doc} for o in source.options],
            })
        return out

    def game(self, name: str, options: Mapping[str, Any]) -> Game:
        if name not in self.sources:
            raise ApiError(400, "unknown_spec", f"no spec named {name!r}; offered: {', '.join(sorted(self.sources))}")
        try:
            return load_game(self.sources[name], dict(options))
        except OptionError as err:
            raise ApiError(400, "bad_option", str(err)) from None
        except (SpecError, SpecNotFound) as err:
            raise ApiError(500, "spec_unusable", f"spec {name!r} cannot be loaded: {err}") from None


def game_info(game: Game) -> dict[str, Any]:
    """What a board needs to draw any variant: seats, teams, deck, the calls and their kinds."""
    deck = game.spec.deck
    return {
        "spec": game.name,
        "title": game.spec.title,
        "options": dict(game.options),
        "players": game.num_players,
        "teams": game.teams,
        "team_of": list(game.team_of),
        "target": game.target,
        "hand_size": game.hand_size,
        "deck": {"suits": list(deck.suits), "ranks": list(deck.ranks), "cards": list(game.cards.ids)},
        "turns_card": game.turns_card,
        "ladder": list(game.stake_names),
        "contests": [{"name": c.name, "value": c.value, "calls": list(c.calls)} for c in game.contests],
        "answers": list(COMMON_VERBS),
        "actions": list(game.actions),
    }
