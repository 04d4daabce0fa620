"""`truco eval SPEC FORMULA --hand 7o 6o 4c [--turned C] [-o NAME=VALUE]`: a hand formula's
value, for the rule designer: a hand value the spec names (envido, flor, ...), or any
formula over a hand written in the DSL (`best_suited(2) + 20`, `suited(3)`)."""
from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from rulespec import dsl
from rulespec.errors import Loc, OptionError, TrucoError
from rulespec.ir import Formula, Span

from interpreter.engine.game import Game, load_game, parse_options
from interpreter.engine.tables import hand_formula


def evaluate(game: Game, formula: str, hand: list[str], turned: str | None = None) -> Any:
    """The value of `formula` (a hand value's name or a DSL formula) for `hand`; None when
    the hand does not hold the value (no flor)."""
    unknown = [c for c in [*hand, *([turned] if turned else [])] if c not in game.cards.index]
    if unknown:
        raise OptionError(f"{', '.join(unknown)}: not a card of {game.name}'s deck "
                          f"(cards are written rank then suit: {game.cards.ids[0]})")
    if len(set(hand)) != len(hand) or (turned and turned in hand):
        raise OptionError("a card appears twice")
    if game.turns_card and turned is None:
        raise OptionError(f"{game.name} turns a card after the deal: give it with --turned")
    codes = [game.cards.index[c] for c in hand]
    turned_code = game.cards.index[turned] if turned and game.turns_card else None
    if formula in game.values:
        if len(codes) != game.hand_size:
            raise OptionError(f"a hand holds {game.hand_size} cards, not {len(codes)}")
        return game.values[formula](tuple(codes), turned_code)
    def nowhere(offset: int) -> Loc:
        return Loc("<command line>", 1, offset + 1)
    expr = dsl.parse_expr(formula, nowhere, path="$eval")
    f = Formula(expr, formula, Span(None, "$eval"), nowhere)
    try:
        fn = hand_formula(game.spec, game.cards, game.views, f)
    except (KeyError, TrucoError) as err:
        names = ", ".join(game.values) or "none"
        raise OptionError(f"{formula!r} is not a hand value of {game.name} ({names}) nor a hand formula: "
                          f"{err}") from None
    return fn(codes, turned_code)


def run(args: argparse.Namespace, console: Console) -> int:
    game = load_game(args.spec, parse_options(args.option))
    value = evaluate(game, args.formula, args.hand, args.turned)
    shown = "does not hold it" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
    turned = f" (turned {args.turned})" if args.turned and game.turns_card else ""
    print(f"{args.formula} of {' '.join(args.hand)}{turned}: {shown}")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("eval", help="print, for one hand, a hand value the spec names or any hand formula")
    p.add_argument("spec", help="a bundled spec name or a spec file")
    p.add_argument("formula", help="a hand value the spec names (see its rulebook) or a DSL formula over a hand")
    p.add_argument("--hand", nargs="+", required=True, metavar="CARD",
                   help="the hand's cards, as the spec's deck writes them")
    p.add_argument("--turned", metavar="CARD", default=None, help="the turned card, for specs that turn one")
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE", help="a table option")
    p.set_defaults(run=run)
