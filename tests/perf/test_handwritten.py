"""The hand-written engine `truco bench` measures against (tools/handwritten.py) plays the
rules of the spec it names: the same seeds and the same random choices give the same legal
actions at every step and the same scores, so the bench's ratio compares one game two ways."""
from __future__ import annotations

import random

import pytest

from interpreter.engine.game import load_game
from interpreter.measure.bench import Reference, _pick, reference_module


@pytest.mark.parametrize("fold", [True, False])
def test_the_hand_written_engine_plays_move_for_move_as_the_interpreter(fold: bool) -> None:
    ref = reference_module()
    assert ref is not None
    game = load_game(ref.SPEC, ref.OPTIONS)
    steps = 0
    for seed in range(150):
        ours, theirs = game.new_match(seed=seed), ref.Match(seed)
        rng = random.Random(seed)
        while not ours.match_over:
            assert theirs.hand_over == ours.hand_over and theirs.score == ours.score
            if ours.hand_over:
                ours.next_hand()
                theirs.next_hand()
                continue
            legal = ours.legal_actions()
            assert theirs.legal_actions() == legal, (seed, steps)
            action = _pick(rng, legal, fold)
            ours.apply(action)
            theirs.apply(action)
            steps += 1
        assert theirs.match_over and theirs.score == ours.score
    assert steps > 3000


def test_the_reference_refuses_what_it_does_not_allow() -> None:
    ref = reference_module()
    assert ref is not None
    m = ref.Match(0)
    with pytest.raises(ValueError, match="not legal"):
        m.apply("accept")


def test_the_reference_counts_as_the_interpreter_does() -> None:
    """Hands are deals, actions are applied actions: the counts of the reference's random play
    are those of the same matches played on the interpreter."""
    ref = reference_module()
    assert ref is not None
    game = load_game(ref.SPEC, ref.OPTIONS)
    from interpreter.measure.bench import Interpreter
    theirs = Reference(ref).play(None, 5, seed=2, fold=True)
    ours = Interpreter(game).play(None, 5, seed=2, fold=True)
    assert (theirs.matches, theirs.hands, theirs.actions) == (ours.matches, ours.hands, ours.actions)
