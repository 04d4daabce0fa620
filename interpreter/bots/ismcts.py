"""Information-set Monte Carlo tree search over determinized deals, for any spec.

The bot reads its seat's view only: `observation(seat)` and the events shown to that seat
(`visible_events(seat)`), plus the compiled game's public tables. From those it samples deals
of the cards it has not seen (a *determinization*), rebuilds the current hand on a copy of the
match whose hidden cards are the sampled ones, and replays the hand's public actions on it.
A sample is kept only when the replayed hand shows the seat exactly the events it saw (every
action legal again, every announced value, declaration, refusal and score the same): the
engine's own rules decide consistency, so no variant's constraint is written here.

Search is single-observer ISMCTS (Cowling, Powley and Whitehouse 2012): one tree over the
actions taken from the seat's information set, UCB with availability counts below the root, and
a rollout to the end of the hand whose reward is the team's chance of winning the match from the
score it leaves (a won or lost match counts in full). At the root every legal action is played
on each sampled world in turn, so that the actions are compared on the same deals: at a table
of 4 or 6 the luck of the deal is most of a playout's reward, and compared on different deals
the actions' values differ by less than that noise.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mypy_extensions import mypyc_attr

from rulespec.errors import IllegalAction

from interpreter.bots.basic import HeuristicBot, RandomBot
from interpreter.engine.records import Deal
from interpreter.engine.rules import Rules
from interpreter.engine.state import State

Event = dict[str, Any]


# -- what the seat knows -------------------------------------------------------------------

@dataclass
class Knowledge:
    """The current hand as one seat has seen it: each playing seat's cards where the seat saw
    them (by position in the deal where it knows the position), the covered cards it did not
    see, and the value constraints the hand's public events put on each seat's cards."""

    seat: int
    hand: list[Event]                     # the seat's events of this hand, from its deal
    shown: list[Event]                    # those a rebuilt hand must show it: all but signals
    playing: list[int]
    turned: str | None
    score_before: list[int]               # the score as the hand was dealt
    view: dict[str, Any]                  # the seat's observation now (whose turn, what is pending)
    slots: dict[int, list[str | None]] = field(default_factory=dict)   # seat -> card by deal position
    seen: dict[int, list[str]] = field(default_factory=dict)           # seat -> cards seen, position unknown
    hidden_covers: dict[int, int] = field(default_factory=dict)        # seat -> covered cards not seen
    values: dict[int, list[tuple[str, int]]] = field(default_factory=dict)   # seat -> (value, announced)
    holds: dict[int, list[str]] = field(default_factory=dict)          # seat -> values it declared it holds
    at_most: dict[int, list[tuple[str, int]]] = field(default_factory=dict)   # seat -> (value, a bound it lost to)
    unseen: list[str] = field(default_factory=list)    # the cards the seat saw nowhere, in deck order
    order: list[int] = field(default_factory=list)     # the seats dealt a sample, most constrained first
    need: dict[int, int] = field(default_factory=dict)  # seat -> cards a sample deals it

    def known(self, s: int) -> set[str]:
        return {c for c in self.slots[s] if c is not None} | set(self.seen[s])


def knowledge(state: State, seat: int) -> Knowledge:
    """What `seat` knows of the hand in progress, read from its observation and its events only."""
    g = state.game
    obs = state.observation(seat)
    events = state.visible_events(seat)
    start = max(i for i, e in enumerate(events) if e["type"] == "deal")
    hand = events[start:]
    score_before = list(obs["score"])
    first = next((e for e in hand if e["type"] == "score"), None)
    if first is not None:
        score_before = list(first["score"])
        score_before[first["team"]] -= first["points"]
    shown = [e for e in hand if not _is_signal(g, e)]
    k = Knowledge(seat, hand, shown, list(obs["playing"]), obs["turned"], score_before, obs)
    size = g.hand_size
    for s in k.playing:
        k.slots[s], k.seen[s], k.hidden_covers[s] = [None] * size, [], 0
        k.values[s], k.holds[s], k.at_most[s] = [], [], []
    by_position: dict[int, set[int]] = {s: set() for s in k.playing}
    value_of = {c.name: c.value for c in g.contests}
    for e in hand:
        kind, who = e["type"], e.get("seat")
        if not isinstance(who, int) or who not in k.slots:
            continue
        s = who
        if kind == "hand":                  # the cards still held, in the order dealt
            free = [i for i in range(size) if i not in by_position[s]]
            for i, card in zip(free, e["cards"], strict=False):
                k.slots[s][i] = card
        elif kind == "action":
            words = str(e["action"]).split()
            if words[0] == "play" and len(words) > 1 and words[1].startswith("@"):
                pos = int(words[1][1:]) - 1
                by_position[s].add(pos)
                if e.get("card") is not None:
                    k.slots[s][pos] = e["card"]
            elif words[0] in ("play", "cover") and len(words) > 1:
                k.seen[s].append(words[1])
            elif words[0] == "cover" and e.get("hidden"):
                k.hidden_covers[s] += 1
            elif words[0] == "cover" and e.get("card") is not None:
                k.seen[s].append(e["card"])
            elif words[0] in g.contest_of_call:
                cont = g.contest_of_call[words[0]]
                if cont.calls[words[0]].declare:
                    k.holds[s].append(cont.value)
        elif kind == "announce" and e.get("value") is not None and e.get("contest") in value_of:
            k.values[s].append((value_of[e["contest"]], int(e["value"])))
        elif kind == "revealed" and e.get("contest") in value_of and isinstance(e.get("value"), int):
            k.values[s].append((value_of[e["contest"]], int(e["value"])))
        elif kind == "contest_won" and e.get("contest") in value_of and isinstance(e.get("value"), int):
            name, v = value_of[e["contest"]], int(e["value"])
            k.values[s].append((name, v))          # the winner's value, shown; nobody else's is higher
            for other in k.playing:
                if other != s:
                    k.at_most[other].append((name, v))
    for s in k.playing:
        placed = {c for c in k.slots[s] if c is not None}
        k.seen[s] = [c for c in dict.fromkeys(k.seen[s]) if c not in placed]
    seen_anywhere = {c for s in k.playing for c in k.known(s)}
    if k.turned is not None:
        seen_anywhere.add(k.turned)
    k.unseen = [c for c in g.cards.ids if c not in seen_anywhere]
    k.order = sorted(k.playing, key=lambda s: -(2 * len(k.values[s]) + len(k.holds[s]) + len(k.at_most[s])))
    k.need = {s: size - len(k.known(s)) for s in k.playing}
    return k


# -- determinization -----------------------------------------------------------------------

def _fits(g: Rules, k: Knowledge, s: int, cards: Sequence[str], turned: int | None) -> bool:
    """The seat's sampled cards agree with the values it announced and the holdings it declared."""
    idx = g.cards.index
    hand = tuple(idx[c] for c in cards)
    for name, value in k.values[s]:
        if g.values[name](hand, turned) != value:
            return False
    for name, bound in k.at_most[s]:
        mine = g.values[name](hand, turned)
        if mine is not None and mine > bound:
            return False
    return all(g.values[name](hand, turned) is not None for name in k.holds[s])


