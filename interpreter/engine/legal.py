"""Which actions a seat may take now: cards, stake calls, contest calls, answers, counts.

Functions of a `Match` and its `Rules`, read-only but for the memo: generating legal actions is
most of the engine's work, and keeping it apart keeps `state.py` about what actions do. They
list each action by its text, the one string of the rules' vocabulary (`Rules.action_text`),
which is what drivers read and give back; `acts` finds the engine's `Action`s when asked.
"""
from __future__ import annotations

from interpreter.engine.context import Ctx, context
from interpreter.engine.match import Match
from interpreter.engine.records import CLOSED, IDLE, Action, Pending
from interpreter.engine.rules import (
    CompiledCall,
    CompiledContest,
    Fn,
    Rules,
    always,
    annuls,
    holds,
    may_answer,
    may_declare,
)


def texts(m: Match, r: Rules, seat: int) -> list[str]:
    """Every legal action of `seat` as text, in vocabulary order; remembered until the state
    changes, so checking the action a bot picked from them costs nothing more (the list
    remembered: copy it before changing it). Found here rather than in a function of its own:
    every listing takes this path, and a call costs more than the tests."""
    memo = m._legal
    if memo is not None and memo[0] == seat:
        return memo[1]
    acting = False                          # the seat to speak, answer or play, not another
    if m.hand_over or seat not in m.seats:
        found: list[str] = []
    elif m.count is not None:
        acting = seat == m.count.seat
        found = _count_acts(m, r, seat) if acting else _out_of_turn(m, r, seat)
    elif m.pending is not None:
        acting = may_answer(m, r, seat)
        found = _answer_acts(m, r, seat, m.pending) if acting else _out_of_turn(m, r, seat)
    else:
        acting = seat == m.turn
        found = _turn_acts(m, r, seat) if acting else _out_of_turn(m, r, seat)
    if acting and r.compulsory:
        found = _compulsory(m, r, seat, found)
    m._legal = (seat, found)
    return found


def acts(m: Match, r: Rules, seat: int) -> list[Action]:
    """Every legal action of `seat` as the engine's `Action`s, in vocabulary order."""
    act_of = r.act_of
    return [act_of[t] for t in texts(m, r, seat)]


def _out_of_turn(m: Match, r: Rules, seat: int) -> list[str]:
    """What a seat that is not to act may do: fold, where the spec's `fold.when` allows it."""
    return ["fold"] if _met(r.fold_when, context(m, r, seat, r.team_of[seat])) else []


def _met(condition: Fn, ctx: Ctx) -> bool:
    """A condition of the spec, untested where it is always true."""
    return condition is always or bool(condition(ctx))


def _compulsory(m: Match, r: Rules, seat: int, found: list[str]) -> list[str]:
    """A holder of a compulsory declaration declares before anything else it may do now:
    while one of its declarations is among `found` (or it is to speak in a count the
    declaration cancels), only those declarations and folding remain."""
    p = m.pending
    for cont in r.compulsory:
        if not may_declare(m, cont, seat) or m.contests[cont.index].status == CLOSED \
                or (p is not None and p.contest == cont.index) or not holds(m, r, cont, seat):
            continue
        calls = cont.calls
        declare = [t for t in found if t in calls and calls[t].declare]
        c = m.count
        if not declare and c is not None and r.contests[c.contest].name in cont.ir.cancels \
                and cont.window(context(m, r, seat, r.team_of[seat])):
            declare = [call.name for call in cont.opening if call.declare]
        if declare:
            return declare + [t for t in found if t == "fold"]
    return found


def _turn_acts(m: Match, r: Rules, seat: int) -> list[str]:
    ctx = context(m, r, seat, r.team_of[seat])
    if m.blind or r.cover is not None:
        found = _card_acts(m, r, seat, ctx)
    else:                                   # a loop: a comprehension is a call of its own
        found = []
        for c in sorted(m.hands[seat]):
            found.append(r.play_texts[c])
    level = m.stake_level
    if level < len(r.stake_names) and m.forbid != "refuse" \
            and (m.stake_owner is None or r.raise_any or m.stake_owner == r.team_of[seat]) \
            and (r.stake_when is always or r.stake_when(ctx)):
        found.append(r.stake_names[level])
    for cont in r.contests:
        status = m.contests[cont.index].status
        if status == IDLE and cont.open_freely and not cont.declares:
            if cont.window(ctx):            # `_contest_calls`' answer, without the call
                found += cont.openers
        elif status != CLOSED:
            found += _contest_calls(m, r, seat, cont, ctx, None)
    if r.annulments:
        for index, (name, _, when, _) in enumerate(r.annulments):
            if when(ctx) and annuls(m, r, index, seat):
                found.append(name)
    if r.fold_on_turn is always or r.fold_on_turn(ctx):
        found.append("fold")
    return found


