"""The specs a server offers, their options, and a game's public description for boards.

Clients name specs; they never pass paths. The server offers the bundled specs plus any
spec files its operator named on the command line. A spec has as many compiled games as
combinations of option values, too many to keep: the catalog keeps the most recently used
few, and compiles a new one on its one worker thread (one at a time, each set of options
once however many ask) so that the event loop keeps serving.
"""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from rulespec.dsl import Num
from rulespec.errors import OptionError, SpecError, SpecNotFound
from rulespec.ir import COMMON_VERBS, OptionDecl
from rulespec.load import bundled_names, open_spec
from rulespec.rulebook_i18n import LANGUAGES, catalog

from interpreter.designer.rulebook import option_name, value_words
from interpreter.engine.game import Game
from interpreter.engine.tables import places
from interpreter.server.errors import ApiError

_Key = tuple[str, tuple[tuple[str, Any], ...]]          # a spec's name and its chosen option values


class Catalog:
    """Spec names → where to load them from."""

    def __init__(self, extra: Sequence[str] = (), cache: int = 64) -> None:
        self.sources: dict[str, str] = {name: name for name in bundled_names()}
        for path in extra:
            self.sources[open_spec(path).name] = path
        self.cache_size = cache
        self.games: OrderedDict[_Key, Game] = OrderedDict()
        self.compiling: dict[_Key, asyncio.Future[Game]] = {}
        self.compiler = ThreadPoolExecutor(max_workers=1, thread_name_prefix="compile")

    def specs(self, language: str = "en") -> list[dict[str, Any]]:
        """Every spec offered, its options named in `language` as its rulebook names them: the
        option's words (`label`), each value's (`words`), and its doc in that language, else in
        the language it is written in (`about`: text and language); `doc` is the spec's own."""
        if language not in LANGUAGES:
            raise ApiError(400, "bad_language", f"no language {language!r}; languages: {', '.join(LANGUAGES)}")
        t = catalog(language)
        out = []
        for name, where in sorted(self.sources.items()):
            source = open_spec(where)
            spec = source.build()                           # its display labels, under the defaults
            out.append({
                "name": name,
                "title": str(source.tree.data.get("title", name)),
                "options": [{"name": o.name, "values": list(o.values), "default": o.default, "kind": o.kind,
                             "doc": str(o.doc) if o.doc else None, "label": option_name(spec, t, o.name),
                             "words": [value_words(spec, t, v) for v in o.values], "about": _about(o, language)}
                            for o in source.options],
            })
        return out

    async def game(self, name: str, options: Mapping[str, Any]) -> Game:
        """The game of a spec under options: from the cache, or compiled off the event loop."""
        if name not in self.sources:
            raise ApiError(400, "unknown_spec", f"no spec named {name!r}; offered: {', '.join(sorted(self.sources))}")
        try:
            source = open_spec(self.sources[name])
            chosen = source.resolve(dict(options))
            key = (name, tuple(sorted(chosen.items())))
            game = self.games.get(key)
            if game is None:
                pending = self.compiling.get(key)
                if pending is None:
                    loop = asyncio.get_running_loop()
                    pending = loop.run_in_executor(self.compiler, lambda: Game(source.build(chosen)))
                    self.compiling[key] = pending
                try:
                    game = await asyncio.shield(pending)
                finally:
                    self.compiling.pop(key, None)
                self.games[key] = game
        except OptionError as err:
            raise ApiError(400, "bad_option", str(err)) from None
        except (SpecError, SpecNotFound) as err:
            raise ApiError(500, "spec_unusable", f"spec {name!r} cannot be loaded: {err}") from None
        self.games.move_to_end(key)
        while len(self.games) > self.cache_size:
            self.games.popitem(last=False)
        return game


def _about(option: OptionDecl, language: str) -> dict[str, str] | None:
    """An option's doc in `language`, else as its spec writes it first, with its language."""
    if option.doc is None:
        return None
    text = option.doc.get(language)
    if text is not None:
        return {"text": text, "lang": language}
    lang, text = option.doc.texts[0]
    return {"text": text, "lang": lang}


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
        "raise_by": game.spec.stakes.raise_by,
        "contests": [{"name": c.name, "value": c.value, "calls": list(c.calls)} for c in game.contests],
        "answers": list(COMMON_VERBS),
        "actions": list(game.actions),
        "worths": _worths(game),
        "order": _order(game),
        "signals": None if game.signals is None else {"verb": game.signals.verb, "names": list(game.signals.names),
                                                      "to": game.signals.to},
        "display": {lang: {kind: dict(labels) for kind, labels in kinds} for lang, kinds in game.spec.display},
    }


def _worths(game: Game) -> dict[str, int]:
    """What each truco call makes the hand worth, where the spec says it with a number."""
    out = {}
    for call in game.spec.stakes.calls:
        expr = call.worth.expr
        if isinstance(expr, Num):
            out[call.name] = int(expr.value)
    return out


def _order(game: Game) -> dict[str, dict[str, int]]:
    """Each card's place in the trick order, 1 the highest, under each turned card ("" when no
    card is turned): the number seed 004's board prints under the cards in hand."""
    out = {}
    for turned, strength in game.strength.items():
        key = "" if turned is None else game.cards.ids[turned]
        out[key] = dict(zip(game.cards.ids, places(strength), strict=True))
    return out
