"""Nothing a seat may not see reaches it, directly or by timing.

DESIGN: "Two deals that differ only in cards a seat has not seen must look identical to it, step
by step, including when a score is settled and whose turn it is." Seed 004: "Flower is scored
as soon as every seat has either declared or lost the chance".

The probe: one deal, and a twin in which one seat (the hidden seat) holds other cards drawn from
those nobody was dealt. Both are played in lockstep with the same actions. Until the hidden
seat's cards come out, every other seat (and a spectator) must see the same observation, legal
actions, events and scores in both. They come out when the hidden seat plays a card it holds in
one deal only, announces its value, declares or answers a declaration (only a holder answers);
and where the rules make a holder show itself: when a declaration asks it (seed 000: "Con flor
quiero | J'accepte : on compare", the question goes to the opponent who holds a flor). A flor is
paid only once it is shown (seed 000: "3 points par flor annoncée à la table"): an accepted
chain that counts a flor nobody showed pays, and counts, differently in the twin deals, which the
probe of flor payments (deals rich in flors) sees.
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
    return any(e["type"] in ("contest_won", "contest_tied") and e.get("seat") == hidden for e in st.events)


def reveals(st: State, seat: int, action: str) -> bool:
    """Actions by which a seat shows its own cards: announcing, declaring, and answering a call of
    a contest of declarations (only a holder answers one)."""
    verb = action.split()[0]
    if verb in ("announce",):
        return True
    if verb in st.game.contest_of_call:
        return st.game.contest_of_call[verb].declares
    p = st.pending
    return verb in ("accept", "decline") and p is not None and p.contest is not None \
        and st.game.contests[p.contest].declares


def lockstep(game: Game, seed: int) -> int:
    """Play both deals until the hidden seat's cards come out; return the steps compared."""
    first, second, hidden = twin_deals(game, seed)
    dealer = game.num_players - 1
    a = game.new_match(seed=seed, dealer=dealer, deals=[first])
    b = game.new_match(seed=seed, dealer=dealer, deals=[second])
    return twins_look_alike(a, b, hidden, random.Random(seed),
                            f"{game!r}, seed {seed}; deal A {first.hands[hidden]}, deal B {second.hands[hidden]}")


def twins_look_alike(a: State, b: State, hidden: int, rng: random.Random, where: str,
                     prefer: frozenset[str] = frozenset()) -> int:
    """Play the same random actions on two matches that differ only in `hidden`'s cards,
    asserting every other seat and a spectator are shown the same, until the rules show
    those cards; return the steps compared. Actions whose verb is in `prefer` are chosen
    first, most of the time, where any is legal."""
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
        preferred = [c for c in choices if c.split()[0] in prefer]
        action = rng.choice(preferred if preferred and rng.random() < 0.8 else choices)
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


# -- flor payments ----------------------------------------------------------------------------------

FLOR_TABLES = [(spec, {"players": n, **extra}) for spec, extra, sizes in (
    ("reglamento", {"flor": True}, (2, 4, 6)), ("reglamento", {"flor": True, "contraflor_6": True}, (4, 6)),
    ("teg", {"flor": True}, (2, 4, 6)), ("board", {"flor": True}, (2, 4, 6)), ("uruguayo", {}, (2, 4, 6)))
    for n in sizes]
FLOR_VERBS = frozenset({"flor", "contraflor", "contraflor_al_resto", "accept", "announce", "good"})


def flor_twins(game: Game, rng: random.Random) -> tuple[Deal, Deal, int]:
    """A deal rich in flors where the hidden seat (not the mano) holds one, and its twin where that
    seat holds none instead, drawn from the cards nobody was dealt."""
    n, ids = game.num_players, game.cards.ids
    flor = game.values["flor"]
    hidden = rng.randrange(1, n)
    while True:
        deck = list(ids)
        rng.shuffle(deck)
        turned = deck.pop() if game.turns_card else None
        hands: list[list[str]] = []
        for _ in range(n):
            suit = deck[0][-1]
            same = [c for c in deck if c[-1] == suit][:3]
            hand = same if rng.random() < 0.6 and len(same) == 3 else deck[:3]
            hands.append(hand)
            deck = [c for c in deck if c not in hand]
        other = deck[:3]
        idx = game.cards.index
        view = None if turned is None else idx[turned]
        held = [flor([idx[c] for c in hand], view) is not None for hand in [*hands, other]]
        if held[hidden] and not held[-1] and sum(held[:-1]) >= 2:
            twin = [list(h) for h in hands]
            twin[hidden] = other
            return Deal(tuple(map(tuple, hands)), turned), Deal(tuple(map(tuple, twin)), turned), hidden


