"""The compiled rules: one spec under one choice of table options as tables and closures, and the
queries about a match that need them (which seat holds a value, may declare or answer, who leads a
count). `game.Game` adds starting a match; the play modules are functions of a `Match` and these."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rulespec.formula import Compiled, Env, compile_expr
from rulespec.ir import CARD_VERBS, COMMON_VERBS, Contest, ContestCall, Formula, Spec

from interpreter.engine.context import ANSWERING, COUNTING, NATIVE, ON_TURN, Ctx, context, play_env
from interpreter.engine.match import Match
from interpreter.engine.records import PLAIN, Action
from interpreter.engine.tables import Cards, HandValues, hand_formula, hand_values, outcome_table, turned_tables

Fn = Callable[[Ctx], Any]


def constant(value: Any) -> Fn:
    """A formula that folded to `value`, as a function of the engine's own (a compiled engine
    calls it without running Python)."""
    return lambda c: value


def always(c: Ctx) -> bool:
    """A condition the spec leaves always true, compiled to this one function so that the
    engine tests `fn is always` and skips the call (and the context it would need)."""
    return True


class CompiledCall:
    """A contest call's rule as play reads it at every listing of legal actions, without going
    back to the IR."""

    def __init__(self, ir: ContestCall, allowed: Fn) -> None:
        self.name = ir.name
        self.act = Action("call", ir.name)
        self.declare = ir.declare
        self.opens = ir.opens
        self.after = frozenset(ir.after)
        self.max = ir.max
        self.allowed = allowed          # `always` where the spec sets no condition

    def may(self, ctx: Ctx) -> bool:
        """Its own `allowed:` condition."""
        return self.allowed is always or bool(self.allowed(ctx))


class CompiledContest:
    """A contest with its formulas compiled and its calls indexed by name."""

    def __init__(self, ir: Contest, compile_: Callable[[Formula], Fn], condition: Callable[[Formula], Fn],
                 fixed: Callable[[Formula], int | None], index: int) -> None:
        self.ir = ir
        self.index = index
        self.name = ir.name
        self.value = ir.value
        self.window = compile_(ir.window)
        self.interrupt = compile_(ir.interrupt)
        self.accept = compile_(ir.accept)
        self.decline = compile_(ir.decline)
        self.calls: dict[str, ContestCall] = {c.name: c for c in ir.calls}
        self.rules = tuple(CompiledCall(c, condition(c.allowed)) for c in ir.calls)     # in the spec's order
        self.opening = tuple(c for c in self.rules if c.opens)
        self.worth = {c.name: compile_(c.worth) for c in ir.calls}
        self.fixed_worth = {c.name: fixed(c.worth) for c in ir.calls}
        """Each call's worth where it is a constant (a payoff reads it without a context), else None."""
        self.call_accept = {c.name: compile_(c.accept) for c in ir.calls if c.accept is not None}
        self.call_decline = {c.name: compile_(c.decline) for c in ir.calls if c.decline is not None}
        self.unraised_pays = compile_(ir.unraised.pays) if ir.unraised else None
        self.unraised_mode = ir.unraised.mode if ir.unraised else "compare"
        self.good = condition(ir.count.good)
        self.announce = condition(ir.count.announce)
        self.procedure = ir.count.procedure
        self.tie = ir.count.tie
        self.in_turn = ir.count.order == "in_turn"
        self.show = ir.count.show
        self.declares = ir.declares
        self.openers = tuple(c.name for c in self.opening)
        self.answers_to = {last: tuple(c for c in self.rules if (c.name == last and c.declare) or last in c.after)
                           for last in self.calls}
        """The calls that may answer each call: a raise of it, or the same declaration of one's own."""
        self.open_freely = all(not c.declare and c.allowed is always for c in self.opening)
        """Whether every opening call may be made whenever the window is open: no hand to hold, no
        `allowed:` condition (then the openers are the legal list, read without a test)."""


