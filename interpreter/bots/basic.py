"""The simple bots: uniform random play and a heuristic over the seat's own view.

A bot sees what its seat may see (`observation(seat)`) plus the compiled game's public
tables (card strengths, hand values); it never reads another seat's cards.
"""
from __future__ import annotations

import random
from bisect import bisect_left
from typing import Any, Protocol

from interpreter.engine.rules import Rules
from interpreter.engine.state import State


class Bot(Protocol):
    def choose(self, state: State, seat: int) -> str: ...


class RandomBot:
    """Uniform over the legal actions; its own seeded generator, so matches replay."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> str:
        return self.rng.choice(state.legal_actions(seat))


class Tables:
    """What a heuristic needs of a game, computed on first use: card percentiles and the
    spread of each hand value, per turned card (hand values may depend on it); and, as the
    heuristic meets them, the kinds of each set of legal actions and the strength of each hand
    (a search asks the heuristic about the same few again and again)."""

    SAMPLE = 3000           # hands sampled for a value's spread (a fixed sample: bots replay)

    def __init__(self, game: Rules) -> None:
        self.game = game
        self._percentiles: dict[int | None, dict[str, float]] = {}
        self._spreads: dict[tuple[str, int | None], list[int]] = {}
        rng = random.Random(0)
        self._hands = [tuple(rng.sample(range(len(game.cards)), game.hand_size)) for _ in range(self.SAMPLE)]
        self._kinds: dict[tuple[str, ...], dict[str, list[str]]] = {}
        self._powers: dict[tuple[tuple[str, ...], str | None], float] = {}
        self._ranked: dict[tuple[tuple[str, ...], str | None], list[str]] = {}

    def _turned(self, turned: str | None) -> int | None:
        return None if turned is None else self.game.cards.index[turned]

    def card_percentile(self, turned: str | None) -> dict[str, float]:
        """Each card's share of the deck it beats, under this turned card."""
        g = self.game
        key = self._turned(turned)
        if key not in self._percentiles:
            strength = g.strength[key]
            ranked = sorted(strength)
            n = len(ranked)
            self._percentiles[key] = {cid: bisect_left(ranked, strength[i]) / max(n - 1, 1)
                                      for i, cid in enumerate(g.cards.ids)}
        return self._percentiles[key]

    def value_percentile(self, name: str, value: int | None, turned: str | None = None) -> float:
        """The share of hands whose value `name` is below `value` (0 without one)."""
        key = (name, self._turned(turned))
        if key not in self._spreads:
            table, t = self.game.values[name], key[1]
            values = (table(h, t) for h in self._hands if t not in h)
            self._spreads[key] = sorted(v for v in values if v is not None)
        spread = self._spreads[key]
        if value is None or not spread:
            return 0.0
        return bisect_left(spread, value) / len(spread)

    def kinds(self, legal: list[str]) -> dict[str, list[str]]:
        """The legal actions by kind: cards, stake raises, contest calls, declarations (shared:
        a caller builds new lists rather than change these)."""
        key = tuple(legal)
        out = self._kinds.get(key)
        if out is None:
            g = self.game
            out = {"cards": [], "stake": [], "contest": [], "declare": []}
            for action in legal:
                verb = action.split()[0]
                if verb in ("play", "cover"):
                    out["cards"].append(action)
                elif verb in g.stake_names:
                    out["stake"].append(action)
                elif verb in g.contest_of_call:
                    declare = g.contest_of_call[verb].calls[verb].declare
                    out["declare" if declare else "contest"].append(action)
            self._kinds[key] = out
        return out

    def hand_power(self, hand: list[str], turned: str | None) -> float:
        """How strong a hand's cards are, from 0 to 1: its best card's percentile and their mean."""
        key = (tuple(hand), turned)
        power = self._powers.get(key)
        if power is None:
            pct = self.card_percentile(turned)
            mine = sorted((pct[c] for c in hand), reverse=True)
            power = self._powers[key] = 0.6 * mine[0] + 0.4 * sum(mine) / len(mine) if mine else 0.0
        return power

    def ranked(self, plays: list[str], turned: str | None) -> list[str]:
        """Card plays (`play CARD`) from the weakest card to the strongest (shared, as `kinds`)."""
        key = (tuple(plays), turned)
        out = self._ranked.get(key)
        if out is None:
            pct = self.card_percentile(turned)
            out = self._ranked[key] = sorted(plays, key=lambda a: pct[a.split()[1]])
        return out


_TABLES: dict[int, Tables] = {}


def tables(game: Rules) -> Tables:
    """The game's strength tables, shared by every bot and encoder of that game."""
    key = id(game)
    if key not in _TABLES:
        _TABLES[key] = Tables(game)
    return _TABLES[key]


