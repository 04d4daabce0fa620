"""Contests (envido, flor): calls and declarations, counts, and what each outcome pays.

Part of `State` (a mixin that reads and changes its fields), kept apart because contests
are the richest mechanism of the spec language: chains, declarations that ask, counts in
seat order from the mano, payoffs computed by the spec's formulas.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from interpreter.engine.context import Ctx, Pay
from interpreter.engine.records import ACTIVE, CLOSED, IDLE, Count, Pending

if TYPE_CHECKING:
    from interpreter.engine.game import CompiledContest


class Contests:
    """The contest mechanics of a State."""

    def _contest_call(self, seat: int, cont: "CompiledContest", name: str) -> None:
        g = self.game
        cs = self.contests[cont.index]
        call = cont.calls[name]
        if cs.status == IDLE:
            cs.status = ACTIVE
            self._cancel(cont)
        self._called(name)
        cs.chain.append((name, seat))
        if cont.declares and seat not in cs.declared:
            cs.declared.append(seat)
        p = self.pending
        if call.declare:
            if p is not None and p.contest == cont.index:
                self._resume()                           # a counter-declaration answers the question
                if call.asks == "all":
                    self._ask_holders(cont, name, seat)
            elif call.asks:
                self._ask_holders(cont, name, seat)
            return
        if p is not None and p.contest is None:
            self.suspended, self.pending = p, None       # the contest goes first
        elif p is not None and p.contest == cont.index:
            self.accepted.add(p.call)                    # a raise accepts what it answers
        answerer = self._contest_answerer(cont, seat)
        self.pending = Pending(name, seat, answerer, g.team_of[answerer], cont.index)

    def _contest_answerer(self, cont: "CompiledContest", seat: int) -> int:
        """Who answers a call: the next opponent; in a contest of declarations, the next opponent
        who declared (a raise puts the declared values at stake, so their holders answer)."""
        g = self.game
        if cont.declares:
            declared = self.contests[cont.index].declared
            for k in range(1, g.num_players):
                s = (seat + k) % g.num_players
                if g.team_of[s] != g.team_of[seat] and s in declared:
                    return s
        return g.next_opponent(seat)

    def _ask_holders(self, cont: "CompiledContest", name: str, seat: int) -> None:
        """A declaration that asks: the next opponent who also holds the value must answer now;
        with `asks: all`, the next holder round the table, partners too, whose own declaration
        asks the next in turn."""
        g = self.game
        everyone = cont.calls[name].asks == "all"
        for k in range(1, g.num_players):
            s = (seat + k) % g.num_players
            if (everyone or g.team_of[s] != g.team_of[seat]) and self._may_declare(cont, s) \
                    and self._holds(cont, s):
                p = self.pending
                if p is not None and p.contest is None:
                    self.suspended = p
                self.pending = Pending(name, seat, s, g.team_of[s], cont.index)
                return

    def _resume(self) -> None:
        """Back to the stake call a contest interrupted, if any."""
        self.pending, self.suspended = self.suspended, None

    def _cancel(self, cont: "CompiledContest") -> None:
        """A contest that starts wipes the unscored contests it cancels."""
        for other in self.game.contests:
            if other.name in cont.ir.cancels and self.contests[other.index].status != CLOSED:
                self.contests[other.index].status = CLOSED
                self.events.append({"type": "wiped", "contest": other.name, "by": cont.name})
                if self.count is not None and self.count.contest == other.index:
                    self.count = None
                    self._resume()
                if self.pending is not None and self.pending.contest == other.index:
                    self._resume()

    def _pay_declined(self, p: Pending) -> None:
        g = self.game
        cont = g.contests[p.contest]
        caller_team = g.team_of[p.caller]
        cs = self.contests[cont.index]
        cs.status = CLOSED
        self._resume()
        formula = cont.call_decline.get(p.call, cont.decline)
        pay = self._pay_facts(cont, caller_team, caller_team)
        self._score(caller_team, int(formula(Ctx(self, p.caller, caller_team, pay))), cont.name)

    def _comparing(self, cont: "CompiledContest", accepted: bool = False) -> list[int]:
        """Seats whose values are compared, in order from the mano.

        A declaration contest compares the declared seats; once its chain is accepted, every
        holder who has not lost the chance to declare takes part too ("on compare": every
        flor at the table is shown and counted, whichever partner answered).
        """
        n = self.game.num_players
        order = [(self.mano + k) % n for k in range(n)]
        if cont.declares:
            declared = self.contests[cont.index].declared
            return [s for s in order if s in declared or (accepted and self._may_declare(cont, s)
                                                          and self._holds(cont, s))]
        return order

    def _may_declare(self, cont: "CompiledContest", seat: int) -> bool:
        """Whether `seat` still has the chance to declare: it has not declared nor played a card.
        Public facts only, so that nothing waits on a hidden hand."""
        return seat not in self.contests[cont.index].declared and self.played[seat] == 0

    def _value(self, cont: "CompiledContest", seat: int) -> int:
        v = self.game.values[cont.value](self.dealt[seat], self.turned)
        return -1 if v is None else v

    def _leader(self, cont: "CompiledContest", values: Iterable[tuple[int, int | None]]) -> tuple[int | None, int]:
        """The winning seat among (seat, value) pairs under the contest's tie rule, and the best
        value; the seat is None when nobody has a value yet, or when the best value is held on
        both sides and ties go to nobody. Seats are ranked by their place from the mano, not by
        the order in which they spoke."""
        shown = [(s, v) for s, v in values if v is not None]
        if not shown:
            return None, -1
        best = max(v for _, v in shown)
        top = sorted((s for s, v in shown if v == best), key=lambda s: (s - self.mano) % self.game.num_players)
        team_of = self.game.team_of
        if len({team_of[s] for s in top}) == 1 or cont.tie == "nearer_lead":
            return top[0], best
        if cont.tie == "farther_lead":
            return top[-1], best
        if cont.tie == "mano_team":
            mano_team = team_of[self.mano]
            return next((s for s in top if team_of[s] == mano_team), top[0]), best
        return None, best                                 # tie: nobody

    def _best(self, cont: "CompiledContest", seats: Iterable[int]) -> int | None:
        return self._leader(cont, [(s, self._value(cont, s)) for s in seats])[0]

    def _start_count(self, cont: "CompiledContest") -> None:
        self.count = Count(cont.index, self._comparing(cont, accepted=True))
        self._legal = None

    def count_would_win(self, seat: int) -> bool:
        """Whether `seat`'s true value would turn the count its team's way now: take it, or tie
        it where a tie goes to nobody."""
        c = self.count
        assert c is not None
        cont = self.game.contests[c.contest]
        leader, _ = self._leader(cont, [*c.announced, (seat, self._value(cont, seat))])
        team_of = self.game.team_of
        before = None if c.best_seat is None else team_of[c.best_seat]
        after = None if leader is None else team_of[leader]
        return after != before and after in (team_of[seat], None)

    def _announce(self, seat: int) -> None:
        c = self.count
        assert c is not None
        cont = self.game.contests[c.contest]
        value = self._value(cont, seat)
        c.announced.append((seat, value))
        self.events.append({"type": "announce", "seat": seat, "contest": cont.name, "value": value})
        c.best_seat, c.best_value = self._leader(cont, c.announced)
        self._advance_count()

    def _good(self, seat: int) -> None:
        c = self.count
        assert c is not None
        c.announced.append((seat, None))
        self.events.append({"type": "good", "seat": seat})
        self._advance_count()

    def _advance_count(self) -> None:
        """The count goes on round the table to the next seat that could still change which team
        wins: one that has not spoken and whose team does not lead. A seat passed over while its
        own team led is asked when an opponent takes the lead. Settled when none is left."""
        c = self.count
        assert c is not None
        team_of = self.game.team_of
        spoken = {s for s, _ in c.announced}
        leading = None if c.best_seat is None else team_of[c.best_seat]
        n = len(c.order)
        for k in range(1, n + 1):
            i = (c.index + k) % n
            s = c.order[i]
            if s not in spoken and (team_of[s] != leading or self._may_still_wipe(c, s)):
                c.index = i
                return
        self.count = None
        self._settle_accepted(self.game.contests[c.contest], c.best_seat, c.order)

    def _may_still_wipe(self, c: Count, seat: int) -> bool:
        """A seat that may still make a compulsory declaration cancelling the counted contest is
        asked even when its team leads: "si hay flor, el envido no se juega". Public facts only."""
        name = self.game.contests[c.contest].name
        return any(name in d.ir.cancels and self.contests[d.index].status != CLOSED and self._may_declare(d, seat)
                   for d in self.game.compulsory)

    def _settle_accepted(self, cont: "CompiledContest", winner_seat: int | None, compared: list[int]) -> None:
        """Score an accepted chain for the winner's team; a tie that goes to nobody scores nothing.
        `compared` are the seats whose values took part: a declaration contest counts them."""
        g = self.game
        cs = self.contests[cont.index]
        cs.status = CLOSED
        self._resume()
        if winner_seat is None:
            self.events.append({"type": "contest_tied", "contest": cont.name})
            return
        team = g.team_of[winner_seat]
        formula = cont.call_accept.get(cs.chain[-1][0], cont.accept)
        caller_team = g.team_of[cs.chain[-1][1]]
        pay = self._pay_facts(cont, team, caller_team, holders=compared if cont.declares else None)
        self.events.append({"type": "contest_won", "contest": cont.name, "seat": winner_seat, "team": team,
                            "value": self._value(cont, winner_seat)})
        self._score(team, int(formula(Ctx(self, winner_seat, team, pay))), cont.name)

    def _pay_facts(self, cont: "CompiledContest", team: int, caller_team: int,
                   holders: list[int] | None = None) -> Pay:
        """The chain's facts for a payoff formula; `declared` counts `holders` (default: the
        declared seats), the values that took part."""
        cs = self.contests[cont.index]
        worths = [int(cont.worth[c](Ctx(self, s, team))) for c, s in cs.chain]
        team_of = self.game.team_of
        seats = cs.declared if holders is None else holders
        return Pay(total=sum(worths), total_but_last=sum(worths[:-1]), calls=len(worths),
                   last=worths[-1] if worths else 0, declared=len(seats),
                   declared_by_winner=sum(1 for s in seats if team_of[s] == team),
                   declared_by_caller=sum(1 for s in seats if team_of[s] == caller_team))

    def _settle_declarations(self) -> None:
        """Score declaration-only contests as soon as every seat has declared or lost the chance
        (played a card). Whether a seat could declare is never asked of its hidden cards, so the
        moment of scoring shows nothing about them."""
        if self.hand_over:
            return
        for cont in self.game.contests:
            if not self._only_declared(cont) or self._contest_pending(cont):
                continue
            if any(self._may_declare(cont, s) for s in range(self.game.num_players)):
                continue
            self._settle_unraised(cont)
            if self.match_over:
                return

    def _only_declared(self, cont: "CompiledContest") -> bool:
        """A live contest whose chain holds declarations only, and was not accepted: settled by
        its `unraised` rule (an accepted one is settled by its count, once)."""
        cs = self.contests[cont.index]
        counting = self.count is not None and self.count.contest == cont.index
        return cs.status == ACTIVE and cont.declares and not counting \
            and all(cont.calls[c].declare for c, _ in cs.chain)

    def _settle_unraised(self, cont: "CompiledContest") -> None:
        """Unraised declarations: each team scores its own, in the order they were sung, or the
        best value takes them all."""
        g = self.game
        cs = self.contests[cont.index]
        cs.status = CLOSED
        teams = list(dict.fromkeys(g.team_of[s] for s in cs.declared))     # in the order sung
        if cont.unraised_mode == "each" or len(teams) == 1:
            for team in teams:
                pay = self._pay_facts(cont, team, team)
                pay.declared = pay.declared_by_winner
                self._score(team, int(cont.unraised_pays(Ctx(self, None, team, pay))), cont.name)
            return
        best = self._best(cont, self._comparing(cont))
        if best is None:
            self.events.append({"type": "contest_tied", "contest": cont.name})
            return
        team = g.team_of[best]
        self.events.append({"type": "contest_won", "contest": cont.name, "seat": best, "team": team,
                            "value": self._value(cont, best)})
        self._score(team, int(cont.unraised_pays(Ctx(self, best, team, self._pay_facts(cont, team, team)))),
                    cont.name)