def _draw(rng: random.Random, pool: Sequence[str], n: int) -> list[str]:
    """`n` cards of `pool` in random order: a partial Fisher-Yates shuffle of a copy, by
    `random()` (one C call a card, where `sample` and `shuffle` loop in Python)."""
    cards = list(pool)
    size = len(cards)
    for i in range(n):
        j = i + int(rng.random() * (size - i))
        cards[i], cards[j] = cards[j], cards[i]
    return cards[:n]


def sample_deal(g: Rules, k: Knowledge, rng: random.Random, tries: int = 200) -> tuple[Deal, dict[int, list[str]]]:
    """A deal of the unseen cards consistent with the seat's knowledge of each seat's cards and
    with the values announced and declared (rejection, seat by seat, the most constrained first;
    past `tries` a seat keeps its last draw). Also the cards each seat covered unseen."""
    turned = None if k.turned is None else g.cards.index[k.turned]
    pool = k.unseen
    hands: dict[int, list[str]] = {}
    covered: dict[int, list[str]] = {}
    for s in k.order:
        need = k.need[s]
        constrained = bool(k.values[s] or k.holds[s] or k.at_most[s])
        drawn: list[str] = []
        for _ in range(tries if constrained else 1):
            drawn = _draw(rng, pool, need)
            # the cards seen but not where: anywhere among the free positions (the drawn cards
            # come in random order already)
            free = _draw(rng, k.seen[s] + drawn, need + len(k.seen[s])) if k.seen[s] else drawn
            slots = list(k.slots[s])
            it = iter(free)
            cards = [c if c is not None else next(it) for c in slots]
            if not constrained or _fits(g, k, s, cards, turned):
                break
        hands[s] = cards
        covered[s] = drawn[:k.hidden_covers[s]]
        taken = set(drawn)
        pool = [c for c in pool if c not in taken]
    deal = Deal(tuple(tuple(hands.get(s, ())) for s in range(g.num_players)), k.turned)
    return deal, covered