class HeuristicBot:
    """Bets with strong hands, accepts fair ones, declines weak ones; plays cards sensibly.

    Strength is judged from the seat's own view only: its cards' share of the deck they beat
    (for the raising ladder) and its hand value's share of all possible hands (for contests).
    """

    def __init__(self, seed: int | None = None, bet: float = 0.75, accept: float = 0.5,
                 raise_: float = 0.88) -> None:
        self.rng = random.Random(seed)
        self.bet, self.accept, self.raise_ = bet, accept, raise_
        self._raised: set[tuple[int, str]] = set()     # (hand, contest) this seat has raised

    def choose(self, state: State, seat: int) -> str:
        obs = state.observation(seat)
        legal: list[str] = obs["legal"]
        if len(legal) == 1:
            return legal[0]
        g = state.game
        t = tables(g)
        if obs["count"] is not None:
            return self._count(g, obs, legal)
        kinds = t.kinds(legal)
        power = self._power(obs, t)
        pending = obs["pending"]
        if pending is not None:
            return self._answer(g, t, obs, legal, kinds, power, pending["call"])
        for action in kinds["declare"]:
            return action
        for action in kinds["contest"]:
            if self._contest_strength(g, t, obs, action) >= self.bet:
                return action
        for action in kinds["stake"]:
            first = g.stake_names.index(action) == 0
            if power >= (self.bet if first else self.raise_) and not self._forbidden(g, obs):
                return action
        return self._card(g, obs, t, kinds["cards"]) if kinds["cards"] else self._fallback(legal)

    # -- reading the legal actions ----------------------------------------------------

    @staticmethod
    def _forbidden(g: Rules, obs: dict[str, Any]) -> bool:
        """A special hand that punishes raising the stake is on."""
        return any(h.forbid_stakes for h in g.spec.special_hands if h.name in obs["special"])

    def _fallback(self, legal: list[str]) -> str:
        for verb in ("accept", "announce", "decline"):
            if verb in legal:
                return verb
        return next((a for a in legal if a != "fold"), legal[0])

    # -- strength ---------------------------------------------------------------------

    @staticmethod
    def _power(obs: dict[str, Any], t: Tables) -> float:
        """How likely the seat's side is to take the hand, roughly, from 0 to 1."""
        if obs["hand"] is None:
            return 0.5
        power = t.hand_power(obs["hand"], obs["turned"])
        team = obs["team"]
        won = sum(1 for r in obs["tricks"] if r == team)
        lost = sum(1 for r in obs["tricks"] if r not in (team, "tie"))
        return min(1.0, max(0.0, power + 0.2 * (won - lost)))

    @staticmethod
    def _contest_strength(g: Rules, t: Tables, obs: dict[str, Any], call: str) -> float:
        value = g.contest_of_call[call].value
        return t.value_percentile(value, obs["values"].get(value), obs["turned"])

    # -- decisions --------------------------------------------------------------------

    @staticmethod
    def _count(g: Rules, obs: dict[str, Any], legal: list[str]) -> str:
        """Announce a value that can win the count; otherwise concede it (never leave the hand)."""
        speak = [a for a in legal if a != "fold"] or legal
        if "good" not in speak or "announce" not in speak:
            return speak[0]
        value = next(c.value for c in g.contests if c.name == obs["count"]["contest"])
        rivals = [a["value"] for a in obs["count"]["announced"]
                  if a["value"] is not None and g.team_of[a["seat"]] != obs["team"]]
        mine = obs["values"].get(value) or 0
        return "announce" if not rivals or mine >= max(rivals) else "good"

    def _answer(self, g: Rules, t: Tables, obs: dict[str, Any], legal: list[str], kinds: dict[str, list[str]],
                power: float, call: str) -> str:
        for action in kinds["declare"]:
            return action
        if call in g.contest_of_call:
            strength = self._contest_strength(g, t, obs, call)
            contest = g.contest_of_call[call]
            raises = [a for a in kinds["contest"] if g.contest_of_call[a] is contest]
            # one raise per contest and hand: a chain a spec leaves uncapped ("as often as one
            # likes") would otherwise go on for ever between two strong hands
            key = (obs["hand_number"], contest.name)
            if key in self._raised:
                raises = []
            elif strength >= self.raise_ and raises:
                self._raised = {k for k in self._raised if k[0] == key[0]} | {key}
        else:
            for action in kinds["contest"]:              # the contest goes first, when strong
                if self._contest_strength(g, t, obs, action) >= self.bet:
                    return action
            strength, raises = power, kinds["stake"]
        if strength >= self.raise_ and raises:
            return raises[0]
        if strength >= self.accept and "accept" in legal:
            return "accept"
        if "decline" in legal:
            return "decline"
        return self._fallback(legal)

    def _card(self, g: Rules, obs: dict[str, Any], t: Tables, cards: list[str]) -> str:
        plays = [a for a in cards if a.startswith("play ")]
        if not plays or obs["hand"] is None or any(a.split()[1].startswith("@") for a in plays):
            return self.rng.choice(plays or cards)
        pct = t.card_percentile(obs["turned"])
        by_strength = t.ranked(plays, obs["turned"])
        table = obs["table"]
        current = table[-1] if len(table) == obs["trick"] else []
        shown = [(p["seat"], pct[p["card"]]) for p in current if p["card"] is not None and not p["covered"]]
        if not shown:
            return by_strength[-1]                         # lead with the strongest card
        best_seat, best = max(shown, key=lambda sp: sp[1])
        if g.team_of[best_seat] == obs["team"]:
            return by_strength[0]                          # a partner is winning: save the cards
        winners = [a for a in by_strength if pct[a.split()[1]] > best]
        return winners[0] if winners else by_strength[0]
