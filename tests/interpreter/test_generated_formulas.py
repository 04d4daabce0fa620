"""Formulas as generated Python: the engine compiles each formula into one Python function
(`compile_expr(..., generate=True)`) instead of a tree of closures. Every formula of every
bundled spec, evaluated both ways on the positions of random play, for every seat and for
none, gives the same value or fails the same way."""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rulespec.errors import SpecError
from rulespec.formula import Compiled, compile_expr
from rulespec.ir import Formula, Spec
from rulespec.load import bundled_names

from interpreter.engine.context import NATIVE, NATIVE_NAMES, PLAY_NAMES, PLAY_SOURCES, Pay, context
from interpreter.engine.game import Game, load_game
from interpreter.engine.tables import HandCtx, _hand_env


def formulas(node: Any) -> Iterator[Formula]:
    """Every formula of an IR node, depth first."""
    if isinstance(node, Formula):
        yield node
    elif isinstance(node, (list, tuple)):
        for item in node:
            yield from formulas(item)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            yield from formulas(getattr(node, f.name))


def both_ways(game: Game) -> tuple[list[tuple[Formula, Compiled, Compiled]], list[tuple[Formula, Compiled, Compiled]]]:
    """The spec's formulas compiled both ways: those of play, and those of a hand's cards."""
    spec: Spec = game.spec
    hand_env = _hand_env(game.cards, dict(spec.chosen))
    play, hand = [], []
    for f in formulas(spec):
        for env, out in ((game.env, play), (hand_env, hand)):
            try:
                pair = [compile_expr(f.expr, env, f.locate, f.span.path, generate=g) for g in (False, True)]
            except SpecError:
                continue
            out.append((f, pair[0], pair[1]))
            break
    return play, hand


def outcome(fn: Any, ctx: Any) -> Any:
    try:
        return ("value", fn(ctx))
    except Exception as exc:  # noqa: BLE001 - a formula fails as its closure fails, whatever the failure
        return ("fails", type(exc).__name__)


CONFIGS = [(name, options) for name in bundled_names() for options in ({}, {"players": 4}, {"flor": True})]


@pytest.mark.parametrize("spec, options", CONFIGS, ids=[f"{s}-{o}" for s, o in CONFIGS])
def test_every_formula_evaluates_alike_both_ways(spec: str, options: dict[str, Any]) -> None:
    try:
        game = load_game(spec, options)
    except Exception:  # noqa: BLE001 - an option the spec does not offer
        pytest.skip(f"{spec} does not offer {options}")
    play, hand = both_ways(game)
    assert play and any(not c.constant for _, c, _ in play)
    rng = random.Random(7)
    compared = 0
    for seed in range(6):
        st = game.new_match(seed=seed)
        while not st.match_over and st.hand_number < 4:
            if st.hand_over:
                st.next_hand()
                continue
            for seat in [None, *range(game.num_players)]:
                team = None if seat is None else game.team_of[seat]
                pay = Pay(*(rng.randrange(8) for _ in range(7)))
                ctx = context(st, game, seat, team if team is not None else rng.randrange(2), pay)
                for f, closures, generated in play:
                    assert outcome(generated.fn, ctx) == outcome(closures.fn, ctx), f"{f.span.path}: {f.text}"
                    compared += 1
            for seat in range(game.num_players):
                view = game.views[st.turned]
                for f, closures, generated in hand:
                    ctx_hand = HandCtx(st.dealt[seat], view)
                    assert outcome(generated.fn, ctx_hand) == outcome(closures.fn, ctx_hand), f.span.path
            st.apply(rng.choice(st.legal_actions()))
    assert compared > 100


def test_the_generated_source_is_one_expression_without_the_closures() -> None:
    """A formula's source reads the match directly: no call per node."""
    game = load_game("teg")
    window = game.spec.contests[0].window
    compiled = compile_expr(window.expr, game.env, window.locate, window.span.path, generate=True)
    assert "c.st.trick_no" in compiled.source and "c.st.stake_level" in compiled.source
    assert compiled.fn.__code__.co_filename == f"<formula {window.span.path}>"


def test_the_engine_s_own_functions_for_names_alone_read_what_their_sources_read() -> None:
    """`context.NATIVE`: a formula that is one of these names alone runs as the engine's own
    function (compiled with it), which must give what the name's generated source gives."""
    game = load_game("teg")
    assert game.fold_pays is NATIVE_NAMES["stake"]            # `fold.pays: stake`
    assert set(NATIVE) == {f"({PLAY_SOURCES[name]})" for name in NATIVE_NAMES}
    rng = random.Random(3)
    compared = 0
    for seed in range(4):
        st = game.new_match(seed=seed)
        while not st.match_over and st.hand_number < 6:
            if st.hand_over:
                st.next_hand()
                continue
            ctx = context(st, game, st.current_player(), 0, Pay(*(rng.randrange(9) for _ in range(7))))
            for name, fn in NATIVE_NAMES.items():
                assert fn(ctx) == PLAY_NAMES[name](ctx), name
                compared += 1
            st.apply(rng.choice(st.legal_actions()))
    assert compared > 50
