"""The hot core of the checker's walk (explore.py), what each transition does outside the
engine: the walk's loop, the choice of actions, a step's copies and the state key. Written under
the engine's rules so that setup.py compiles it with mypyc, as a group of its own
(docs/performance.md, "The compiled engine"); it runs as this source elsewhere.

`explore.Keys` works out from the spec which fields a game's key keeps and what its contests'
and score's part reads; `StateKey` reads the fields, and asks `KeyPart` for that part only for a
combination of what the part reads it has not seen. `run` walks the graph, taking the actions
`choices` gives, and `step` plays an action on copies, leaving what they find to the walk
(`Walker`); `Graph` keeps the nodes by key and the edges between them, and measures the longest
hand.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, cast

from rulespec.errors import IllegalAction, TrucoError
from rulespec.ir import ContestCall

from interpreter.designer.abstract import AbstractDeal, Fact, Undecided, never_again
from interpreter.engine.contests import accepted_pays
from interpreter.engine.legal import texts
from interpreter.engine.records import ACTIVE, CLOSED, IDLE
from interpreter.engine.rules import CompiledContest
from interpreter.engine.state import State

REPEATS = 2
"""An uncapped call (no `max`) is explored this many times per chain: a hand where calls
may be repeated without limit has no bound, and the bound reported assumes this many."""

NAMED = ("facts", "hands", "pending", "suspended", "plan", "played", "results", "seats", "special", "trick")
"""The fields of a match (match.py) every key keeps that `StateKey.rest` reads by name, each as
its kind asks."""
CALLS = ("calls_made", "called", "accepted")
"""The calls made, which `StateKey.rest` reads by name where the key keeps them (a formula
reads them)."""

ATOMS = ("base_worth", "blind", "dealer", "forbid", "hand_format", "hand_over", "leader", "mano", "match_over",
         "redeal_same", "stake_calls", "stake_level", "stake_owner", "trick_no", "turn", "winner", "worth")
"""The fields of a match (match.py) every key keeps that hold a number, a flag, a text or None:
they enter a key as they are, read one by one by `StateKey.rest`. Named here rather than read from the
declarations, whose types a compiled engine gives as classes; a field the key keeps that is
named neither here nor in `NAMED` or `CALLS` is frozen whole (`explore._frozen`)."""

Part = tuple[object, object]
"""The contests' and the score's part of a key."""
Step = tuple[str, object]
"""A path's step (`abstract.Step`): ("act", "SEAT ACTION") or ("fact", (fact, answer))."""


class Counts(Protocol):
    """What a walk counts (`explore.Exploration`)."""

    states: int
    choices: int
    transitions: int
    legal_calls: set[str]
    uncapped: set[str]


class Walker(Protocol):
    """What `run` and `step` leave to the walk (`explore._Walk`): its graph (`link`, which
    `Graph` keeps) and the findings (a score lowered, an answer that does not settle its
    contest...), each reported with the node it was found from and the steps after it."""

    @property
    def out(self) -> Counts: ...

    def link(self, i: int, child: State, step: Step, stack: list[tuple[int, State]],
             more: Sequence[Step] = (), forget: bool = True) -> None: ...

    def dead_end(self, i: int, st: State, seat: int | None) -> None: ...

    def check_answers(self, i: int, st: State, legal: list[str]) -> None: ...

    def refused(self, i: int, st: State, steps: list[Step], err: IllegalAction) -> None: ...

    def crashed(self, i: int, st: State, steps: list[Step], err: Exception) -> None: ...

    def lowered(self, i: int, st: State, child: State, steps: list[Step]) -> None: ...

    def resolves(self, i: int, st: State, child: State, action: str, steps: list[Step]) -> None: ...