class Rules:
    """Compiled tables and closures for one spec + options. Its fields are slots: there are more
    than a plain instance keeps in its shared-key layout, and play reads them at every step."""

    __slots__ = ("spec", "name", "options", "num_players", "teams", "team_of", "target", "end_at_once", "hand_size",
                 "cards", "deck_size", "every_seat", "views", "strength", "turns_card", "values", "outcomes",
                 "trick_count", "after_tie", "partners_tie", "answer_any", "call_names", "env", "cover", "cover_counts",
                 "stake_names", "stake_base", "base_worth", "stake_worth", "stake_fixed", "stake_declined",
                 "stake_when", "raise_any", "seats_after", "from_seat", "first_opponent", "deal_step", "contests",
                 "contest_of_call", "declaring",
                 "compulsory", "fold_when", "fold_on_turn", "fold_answering", "fold_counting", "fold_pays",
                 "fold_declines", "fold_concedes", "special", "blind_rules", "annulments", "signals", "schedule_when",
                 "formats", "schedule_each_hand", "aliases", "verbs", "play_acts", "cover_acts", "position_acts",
                 "stake_acts", "annul_acts", "actions", "action_index", "action_text", "act_of", "parsed", "play_texts",
                 "cover_texts", "position_texts")

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.name = spec.name
        self.options = dict(spec.chosen)
        self.num_players = spec.table.players
        self.teams = spec.table.teams
        self.team_of = tuple(s % self.teams for s in range(self.num_players))
        self.target = spec.match.target
        self.end_at_once = spec.match.end == "immediately"     # else at the end of the hand
        self.hand_size = spec.deck.hand_size
        self.cards = Cards(spec.deck)
        self.deck_size = len(self.cards)
        self.every_seat = tuple(range(self.num_players))
        self.views = turned_tables(self.cards, spec.ranking, spec.trumps)
        self.strength = {turned: view.strength for turned, view in self.views.items()}
        self.turns_card = spec.trumps is not None
        self.values: dict[str, HandValues] = hand_values(spec, self.cards, self.views)
        self.outcomes = outcome_table(spec)
        self.trick_count = spec.tricks.count
        self.after_tie = spec.tricks.after_tie
        self.partners_tie = spec.tricks.partners_tie
        self.answer_any = spec.table.answer == "any_opponent"

        stake_names = [c.name for c in spec.stakes.calls]
        contest_names = [c.name for cont in spec.contests for c in cont.calls]
        annul_names = [a.name for a in spec.annulments]
        signal_verb = [spec.signals.verb] if spec.signals else []
        self.call_names = set(stake_names) | set(contest_names)
        env = play_env(self.options, self.call_names, {c.name: i for i, c in enumerate(spec.contests)})
        self.env = env      # explain.py evaluates the parts of a refused condition with it

        def compiled(f: Formula, known: Mapping[str, Any] | None = None) -> Compiled:
            """`f` as generated Python; `known`: names whose values the caller's situation fixes."""
            where = env if known is None else Env(env.names, env.functions, {**env.constants, **known}, env.sources)
            return compile_expr(f.expr, where, f.locate, f.span.path, generate=True)

        def compile_(f: Formula) -> Fn:
            c = compiled(f)
            return constant(c.value) if c.constant else NATIVE.get(c.source, c.fn)

        def condition(f: Formula, known: Mapping[str, Any] | None = None) -> Fn:
            c = compiled(f, known)
            return always if c.constant and c.value is True else c.fn

        def fixed(f: Formula) -> int | None:
            """A number formula's value where it folds to a constant, else None (read at play)."""
            c = compiled(f)
            return int(c.value) if c.constant else None

        self.cover = compile_(spec.tricks.cover) if spec.tricks.cover else None
        self.cover_counts = spec.tricks.cover_counts
        self.stake_names = tuple(stake_names)
        base = compiled(spec.stakes.base)
        self.stake_base = base.fn
        self.base_worth: int | None = int(base.value) if base.constant else None   # None: read at each deal
        self.stake_worth = tuple(compile_(c.worth) for c in spec.stakes.calls)
        self.stake_fixed = tuple(fixed(c.worth) for c in spec.stakes.calls)     # None: read as accepted
        self.stake_declined = tuple(compile_(c.declined) for c in spec.stakes.calls)
        self.stake_when = condition(spec.stakes.when)
        self.raise_any = spec.stakes.raise_by == "any"
        n = self.num_players
        self.seats_after = tuple(tuple((s + k) % n for k in range(1, n)) for s in range(n))
        """The seats after each seat, round the table: `after` for a hand the whole table plays."""
        self.from_seat = tuple(tuple((s + k) % n for k in range(n)) for s in range(n))
        """Each seat, then the others in turn: the deal's and a count's order from a mano."""
        self.first_opponent = tuple(next(s for s in self.seats_after[seat] if self.team_of[s] != self.team_of[seat])
                                    for seat in range(n))
        """The first opponent after each seat: `next_opponent` for a hand the whole table plays."""
        self.deal_step = 1 if spec.table.dealer == "next" else n - 1       # seats the deal moves on by
        self.contests = tuple(CompiledContest(c, compile_, condition, fixed, i) for i, c in enumerate(spec.contests))
        self.contest_of_call = {c: cont for cont in self.contests for c in cont.calls}
        self.declaring = tuple(c for c in self.contests if c.declares)      # settled by declarations too
        self.compulsory = tuple(c for c in self.declaring if c.ir.declaration == "compulsory")
        self.fold_when = condition(spec.fold.when)           # out of turn: read in full
        self.fold_on_turn = condition(spec.fold.when, ON_TURN)
        self.fold_answering = condition(spec.fold.when, ANSWERING)
        self.fold_counting = condition(spec.fold.when, COUNTING)
        self.fold_pays = compile_(spec.fold.pays)
        self.fold_declines = spec.fold.pending_contest == "declined"
        self.fold_concedes = spec.fold.count == "conceded"
        self.special = tuple(
            (h, compile_(h.when), compile_(h.base) if h.base else None, compile_(h.blind) if h.blind else None)
            for h in spec.special_hands)
        self.blind_rules = tuple((h.name, blind) for h, _, _, blind in self.special if blind is not None)
        self.annulments = tuple((a.name, hand_formula(spec, self.cards, self.views, a.holds), compile_(a.when),
                                 a.dealer)
                                for a in spec.annulments)
        self.signals = spec.signals
        sched = spec.schedule
        self.schedule_when = compile_(sched.when) if sched is not None else None
        self.formats = tuple((f.name, f.seats) for f in sched.formats) if sched is not None else ()
        self.schedule_each_hand = sched is not None and sched.check == "hand"
        self.aliases = dict(spec.verbs)
        self.verbs = frozenset(self.call_names | set(annul_names) | set(signal_verb) | set(COMMON_VERBS)
                               | set(CARD_VERBS) | set(spec.disabled_calls))
        self.play_acts = tuple(Action("play", c) for c in range(len(self.cards)))
        self.cover_acts = tuple(Action("cover", c) for c in range(len(self.cards)))
        self.position_acts = tuple(Action("play_pos", i) for i in range(self.hand_size))
        self.stake_acts = tuple(Action("call", name) for name in self.stake_names)
        self.annul_acts = tuple(Action("annul", name) for name, *_ in self.annulments)
        vocabulary = self._vocabulary()
        self.actions = tuple(text for _, text in vocabulary)
        self.action_index = {a: i for i, a in enumerate(self.actions)}
        self.action_text = dict(vocabulary)
        self.act_of = {text: act for act, text in vocabulary}
        assert len(self.act_of) == len(vocabulary), "two actions of the vocabulary share a text"
        self.parsed = {text: act for act, text in vocabulary if text.split()[0] not in self.aliases}
        text = self.action_text      # the texts play lists, the vocabulary's own strings
        self.play_texts = tuple(text[act] for act in self.play_acts)
        self.cover_texts = tuple(text.get(act, "") for act in self.cover_acts)     # listed with a cover rule only
        self.position_texts = tuple(text[act] for act in self.position_acts)

    def _vocabulary(self) -> list[tuple[Action, str]]:
        """Every action as the engine's (verb, argument) and its text, in a fixed order: the
        stable integer ids bots use, and lookups so the hot path neither formats nor parses.
        The tuples are the ones play lists (`play_acts`, `CompiledCall.act`, records.PLAIN...)."""
        ids = self.cards.ids
        acts = [(act, f"play {ids[c]}") for c, act in enumerate(self.play_acts)]
        acts += [(act, f"play @{i + 1}") for i, act in enumerate(self.position_acts)]
        if self.cover is not None:
            acts += [(act, f"cover {ids[c]}") for c, act in enumerate(self.cover_acts)]
        acts += [(act, act[1]) for act in self.stake_acts]
        acts += [(call.act, call.name) for cont in self.contests for call in cont.rules]
        acts += [(act, act[1]) for act in self.annul_acts]
        acts += [(PLAIN[verb], verb) for verb in COMMON_VERBS]
        return acts

    # -- seats ------------------------------------------------------------------------

    def is_pie(self, mano: int, seat: int, seats: list[int]) -> bool:
        """The last seat of its team to play this hand (among `seats`), in order from the mano."""
        last = [s for s in self.from_seat[mano] if s in seats and self.team_of[s] == self.team_of[seat]][-1]
        return last == seat

    def round_goes_on(self, m: Match) -> bool:
        """Whether the rest of a round begun is dealt: always, unless the spec checks its
        schedule's condition before every hand and it now fails."""
        return not self.schedule_each_hand or self.schedule_when is None \
            or bool(self.schedule_when(context(m, self, None)))

    def round_plan(self, m: Match) -> list[tuple[str, list[int]]]:
        """The hands of a round under the schedule, as (format, seats), when it applies as the
        round starts; empty otherwise. Facing pairs come in turn from the seat after the dealer."""
        if self.schedule_when is None or not self.schedule_when(context(m, self, None)):
            return []
        n = self.num_players
        plan: list[tuple[str, list[int]]] = []
        for name, seats in self.formats:
            if seats == "all":
                plan.append((name, list(range(n))))
                continue
            first = [(m.dealer + 1 + k) % n for k in range(n // 2)]
            plan += [(name, sorted((s, (s + n // 2) % n))) for s in first]
        return plan

    # -- what formulas ask (context.Asked) --------------------------------------------

    def may_answer(self, m: Match, seat: int) -> bool:
        return may_answer(m, self, seat)

    def count_would_win(self, m: Match, seat: int) -> bool:
        return count_would_win(m, self, seat)

    def count_beats(self, m: Match, seat: int, opponents: bool) -> bool:
        return count_beats(m, self, seat, opponents)

    def score_problem(self, score: object) -> str | None:
        """What is wrong with `score` as a match's starting score, if anything: one whole
        number per team, each below the target (a match at the target is over)."""
        if isinstance(score, (list, tuple)) and len(score) == self.teams \
                and all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < self.target for s in score):
            return None
        return (f"a starting score is one whole number for each of the {self.teams} teams, each from 0 to "
                f"{self.target - 1} (the target is {self.target}), not {score!r}")

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({self.name!r}, {opts})"


# -- queries about a match: public facts, and a seat's own values -------------------------

def after(m: Match, r: Rules, seat: int) -> tuple[int, ...]:
    """The seats playing this hand after `seat`, in turn round the table."""
    order = r.seats_after[seat]
    if len(m.seats) == r.num_players:
        return order
    return tuple(s for s in order if s in m.seats)


def from_mano(m: Match, r: Rules) -> tuple[int, ...]:
    """The seats playing this hand, in turn from the mano."""
    order = r.from_seat[m.mano]
    if len(m.seats) == r.num_players:
        return order
    return tuple(s for s in order if s in m.seats)


def next_opponent(m: Match, r: Rules, seat: int) -> int:
    if len(m.seats) == r.num_players:
        return r.first_opponent[seat]
    for s in after(m, r, seat):
        if r.team_of[s] != r.team_of[seat]:
            return s
    raise AssertionError("every hand has an opponent")


def holds(m: Match, r: Rules, cont: CompiledContest, seat: int) -> bool:
    if m.facts is not None:
        return m.facts.holds(m, cont.value, seat)
    return r.values[cont.value](m.dealt[seat], m.turned) is not None


def annuls(m: Match, r: Rules, index: int, seat: int) -> bool:
    """Whether `seat`'s hand is one that may annul the deal (the `index`th annulment)."""
    name, holds_it, _, _ = r.annulments[index]
    if m.facts is not None:
        return m.facts.annuls(m, name, seat)
    return bool(holds_it(m.dealt[seat], m.turned))


def trick_winner(r: Rules, top: Sequence[int]) -> int | None:
    """The seat that takes a trick whose best cards are `top`'s: one alone, or partners where
    the spec gives their tie to their team; None for a tie."""
    alone = len(top) == 1 or (r.partners_tie == "team_wins" and len({r.team_of[s] for s in top}) == 1)
    return top[0] if alone else None


def trick_top(m: Match, shown: list[tuple[int, int]]) -> list[int]:
    """The seats whose shown cards tie for the best, in the order played."""
    if m.facts is not None:
        return m.facts.trick_top(m, [s for s, _ in shown])
    return strongest(m, shown)


def strongest(m: Match, shown: list[tuple[int, int]]) -> list[int]:
    """The seats whose cards, of the (seat, card) pairs shown, tie for the strongest. One pass,
    as a loop: a trick is a few cards, and comprehensions cost more than it does."""
    strength = m.strength
    best = strength[shown[0][1]]
    top: list[int] = []
    for s, c in shown:
        v = strength[c]
        if v > best:
            best, top = v, [s]
        elif v == best:
            top.append(s)
    return top


def may_declare(m: Match, cont: CompiledContest, seat: int) -> bool:
    """Whether `seat` still has the chance to declare: it has not declared nor played a card.
    Public facts only, so that nothing waits on a hidden hand."""
    return seat not in m.contests[cont.index].declared and m.played[seat] == 0 and seat in m.seats


def may_answer(m: Match, r: Rules, seat: int) -> bool:
    """The asked seat, or any of its partners where the table lets a teammate answer. In a
    contest of declarations only a holder answers: one who declared or can still show it. A
    caller never answers his own call, even when it asks his partner (`asks: all`)."""
    p = m.pending
    assert p is not None
    if seat != p.answerer and (seat == p.caller or not (r.answer_any and r.team_of[seat] == p.answer_team
                                                         and seat in m.seats)):
        return False
    if p.contest is not None and seat != p.answerer:
        cont = r.contests[p.contest]
        if cont.declares:
            declared = seat in m.contests[cont.index].declared
            return holds(m, r, cont, seat) and (declared or may_declare(m, cont, seat))
    return True


def value(m: Match, r: Rules, cont: CompiledContest, seat: int) -> int:
    v = m.facts.value(m, cont.value, seat) if m.facts is not None else r.values[cont.value](m.dealt[seat], m.turned)
    return -1 if v is None else v


def value_top(m: Match, r: Rules, cont: CompiledContest, seats: list[int]) -> list[int]:
    """The seats of `seats` whose values for `cont` tie for the best, in the order given."""
    if m.facts is not None:
        return m.facts.value_top(m, cont.value, seats)
    values = [value(m, r, cont, s) for s in seats]
    top = max(values, default=-1)
    return [s for s, v in zip(seats, values, strict=True) if v == top]


def leader(m: Match, r: Rules, cont: CompiledContest,
           values: Iterable[tuple[int, int | None]]) -> tuple[int | None, int]:
    """The winning seat among (seat, value) pairs under the contest's tie rule, and the best
    value; the seat is None when nobody has a value yet, or when the best value is held on
    both sides and ties go to nobody. Seats are ranked by their place from the mano, not by
    the order in which they spoke."""
    shown = [(s, v) for s, v in values if v is not None]
    if not shown:
        return None, -1
    best = max(v for _, v in shown)
    top = sorted((s for s, v in shown if v == best), key=lambda s: (s - m.mano) % r.num_players)
    team_of = r.team_of
    if len({team_of[s] for s in top}) == 1 or cont.tie == "nearer_lead":
        return top[0], best
    if cont.tie == "farther_lead":
        return top[-1], best
    if cont.tie == "mano_team":
        mano_team = team_of[m.mano]
        return next((s for s in top if team_of[s] == mano_team), top[0]), best
    return None, best                                 # tie: nobody


def count_would_win(m: Match, r: Rules, seat: int) -> bool:
    """Whether `seat`'s true value would turn the count its team's way now: take it, or tie
    it where a tie goes to nobody."""
    c = m.count
    assert c is not None
    cont = r.contests[c.contest]
    lead, _ = leader(m, r, cont, [*c.announced, (seat, value(m, r, cont, seat))])
    team_of = r.team_of
    before = None if c.best_seat is None else team_of[c.best_seat]
    after = None if lead is None else team_of[lead]
    return after != before and after in (team_of[seat], None)


def count_beats(m: Match, r: Rules, seat: int, opponents: bool) -> bool:
    """Whether `seat`'s true value beats the best value announced so far in the count (by an
    opponent only, with `opponents`), under the contest's tie rule; true while none is."""
    c = m.count
    assert c is not None
    cont = r.contests[c.contest]
    team_of = r.team_of
    mine = -2                         # not yet asked: nothing announced asks for the seat's own value
    tied: list[tuple[int, int | None]] = []
    for s, v in c.announced:
        if v is None or (opponents and team_of[s] == team_of[seat]):
            continue
        if mine == -2:
            mine = value(m, r, cont, seat)
        if v > mine:
            return False
        if v == mine:
            tied.append((s, v))
    if not tied:
        return True                   # nothing announced, or every value announced below the seat's
    tied.append((seat, mine))
    return leader(m, r, cont, tied)[0] == seat      # equal values: the tie rule says who beats whom
