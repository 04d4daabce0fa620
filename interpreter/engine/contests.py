"""Contests (envido, flor): calls and declarations, counts, and what each outcome pays.

Functions that read and change a `Match` under its `Rules`, kept apart because contests
are the richest mechanism of the spec language: chains, declarations that ask, counts in
seat order from the mano, payoffs computed by the spec's formulas.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from interpreter.engine.context import Pay, context
from interpreter.engine.match import Match
from interpreter.engine.records import ACTIVE, CLOSED, IDLE, Count, Pending
from interpreter.engine.rules import (
    CompiledContest,
    Rules,
    after,
    from_mano,
    holds,
    leader,
    may_declare,
    next_opponent,
    value,
    value_top,
)
from interpreter.engine.scoring import record_call, score


def contest_call(m: Match, r: Rules, seat: int, cont: CompiledContest, name: str) -> None:
    cs = m.contests[cont.index]
    call = cont.calls[name]
    if cs.status == IDLE:
        cs.status = ACTIVE
        _cancel(m, r, cont)
    record_call(m, name)
    cs.chain.append((name, seat))
    if cont.declares and seat not in cs.declared:
        cs.declared.append(seat)
    p = m.pending
    if call.declare:
        if p is not None and p.contest == cont.index:
            _resume(m)                               # a counter-declaration answers the question
            if call.asks == "all":
                _ask_holders(m, r, cont, name, seat)
        elif call.asks:
            _ask_holders(m, r, cont, name, seat)
        return
    if p is not None and p.contest is None:
        m.suspended, m.pending = p, None          # the contest goes first
    elif p is not None and p.contest == cont.index:
        m.accepted.add(p.call)                    # a raise accepts what it answers
    answerer = _contest_answerer(m, r, cont, seat)
    m.pending = Pending(name, seat, answerer, r.team_of[answerer], cont.index)


def _contest_answerer(m: Match, r: Rules, cont: CompiledContest, seat: int) -> int:
    """Who answers a call: the next opponent; in a contest of declarations, the next opponent
    who declared (a raise puts the declared values at stake, so their holders answer)."""
    if cont.declares:
        declared = m.contests[cont.index].declared
        for s in after(m, r, seat):
            if r.team_of[s] != r.team_of[seat] and s in declared:
                return s
    return next_opponent(m, r, seat)


def _ask_holders(m: Match, r: Rules, cont: CompiledContest, name: str, seat: int) -> None:
    """A declaration that asks: the next opponent who also holds the value must answer now;
    with `asks: all`, the next holder round the table, partners too, whose own declaration
    asks the next in turn."""
    everyone = cont.calls[name].asks == "all"
    for s in after(m, r, seat):
        if (everyone or r.team_of[s] != r.team_of[seat]) and may_declare(m, cont, s) \
                and holds(m, r, cont, s):
            p = m.pending
            if p is not None and p.contest is None:
                m.suspended = p
            m.pending = Pending(name, seat, s, r.team_of[s], cont.index)
            return


def _resume(m: Match) -> None:
    """Back to the stake call a contest interrupted, if any."""
    m.pending, m.suspended = m.suspended, None


def _cancel(m: Match, r: Rules, cont: CompiledContest) -> None:
    """A contest that starts wipes the unscored contests it cancels."""
    for other in r.contests:
        if other.name in cont.ir.cancels and m.contests[other.index].status != CLOSED:
            m.contests[other.index].status = CLOSED
            m.events.append({"type": "wiped", "contest": other.name, "by": cont.name})
            if m.count is not None and m.count.contest == other.index:
                m.count = None
                _resume(m)
            if m.pending is not None and m.pending.contest == other.index:
                _resume(m)


def pay_declined(m: Match, r: Rules, p: Pending) -> None:
    assert p.contest is not None
    cont = r.contests[p.contest]
    caller_team = r.team_of[p.caller]
    cs = m.contests[cont.index]
    cs.status = CLOSED
    _resume(m)
    formula = cont.call_decline.get(p.call, cont.decline)
    pay = _pay_facts(m, r, cont, caller_team, caller_team)
    score(m, r, caller_team, int(formula(context(m, r, p.caller, caller_team, pay))), cont.name)


def comparing(m: Match, r: Rules, cont: CompiledContest, shown: Sequence[int] = ()) -> list[int]:
    """Seats whose values are compared, in order from the mano.

    A declaration contest compares the values shown at the table: the declared seats and
    `shown`, the seats an accepted chain showed to hold one (the holder a declaration asked,
    and the one who accepted: only a holder answers). A holder who has shown nothing takes no
    part and is not paid for ("3 points par flor annoncée à la table"): counting him would
    tell the table what he holds.
    """
    order = from_mano(m, r)
    if cont.declares:
        declared = m.contests[cont.index].declared
        return [s for s in order if s in declared or s in shown]
    return list(order)


def best(m: Match, r: Rules, cont: CompiledContest, seats: Iterable[int]) -> int | None:
    """The seat whose value wins among `seats`, under the contest's tie rule."""
    return leader(m, r, cont, [(s, 0) for s in value_top(m, r, cont, list(seats))])[0]