def _flor_paid_unseen(st: State) -> bool:
    """Whether a flor was paid before the probe stopped, that is while the hidden seat, holding
    one, had not shown it."""
    return any(e["type"] == "score" and e["reason"] == "flor" for e in st.events)


@pytest.mark.parametrize("spec, options", FLOR_TABLES, ids=[f"{s}-{o}" for s, o in FLOR_TABLES])
def test_a_flor_payment_shows_nothing_of_a_flor_not_shown(spec: str, options: dict[str, Any]) -> None:
    """seed 000: "3 points par flor annoncée à la table"; "Acceptée, la meilleure flor emporte le
    total". A holder who has not shown his flor (not sung, not asked, not answered) is neither
    compared nor paid for: in twin deals where he holds a flor or none, the other seats see the same
    flor calls, counts and payments, until the rules make him show it. Flor calls and accepts are
    chosen first, so that chains are accepted and paid while he is silent (at two players the one
    other seat's flor asks him, or he plays: nothing is paid while he is silent there)."""
    game = load_game(spec, options)
    paid = compared = 0
    for seed in range(40):
        rng = random.Random(seed)
        first, second, hidden = flor_twins(game, rng)
        dealer = game.num_players - 1
        a = game.new_match(seed=seed, dealer=dealer, deals=[first])
        b = game.new_match(seed=seed, dealer=dealer, deals=[second])
        compared += twins_look_alike(a, b, hidden, rng, f"{game!r}, seed {seed}; hidden seat {hidden}: "
                                     f"{first.hands[hidden]} or {second.hands[hidden]}", prefer=FLOR_VERBS)
        paid += _flor_paid_unseen(a)
    assert compared >= 40, "the probe compared almost nothing"
    assert paid or game.num_players == 2, "no flor was paid while the hidden holder was silent"


class CountsSilentHolders:
    """A match that tells every seat, once a chain of declarations is accepted, which holders an
    engine comparing and paying every flor that could still be shown would count: the silent
    holder too. It wraps the match, so that the engine, compiled or not, is the one every other
    test plays."""

    def __init__(self, inner: State) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def observation(self, seat: int) -> dict[str, Any]:
        shown = self.inner.observation(seat)
        st, game = self.inner, self.inner.game
        shown["compared"] = [s for cont in game.declaring if st.accepted & set(cont.calls)
                             for s in range(game.num_players)
                             if s in st.contests[cont.index].declared
                             or (rules.may_declare(st, cont, s) and rules.holds(st, game, cont, s))]
        return shown


def test_the_flor_probe_sees_a_payment_that_counts_a_silent_holder() -> None:
    """The probe of flor payments is not blind: a match that counts every holder who could still
    show a flor once a chain is accepted (the silent one too) is caught at four and six players."""
    for spec, options in (("reglamento", {"players": 4, "flor": True}), ("uruguayo", {"players": 6})):
        game = load_game(spec, options)
        with pytest.raises(AssertionError, match="can tell"):
            for seed in range(40):
                rng = random.Random(seed)
                first, second, hidden = flor_twins(game, rng)
                dealer = game.num_players - 1
                a = CountsSilentHolders(game.new_match(seed=seed, dealer=dealer, deals=[first]))
                b = CountsSilentHolders(game.new_match(seed=seed, dealer=dealer, deals=[second]))
                twins_look_alike(a, b, hidden, rng, f"seed {seed}", prefer=FLOR_VERBS)  # type: ignore[arg-type]