class Graph:
    """One walk's graph (`explore._Walk`): how each node was first reached (`parent`: the node
    before and the step from it), the nodes each leads to (`children`), whether a hand ends
    from it (`ends`), and the nodes by key (`index`), at most `limit` of them (`cut` once a
    further one is met). Kept here, compiled, since an edge is linked at every transition."""

    parent: list[tuple[int, Step]]
    children: list[list[int]]
    ends: list[bool]
    index: dict[object, int]
    limit: int
    cut: bool
    out: Counts
    key: StateKey

    def __init__(self, root: object, limit: int, out: Counts, key: StateKey) -> None:
        """`root`: the first node's key; `key` keys the others (`explore.Keys`)."""
        self.parent = [(-1, ("act", ""))]
        self.children = [[]]
        self.ends = [False]
        self.index = {root: 0}
        self.limit = limit
        self.cut = False
        self.out = out
        self.key = key

    def link(self, i: int, child: State, step: Step, stack: list[tuple[int, State]],
             more: Sequence[Step] = (), forget: bool = True) -> None:
        """An edge from node `i`: to an end (counted, never stored), a known state or a new one
        (put on `stack` to be walked). `more` are the steps after `step` on the same edge (an
        action's choices); `forget` as `StateKey` takes it."""
        if child.hand_over:
            self.out.states += 1
            self.ends[i] = True
            return
        key = self.key(child, forget)
        j = self.index.get(key, -1)
        if j < 0:
            if len(self.index) >= self.limit:
                self.cut = True
                return
            parent, children, ends = self.parent, self.children, self.ends
            for extra in more:                      # each choice on the edge gets a node of its own
                j = len(parent)
                parent.append((i, step))
                children.append([])
                ends.append(False)
                children[i].append(j)
                i, step = j, extra
            j = self.index[key] = len(parent)
            parent.append((i, step))
            children.append([])
            ends.append(False)
            stack.append((j, child))
        self.children[i].append(j)

    def measure(self) -> tuple[int, int]:
        """The most actions a hand takes from the first node, and the first node met again on
        the path that leads to it (a position that comes back: an endless hand), -1 if none."""
        children, ends = self.children, self.ends
        depth = [0] * len(children)
        state = [0] * len(children)             # 0 new, 1 on the path, 2 done
        back = -1
        stack: list[tuple[int, int]] = [(0, 0)]
        state[0] = 1
        while stack:
            node, k = stack[-1]
            kids = children[node]
            if k < len(kids):
                stack[-1] = (node, k + 1)
                kid = kids[k]
                if state[kid] == 1:
                    if back < 0:
                        back = kid
                elif state[kid] == 0:
                    state[kid] = 1
                    stack.append((kid, 0))
                continue
            stack.pop()
            state[node] = 2
            longest = -1
            for kid in kids:
                if state[kid] == 2 and depth[kid] + 1 > longest:
                    longest = depth[kid] + 1
            depth[node] = longest if longest >= 0 else int(ends[node])
        return depth[0], back


def decided(st: State, q: Undecided, answer: object) -> State:
    """A copy of `st` whose abstract deal answers `q` with `answer`."""
    child = st.fork()
    child.facts = cast(AbstractDeal, st.facts).answered(q.fact, answer)
    child._legal = None
    return child


def run(walk: Walker, root: State, visits: int, first_trick: bool, tricks_only: bool) -> bool:
    """Walk the graph from `root` (node 0), visiting at most `visits` states (hands ended
    included; the count goes on from `walk.out.states`); with `first_trick`, no further than
    the end of the first trick once no contest is open; with `tricks_only`, only card play
    (`choices`). Whether it stopped at `visits`."""
    out = walk.out
    legal_calls, uncapped = out.legal_calls, out.uncapped
    stack: list[tuple[int, State]] = [(0, root)]
    while stack:
        if out.states > visits:
            return True
        i, st = stack.pop()
        out.states += 1
        if st.hand_over:
            continue
        if first_trick and st.trick_no > 0 and st.pending is None and st.count is None \
                and all(c.status != ACTIVE for c in st.contests):
            continue
        seat: int | None = st.current_player()
        if seat is None:
            walk.dead_end(i, st, None)
            continue
        try:
            legal = texts(st, st.game, seat)    # the state's memo, read and never changed here
        except Undecided as q:                  # the cards decide what this seat may do
            out.choices += 1
            for answer in q.choices:
                child = decided(st, q, answer)
                walk.link(i, child, ("fact", (q.fact, answer)), stack, (), False)
            continue
        if not legal:
            walk.dead_end(i, st, seat)
            continue
        if st.pending is not None:              # what `check_answers` checks is an answer
            walk.check_answers(i, st, legal)
        for action in choices(st, seat, legal, tricks_only, legal_calls, uncapped):
            for child, steps in step(walk, i, st, seat, action):
                if len(steps) == 1:
                    walk.link(i, child, steps[0], stack)
                else:
                    walk.link(i, child, steps[0], stack, steps[1:])
    return False