def _is_signal(g: Rules, e: Event) -> bool:
    return e["type"] == "action" and g.signals is not None and str(e["action"]).split()[0] == g.signals.verb


OPPONENTS = ("policy", "team", "tree")
"""Which seats' actions the tree searches beside the searching seat's: none, the other seats
playing the rollout policy on their sampled cards ("policy"); its partners', each scored for the
team ("team"); or every seat's, plain single-observer ISMCTS ("tree")."""

PLAYS = ("calls", "kind", "cards")
"""How much of a seat's card play the model reads: nothing ("calls": only its calls, answers
and folds); that it played a card rather than call ("kind": a hand that passed on a call the
model makes with strong cards is weaker); or the very card ("cards": the card a seat leads or
follows with tells of the cards it keeps)."""


def _readable_action(action: str, plays: str) -> bool:
    """Whether the model is asked about `action`. Covered and blind plays are never read: they
    show no choice of card, and a covered card may be hidden from the seat."""
    words = action.split()
    if words[0] == "cover":
        return False
    if words[0] == "play":
        return plays != "calls" and len(words) > 1 and not words[1].startswith("@")
    return True


def _agrees(choice: str, action: str, plays: str) -> bool:
    """Whether the model's `choice` is the seat's `action`, as far as `plays` reads it."""
    if plays == "kind" and action.startswith("play "):
        return choice.split()[0] in ("play", "cover")
    return choice == action


Model = Callable[[State, int], str]
"""What a seat would do in a world, as the searching seat models it (None: no model)."""

Patience = Callable[[int], bool]
"""Whether a replay that has met this many of the model's surprises may still be kept."""


def rebuild(state: State, k: Knowledge, deal: Deal, covered: dict[int, list[str]], future: random.Random,
            model: Model | None = None, surprises: list[int] | None = None,
            readable: Sequence[int] | None = None, plays: str = "calls",
            patience: Patience | None = None) -> State | None:
    """The hand dealt again as `deal` on a copy of the match, its public actions replayed; None
    when the replay shows the seat anything other than what it saw or sees now, or when
    `patience` gives up on it at a surprise (it could no longer be kept).

    The copy keeps the match's public fields; everything hidden is replaced: an empty log (the
    engine reads no event before the hand's deal), `future` for the generator of future deals
    (shared: a world that deals copies it first), the sampled cards for the hand, nothing for
    the scripted deals and held-back reveals."""
    g = state.game
    world = state.clone()
    world.events = []
    world.script = []
    world.rng = future
    world.rng_shared = True
    world.score = list(k.score_before)
    world.match_over, world.winner = False, None
    world.hand_over, world.redeal_same = True, True      # deal this hand again, to the same seats
    world.hand_number -= 1
    world.shows = []
    world.next_hand(deal)
    if world.seats != k.playing:
        return None
    queue = {s: list(c) for s, c in covered.items()}
    missed = 0
    try:
        for e in k.shown:
            if e["type"] != "action":
                continue
            s, action = e["seat"], str(e["action"])
            if model is not None and s != k.seat and (readable is None or s in readable) \
                    and _readable_action(action, plays) \
                    and len(world.legal_actions(s)) > 1 and not _agrees(model(world, s), action, plays):
                missed += 1                 # an action the model would not have taken here
                if patience is not None and not patience(missed):
                    return None
            if action == "cover":               # a face down card: the seat's own, or one it did not see
                action = f"cover {queue[s].pop(0) if e.get('hidden') else e['card']}"
            world.apply(action, seat=s)
    except (IllegalAction, IndexError, KeyError):
        return None
    shown = [e for e in world.visible_events(k.seat) if not _is_signal(g, e)]
    if shown != k.shown or world.observation(k.seat) != k.view:
        return None                 # e.g. a seat the sample gives a flor would have to answer now
    if surprises is not None:
        surprises.append(missed)
    return world