def start_count(m: Match, r: Rules, cont: CompiledContest, shown: Sequence[int]) -> None:
    m.count = Count(cont.index, comparing(m, r, cont, shown))
    m._legal = None


def announce(m: Match, r: Rules, seat: int) -> None:
    c = m.count
    assert c is not None
    cont = r.contests[c.contest]
    shown = value(m, r, cont, seat)
    c.announced.append((seat, shown))
    m.events.append({"type": "announce", "seat": seat, "contest": cont.name, "value": shown})
    c.best_seat, c.best_value = leader(m, r, cont, c.announced)
    _advance_count(m, r)


def good(m: Match, r: Rules, seat: int) -> None:
    c = m.count
    assert c is not None
    c.announced.append((seat, None))
    m.events.append({"type": "good", "seat": seat})
    _advance_count(m, r)


def _advance_count(m: Match, r: Rules) -> None:
    """The count goes on to the next seat to speak; settled when none is left. With the
    `in_turn` order each seat speaks once, in the order of play from the mano. With
    `leaders_wait` the next is one that has not spoken and could still change which team
    wins: its team does not lead. A seat passed over while its own team led is asked when an
    opponent takes the lead."""
    c = m.count
    assert c is not None
    cont = r.contests[c.contest]
    if cont.in_turn:
        if c.index + 1 < len(c.order):
            c.index += 1
            return
    else:
        team_of = r.team_of
        spoken = {s for s, _ in c.announced}
        leading = None if c.best_seat is None else team_of[c.best_seat]
        n = len(c.order)
        for k in range(1, n + 1):
            i = (c.index + k) % n
            s = c.order[i]
            if s not in spoken and (team_of[s] != leading or _may_still_wipe(m, r, c, s)):
                c.index = i
                return
    m.count = None
    settle_accepted(m, r, cont, c.best_seat, c.order)


def _may_still_wipe(m: Match, r: Rules, c: Count, seat: int) -> bool:
    """A seat that may still make a compulsory declaration cancelling the counted contest is
    asked even when its team leads: "si hay flor, el envido no se juega". Public facts only."""
    name = r.contests[c.contest].name
    return any(name in d.ir.cancels and m.contests[d.index].status != CLOSED and may_declare(m, d, seat)
               for d in r.compulsory)


def concede_count(m: Match, r: Rules, team: int) -> None:
    """A fold during a count (`fold.count: conceded`): the folding team concedes the contest
    counted, and `team`, which stays, scores the accepted chain as if it had won the count.
    Nobody's value is shown: the payoff is read for the first seat of `team` from the mano."""
    c = m.count
    assert c is not None
    m.count = None
    cont = r.contests[c.contest]
    m.contests[cont.index].status = CLOSED
    _resume(m)
    m.events.append({"type": "contest_conceded", "contest": cont.name, "team": team})
    seat = next(s for s in [*c.order, *m.seats] if r.team_of[s] == team)
    score(m, r, team, accepted_pays(m, r, cont, seat, c.order), cont.name)


def settle_accepted(m: Match, r: Rules, cont: CompiledContest, winner_seat: int | None, compared: list[int]) -> None:
    """Score an accepted chain for the winner's team; a tie that goes to nobody scores nothing.
    `compared` are the seats whose values took part: a declaration contest counts them."""
    cs = m.contests[cont.index]
    cs.status = CLOSED
    _resume(m)
    if winner_seat is None:
        m.events.append({"type": "contest_tied", "contest": cont.name})
        return
    team = r.team_of[winner_seat]
    m.events.append({"type": "contest_won", "contest": cont.name, "seat": winner_seat, "team": team,
                     "value": value(m, r, cont, winner_seat)})
    _hold_reveal(m, r, cont, winner_seat)
    score(m, r, team, accepted_pays(m, r, cont, winner_seat, compared), cont.name)


