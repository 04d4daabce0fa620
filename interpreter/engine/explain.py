"""Why an action is refused: the failing fact and the rule's sentence, in the rulebook's words.

A refusal is two texts. The reason a player reads says what fails now, in words (rulespec/prose.py,
in English), and quotes the rule that refuses: its `source:` as the rulebook wrote it, or the
designer's `note:` where there is none. The detail, for a designer (the API's `detail`,
`truco play --verbose`), says the whole condition in words with its DSL text."""
from __future__ import annotations

from functools import reduce

from rulespec import dsl
from rulespec.formula import compile_expr, option_constants
from rulespec.ir import Cited, ContestCall, Formula
from rulespec.prose import Prose, fold
from rulespec.rulebook_i18n import catalog

from interpreter.engine.context import Ctx, context
from interpreter.engine.legal import acts
from interpreter.engine.match import Match
from interpreter.engine.records import CLOSED, Action
from interpreter.engine.rules import CompiledContest, Rules, annuls, holds, may_answer

PROSE = Prose(catalog("en"), lambda name: name.replace("_", " "))

Refusal = tuple[str, str]    # (the reason a player reads, the detail a designer reads; "" when none)


def _rule(f: Formula, g: Rules, rule_is: str, cited: Cited, ctx: Ctx | None = None) -> Refusal:
    """What of `f` fails now, in words, and the rule's sentence (`cited`); the detail says the
    whole condition after `rule_is` ("X may be called only when") and its DSL text. Of a
    condition that is a list of parts joined by `and`, only the parts that fail now (with `ctx`)."""
    expr = fold(f.expr, option_constants(g.options))
    parts = _conjuncts(expr)
    failing = [expr]
    if ctx is not None and len(parts) > 1:
        failing = [e for e in parts if not compile_expr(e, g.env, f.locate, f.span.path).fn(ctx)] or failing
    fact = PROSE.negate(reduce(lambda a, b: dsl.Binary("or", a, b), failing))     # each part named fails
    return fact + _cite(cited), f"{rule_is} {PROSE.cond(expr)} [{f.text}]"


def _cite(*cited: Cited) -> str:
    """The first rule's sentence of `cited`, in brackets: its source, else its note (in English
    where the note is written in several languages); empty when none has either."""
    for c in cited:
        if c.source:
            return f" ({c.source})"
        if c.note is not None:
            return f" ({c.note.get('en') or c.note})"
    return ""


