"""Live matches: create, invite, claim seats, find, authorise, act, let bots play, persist,
wake listeners, and leave memory when idle.

Every request runs on the server's one event-loop thread, and a match's change — the
action, the bots' answers, the next deal, the commit to the store — happens without
yielding to another request. So two clients acting on one match are served one after the
other, and nobody is shown an action before it is on disk.

Several processes may share one PostgreSQL store (`store.shared`). Then any process serves
any match: a request first reads the match's head in the store and applies the actions other
processes stored since (`_refresh`), except an action naming the version this copy is at,
which the conditional write checks instead (`act`). An action is committed by the store's
conditional write (store.py), and the process that loses a race on one match rebuilds it
from the store and judges the action again there — an explicit `version` then answers
`stale_version`, as it would on one process. The store's LISTEN connection reports other processes' commits
(`changed_elsewhere`), so the streams of this process catch up at once.

The server deals the next hand itself, at once, when a hand ends: the `hand_over` event
stays in every seat's event stream, and the view shows the new hand.

A match's `version` counts its moves. Signals are free actions seen only by some seats: they
are stored in the log but leave the version alone, so a seat cannot make another seat's
versioned action stale, nor change what a seat that cannot see the signal is shown.

Memory holds the matches in use: one idle for `idle_match_seconds`, or the least recently
used past `live_matches`, is dropped (never while a stream watches it) and rebuilt from the
store on its next request.
"""
from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from rulespec.errors import IllegalAction

from interpreter.bots import BOTS
from interpreter.engine.game import Game
from interpreter.engine.state import State
from interpreter.engine.views import visible_events
from interpreter.server.catalog import Catalog, game_info
from interpreter.server.errors import ApiError
from interpreter.server.ratelimit import RateLimit, SharedRateLimit
from interpreter.server.security import commitment, new_code, new_match_id, new_salt, new_token, token_hash
from interpreter.server.settings import Limits
from interpreter.server.store import Conflict, MatchRecord, Store

MAX_BOT_ACTIONS = 100_000      # one request never plays more than this many bot actions
RETRIES = 8                    # conditional writes lost to other processes before answering 503


def is_signal(game: Game, action: str) -> bool:
    """Whether an action (as logged) is one of the spec's free signals."""
    return game.signals is not None and action.split(" ", 1)[0] == game.signals.verb


class Match:
    """One match in memory: its record, state, log length and the seats' event streams."""

    def __init__(self, record: MatchRecord, game: Game, state: State, claimed: set[int]) -> None:
        self.record = record
        self.id = record.id
        self.game = game
        self.state = state
        self.version = 0                        # moves applied and stored (signals aside)
        self.logged = 0                         # actions stored, signals included
        self.claimed = claimed                  # human seats whose token was handed out
        self.tokens: dict[str, int] = {}        # token hash → seat, as seen so far
        self.listeners: set[asyncio.Event] = set()
        self.streams = [0] * game.num_players
        self.used = 0.0
        self._seen: list[list[dict[str, Any]]] = [[] for _ in range(game.num_players)]
        self._scanned = 0

    def seats(self) -> list[dict[str, Any]]:
        return [{"seat": s, "team": self.game.team_of[s], "bot": bot, "claimed": bot is not None or s in self.claimed}
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
                "over": self.state.match_over, "commitment": commitment(self.record.seed, self.record.salt),
                "game": game_info(self.game)}

    def log(self, actions: list[tuple[int, str]]) -> dict[str, Any]:
        """Everything needed to replay the match, hidden cards, seed and salt included; the seed
        as its decimal digits, which JavaScript reads exactly (its numbers stop at 2**53)."""
        st = self.state
        return {"match": self.id, "spec": self.record.spec, "options": dict(self.game.options),
                "seed": str(self.record.seed), "salt": self.record.salt,
                "commitment": commitment(self.record.seed, self.record.salt), "seats": self.seats(),
                "actions": [{"seat": s, "action": a} for s, a in actions],
                "score": list(st.score), "winner": st.winner, "events": st.events}

    def notify(self) -> None:
        for listener in self.listeners:
            listener.set()


def _deal_if_over(state: State) -> None:
    if state.hand_over and not state.match_over:
        state.next_hand()