def accepted_pays(m: Match, r: Rules, cont: CompiledContest, winner_seat: int, compared: list[int]) -> int:
    """What an accepted chain pays `winner_seat`'s team: the last call's `accept` (or the
    contest's) over the chain's facts."""
    cs = m.contests[cont.index]
    team = r.team_of[winner_seat]
    formula = cont.call_accept.get(cs.chain[-1][0], cont.accept)
    caller_team = r.team_of[cs.chain[-1][1]]
    pay = _pay_facts(m, r, cont, team, caller_team, holders=compared if cont.declares else None)
    return int(formula(context(m, r, winner_seat, team, pay)))


def _hold_reveal(m: Match, r: Rules, cont: CompiledContest, seat: int) -> None:
    """With `count.show: hand_end`, the winner's cards that make its value are shown when the
    hand is over (`scoring.reveal`), which is at once when these points end the match; never
    earlier, so nobody learns them while the hand is played."""
    if cont.show != "hand_end":
        return
    dealt = m.dealt[seat]
    cards = r.values[cont.value].makers(dealt, m.turned)
    m.shows.append({"type": "revealed", "contest": cont.name, "seat": seat, "team": r.team_of[seat],
                    "value": value(m, r, cont, seat), "cards": [r.cards.ids[c] for c in cards],
                    "whole_hand": len(cards) == len(dealt)})


def _pay_facts(m: Match, r: Rules, cont: CompiledContest, team: int, caller_team: int,
               holders: list[int] | None = None) -> Pay:
    """The chain's facts for a payoff formula; `declared` counts `holders` (default: the
    declared seats), the values that took part. The worths and the seats are counted in loops
    (a comprehension or a generator costs more than a chain of a few calls), a constant worth
    read without a context."""
    cs = m.contests[cont.index]
    fixed = cont.fixed_worth
    total = last = 0
    for c, s in cs.chain:
        worth = fixed[c]
        last = int(cont.worth[c](context(m, r, s, team))) if worth is None else worth
        total += last
    team_of = r.team_of
    seats = cs.declared if holders is None else holders
    by_winner = by_caller = 0
    for s in seats:
        if team_of[s] == team:
            by_winner += 1
        if team_of[s] == caller_team:
            by_caller += 1
    return Pay(total, total - last, len(cs.chain), last, len(seats), by_winner, by_caller)


def settle_declarations(m: Match, r: Rules) -> None:
    """Score declaration-only contests as soon as every seat has declared or lost the chance
    (played a card). Whether a seat could declare is never asked of its hidden cards, so the
    moment of scoring shows nothing about them. A declaration waiting for its answer has asked
    a seat that may still declare, so it is never settled under it."""
    if m.hand_over:
        return
    for cont in r.declaring:
        if not only_declared(m, cont):
            continue
        if any(may_declare(m, cont, s) for s in m.seats):
            continue
        settle_unraised(m, r, cont)
        if m.match_over:
            return


def only_declared(m: Match, cont: CompiledContest) -> bool:
    """A live contest whose chain holds declarations only, and was not accepted: settled by
    its `unraised` rule (an accepted one is settled by its count, once)."""
    cs = m.contests[cont.index]
    counting = m.count is not None and m.count.contest == cont.index
    return cs.status == ACTIVE and cont.declares and not counting \
        and all(cont.calls[c].declare for c, _ in cs.chain)


def settle_unraised(m: Match, r: Rules, cont: CompiledContest) -> None:
    """Unraised declarations: each team scores its own, in the order they were sung, or the
    best value takes them all."""
    cs = m.contests[cont.index]
    cs.status = CLOSED
    pays = cont.unraised_pays
    assert pays is not None, f"the {cont.name} has unraised declarations but no unraised rule"
    teams = list(dict.fromkeys(r.team_of[s] for s in cs.declared))     # in the order sung
    if cont.unraised_mode == "each" or len(teams) == 1:
        for team in teams:
            pay = _pay_facts(m, r, cont, team, team)
            pay.declared = pay.declared_by_winner
            score(m, r, team, int(pays(context(m, r, None, team, pay))), cont.name)
        return
    top = best(m, r, cont, comparing(m, r, cont))
    if top is None:
        m.events.append({"type": "contest_tied", "contest": cont.name})
        return
    team = r.team_of[top]
    m.events.append({"type": "contest_won", "contest": cont.name, "seat": top, "team": team,
                     "value": value(m, r, cont, top)})
    _hold_reveal(m, r, cont, top)
    score(m, r, team, int(pays(context(m, r, top, team, _pay_facts(m, r, cont, team, team)))),
          cont.name)