def choices(st: State, seat: int, legal: list[str], tricks_only: bool, legal_calls: set[str],
            uncapped: set[str]) -> list[str]:
    """The actions the walk takes from `st`, `seat` to act: card play reduced to the next card
    in dealt order (`canonical`), uncapped calls at most REPEATS times per chain, and with
    `tricks_only` card play alone. Every call met is added to `legal_calls`, and to `uncapped`
    where it is left out for repeating past REPEATS."""
    game = st.game
    out: list[str] = []
    for action in _next_cards(st, seat, legal):
        if tricks_only and not (action.startswith("play ") or action.startswith("cover ")):
            continue
        cont = game.contest_of_call.get(action)
        if cont is not None:
            legal_calls.add(action)
            if cont.calls[action].max is None \
                    and repeats_past(cont.calls, [c for c, _ in st.contests[cont.index].chain], action):
                uncapped.add(action)
                continue
        elif action in game.stake_names:
            legal_calls.add(action)
        out.append(action)
    return out


def canonical(st: State, actions: list[str]) -> list[str]:
    """The legal actions with card play reduced to each seat's next card in dealt order."""
    seat = st.current_player()
    return actions if seat is None else _next_cards(st, seat, actions)


def _next_cards(st: State, seat: int, actions: list[str]) -> list[str]:
    """`actions` (`seat`'s) with card play reduced to the seat's next card in dealt order."""
    dealt, held = st.dealt[seat], st.hands[seat]
    first: str | None = None
    position: str | None = None
    for card in dealt:
        if card in held:
            first = st.game.cards.ids[card]
            position = f"@{dealt.index(card) + 1}"
            break
    out: list[str] = []
    for a in actions:
        verb, _, arg = a.partition(" ")
        if (verb == "play" or verb == "cover") and arg != first and arg != position:
            continue
        out.append(a)
    return out


def repeats_past(calls: Mapping[str, ContestCall], chain: Sequence[str], action: str) -> bool:
    """Whether calling `action` (a call without a cap) again would go past what is explored:
    up to REPEATS times, and only one such call repeated in a chain."""
    made = list(chain)
    if made.count(action) >= REPEATS:
        return True
    if action not in made:
        return False
    for c in made:
        if c != action and made.count(c) > 1 and calls[c].max is None:
            return True
    return False


def step(walk: Walker, i: int, st: State, seat: int, action: str) -> list[tuple[State, list[Step]]]:
    """The states `action` leads from node `i`'s state `st` to, one for each answer to the
    questions it asks of the cards, with the choices that lead there and the action last."""
    last: Step = ("act", f"{seat} {action}")
    counts = walk.out
    score = st.score
    pending = st.pending
    answers = (action == "accept" or action == "decline") and pending is not None and pending.contest is not None
    out: list[tuple[State, list[Step]]] = []
    # each try is one copy of `st`, with the answers chosen so far decided on it
    todo: list[tuple[list[tuple[Fact, object]], list[Step]]] = [([], [])]
    while todo:
        decisions, chosen = todo.pop()
        child = st.fork()
        if decisions:                   # answers only added: the legal actions stay as listed
            facts = cast(AbstractDeal, child.facts).copy()      # the fork shares `st`'s deal
            for fact, answer in decisions:
                facts.decide(fact, answer)
            child.facts = facts
        try:
            child.apply(action)
        except Undecided as q:
            counts.choices += 1
            for answer in q.choices:
                todo.append(([*decisions, (q.fact, answer)], [*chosen, ("fact", (q.fact, answer))]))
            continue
        except IllegalAction as err:
            walk.refused(i, st, [*chosen, last], err)
            continue
        except (TrucoError, ArithmeticError, LookupError, TypeError, ValueError) as err:   # explore.FORMULA_FAILURES
            walk.crashed(i, st, [*chosen, last], err)
            continue
        steps: list[Step] = [*chosen, last] if chosen else [last]
        counts.transitions += 1
        if child.score != score and _lowered(child.score, score):
            walk.lowered(i, st, child, steps)
        if answers:
            walk.resolves(i, st, child, action, steps)
        out.append((child, steps))
    return out