class MatchBook:
    """Every match the server knows: those in memory, and those in the store, loaded on use."""

    def __init__(self, store: Store, catalog: Catalog, limits: Limits = Limits(),
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.catalog = catalog
        self.limits = limits
        self.clock = clock
        self.matches: OrderedDict[str, Match] = OrderedDict()     # least recently used first
        if store.shared:                        # a seat may send its signals through any process
            self.signals: RateLimit = SharedRateLimit("signals from this seat", limits.signals_burst,
                                                      limits.signals_per_second, store, "signals")
        else:
            self.signals = RateLimit("signals from this seat", limits.signals_burst, limits.signals_per_second,
                                     limits.live_matches * 8, clock)
        self.streams = 0

    # -- creation, seats and loading ----------------------------------------------------

    async def create(self, spec: str, options: Mapping[str, Any], seed: int | None,
                     bots: Mapping[int, str]) -> tuple[Match, dict[int, str]]:
        """A new match and one invitation code per human seat."""
        game = await self.catalog.game(spec, options)
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
                             secrets.randbits(62) if seed is None else seed, tuple(seats), new_salt())
        codes = {s: new_code() for s, bot in enumerate(seats) if bot is None}
        match = Match(record, game, game.new_match(seed=record.seed), set())
        self.store.create(record, {s: token_hash(c) for s, c in codes.items()})
        self._keep(match)
        self._settle(match)
        return match, codes

    async def claim(self, match_id: str, code: str) -> tuple[Match, int, str]:
        """Exchange an invitation code for its seat's token, once."""
        match = await self.get(match_id)
        code_hash, token = token_hash(code), new_token()
        seat = self.store.claim(match_id, code_hash, token_hash(token))
        if seat is None:
            if self.store.invitation(match_id, code_hash) is not None:
                raise ApiError(409, "seat_taken", "this invitation's seat has been claimed already")
            raise ApiError(403, "bad_invitation", "this code is no invitation of this match")
        match.claimed.add(seat)
        match.tokens[token_hash(token)] = seat
        match.notify()
        return match, seat, token

    async def get(self, match_id: str, current: bool = True) -> Match:
        """The match, loaded from the store if this process does not hold it; with `current`,
        brought up to date with what other processes stored (else the caller sees to that)."""
        match = self.matches.get(match_id)
        if match is None:
            record = self.store.record(match_id)
            if record is None:
                raise ApiError(404, "unknown_match", f"no match {match_id!r}")
            game = await self.catalog.game(record.spec, record.options)
            match = self.matches.get(match_id) or self._load(record, game)   # another request may have loaded it
        elif current:
            self._refresh(match)
        self._keep(match)
        return match

    def _load(self, record: MatchRecord, game: Game) -> Match:
        """Rebuild a stored match from its seed and action log, then let its bots catch up."""
        match = Match(record, game, game.new_match(seed=record.seed), set())
        self._rebuild(match)
        self._keep(match)
        self._settle(match)
        return match

    def _rebuild(self, match: Match) -> None:
        """Replay the stored match into `match`, in place: streams hold the object, and their
        event numbers stay valid because a replay gives the same events."""
        game, record = match.game, match.record
        actions = self.store.actions(record.id)
        state = game.new_match(seed=record.seed)
        try:
            for seat, action in actions:
                _deal_if_over(state)
                state.apply(action, seat)
        except IllegalAction as err:
            raise ApiError(500, "unresumable", f"match {record.id!r} does not replay under the current spec: {err}") \
                from None
        _deal_if_over(state)
        match.state = state
        match.logged = len(actions)
        match.version = sum(not is_signal(game, a) for _, a in actions)
        match.claimed = self.store.claimed(record.id)
        match._seen = [[] for _ in range(game.num_players)]
        match._scanned = 0

    def _refresh(self, match: Match) -> None:
        """Apply what other processes stored since this copy was made (shared stores only)."""
        if not self.store.shared:
            return
        head = self.store.changes(match.id, match.logged)
        if head is None:
            return
        logged, claims, actions = head
        changed = logged != match.logged
        if logged > match.logged:
            st = match.state
            try:
                for seat, action in actions:
                    _deal_if_over(st)
                    st.apply(action, seat)
                _deal_if_over(st)
            except IllegalAction:
                self._rebuild(match)
            else:
                match.logged += len(actions)
                match.version += sum(not is_signal(match.game, a) for _, a in actions)
        elif logged < match.logged:                         # cannot happen: the store only grows
            self._rebuild(match)
        if claims != len(match.claimed):
            match.claimed = self.store.claimed(match.id)
            changed = True
        if changed:
            match.notify()

    def changed_elsewhere(self, match_id: str | None) -> None:
        """Another process committed a change to `match_id` (None: to any match): bring the
        watched copies up to date, which wakes their streams."""
        watched = [m for m in self.matches.values() if m.listeners] if match_id is None \
            else [m for m in (self.matches.get(match_id),) if m is not None and m.listeners]
        for match in watched:
            try:
                self._refresh(match)
            except Exception:                               # the store is away: the next change retries
                continue

    def _keep(self, match: Match) -> None:
        """Mark a match used now; drop the idle ones and those past the memory bound."""
        now = self.clock()
        match.used = now
        self.matches[match.id] = match
        self.matches.move_to_end(match.id)
        leaving = []
        crowded = len(self.matches) - self.limits.live_matches
        for match_id, old in self.matches.items():           # least recently used first
            if crowded <= 0 and now - old.used <= self.limits.idle_match_seconds:
                break
            if not old.listeners and old is not match:
                leaving.append(match_id)
                crowded -= 1
        for match_id in leaving:
            del self.matches[match_id]

    # -- seats --------------------------------------------------------------------------

    async def authorize(self, match_id: str, token: str, current: bool = True) -> tuple[Match, int]:
        """The match and the seat a token acts for; 404, 401 or 403 otherwise (`current`: as `get`)."""
        match = await self.get(match_id, current)
        h = token_hash(token)
        seat = match.tokens.get(h)
        if seat is not None:
            return match, seat
        owner = self.store.token(h)
        if owner is None:
            raise ApiError(401, "bad_token", "this token is not a seat's token")
        owner_match, seat = owner
        if owner_match != match_id:
            raise ApiError(403, "wrong_match", "this token is a seat of another match")
        match.tokens[h] = seat
        return match, seat

    # -- play ---------------------------------------------------------------------------

    def act(self, match: Match, seat: int, action: str | int, version: int | None) -> str:
        """Apply one seat's action, then the bots' answers; all stored before returning.

        On a shared store a copy whose version is the one the client names is not read from
        the store first: the conditional write finds out whether it is current (and on a
        conflict the match is rebuilt and judged again), so an action costs one round trip.
        A refusal is given only on a copy just brought up to date. Otherwise the copy catches
        up first (one read), as on every other request."""
        if not self.store.shared:
            return self._act(match, seat, action, version)
        if version is None or version != match.version:
            self._refresh(match)
            return self._act(match, seat, action, version)
        try:
            return self._act(match, seat, action, version)
        except ApiError as err:
            if err.code not in ("illegal_action", "match_over"):
                raise
            logged = match.logged
            self._refresh(match)
            if match.logged == logged:                      # the copy was current: the refusal stands
                raise
        return self._act(match, seat, action, version)

    def _act(self, match: Match, seat: int, action: str | int, version: int | None) -> str:
        st = match.state
        if version is not None and version != match.version:
            raise ApiError(409, "stale_version", f"the match is at version {match.version}, not {version}",
                           version=match.version)
        if st.match_over:
            raise ApiError(409, "match_over", "the match is over")
        text = match.game.actions[action] if isinstance(action, int) and 0 <= action < len(match.game.actions) \
            else " ".join(str(action).split())
        if is_signal(match.game, text):
            self.signals.take((match.id, seat))
        for _ in range(RETRIES):
            try:
                st.apply(action, seat)
            except IllegalAction as err:
                raise ApiError(409, "illegal_action", f"{text!r} is not legal now: {err.reason}",
                               action=text, reason=err.reason, detail=err.detail) from None
            _deal_if_over(st)
            try:
                self._commit(match, [(seat, text)] + self._advance(match))
                return text
            except Conflict:                                # another process acted first: judge again
                st = match.state
                if version is not None and version != match.version:
                    raise ApiError(409, "stale_version", f"the match is at version {match.version}, not {version}",
                                   version=match.version) from None
                if st.match_over:
                    raise ApiError(409, "match_over", "the match is over") from None
        raise ApiError(503, "busy", "other processes kept changing this match; try again")

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
            n = match.logged + len(done)
            bot = BOTS[name]((match.record.seed * 1_000_003 + n) % (1 << 62))
            action = bot.choose(st, seat)
            st.apply(action, seat)
            _deal_if_over(st)
            done.append((seat, action))
        return done

    def _settle(self, match: Match) -> None:
        """Let the bots play and store their actions, again on the stored match if another
        process moved it first."""
        for _ in range(RETRIES):
            try:
                self._commit(match, self._advance(match))
                return
            except Conflict:
                continue
        raise ApiError(503, "busy", "other processes kept changing this match; try again")

    def _commit(self, match: Match, actions: list[tuple[int, str]]) -> None:
        """Store the new actions. On `Conflict` the match is rebuilt from the store (nothing of
        this batch was stored) and the caller decides again; if the store fails otherwise,
        forget the unsaved state and reload on the next request."""
        if not actions:
            return
        try:
            claims = self.store.append(match.id, match.logged, actions)
        except Conflict:
            self._rebuild(match)
            match.notify()
            raise
        except Exception:
            self.matches.pop(match.id, None)
            raise
        match.logged += len(actions)
        match.version += sum(not is_signal(match.game, a) for _, a in actions)
        if claims is not None and claims != len(match.claimed):    # a seat claimed through another process
            match.claimed = self.store.claimed(match.id)
        match.notify()
