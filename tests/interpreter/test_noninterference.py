"""Nothing a seat may not see reaches it, directly or by timing.

DESIGN: "Two deals that differ only in cards a seat has not seen must look identical to it, step
by step, including when a score is settled and whose turn it is." Seed 004: "Flower is scored
as soon as every seat has either declared or lost the chance".

The probe: one deal, and a twin in which one seat (the hidden seat) holds other cards drawn from
those nobody was dealt. Both are played in lockstep with the same actions. Until the hidden
seat's cards come out, every other seat (and a spectator) must see the same observation, legal
actions, events and scores in both. They come out when the hidden seat plays a card it holds in
one deal only, announces its value or declares; and where the rules make a holder show itself:
when a declaration asks it (seed 000: "Con flor quiero | J'accepte : on compare", the question
goes to the opponent who holds a flor) or when an accepted declaration chain compares every
value at the table ("Acceptée, la meilleure flor emporte le total").
"""
from __future__ import annotations

import random
from typing import Any

import pytest

from rulespec.load import bundled_names, open_spec
from tests.conftest import ALL_OPTION_SETS

from interpreter import Deal, load_game
from interpreter.engine import rules
from interpreter.engine.game import Game
from interpreter.engine.state import State

SEEDS = range(12)


def configurations() -> list[tuple[str, dict[str, Any]]]:
    """Every bundled spec at every table size it offers, with and without its declarations,
    once with every boolean table option on, and every value of every option at least once
    (with the declarations on where the spec has them)."""
    out = [(name, {**chosen, **({"flor": True} if "flor" in chosen else {})}) for name, chosen in ALL_OPTION_SETS]
    for name in bundled_names():
        source = open_spec(name)
        options = {o.name: o for o in source.options}
        sizes = options["players"].values if "players" in options else (None,)
        flors = options["flor"].values if "flor" in options else (None,)
        for players in sizes:
            for flor in flors:
                chosen = {k: v for k, v in (("players", players), ("flor", flor)) if v is not None}
                out.append((name, chosen))
            switches = {o.name: True for o in source.options if o.type == "bool" and True in o.values}
            if switches:
                out.append((name, {**switches, **({"players": players} if players else {})}))
    return out


def twin_deals(game: Game, seed: int) -> tuple[Deal, Deal, int]:
    """A random deal, and the same deal with one seat's hand redrawn from the undealt cards."""
    rng = random.Random(seed)
    st = game.new_match(seed=seed)
    ids = game.cards.ids
    hands = [[ids[c] for c in h] for h in st.dealt]
    turned = ids[st.turned] if st.turned is not None else None
    hidden = rng.randrange(game.num_players)
    used = {c for h in hands for c in h} | ({turned} if turned else set())
    pool = [c for c in ids if c not in used]
    other = [list(h) for h in hands]
    other[hidden] = rng.sample(pool, game.hand_size)
    first = Deal(tuple(tuple(h) for h in hands), turned)
    second = Deal(tuple(tuple(h) for h in other), turned)
    return first, second, hidden


def view(st: State, seat: int | None) -> dict[str, Any]:
    """All a seat (None: a spectator) is shown."""
    shown: dict[str, Any] = {"events": st.visible_events(seat), "to_act": st.current_player(),
                             "score": list(st.score), "hand_over": st.hand_over}
    if seat is not None:
        shown["observation"] = st.observation(seat)
        shown["legal"] = st.legal_actions(seat)
    return shown


def shows_hidden(st: State, hidden: int) -> bool:
    """Whether the rules now make the hidden seat show what it holds."""
    p = st.pending
    if p is not None and p.contest is not None and p.answerer == hidden \
            and st.game.contests[p.contest].calls[p.call].declare:
        return True                                   # a declaration asks the holder
    c = st.count
    if c is not None and st.game.contests[c.contest].declares and hidden in c.order:
        return True                                   # an accepted declaration compares every holder
    return any(e["type"] in ("contest_won", "contest_tied") and e.get("seat") == hidden for e in st.events)


def reveals(st: State, seat: int, action: str) -> bool:
    """Actions by which a seat shows its own cards."""
    verb = action.split()[0]
    if verb in ("announce",):
        return True
    if verb in st.game.contest_of_call:
        return st.game.contest_of_call[verb].declares
    return False