def _card_acts(m: Match, r: Rules, seat: int, ctx: Ctx) -> list[str]:
    """The cards `seat` may play: by position in a blind trick, face up, or face down."""
    if m.blind:
        return [r.position_texts[i] for i, c in enumerate(m.dealt[seat]) if c in m.hands[seat]]
    found = [r.play_texts[c] for c in sorted(m.hands[seat])]
    if r.cover is not None and r.cover(ctx):
        found += [r.cover_texts[c] for c in sorted(m.hands[seat])]
    return found


def _count_acts(m: Match, r: Rules, seat: int) -> list[str]:
    """What the seat to speak in a count may say (`texts` asks for that seat only)."""
    c = m.count
    assert c is not None
    cont = r.contests[c.contest]
    ctx = context(m, r, seat, r.team_of[seat])
    found = ["fold"] if _met(r.fold_counting, ctx) else []
    if not c.opened or cont.announce is always or cont.announce(ctx):
        found.append("announce")
    if c.opened and (cont.good is always or cont.good(ctx)):
        found.append("good")
    return found


def _answer_acts(m: Match, r: Rules, seat: int, p: Pending) -> list[str]:
    ctx = context(m, r, seat, r.team_of[seat])
    found = ["accept", "decline"]
    if p.contest is not None:
        cont = r.contests[p.contest]
        if cont.calls[p.call].declare:      # a declaration asks: answers are the call's own
            found = [verb for verb, table in (("accept", cont.call_accept), ("decline", cont.call_decline))
                     if p.call in table]
            if r.team_of[seat] == r.team_of[p.caller]:
                found = []                  # a partner asked in turn can only declare too
    elif p.step < len(r.stake_names) and m.forbid != "refuse" and (r.stake_when is always or r.stake_when(ctx)):
        found.append(r.stake_names[p.step])
    for cont in r.contests:
        if m.contests[cont.index].status != CLOSED:
            found += _contest_calls(m, r, seat, cont, ctx, p)
    if r.fold_answering is always or r.fold_answering(ctx):
        found.append("fold")
    return found


def _contest_calls(m: Match, r: Rules, seat: int, cont: CompiledContest, ctx: Ctx,
                   answering: Pending | None) -> list[str]:
    """Calls of one contest `seat` may make now, the contest not closed: open, raise, or declare."""
    cs = m.contests[cont.index]
    if answering is not None and answering.contest == cont.index:
        if cont.declares and not holds(m, r, cont, seat):   # only declarations ask what a hand holds
            return []
        last = answering.call
        partner = r.team_of[answering.caller] == r.team_of[seat]
        answers = []            # a partner only declares his own; a loop: a comprehension is a call
        for call in cont.answers_to[last]:
            if (not partner or (call.name == last and call.declare)) \
                    and (call.max is None or _below_max(call, cs.chain)) and call.may(ctx):
                answers.append(call.name)
        return answers
    if answering is not None:
        # an interruption: "el envido está primero", or a flor that wipes the waiting envido
        wipes = answering.contest is not None and \
            r.contests[answering.contest].name in cont.ir.cancels
        if not (wipes or (answering.contest is None and cont.interrupt(ctx))):
            return []
    if not cont.window(ctx):
        return []
    holder = cont.declares and holds(m, r, cont, seat)
    if cs.status == IDLE:
        if cont.open_freely:
            return list(cont.openers)
        return [call.name for call in cont.opening if (not call.declare or holder) and call.may(ctx)]
    if not cont.declares or not holder or seat in cs.declared:     # its own waiting call: answered above
        return []
    last, last_seat = cs.chain[-1]
    raising = r.team_of[last_seat] != r.team_of[seat]
    return [call.name for call in cont.rules
            if ((call.declare and call.opens)                   # another declaration of one's own
                or (last in call.after and raising and _below_max(call, cs.chain)))
            and call.may(ctx)]


def _below_max(call: CompiledCall, chain: list[tuple[str, int]]) -> bool:
    """Whether the chain holds the call fewer times than its `max`, if it has one (counted in a
    loop: a chain is a few calls, and a generator costs more than they do)."""
    if call.max is None:
        return True
    times = 0
    for name, _ in chain:
        if name == call.name:
            times += 1
    return times < call.max
