"""The generic Truco interpreter: compile a spec into a game, play matches through one API.

    >>> from interpreter import load_game
    >>> game = load_game("teg", players=2)
    >>> state = game.new_match(seed=7)
    >>> state.current_player()
    0
"""
from rulespec.errors import IllegalAction, TrucoError

from interpreter.engine.game import Deal, Game, load_game
from interpreter.engine.state import State

__all__ = ["Deal", "Game", "IllegalAction", "State", "TrucoError", "load_game"]