def overwrite(state: State, k: Knowledge, deal: Deal, covered: dict[int, list[str]], future: random.Random) -> State:
    """The fallback world: a copy of the match whose cards are the sampled deal as it stands now,
    without replaying: each seat's deal, the cards it still holds (its deal less what it was seen
    to play and what it covered unseen) and the faces of its unseen covered cards. It keeps every
    card the seat saw but may break a constraint the sampler could not meet. `future` is as in
    `rebuild`."""
    g = state.game
    idx = g.cards.index
    world = state.clone()
    world.events = [dict(e) for e in k.hand]
    world.script = []
    world.rng = future
    world.rng_shared = True
    world.shows = []
    for s in k.playing:
        hidden = [idx[c] for c in covered.get(s, [])]
        faces = iter(hidden)
        for trick in [*world.history, world.trick]:
            for i, (p, c, cov) in enumerate(trick):
                if p == s and cov and s != k.seat:
                    trick[i] = (p, next(faces, c), cov)
        dealt = tuple(idx[c] for c in deal.hands[s])
        gone = {c for trick in [*world.history, world.trick] for p, c, _ in trick if p == s}
        world.dealt[s] = dealt
        world.hands[s] = [c for c in dealt if c not in gone][:len(state.hands[s])]
    world._legal = None
    return world


class _Keep:
    """Whether a replayed world is kept (`kept`), and whether a replay may go on (called at
    each surprise): while it could still be kept or be the least surprising world yet."""

    __slots__ = ("rng", "belief", "chance", "fewest")

    def __init__(self, rng: random.Random, belief: float) -> None:
        self.rng = rng
        self.belief = belief
        self.chance: float | None = None     # this replay's draw, made at its first surprise
        self.fewest: int | None = None       # the surprises of the least surprising world yet

    def kept(self, missed: int) -> bool:
        return missed == 0 or (self.chance is not None and self.chance < self.belief ** missed)

    def __call__(self, missed: int) -> bool:
        if self.chance is None:
            self.chance = self.rng.random()
        return self.kept(missed) or self.fewest is None or missed < self.fewest


def determinize(state: State, seat: int, rng: random.Random, tries: int = 20, model: Model | None = None,
                belief: float = 0.25, readable: Sequence[int] | None = None,
                plays: str = "calls", known: Knowledge | None = None) -> tuple[State, bool]:
    """A world the seat cannot tell from the real one, and whether it was rebuilt consistently
    (False: the fallback `overwrite`, after `tries` rejected deals). `known` is the seat's
    `knowledge` of the state, when the caller has read it already.

    With a `model` of the other seats, a consistent world in which the model would have made
    `m` of their calls and answers differently is kept with probability `belief ** m`: the
    calls made and refused tell of the cards behind them, as far as the model is right; `plays`
    says how much of their card play is read as well (`PLAYS`). Past
    `tries`, the consistent world the model found least surprising is kept. A replay is given up
    at the surprise that makes it neither kept nor the least surprising yet: the chance of
    keeping it is drawn at its first surprise."""
    k = knowledge(state, seat) if known is None else known
    deal = None
    best: tuple[int, State] | None = None
    keep = _Keep(rng, belief)
    future = random.Random(rng.getrandbits(64))      # no future deal of the match leaks into a world
    for _ in range(tries):
        deal, covered = sample_deal(state.game, k, rng)
        surprises: list[int] = []
        keep.chance = None
        world = rebuild(state, k, deal, covered, future, model, surprises, readable, plays, keep)
        if world is None:
            continue
        missed = surprises[0] if surprises else 0
        if keep.kept(missed):
            return world, True
        if best is None or missed < best[0]:
            best = (missed, world)
            keep.fewest = missed
    if best is not None:
        return best[1], True
    assert deal is not None
    return overwrite(state, k, deal, covered, future), False


# -- search --------------------------------------------------------------------------------

class RolloutPolicy(HeuristicBot):
    """The heuristic as a rollout plays it: a call is never answered with itself. The heuristic
    bot remembers the contests it raised in a hand, which ends a chain a spec leaves uncapped;
    a policy shared by every playout of a decision cannot lean on a memory that outlives one
    playout, so it refuses the self-raise outright."""

    def _answer(self, g: Rules, t: Any, obs: dict[str, Any], legal: list[str], kinds: dict[str, list[str]],
                power: float, call: str) -> str:
        kinds = {**kinds, "contest": [a for a in kinds["contest"] if a != call],
                 "stake": [a for a in kinds["stake"] if a != call]}
        return super()._answer(g, t, obs, legal, kinds, power, call)


ROLLOUT_CAP = 200
"""Actions a rollout takes by its policy before it plays at random: a guard against any other
policy loop a spec allows."""


class Node:
    """A node of the single-observer tree: reached by an action sequence from the root."""

    __slots__ = ("children", "visits", "avail", "total")

    def __init__(self) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0           # reward summed for the team that took the action into this node