def _lowered(after: list[int], before: list[int]) -> bool:
    """Whether some team's score went down."""
    for a, b in zip(after, before, strict=False):
        if a < b:
            return True
    return False


def _count(st: State) -> object:
    """The count as the future reads it: a best value by its place among the abstract deal's."""
    c = st.count
    if c is None:
        return None
    best = c.best_value
    facts = st.facts
    if isinstance(facts, AbstractDeal) and best >= 0:
        best = facts.rank(st.game.contests[c.contest].value, best)
    return (c.contest, tuple(c.order), c.index, c.best_seat, best)


_GONE = ("score left out",)
"""The key's score where the score no longer matters."""


class KeyPart:
    """The contests' and the score's part of a state's key, for one game (`explore.Keys` works
    out what it reads from the spec's formulas). Kept here, compiled, since it is worked out
    for about half the keys the walk makes.

    A counted chain is keyed by what it pays (`paid_in_count`), counting no more points than end
    the match when they do at once; where those points are all the score still matters for,
    the score gives way to whether they end it. The score is left out once nothing left in the
    hand reads it or may score (`score_matters`)."""

    score_always: bool
    """Whether a formula outside the contests (and the schedule, read between hands) reads the score."""
    score_contests: list[bool]
    """Whether each contest reads the score."""
    score_beside_pay: list[bool]
    """Whether each contest reads the score elsewhere than in what an accepted chain pays."""
    paid_in_count: list[bool]
    """Whether each contest's counted chain is keyed by what it pays."""
    paid_by_team: list[bool]
    """Whether what each contest pays reads only the winner's team, not its seat."""
    ends_at_once: bool
    """Whether points that reach the target end the match at once (`match.end: immediately`)."""
    chain_reads: list[str]
    """The calls a formula's `in_chain` asks about."""
    shut: dict[int, bool]
    """Whether each contest is over, for `shut_of` as it was when its key was begun."""
    shut_of: State | None
    score_in_pays: bool
    """Whether the key being made holds all the score still matters for: whether the count's
    payment ends the match."""
    ended: bool
    """Whether the chain `chain` last gave is whether its points end the match."""

    def __init__(self, score_always: bool, score_contests: list[bool], score_beside_pay: list[bool],
                 paid_in_count: list[bool], paid_by_team: list[bool], ends_at_once: bool,
                 chain_reads: list[str]) -> None:
        self.score_always = score_always
        self.score_contests = score_contests
        self.score_beside_pay = score_beside_pay
        self.paid_in_count = paid_in_count
        self.paid_by_team = paid_by_team
        self.ends_at_once = ends_at_once
        self.chain_reads = chain_reads
        self.shut = {}
        self.shut_of = None
        self.score_in_pays = False
        self.ended = False

    def part(self, st: State) -> Part:
        """The contests' and the score's part of the key of `st`."""
        self.shut_of = None
        self.score_in_pays = False
        contests: list[object] = []
        for i, x in enumerate(st.contests):
            if x.status == CLOSED:
                contests.append(x.status)
            else:
                chain = self.chain(st, i)                       # sets `ended`
                contests.append((x.status, chain, tuple(x.declared), self.ended))
        # `score_in_pays` is set by `chain`, which has run
        return tuple(contests), _GONE if self.score_in_pays or not self.score_matters(st) else tuple(st.score)

    def chain(self, st: State, index: int) -> object:
        """A contest's chain; while it is counted, what it pays each seat that may win the
        count (and how often it holds each call `in_chain` asks about): nothing else reads an
        accepted chain, and nothing scores before the count settles it or a declaration
        wipes it (during a count a seat may only announce, concede or make such a
        declaration), so chains that pay alike have the same future. With `match.end:
        immediately`, points past a team's target are all one: they end the match."""
        chain = st.contests[index].chain
        c = st.count
        self.ended = False
        if c is None or c.contest != index or not self.paid_in_count[index]:
            return tuple(chain)
        game = st.game
        cont = game.contests[index]
        team_of = game.team_of
        try:
            if self.paid_by_team[index]:            # what a team's winner reads is its team's
                by_team: dict[int, int] = {}
                for seat in reversed(c.order):
                    by_team[team_of[seat]] = seat
                paid: dict[int, int] = {}
                for team, seat in by_team.items():
                    paid[team] = accepted_pays(st, game, cont, seat, c.order)
                pays = [paid[team_of[seat]] for seat in c.order]
            else:
                pays = [accepted_pays(st, game, cont, seat, c.order) for seat in c.order]
        except (TrucoError, ArithmeticError, LookupError, TypeError, ValueError):   # explore.FORMULA_FAILURES
            return tuple(chain)                     # a failing payoff: found when the count ends
        score = st.score
        if self.ends_at_once:                       # points past the target all end the match alike
            pays = [min(max(p, 0), max(game.target - score[team_of[seat]], 0))
                    for seat, p in zip(c.order, pays, strict=True)]
        if not self.score_always and self.others_over(st, index):
            # nothing left reads the score or scores before the hand ends: the points
            # matter only in whether they end the match
            ends = [self.ends_at_once and score[team_of[seat]] + p >= game.target
                    for seat, p in zip(c.order, pays, strict=True)]
            self.score_in_pays = not self.score_beside_pay[index]   # unless the count reads it
            self.ended = True
            return tuple(ends), self.in_chain(chain)
        return tuple(pays), self.in_chain(chain)

    def others_over(self, st: State, index: int) -> bool:
        """Whether every contest but the one at `index` is `over`."""
        for other in st.game.contests:
            if other.index != index and not self.over(st, other):
                return False
        return True

    def in_chain(self, chain: list[tuple[str, int]]) -> tuple[int, ...]:
        """How often the chain holds each call a formula's `in_chain` asks about."""
        counts: list[int] = []
        for name in self.chain_reads:
            n = 0
            for call, _ in chain:
                if call == name:
                    n += 1
            counts.append(n)
        return tuple(counts)

    def score_matters(self, st: State) -> bool:
        """Whether the score may still change what happens this hand: a formula outside the
        contests reads it; or a contest that is under way, or that some seat could still open
        (its window may hold again), reads it, or may pay points that end the match at one
        score and not at another (`match.end: immediately`)."""
        if self.score_always:
            return True
        for cont, reads in zip(st.game.contests, self.score_contests, strict=False):
            if (reads or self.ends_at_once) and not self.over(st, cont):
                return True
        return False

    def over(self, st: State, cont: CompiledContest) -> bool:
        """Whether `cont` can neither score nor read anything more this hand: it is settled,
        or idle with a window no seat can see open again."""
        status = st.contests[cont.index].status
        if status != IDLE:
            return status == CLOSED
        if self.shut_of is not st:
            self.shut.clear()
            self.shut_of = st
        known = self.shut.get(cont.index)
        if known is None:
            game = st.game
            known = True
            for seat in range(game.num_players):
                if not never_again(cont.ir.window, st, game, seat):
                    known = False
                    break
            self.shut[cont.index] = known
        return known