def lockstep(game: Game, seed: int) -> int:
    """Play both deals until the hidden seat's cards come out; return the steps compared."""
    first, second, hidden = twin_deals(game, seed)
    dealer = game.num_players - 1
    a = game.new_match(seed=seed, dealer=dealer, deals=[first])
    b = game.new_match(seed=seed, dealer=dealer, deals=[second])
    return twins_look_alike(a, b, hidden, random.Random(seed),
                            f"{game!r}, seed {seed}; deal A {first.hands[hidden]}, deal B {second.hands[hidden]}")


def twins_look_alike(a: State, b: State, hidden: int, rng: random.Random, where: str) -> int:
    """Play the same random actions on two matches that differ only in `hidden`'s cards,
    asserting every other seat and a spectator are shown the same, until the rules show
    those cards; return the steps compared."""
    watchers: list[int | None] = [s for s in range(a.game.num_players) if s != hidden] + [None]
    steps = 0
    while not a.hand_over and not b.hand_over:
        for seat in watchers:
            va, vb = view(a, seat), view(b, seat)
            assert va == vb, (
                f"seat {seat} can tell seat {hidden}'s hand apart ({where}):\n"
                f"  after {[e['action'] for e in a.events if e['type'] == 'action']}\n"
                f"  A: {_diff(va, vb)}")
        actor = a.current_player()
        assert actor is not None
        choices = sorted(set(a.legal_actions()) & set(b.legal_actions()))
        if actor == hidden:
            choices = [c for c in choices if not reveals(a, actor, c)]
        if not choices:
            break
        action = rng.choice(choices)
        a.apply(action)
        b.apply(action)
        steps += 1
        if shows_hidden(a, hidden) or shows_hidden(b, hidden):
            break
    return steps


def _diff(va: dict[str, Any], vb: dict[str, Any]) -> str:
    keys = [k for k in va if va[k] != vb[k]]
    out = []
    for k in keys:
        if isinstance(va[k], dict):
            out += [f"{k}.{j}: {va[k][j]!r} != {vb[k].get(j)!r}" for j in va[k] if va[k][j] != vb[k].get(j)]
        elif isinstance(va[k], list) and k == "events":
            extra = [e for e in va[k] if e not in vb[k]] + [e for e in vb[k] if e not in va[k]]
            out.append(f"events differ: {extra[:4]}")
        else:
            out.append(f"{k}: {va[k]!r} != {vb[k]!r}")
    return "; ".join(out)


CONFIGS = configurations()


@pytest.mark.parametrize("spec, options", CONFIGS, ids=[f"{s}-{o}" for s, o in CONFIGS])
def test_a_seat_learns_nothing_from_cards_it_has_not_seen(spec: str, options: dict[str, Any]) -> None:
    game = load_game(spec, options)
    compared = sum(lockstep(game, seed) for seed in SEEDS)
    assert compared > len(SEEDS), "the probe compared almost nothing"


class Leaky:
    """A match that tells every seat who else holds a declaration's value, as an engine that
    scored a lone flor at once (as soon as no other seat holds one) would: the kind of leak the
    probe is there to catch. It wraps the match, so that the engine, compiled or not, is the one
    every other test plays."""

    def __init__(self, inner: State) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def observation(self, seat: int) -> dict[str, Any]:
        shown = self.inner.observation(seat)
        game = self.inner.game
        shown["holders"] = [s for s in range(game.num_players) for cont in game.declaring
                            if s != seat and rules.holds(self.inner, game, cont, s)]
        return shown


def test_the_probe_sees_a_leak() -> None:
    """The probe is not blind: a match that lets the seats know whether another holds a flor is
    caught at four players."""
    game = load_game("board", players=4, flor=True)
    with pytest.raises(AssertionError, match="can tell"):
        for seed in range(200):
            first, second, hidden = twin_deals(game, seed)
            a = Leaky(game.new_match(seed=seed, dealer=3, deals=[first]))
            b = Leaky(game.new_match(seed=seed, dealer=3, deals=[second]))
            twins_look_alike(a, b, hidden, random.Random(seed), f"seed {seed}")  # type: ignore[arg-type]
