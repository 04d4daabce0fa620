"""Live matches: create, find, authorise, act, let bots play, persist, and wake listeners.

Every request runs on the server's one event-loop thread, and a match's change — the
action, the bots' answers, the next deal, the commit to the store — happens without
yielding to another request. So two clients acting on one match are served one after the
other, and nobody is shown an action before it is on disk.

The server deals the next hand itself, at once, when a hand ends: the `hand_over` event
stays in every seat's event stream, and the view shows the new hand.
"""
from __future__ import annotations

import asyncio
import secrets
from typing import Any, Mapping

from rulespec.errors import IllegalAction

from interpreter.bots import BOTS
from interpreter.game import Game
from interpreter.server.catalog import Catalog, game_info
from interpreter.server.errors import ApiError
from interpreter.server.security import new_match_id, new_token, token_hash
from interpreter.server.store import MatchRecord, Store
from interpreter.state import State
from interpreter.views import visible_events

MAX_BOT_ACTIONS = 100_000      # one request never plays more than this many bot actions


class Match:
    """One match in memory: its record, state, log length and the seats' event streams."""

    def __init__(self, record: MatchRecord, game: Game, state: State) -> None:
        self.record = record
        self.id = record.id
        self.game = game
        self.state = state
        self.version = 0                        # actions applied and stored
        self.listeners: set[asyncio.Event] = set()
        self._seen: list[list[dict[str, Any]]] = [[] for _ in range(game.num_players)]
        self._scanned = 0

    def seats(self) -> list[dict[str, Any]]:
        return [{"seat": s, "team": self.game.team_of[s], "bot": bot}
                for s, bot in enumerate(self.record.seats)]

    def events_for(self, seat: int, since: int = 0) -> list[dict[str, Any]]:
        """The events `seat` may see, from its own event number `since` on."""
        events = self.state.events
        if self._scanned < len(events):
            fresh = events[self._scanned:]
            for s in range(self.game.num_players):
                self._seen[s] += visible_events(fresh, s)
            self._scanned = len(events)
        return self._seen[seat][since:]

    def view(self, seat: int) -> dict[str, Any]:
        return {"match": self.id, "seat": seat, "version": self.version, "events": len(self.events_for(seat)),
                "seats": self.seats(), "observation": self.state.observation(seat)}

    def info(self, seat: int | None) -> dict[str, Any]:
        return {"match": self.id, "seat": seat, "version": self.version, "seats": self.seats(),
                "over": self.state.match_over, "game": game_info(self.game)}

    def log(self, actions: list[tuple[int, str]]) -> dict[str, Any]:
        """Everything needed to replay the match, hidden cards and seed included."""
        st = self.state
        return {"match": self.id, "spec": self.record.spec, "options": dict(self.game.options),
                "seed": self.record.seed, "seats": self.seats(),
                "actions": [{"seat": s, "action": a} for s, a in actions],
                "score": list(st.score), "winner": st.winner, "events": st.events}

    def notify(self) -> None:
        for listener in self.listeners:
            listener.set()


def _deal_if_over(state: State) -> None:
    if state.hand_over and not state.match_over:
        state.next_hand()


