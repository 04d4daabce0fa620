"""Why an action is refused: the reason in words, quoting the spec's rule and source."""
from __future__ import annotations

from rulespec.ir import ContestCall, Formula

from interpreter.engine.context import Ctx
from interpreter.engine.legal import acts
from interpreter.engine.match import Match
from interpreter.engine.records import CLOSED, Action
from interpreter.engine.rules import Rules, annuls, count_would_win, holds, may_answer


def _rule(f: Formula, cited_source: str | None = None) -> str:
    text = f"the rule is: {f.text}"
    return text + (f" ({cited_source})" if cited_source else "")


def explain(st: Match, g: Rules, seat: int, act: Action) -> str:
    verb, arg = act
    who = f"seat {seat}"
    forced = _forced_declaration(st, g, seat)
    if forced is not None and act not in acts(st, g, seat):
        return forced
    if st.count is not None:
        c = st.count
        contest = g.contests[c.contest]
        if verb in ("announce", "good"):
            if seat != c.seat:
                return f"it is seat {c.seat}'s turn to speak in the {contest.name} count, not {who}'s"
            if verb == "good" and not c.opened:
                return "nobody has announced yet, nothing to concede: the first to speak must announce"
            rule = contest.ir.count.good if verb == "good" else contest.ir.count.announce
            beats = f" ({who} can beat the best value announced)" \
                if verb == "good" and count_would_win(st, g, seat) else ""
            return f"{verb} is not allowed now{beats}: {_rule(rule, contest.ir.count.cited.source)}"
        text = f"the {contest.name} count is under way: seat {c.seat} must announce or say good before anything else"
        return text + (" (folding is not allowed during the count)" if verb == "fold" else "")
    if verb in ("announce", "good"):
        return "no count is under way"
    p = st.pending
    if p is not None:
        if not may_answer(st, g, seat):
            cont = g.contests[p.contest] if p.contest is not None else None
            if cont is not None and cont.declares and g.team_of[seat] == p.answer_team and not holds(st, g, cont, seat):
                return (f"{who} does not hold a {cont.value}: only a holder answers {p.call}, "
                        f"and seat {p.answerer} is asked")
            return f"{p.call} by seat {p.caller} is waiting for seat {p.answerer}'s answer; {who} cannot act now"
        if verb in ("play", "cover", "play_pos"):
            return f"{who} must first answer {p.call} (accept, decline or raise)"
        if verb == "call":
            return _explain_call(st, g, seat, arg, answering=True)
        if verb == "fold":
            return _fold_refused(st, g, who)
        return f"{verb} is not legal now"
    if verb in ("accept", "decline"):
        return "no call is waiting for an answer"
    if seat != st.turn:
        return f"it is seat {st.turn}'s turn, not {who}'s"
    if verb in ("play", "cover"):
        if arg not in st.hands[seat]:
            return f"{g.cards.ids[arg]} is not in {who}'s hand"
        if verb == "cover":
            cover = g.spec.tricks.cover
            if cover is None:
                return "this spec has no covered cards"
            return f"a card may be played face down only when {cover.text}"
        if st.blind:
            return "this hand is played blind: play by position, e.g. 'play @1'"
    if verb == "play_pos":
        if not st.blind:
            return "play by position only in a blind hand; name the card"
        if not 0 <= arg < len(st.dealt[seat]) or st.dealt[seat][arg] not in st.hands[seat]:
            return f"position @{arg + 1} holds no unplayed card"
    if verb == "call":
        return _explain_call(st, g, seat, arg, answering=False)
    if verb == "fold":
        return _fold_refused(st, g, who)
    if verb == "annul":
        return _annul_refused(st, g, seat, arg)
    return f"{verb} is not legal now"


def _forced_declaration(st: Match, g: Rules, seat: int) -> str | None:
    """Why a holder of a compulsory declaration may do nothing else first (said to that seat only:
    it is about its own cards)."""
    mine = acts(st, g, seat)
    for cont in g.compulsory:
        if any(a[0] == "call" and a[1] in cont.calls and cont.calls[a[1]].declare for a in mine) \
                and all(a[0] == "fold" or a[1] in cont.calls for a in mine):
            source = f" ({cont.ir.cited.source})" if cont.ir.cited.source else ""
            return f"seat {seat} holds a {cont.value} and must declare it before anything else{source}"
    return None