class StateKey:
    """The key of a state: the contests' and the score's part (`KeyPart`, remembered by what it
    is worked out from), the other kept fields, and the count.

    A million states' keys hold a few thousand distinct values of their parts, so each part is
    kept once (`shared`) and every key holds that one: the largest bundled walk (1,050,549
    states) takes 1.1 GB instead of 3.2."""

    frozen: list[str]
    calls: bool
    cap: int
    called: bool
    accepted: bool
    freeze: Callable[[object], object]
    part: KeyPart
    memo: dict[object, tuple[object, object, object]]
    shared: dict[object, object]

    def __init__(self, fields: Sequence[str], cap: int | None, freeze: Callable[[object], object],
                 part: KeyPart) -> None:
        """`fields`: those the key keeps but the contests, the score and the count; those
        named neither in `ATOMS`, `NAMED` nor `CALLS` are frozen whole by `freeze`. `cap`: the
        number of calls made past which all read alike."""
        missing = (set(NAMED) | set(ATOMS)) - set(fields)
        if missing:
            raise ValueError(f"the key leaves out {', '.join(sorted(missing))}, which `rest` reads")
        self.frozen = [name for name in fields if name not in ATOMS and name not in NAMED and name not in CALLS]
        self.calls = "calls_made" in fields
        self.cap = -1 if cap is None else cap
        self.called = "called" in fields
        self.accepted = "accepted" in fields
        self.freeze = freeze
        self.part = part
        self.memo = {}
        self.shared = {}

    def rest(self, st: State) -> tuple[object, ...]:
        """The kept fields but the contests, the score and the count: numbers, flags, texts and
        None as they are, lists as tuples, sets sorted, an abstract deal by its key, the rest
        frozen; a field the key leaves out is None."""
        facts = st.facts
        p, q = st.pending, st.suspended
        # the fields named in `ATOMS`, in its order, and the waiting calls, read one by one in
        # this one call: in a compiled build, a read of each field
        return ((st.base_worth, st.blind, st.dealer, st.forbid, st.hand_format, st.hand_over, st.leader, st.mano,
                 st.match_over, st.redeal_same, st.stake_calls, st.stake_level, st.stake_owner, st.trick_no,
                 st.turn, st.winner, st.worth),
                None if facts is None else cast(AbstractDeal, facts).key(),
                tuple([tuple(h) for h in st.hands]),
                None if p is None else (p.call, p.caller, p.answerer, p.answer_team, p.contest, p.step),
                None if q is None else (q.call, q.caller, q.answerer, q.answer_team, q.contest, q.step),
                tuple([(f, tuple(seats)) for f, seats in st.plan]),
                tuple(st.played),
                tuple(st.results),
                tuple(st.seats),
                tuple(st.special),
                tuple(st.trick),
                (st.calls_made if self.cap < 0 else min(st.calls_made, self.cap)) if self.calls else None,
                tuple(sorted(st.called)) if self.called else None,
                tuple(sorted(st.accepted)) if self.accepted else None,
                tuple([self.freeze(getattr(st, name)) for name in self.frozen]))

    def __call__(self, st: State, forget: bool = True) -> object:
        """The key of `st`; with `forget`, its abstract deal first drops the answers the engine
        will not ask again (not after a choice just made: that would undo it)."""
        facts = st.facts
        if forget and isinstance(facts, AbstractDeal):
            facts.forget(st)
        rest = self.rest(st)
        c = st.count
        # what the contests' and the score's part read, but a count's progress (which a
        # counted chain's payoff does not read: `explore._pays_alike`)
        base = (rest, st.calls_made, tuple(st.score), None if c is None else (c.contest, tuple(c.order)),
                tuple([(x.status, tuple(x.chain), tuple(x.declared)) for x in st.contests]))
        known = self.memo.get(base)
        if known is None:                   # kept from now on: its parts as kept already
            share = self.shared.setdefault
            kept = (share(rest, rest), base[1], share(base[2], base[2]), base[3], share(base[4], base[4]))
            made = self.part.part(st)
            known = self.memo[kept] = (made[0], made[1], kept[0])
        return (known[0], known[1], known[2], _count(st))