@mypyc_attr(allow_interpreted_subclasses=True)     # compiled, still subclassed by tests that watch its search
class IsmctsBot:
    """Information-set MCTS with determinization; a budget of playouts (or milliseconds) a
    decision. With a playout budget and `root="paired"` (the default), the budget is spent in
    rounds, each playing every legal action once on one sampled world, and the action with the
    best total is chosen; with `root="ucb"` (and with a time budget) the root is searched by UCB
    like the rest of the tree, the playouts left unspent once no number of them could change the
    choice. Deterministic for a seed with a playout budget."""

    def __init__(self, seed: int | None = None, playouts: int = 150, milliseconds: int | None = None,
                 exploration: float = 0.7, worlds: int = 24, rollout: str = "heuristic",
                 spread: float = 1.2, opponents: str = "policy", belief: float | None = 0.25,
                 read_partners: bool = False, expand: str = "policy", root: str = "paired",
                 plays: str = "kind") -> None:
        self.rng = random.Random(seed)
        self.playouts = playouts
        self.milliseconds = milliseconds
        self.exploration = exploration
        self.worlds = worlds              # determinizations sampled a decision, shared by its playouts
        self.spread = spread              # the match's noise per point still needed (`_rewards`)
        if opponents not in OPPONENTS:
            raise ValueError(f"opponents must be one of {OPPONENTS}, not {opponents!r}")
        self.opponents = opponents        # "policy": other seats play the rollout policy on their
        # sampled cards; "team": the partners' actions are searched with the seat's, for the
        # team; "tree": every seat's actions are searched in the one tree (plain SO-ISMCTS)
        self.policy: HeuristicBot | RandomBot = RolloutPolicy(self.rng.getrandbits(32)) \
            if rollout == "heuristic" else RandomBot(self.rng.getrandbits(32))
        self.fallback_policy = RandomBot(self.rng.getrandbits(32))
        self.belief = belief              # None: the other seats' calls say nothing of their cards
        self.model = RolloutPolicy(self.rng.getrandbits(32))
        self.expand = expand
        self.root = root                  # "paired": every root action on the same worlds; "ucb"
        self.read_partners = read_partners   # whether the partners' calls are read by the model too
        if plays not in PLAYS:
            raise ValueError(f"plays must be one of {PLAYS}, not {plays!r}")
        self.plays = plays                # how much of the opponents' card play the model reads
        self.fallbacks = 0                # decisions whose worlds could not all be rebuilt
        self.decisions = 0                # decisions searched (a single legal action is not)
        self.sampled = 0                  # worlds sampled, and of those, the fallbacks
        self.unreplayed = 0
        self.last_root: Node | None = None   # the last search's tree

    def choose(self, state: State, seat: int) -> str:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        self.decisions += 1
        rng = self.rng
        paired = self.root == "paired" and self.milliseconds is None
        rounds = -(-self.playouts // len(legal))
        count = min(self.worlds, rounds) if paired else min(self.worlds, self.playouts)
        worlds: list[State] = []
        consistent = True
        team_of = state.game.team_of
        # the model reads the opponents' calls only: a partner may search too, and a partner
        # that is not the model makes calls the model would not, which it would misread
        readable = None if self.read_partners else \
            [s for s in range(state.game.num_players) if team_of[s] != team_of[seat]]
        k = knowledge(state, seat)
        for _ in range(max(1, count)):
            world, ok = determinize(state, seat, rng, model=None if self.belief is None else self.model.choose,
                                    belief=1.0 if self.belief is None else self.belief, readable=readable,
                                    plays=self.plays, known=k)
            worlds.append(world)
            consistent = consistent and ok
            self.sampled += 1
            self.unreplayed += not ok
        if not consistent:
            self.fallbacks += 1
        root = Node()
        start_score = list(worlds[0].score)
        if paired:
            # each round plays every legal action once on the same world: the actions are
            # compared on the same deals, so the luck of the deal cancels out of the choice
            for i in range(rounds):
                for a in legal:
                    self._playout(root, worlds[i % len(worlds)].clone(), team_of, start_score, seat, first=a)
            self.last_root = root
            return max(legal, key=lambda a: root.children[a].total)
        deadline = None if self.milliseconds is None else time.perf_counter() + self.milliseconds / 1000
        n = 0
        while True:
            if deadline is None:
                if n >= self.playouts or (n % 8 == 0 and self._settled(root, self.playouts - n)):
                    break
            elif n > 0 and time.perf_counter() >= deadline:
                break
            world = worlds[n % len(worlds)].clone()
            self._playout(root, world, team_of, start_score, seat)
            n += 1
        self.last_root = root
        best = max(legal, key=lambda a: (root.children[a].visits if a in root.children else -1,
                                         root.children[a].total if a in root.children else 0.0))
        return best

    @staticmethod
    def _settled(root: Node, left: int) -> bool:
        """Whether the most visited action leads the next by more than the playouts left: the
        rest of the budget could not change the choice, so it is not spent."""
        visits = sorted((c.visits for c in root.children.values()), reverse=True)
        return len(visits) > 1 and visits[0] > visits[1] + left

    def _playout(self, root: Node, world: State, team_of: Sequence[int], start: list[int], seat: int,
                 first: str | None = None) -> None:
        path: list[tuple[Node, int]] = []          # node entered, team that chose the action into it
        node = root
        c = self.exploration
        modelled = self.opponents != "tree"
        searched = team_of[seat] if self.opponents == "team" else None   # a team searched whole
        # selection and expansion
        while not world.hand_over:
            actor = world.current_player()
            assert actor is not None
            if modelled and actor != seat and team_of[actor] != searched:
                # another seat acts by the policy, on the cards this world gives it; the tree
                # goes on under the action as the searching seat sees it
                action = self.policy.choose(world, actor)
                world.apply(action, seat=actor)
                key = "cover" if action.startswith("cover ") else action
                node = node.children.setdefault(f"{actor}:{key}", Node())
                continue
            if first is not None and node is root:
                # the root's action is given: every action is tried on the same worlds
                given = node.children.setdefault(first, Node())
                given.avail += 1
                world.apply(first, seat=actor)
                path.append((given, team_of[actor]))
                node = given
                if given.visits == 0:
                    break
                continue
            legal = world.legal_actions(actor)
            for a in legal:
                child = node.children.get(a)
                if child is not None:
                    child.avail += 1
            unseen = [a for a in legal if a not in node.children]
            if unseen:
                action = self._expansion(world, actor, unseen, node is root)
                child = node.children[action] = Node()
                child.avail = 1
                world.apply(action, seat=actor)
                path.append((child, team_of[actor]))
                break
            log = math.log
            action = max(legal, key=lambda a: node.children[a].total / node.children[a].visits
                         + c * math.sqrt(log(node.children[a].avail) / node.children[a].visits))
            node = node.children[action]
            world.apply(action, seat=actor)
            path.append((node, team_of[actor]))
        # rollout to the end of the hand
        policy = self.policy
        steps = 0
        while not world.hand_over:
            actor = world.current_player()
            assert actor is not None
            steps += 1
            if steps > ROLLOUT_CAP:
                policy = self.fallback_policy
            world.apply(policy.choose(world, actor), seat=actor)
        rewards = self._rewards(world, start)
        for child, team in path:
            child.visits += 1
            child.total += rewards[team]

    def _expansion(self, world: State, actor: int, unseen: list[str], at_root: bool) -> str:
        """The action a node tries next. Below the root, the rollout policy's own choice goes
        first (`expand="policy"`; `"random"`: any untried action). The other seats' actions
        split the tree by world, so a node below the root is reached by few playouts and its
        first visits weigh in the value of the action above it; tried in a random order, they
        would play the seat's later turns at random (a fold, a call with nothing)."""
        action = self.rng.choice(unseen)
        if self.expand == "policy" and not at_root:
            hint = self.policy.choose(world, actor)
            if hint in unseen:
                return hint
        return action

    def _rewards(self, world: State, start: list[int]) -> list[float]:
        """Each team's reward in [-1, 1]: a won or lost match in full, otherwise the match as the
        score leaves it, `2 * P(win) - 1`. P(win) reads the points each team still needs as a
        race of hands (a normal approximation, `spread` points of noise per point needed), so a
        point counts for more near the target and a call that risks the match weighs as much
        as the match: a flat points reward would rate a falta envido like a few hands."""
        teams = len(start)
        if world.match_over and world.winner is not None:
            return [1.0 if t == world.winner else -1.0 for t in range(teams)]
        target = world.game.target
        need = [max(1, target - world.score[t]) for t in range(teams)]
        out = []
        for t in range(teams):
            rival = min(need[u] for u in range(teams) if u != t)
            z = (rival - need[t]) / (self.spread * math.sqrt(need[t] + rival))
            out.append(math.erf(z / math.sqrt(2)))          # 2 * Phi(z) - 1
        return out