def _conjuncts(e: dsl.Expr) -> list[dsl.Expr]:
    if isinstance(e, dsl.Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def explain(st: Match, g: Rules, seat: int, act: Action) -> Refusal:
    """Why `seat` may not take `act`, which is not among its legal actions (`State._resolve` asks
    only then, right after finding them)."""
    verb, arg = act
    who = f"seat {seat}"
    if seat not in st.seats:
        return f"{who} does not play this hand: it is played by seats {', '.join(map(str, st.seats))}", ""
    unanswerable = _not_an_answer(st, g, seat, verb)
    if unanswerable is not None:
        return unanswerable, ""
    forced = _forced_declaration(st, g, seat)
    if forced is not None:
        return forced, ""
    if st.count is not None:
        c = st.count
        contest = g.contests[c.contest]
        if verb == "fold":
            detail = _rule(g.spec.fold.when, g, "a player may fold only when", g.spec.fold.cited)[1]
            return f"{who} may not fold while the {contest.name} count is under way{_cite(g.spec.fold.cited)}", detail
        if verb in ("announce", "good"):
            if seat != c.seat:
                return f"it is seat {c.seat}'s turn to speak in the {contest.name} count, not {who}'s", ""
            if verb == "good" and not c.opened:
                return "nobody has announced yet, nothing to concede: the first to speak must announce", ""
            rule = contest.ir.count.good if verb == "good" else contest.ir.count.announce
            ctx = context(st, g, seat, g.team_of[seat])
            fact, detail = _rule(rule, g, f"{verb} is allowed only when", contest.ir.count.cited, ctx)
            return f"{verb} is not allowed now: {fact}", detail
        return (f"the {contest.name} count is under way: seat {c.seat} must announce or say good before "
                "anything else"), ""
    if verb in ("announce", "good"):
        return "no count is under way", ""
    p = st.pending
    if p is not None:
        if not may_answer(st, g, seat):
            return _not_asked(st, g, seat), ""
        if verb in ("play", "cover", "play_pos"):
            answers = _answers(st, g, seat)
            return f"{who} must first answer {p.call}" + (f" ({_either(answers)})" if answers else ""), ""
        if verb == "call":
            return _explain_call(st, g, seat, arg, answering=True)
        if verb == "fold":
            return _fold_refused(st, g, seat)
        if verb == "annul":
            return _annul_refused(st, g, seat, arg)
        return f"{verb} is not legal now", ""
    if verb in ("accept", "decline"):
        return "no call is waiting for an answer", ""
    if seat != st.turn:
        return f"it is seat {st.turn}'s turn, not {who}'s", ""
    if verb in ("play", "cover"):
        if arg not in st.hands[seat]:
            return f"{g.cards.ids[arg]} is not in {who}'s hand", ""
        if verb == "cover":
            cover = g.spec.tricks.cover
            if cover is None:
                return "this spec has no covered cards", ""
            ctx = context(st, g, seat, g.team_of[seat])
            fact, detail = _rule(cover, g, "a card may be played face down only when", g.spec.tricks.cover_cited,
                                 ctx)
            return f"{g.cards.ids[arg]} may not be played face down now: {fact}", detail
        if st.blind:
            return "this hand is played blind: play by position, e.g. 'play @1'", ""
    if verb == "play_pos":
        if not st.blind:
            return "play by position only in a blind hand; name the card", ""
        if not 0 <= arg < len(st.dealt[seat]) or st.dealt[seat][arg] not in st.hands[seat]:
            return f"position @{arg + 1} holds no unplayed card", ""
    if verb == "call":
        return _explain_call(st, g, seat, arg, answering=False)
    if verb == "fold":
        return _fold_refused(st, g, seat)
    if verb == "annul":
        return _annul_refused(st, g, seat, arg)
    return f"{verb} is not legal now", ""


def _not_asked(st: Match, g: Rules, seat: int) -> str:
    """Why a seat may not act while a call waits for another seat's answer. A declaration that
    asks is said with its rule: the seat it asks holds the value too (that is public: only a
    holder is asked) and answers before play goes on."""
    p = st.pending
    assert p is not None
    who = f"seat {seat}"
    cont = g.contests[p.contest] if p.contest is not None else None
    if cont is not None and cont.declares and g.team_of[seat] == p.answer_team and seat != p.caller \
            and not holds(st, g, cont, seat):
        return (f"{who} does not hold a {cont.value}: only a holder answers {p.call}, "
                f"and seat {p.answerer} is asked")
    if cont is not None and cont.calls[p.call].declare:
        call = cont.calls[p.call]
        if g.team_of[p.answerer] == g.team_of[p.caller]:
            asked = (f"seat {p.answerer}, who holds a {cont.value} too, must first declare it: seat {p.caller}'s "
                     f"{p.call} asks every other holder in turn")
        else:
            asked = (f"seat {p.answerer}, who holds a {cont.value} too, must first answer seat {p.caller}'s "
                     f"{p.call}")
        return f"{asked}; {who} cannot act now{_cite(call.cited, cont.ir.cited)}"
    return f"{p.call} by seat {p.caller} is waiting for seat {p.answerer}'s answer; {who} cannot act now"


def _not_an_answer(st: Match, g: Rules, seat: int, verb: str) -> str | None:
    """Why accept or decline does not answer the declaration waiting for `seat`: a declaration
    that asks is answered with the call's own answers, which the spec lists per call."""
    p = st.pending
    if p is None or p.contest is None or verb not in ("accept", "decline") or not may_answer(st, g, seat):
        return None
    cont = g.contests[p.contest]
    call = cont.calls[p.call]
    if not call.declare:
        return None
    source = _cite(call.cited)
    if g.team_of[seat] == g.team_of[p.caller]:
        return (f"{p.call} was declared by seat {p.caller}, seat {seat}'s partner: a partner does not {verb} it, "
                f"he may only declare his own {cont.value}{source}")
    if p.call in (cont.call_accept if verb == "accept" else cont.call_decline):
        return None
    answers = [PROSE.said(a[1]) for a in acts(st, g, seat) if a[0] == "call"] or ["nothing but a fold"]
    return f"{p.call} is not answered with {verb}: seat {seat}, asked, answers it with {_either(answers)}{source}"


def _answers(st: Match, g: Rules, seat: int) -> list[str]:
    """The answers `seat` may give the waiting call now, as its legal actions offer them: a
    declaration that takes no accept or decline is not said to take them."""
    return [a[0] if a[0] != "call" else PROSE.said(a[1]) for a in acts(st, g, seat)
            if a[0] in ("accept", "decline", "call")]


def _either(words: list[str]) -> str:
    """`a, b or c`."""
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


def _forced_declaration(st: Match, g: Rules, seat: int) -> str | None:
    """Why a holder of a compulsory declaration may do nothing else first (said to that seat only:
    it is about its own cards)."""
    mine = acts(st, g, seat)
    for cont in g.compulsory:
        if any(a[0] == "call" and a[1] in cont.calls and cont.calls[a[1]].declare for a in mine) \
                and all(a[0] == "fold" or a[1] in cont.calls for a in mine):
            return f"seat {seat} holds a {cont.value} and must declare it before anything else{_cite(cont.ir.cited)}"
    return None


def _annul_refused(st: Match, g: Rules, seat: int, name: str) -> Refusal:
    index = next(k for k, a in enumerate(g.spec.annulments) if a.name == name)
    ann, when = g.spec.annulments[index], g.annulments[index][2]
    if not annuls(st, g, index, seat):
        fact, detail = _rule(ann.holds, g, f"a hand is a {name} when", ann.cited)
        return f"seat {seat}'s hand is no {name}: {fact}", detail
    ctx = context(st, g, seat, g.team_of[seat])
    if not when(ctx):
        fact, detail = _rule(ann.when, g, f"{name} may be claimed only when", ann.cited, ctx)
        return f"{name} may not be claimed now: {fact}", detail
    return f"{name} is not legal now", ""


def _fold_refused(st: Match, g: Rules, seat: int) -> Refusal:
    rule = g.spec.fold
    ctx = context(st, g, seat, g.team_of[seat])
    fact, detail = _rule(rule.when, g, "a player may fold only when", rule.cited, ctx)
    return f"seat {seat} may not fold now: {fact}", detail


def _explain_call(st: Match, g: Rules, seat: int, name: str, answering: bool) -> Refusal:
    ctx = context(st, g, seat, g.team_of[seat])
    if name in g.contest_of_call:
        return _explain_contest_call(st, g, seat, name, ctx)
    step = g.stake_names.index(name)
    if st.forbid is not None:
        return f"{name} is forbidden in this hand ({', '.join(st.special)})", ""
    p = st.pending if answering else None            # a call waits whenever the seat is answering
    level = p.step if p is not None and p.contest is None else st.stake_level
    if step < level:
        return f"{name} has already been called in this hand", ""
    if step > level:
        return f"the ladder goes in order: the next call is {g.stake_names[level]}, not {name}", ""
    if p is not None:
        return f"{name} cannot answer {p.call}", ""
    if st.stake_owner is not None and st.stake_owner != g.team_of[seat]:
        return (f"only the team that accepted the last call (team {st.stake_owner}) may raise; "
                f"a team cannot raise its own call"), ""
    fact, detail = _rule(g.spec.stakes.when, g, "a stake call may be made only when", g.spec.stakes.cited, ctx)
    return f"{name} may not be called now: {fact}", detail


def _explain_contest_call(st: Match, g: Rules, seat: int, name: str, ctx: Ctx) -> Refusal:
    """Each condition legal.py checks for a contest call, named when it fails: as the answer to a
    stake call, the contest's window before its rule for interrupting (a contest closed for the
    hand is closed, whatever waits).

    Only a refused call is asked about, so the last condition that can fail is `allowed:`: with
    every other one met the call is legal. Past the contest's own waiting call, its chain is a
    chain of declarations: a chain of calls that is not closed has its last call waiting or its
    count under way (an answer counts, settles, closes or raises it), both said above; and the
    call a contest puts off (`suspended`) is always a stake call."""
    cont = g.contest_of_call[name]
    cs = st.contests[cont.index]
    call = cont.calls[name]
    if cont.declares and not holds(st, g, cont, seat):
        return f"seat {seat} does not hold a {cont.value}: it cannot be called without one", ""
    if cs.status == CLOSED:
        return f"the {cont.name} is over for this hand{_why_closed(st, g, cont)}", ""
    used = [c for c, _ in cs.chain]
    p = st.pending
    if p is not None and p.contest == cont.index:
        counter = name == p.call and call.declare
        if not (p.call in call.after or counter):
            return f"{name} cannot answer {p.call}", ""
        if not counter and g.team_of[p.caller] == g.team_of[seat]:    # a partner asked by `asks: all`
            return f"{name} answers the other team's {p.call}, not a partner's", ""
        if call.max is not None and used.count(name) >= call.max:
            return f"{name} cannot be called again in this chain (it may be called at most {_times(call.max)})", ""
        return _not_allowed(name, call, g, ctx)
    head = f"{name} may not be called now"
    if p is not None and p.contest is None:       # an interruption of a stake call: the window, then its rule
        head = f"{name} cannot be the answer to {p.call} now"
        if cont.window(ctx) and not cont.interrupt(ctx):
            fact, detail = _rule(cont.ir.interrupt, g, f"{name} answers a stake call only when", cont.ir.cited, ctx)
            return f"{head}: {fact}", detail
    elif p is not None and p.contest is not None and g.contests[p.contest].name not in cont.ir.cancels:
        return f"{name} cannot be called while {p.call} waits for an answer", ""
    if not cont.window(ctx):
        fact, detail = _rule(cont.ir.window, g, f"the {cont.name} may be called only when", cont.ir.cited, ctx)
        return f"{head}: {fact}", detail
    if not cs.chain:
        if not call.opens:
            return f"{name} cannot open the {cont.name}", ""
        return _not_allowed(name, call, g, ctx, f"to open the {cont.name} now")
    if seat in cs.declared:
        return f"seat {seat} has already declared its {cont.value} in this hand", ""
    if call.declare and call.opens:             # another holder's declaration, on its own turn
        return _not_allowed(name, call, g, ctx, "now")
    last, last_seat = cs.chain[-1]
    if last not in call.after:
        return f"{name} cannot follow {last}", ""
    if g.team_of[last_seat] == g.team_of[seat]:
        return f"{name} answers the other team's {last}, not a partner's", ""
    if call.max is not None and used.count(name) >= call.max:
        return f"{name} cannot be called again in this chain (it may be called at most {_times(call.max)})", ""
    return _not_allowed(name, call, g, ctx)


def _why_closed(st: Match, g: Rules, cont: CompiledContest) -> str:
    """Why a contest is closed: another contest wiped it (named, with the seat that opened that
    one, whose chain holds that first call), or else it was settled (scored, declined or tied): a
    contest is closed only by a wipe, which is logged, or once its chain is paid or tied."""
    for e in reversed(st.events):
        if e["type"] == "deal":
            break
        if e["type"] == "wiped" and e["contest"] == cont.name:
            by = next(d for d in g.contests if d.name == e["by"])
            opener = st.contests[by.index].chain[0][1]
            sung = "declared" if by.declares else "called"
            return f": seat {opener} {sung} {by.name}, which wipes the {cont.name}"
    return ": it has been settled"


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _not_allowed(name: str, call: ContestCall, g: Rules, ctx: Ctx, when: str = "after this chain") -> Refusal:
    """A call its `allowed:` refuses: after the chain so far, or (`when`) as the contest's first."""
    fact, detail = _rule(call.allowed, g, f"{name} is allowed only when", call.cited, ctx)
    return f"{name} is not allowed {when}: {fact}", detail
