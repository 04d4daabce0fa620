"""The public API as a user types it: checked by mypy (pyproject.toml's `files`), never run.

A change of a signature that breaks user code breaks this file first. The functions are not
tests (no `test_` prefix): pytest imports the module and finds nothing to run.
"""
from __future__ import annotations

from typing import Any

from interpreter import Deal, Game, IllegalAction, State, TrucoError, load_game
from interpreter.bots import Bot, HeuristicBot, RandomBot
from interpreter.engine.game import parse_options
from interpreter.engine.state import turns


def _loading() -> None:
    game: Game = load_game("reglamento", players=2, flor=True)
    game = load_game("teg", {"players": 4}, **parse_options(["flor=true"]))
    names: tuple[str, ...] = game.actions
    index: int = game.action_index[names[0]]
    players: int = game.num_players
    team: int = game.team_of[0]
    card: str = game.cards.ids[0]
    print(index, players, team, card)


def _playing(game: Game) -> None:
    state: State = game.new_match(seed=7, dealer=0, deals=[Deal((("1e", "2e", "3e"), ("4e", "5e", "6e")))],
                                  score=[0, 0])
    seat: int | None = state.current_player()
    legal: list[str] = state.legal_actions()
    ids: list[int] = state.legal_action_ids(0)
    mask: list[bool] = state.action_mask()
    reason: str | None = state.why_illegal("truco", seat=1)
    state.apply(legal[0])
    state.apply(ids[0], seat=0)
    over: bool = state.hand_over or state.match_over or state.is_terminal()
    score: list[int] = state.score
    worth: int = state.hand_worth
    tricks: list[int | str] = state.tricks
    returns: list[float] = state.returns()
    if state.hand_over and not state.match_over:
        state.next_hand()
        state.next_hand(Deal((("1e", "2e", "3e"), ("4e", "5e", "6e")), turned="7o"))
    print(seat, mask, reason, over, score, worth, tricks, returns)


def _viewing(state: State) -> None:
    obs: dict[str, Any] = state.observation(0)
    events: list[dict[str, Any]] = state.visible_events(None) + state.visible_events(1)
    print(obs["legal"], events)


def _copying(game: Game, state: State) -> None:
    copy: State = state.clone()
    data: dict[str, Any] = state.to_json()
    back: State = game.state_from_json(data)
    again: State = State.from_json(game, data)
    same: bool = copy == back == again
    print(same)


def _driving(game: Game) -> None:
    state = game.new_match(seed=1)
    bots: list[Bot] = [RandomBot(seed=1), HeuristicBot(seed=2)]
    for seat in turns(state, max_hands=3):
        state.apply(bots[seat % 2].choose(state, seat))


def _refusing(state: State) -> None:
    try:
        state.apply("play 1e")
    except IllegalAction as err:
        reason: str = err.reason
        print(reason)
    except TrucoError:
        pass