class MatchBook:
    """Every match the server knows: those in memory, and those in the store, loaded on first use."""

    def __init__(self, store: Store, catalog: Catalog) -> None:
        self.store = store
        self.catalog = catalog
        self.matches: dict[str, Match] = {}
        self.tokens: dict[str, tuple[str, int]] = {}      # token hash → (match id, seat)

    # -- creation and loading ---------------------------------------------------------

    def create(self, spec: str, options: Mapping[str, Any], seed: int | None,
               bots: Mapping[int, str]) -> tuple[Match, dict[int, str]]:
        game = self.catalog.game(spec, options)
        seats: list[str | None] = [None] * game.num_players
        for seat, name in bots.items():
            if not 0 <= seat < game.num_players:
                raise ApiError(400, "bad_seat", f"there is no seat {seat}: seats run 0..{game.num_players - 1}")
            if name not in BOTS:
                raise ApiError(400, "unknown_bot", f"no bot named {name!r}; bots: {', '.join(BOTS)}")
            seats[seat] = name
        if all(s is not None for s in seats):
            raise ApiError(400, "no_human", "at least one seat must be a human's (a token's)")
        record = MatchRecord(new_match_id(), spec, dict(game.options),
                             secrets.randbits(62) if seed is None else seed, tuple(seats))
        tokens = {s: new_token() for s, bot in enumerate(seats) if bot is None}
        hashes = {s: token_hash(t) for s, t in tokens.items()}
        match = Match(record, game, game.new_match(seed=record.seed))
        self.store.create(record, hashes)
        for seat, h in hashes.items():
            self.tokens[h] = (record.id, seat)
        self.matches[record.id] = match
        self._commit(match, self._advance(match))
        return match, tokens

    def get(self, match_id: str) -> Match:
        match = self.matches.get(match_id)
        if match is None:
            match = self._load(match_id)
        return match

    def _load(self, match_id: str) -> Match:
        """Rebuild a stored match from its seed and action log, then let its bots catch up."""
        record = self.store.record(match_id)
        if record is None:
            raise ApiError(404, "unknown_match", f"no match {match_id!r}")
        game = self.catalog.game(record.spec, record.options)
        match = Match(record, game, game.new_match(seed=record.seed))
        actions = self.store.actions(match_id)
        try:
            for seat, action in actions:
                _deal_if_over(match.state)
                match.state.apply(action, seat)
        except IllegalAction as err:
            raise ApiError(500, "unresumable", f"match {match_id!r} does not replay under the current spec: {err}") \
                from None
        _deal_if_over(match.state)
        match.version = len(actions)
        self.matches[match_id] = match
        self._commit(match, self._advance(match))
        return match

    # -- seats --------------------------------------------------------------------------

    def authorize(self, match_id: str, token: str) -> tuple[Match, int]:
        """The match and the seat a token acts for; 404, 401 or 403 otherwise."""
        match = self.get(match_id)
        h = token_hash(token)
        owner = self.tokens.get(h) or self.store.token(h)
        if owner is None:
            raise ApiError(401, "bad_token", "this token is not a seat's token")
        self.tokens[h] = owner
        owner_match, seat = owner
        if owner_match != match_id:
            raise ApiError(403, "wrong_match", "this token is a seat of another match")
        return match, seat

    # -- play ---------------------------------------------------------------------------

    def act(self, match: Match, seat: int, action: str | int, version: int | None) -> str:
        """Apply one seat's action, then the bots' answers; all stored before returning."""
        st = match.state
        if version is not None and version != match.version:
            raise ApiError(409, "stale_version", f"the match is at version {match.version}, not {version}",
                           version=match.version)
        if st.match_over:
            raise ApiError(409, "match_over", "the match is over")
        text = match.game.actions[action] if isinstance(action, int) and 0 <= action < len(match.game.actions) \
            else " ".join(str(action).split())
        try:
            st.apply(action, seat)
        except IllegalAction as err:
            raise ApiError(409, "illegal_action", f"{text!r} is not legal now: {err.reason}",
                           action=text, reason=err.reason) from None
        _deal_if_over(st)
        self._commit(match, [(seat, text)] + self._advance(match))
        return text

    def _advance(self, match: Match) -> list[tuple[int, str]]:
        """Bots play while it is a bot's turn; the next hand is dealt when one ends."""
        st = match.state
        done: list[tuple[int, str]] = []
        while not st.match_over and len(done) < MAX_BOT_ACTIONS:
            seat = st.current_player()
            assert seat is not None
            name = match.record.seats[seat]
            if name is None:
                break
            n = match.version + len(done)
            bot = BOTS[name]((match.record.seed * 1_000_003 + n) % (1 << 62))
            action = bot.choose(st, seat)
            st.apply(action, seat)
            _deal_if_over(st)
            done.append((seat, action))
        return done

    def _commit(self, match: Match, actions: list[tuple[int, str]]) -> None:
        """Store the new actions; if the store fails, forget the unsaved state and reload."""
        if not actions:
            return
        try:
            self.store.append(match.id, match.version, actions)
        except Exception:
            del self.matches[match.id]
            raise
        match.version += len(actions)
        match.notify()
