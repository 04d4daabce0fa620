"""What an analysed spec declares and holds, for completion and hover in a spec and in a case
file alike: its calls, options and deck, its compiled game, and the completion items built
from them."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from lsprotocol import types as lsp

from interpreter.designer.lsp.analysis import ENGINE_ERRORS, Analysis, value_at


def spec_data(a: Analysis) -> dict[str, Any]:
    """The spec's data as merged, else as written, else its base's: names complete while
    the buffer is broken."""
    for t in (a.tree, a.own, a.base):       # a buffer broken from its opening: its base's names
        if t is not None and isinstance(t.data, dict):
            return t.data
    return {}


def calls_of(a: Analysis) -> dict[str, tuple]:
    """Every call name and the path of its declaration."""
    data = spec_data(a)
    out: dict[str, tuple] = {}
    for name in value_at(data, ("stakes", "calls")) or {}:
        out.setdefault(name, ("stakes", "calls", name))
    for contest, node in (data.get("contests") or {}).items():
        if isinstance(node, dict) and isinstance(node.get("calls"), dict):
            for name in node["calls"]:
                out.setdefault(name, ("contests", contest, "calls", name))
    return out


def options_of(a: Analysis) -> dict[str, dict[str, Any]]:
    opts = spec_data(a).get("options") or {}
    return {k: v for k, v in opts.items() if isinstance(v, dict)}


def cards_of(a: Analysis) -> tuple[str, ...]:
    """The deck's card ids; while the spec does not build, its written ranks by its suits."""
    if a.spec is not None:
        return a.spec.deck.cards
    return tuple(r + s for r in ranks_of(a) for s in suits_of(a))


def ranks_of(a: Analysis) -> tuple[str, ...]:
    if a.spec is not None:
        return a.spec.deck.ranks
    return tuple(str(r) for r in value_at(spec_data(a), ("deck", "ranks")) or [])


def suits_of(a: Analysis) -> tuple[str, ...]:
    if a.spec is not None:
        return a.spec.deck.suits
    return tuple(str(s) for s in value_at(spec_data(a), ("deck", "suits")) or [])


def item(label: str, kind: lsp.CompletionItemKind, detail: str = "", doc: str = "",
         insert: str | None = None) -> lsp.CompletionItem:
    return lsp.CompletionItem(label=label, kind=kind, detail=detail or None,
                              documentation=lsp.MarkupContent(lsp.MarkupKind.Markdown, doc) if doc else None,
                              insert_text=insert)


def deck_items(a: Analysis, place: str) -> Iterator[lsp.CompletionItem]:
    if place in ("cards", "cards_only"):
        for card in cards_of(a):
            yield item(card, lsp.CompletionItemKind.Constant, "a card of the deck")
    if place in ("cards", "ranks"):
        for rank in ranks_of(a):
            yield item(rank, lsp.CompletionItemKind.Constant, f"a rank of the deck (every {rank} of the deck)")
    if place == "suits":
        for suit in suits_of(a):
            yield item(suit, lsp.CompletionItemKind.Constant, "a suit of the deck")


def game_of(a: Analysis) -> Any:
    """The game compiled under the default options, once per analysis (None when it does not
    compile)."""
    if a.cache.get("game", False) is not False:
        return a.cache["game"]
    game = None
    if a.spec is not None:
        from interpreter.engine.game import Game
        try:
            game = Game(a.spec)
        except ENGINE_ERRORS:   # a spec the engine cannot compile has no ranks to show
            game = None
    a.cache["game"] = game
    return game