def _annul_refused(st: Match, g: Rules, seat: int, name: str) -> str:
    index = next(k for k, a in enumerate(g.spec.annulments) if a.name == name)
    ann, when = g.spec.annulments[index], g.annulments[index][2]
    if not annuls(st, g, index, seat):
        return f"seat {seat}'s hand is no {name}: {_rule(ann.holds, ann.cited.source)}"
    if not when(Ctx(st, g, seat, g.team_of[seat])):
        return f"{name} may not be claimed now: {_rule(ann.when, ann.cited.source)}"
    return f"{name} is not legal now"


def _fold_refused(st: Match, g: Rules, who: str) -> str:
    fold = g.spec.fold
    return f"{who} may not fold now: {_rule(fold.when, fold.cited.source)}"


def _explain_call(st: Match, g: Rules, seat: int, name: str, answering: bool) -> str:
    ctx = Ctx(st, g, seat, g.team_of[seat])
    if name in g.contest_of_call:
        return _explain_contest_call(st, g, seat, name, ctx)
    step = g.stake_names.index(name)
    if st.forbid is not None:
        return f"{name} is forbidden in this hand ({', '.join(st.special)})"
    p = st.pending
    level = p.step if answering and p is not None and p.contest is None else st.stake_level
    if step < level:
        return f"{name} has already been called in this hand"
    if step > level:
        return f"the ladder goes in order: the next call is {g.stake_names[level]}, not {name}"
    if answering:
        return f"{name} cannot answer {p.call if p else 'nothing'}"
    if st.stake_owner is not None and st.stake_owner != g.team_of[seat]:
        return (f"only the team that accepted the last call (team {st.stake_owner}) may raise; "
                f"a team cannot raise its own call")
    return f"{name} may not be called now: {_rule(g.spec.stakes.when, g.spec.stakes.cited.source)}"


def _explain_contest_call(st: Match, g: Rules, seat: int, name: str, ctx: Ctx) -> str:
    """Each condition legal.py checks for a contest call, in the same order, named when it fails."""
    cont = g.contest_of_call[name]
    cs = st.contests[cont.index]
    call = cont.calls[name]
    if cont.declares and not holds(st, g, cont, seat):
        return f"seat {seat} does not hold a {cont.value}: it cannot be called without one"
    if cs.status == CLOSED:
        return f"the {cont.name} is over for this hand"
    used = [c for c, _ in cs.chain]
    p = st.pending
    if p is not None and p.contest == cont.index:
        if not (p.call in call.after or (name == p.call and call.declare)):
            return f"{name} cannot answer {p.call}"
        if call.max is not None and used.count(name) >= call.max:
            return f"{name} cannot be called again in this chain (it may be called at most {call.max} times)"
        if not cont.allowed[name](ctx):
            return _not_allowed(name, call)
        return f"{name} cannot answer {p.call} now"
    if p is not None and p.contest is None:
        return f"{name} cannot be the answer to {p.call} now: {_rule(cont.ir.interrupt, cont.ir.cited.source)}"
    if p is not None:
        return f"{name} cannot be called while {p.call} waits for an answer"
    if not cont.window(ctx):
        return f"{name} may not be called now: {_rule(cont.ir.window, cont.ir.cited.source)}"
    if not cs.chain:
        if not call.opens:
            return f"{name} cannot open the {cont.name}"
        if not cont.allowed[name](ctx):
            return _not_allowed(name, call)
        return f"{name} cannot open the {cont.name} now"
    if not cont.declares:
        if not call.opens:
            return f"{name} cannot follow {cs.chain[-1][0]}"
        return f"the {cont.name} has already been called in this hand"
    if seat in cs.declared:
        return f"seat {seat} has already declared its {cont.value} in this hand"
    if st.suspended is not None and st.suspended.contest == cont.index:
        return f"the {cont.name} waits for an answer to {st.suspended.call}"
    if call.declare and name in cont.openers:
        return f"{name} cannot be called now"
    last, last_seat = cs.chain[-1]
    if last not in call.after:
        return f"{name} cannot follow {last}"
    if g.team_of[last_seat] == g.team_of[seat]:
        return f"{name} answers the other team's {last}, not a partner's"
    if call.max is not None and used.count(name) >= call.max:
        return f"{name} cannot be called again in this chain (it may be called at most {call.max} times)"
    if not cont.allowed[name](ctx):
        return _not_allowed(name, call)
    return f"{name} cannot be called now"


def _not_allowed(name: str, call: ContestCall) -> str:
    return f"{name} is not allowed after this chain: {_rule(call.allowed, call.cited.source)}"
