"""Any spec as an OpenSpiel game (the `openspiel` extra): registered with pyspiel as
`python_truco_rules`, so OpenSpiel's algorithms and tests run on it.

The deal is explicit chance, one card per chance node, dealt seat by seat (then the turned
card where the spec turns one), at the start of each hand: outcomes are the cards not yet
dealt, all equally likely. Actions are the game's stable integer ids. Rewards are terminal:
+1 to the winning team's seats, -1 to the others. Parameters: `spec` (a bundled name or a
path) and `options` (`"players=4,target=15"`). `SpecBot` seats any of the project's bots
(`random`, `heuristic`, `ismcts:N`) as an OpenSpiel bot, for `pyspiel.evaluate_bots` and the
like.

    >>> import pyspiel
    >>> import interpreter.adapters.openspiel
    >>> game = pyspiel.load_game("python_truco_rules", {"spec": "teg", "options": "players=2"})
    >>> state = game.new_initial_state()
    >>> state.is_chance_node()
    True
    >>> while state.is_chance_node():
    ...     state.apply_action(state.chance_outcomes()[0][0])
    >>> state.current_player()
    0
"""
from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from interpreter.adapters.encoding import Encoder
from interpreter.bots import make_bot
from interpreter.engine.game import Deal, Game, load_game
from interpreter.engine.state import State

MAX_GAME_LENGTH = 100_000

_GAME_TYPE = pyspiel.GameType(
    short_name="python_truco_rules",
    long_name="any spec of the rules-as-data interpreter",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"spec": "teg", "options": ""},
)


def _options(text: str) -> dict[str, str]:
    pairs = [p for p in text.split(",") if p.strip()]
    return dict(p.strip().split("=", 1) for p in pairs)


class SpecGame(pyspiel.Game):
    """A compiled spec under its options, as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = params or {}
        self.compiled: Game = load_game(str(params.get("spec", "teg")), _options(str(params.get("options", ""))))
        self.encoder = Encoder(self.compiled)
        g = self.compiled
        info = pyspiel.GameInfo(num_distinct_actions=len(g.actions), max_chance_outcomes=len(g.cards),
                                num_players=g.num_players, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=MAX_GAME_LENGTH)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> SpecState:
        return SpecState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SpecObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return SpecObserver(self, perfect_recall)


class _Box:
    """What pyspiel's clone (a deep copy of each attribute) must copy cheaply: the compiled
    game is shared, the match is copied with `State.clone`."""

    def __init__(self, game: Game, match: State | None = None) -> None:
        self.game = game
        self.match = match

    def __deepcopy__(self, memo: dict) -> _Box:
        return _Box(self.game, None if self.match is None else self.match.clone())


class SpecState(pyspiel.State):
    """A match, plus the cards dealt so far while a hand is being dealt."""

    def __init__(self, game: SpecGame) -> None:
        super().__init__(game)
        self._box = _Box(game.compiled)
        self.dealing: list[int] = []

    @property
    def compiled(self) -> Game:
        return self._box.game

    @property
    def match(self) -> State | None:
        return self._box.match

    def _deal_size(self) -> int:
        g = self.compiled
        return g.num_players * g.hand_size + (1 if g.turns_card else 0)

    def _is_dealing(self) -> bool:
        return self.match is None or (self.match.hand_over and not self.match.match_over)

    def current_player(self) -> int:
        if self.match is not None and self.match.match_over:
            return pyspiel.PlayerId.TERMINAL
        if self._is_dealing():
            return pyspiel.PlayerId.CHANCE
        assert self.match is not None
        seat = self.match.current_player()
        assert seat is not None
        return seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [c for c in range(len(self.compiled.cards)) if c not in self.dealing]
        return [(c, 1.0 / len(left)) for c in left]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.match is not None
        return self.match.legal_action_ids(player)

    def _apply_action(self, action: int) -> None:
        if not self._is_dealing():
            assert self.match is not None
            self.match.apply(int(action), self.match.current_player())
            return
        self.dealing.append(int(action))
        if len(self.dealing) < self._deal_size():
            return
        g = self.compiled
        ids = [g.cards.ids[c] for c in self.dealing]
        size = g.hand_size
        deal = Deal(tuple(tuple(ids[s * size:(s + 1) * size]) for s in range(g.num_players)),
                    ids[-1] if g.turns_card else None)
        self.dealing = []
        if self.match is None:
            self._box.match = g.new_match(seed=0, deals=[deal])
        else:
            self.match.next_hand(deal)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self.compiled.cards.ids[action]}"
        return self.compiled.actions[action]

    def is_terminal(self) -> bool:
        return self.match is not None and self.match.match_over

    def returns(self) -> list[float]:
        return self.match.returns() if self.match is not None else [0.0] * self.compiled.num_players

    def __str__(self) -> str:
        if self.match is None:
            return f"dealing: {len(self.dealing)} cards"
        st = self.match
        return f"hand {st.hand_number} score {st.score} tricks {st.tricks} to act {st.current_player()}"


class SpecBot(pyspiel.Bot):
    """A bot of `interpreter.bots.BOTS`, by name, playing `player`'s seat as an OpenSpiel bot.
    It chooses on the match the state wraps, through the seat's own view as everywhere else;
    chance nodes are OpenSpiel's to sample."""

    def __init__(self, name: str, player: int, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self._bot = make_bot(name, seed)
        self._player = player

    def player_id(self) -> int:
        return self._player

    def provides_policy(self) -> bool:
        return False

    def restart_at(self, state: SpecState) -> None:
        """Nothing to forget: the bot reads the match anew at every step."""

    def step(self, state: SpecState) -> int:
        match = state.match
        assert match is not None and match.current_player() == self._player
        return state.compiled.action_index[self._bot.choose(match, self._player)]


class SpecObserver:
    """A seat's observation: the encoding.py vector, and as a string its observation (or,
    with perfect recall, every event it has seen) in JSON."""

    def __init__(self, game: SpecGame, perfect_recall: bool) -> None:
        self.encoder = game.encoder
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SpecState, player: int) -> None:
        self.tensor[:] = 0 if state.match is None else self.encoder.encode(state.match, player)

    def string_from(self, state: SpecState, player: int) -> str:
        if state.match is None:
            return "dealing"
        if self.perfect_recall:
            return json.dumps(state.match.visible_events(player), sort_keys=True)
        return json.dumps(state.match.observation(player), sort_keys=True)


pyspiel.register_game(_GAME_TYPE, SpecGame)
