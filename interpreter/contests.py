"""Contests (envido, flor): calls and declarations, counts, and what each outcome pays.

Part of `State` (a mixin that reads and changes its fields), kept apart because contests
are the richest mechanism of the spec language: chains, declarations that ask, counts in
seat order from the mano, payoffs computed by the spec's formulas.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from interpreter.context import Ctx, Pay
from interpreter.records import ACTIVE, CLOSED, IDLE, Count, Pending

if TYPE_CHECKING:
    from interpreter.game import CompiledContest


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
            elif call.asks:
                self._ask_holders(cont, name, seat)
            return
        if p is not None and p.contest is None:
            self.suspended, self.pending = p, None       # the contest goes first
        elif p is not None and p.contest == cont.index:
            self.accepted.add(p.call)                    # a raise accepts what it answers
        answerer = g.next_opponent(seat)
        self.pending = Pending(name, seat, answerer, g.team_of[answerer], cont.index)

    def _ask_holders(self, cont: "CompiledContest", name: str, seat: int) -> None:
        """A declaration that asks: the next opponent who also holds the value must answer now."""
        g = self.game
        declared = self.contests[cont.index].declared
        for k in range(1, g.num_players):
            s = (seat + k) % g.num_players
            if g.team_of[s] != g.team_of[seat] and s not in declared and self.played[s] == 0 \
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

    def _comparing(self, cont: "CompiledContest") -> list[int]:
        """Seats whose values are compared, in order from the mano."""
        n = self.game.num_players
        order = [(self.mano + k) % n for k in range(n)]
        if cont.declares:
            declared = self.contests[cont.index].declared
            return [s for s in order if s in declared]
        return order

    def _value(self, cont: "CompiledContest", seat: int) -> int:
        v = self.game.values[cont.value](self.dealt[seat], self.turned)
        return -1 if v is None else v

    def _better(self, cont: "CompiledContest", value: int, seat: int, best_value: int, best_seat: int | None) -> bool:
        if best_seat is None or value > best_value:
            return True
        if value == best_value and cont.tie == "mano_team":
            mano_team = self.game.team_of[self.mano]
            return self.game.team_of[seat] == mano_team != self.game.team_of[best_seat]
        return False

    def _best(self, cont: "CompiledContest", seats: Iterable[int]) -> int:
        best_seat, best_value = None, -1
        for s in seats:
            v = self._value(cont, s)
            if self._better(cont, v, s, best_value, best_seat):
                best_seat, best_value = s, v
        assert best_seat is not None
        return best_seat

    def _start_count(self, cont: "CompiledContest") -> None:
        self.count = Count(cont.index, self._comparing(cont))

    def count_would_win(self, seat: int) -> bool:
        """Whether `seat`'s true value would take the lead of the count now."""
        c = self.count
        assert c is not None
        cont = self.game.contests[c.contest]
        return self._better(cont, self._value(cont, seat), seat, c.best_value, c.best_seat)

    def _announce(self, seat: int) -> None:
        c = self.count
        assert c is not None
        cont = self.game.contests[c.contest]
        value = self._value(cont, seat)
        c.announced.append((seat, value))
        self.events.append({"type": "announce", "seat": seat, "contest": cont.name, "value": value})
        if self._better(cont, value, seat, c.best_value, c.best_seat):
            c.best_seat, c.best_value = seat, value
        self._advance_count()

    def _good(self, seat: int) -> None:
        c = self.count
        assert c is not None
        c.announced.append((seat, None))
        self.events.append({"type": "good", "seat": seat})
        self._advance_count()

    def _advance_count(self) -> None:
        """Skip seats whose team already leads the count; settle when all have spoken."""
        c = self.count
        assert c is not None and c.best_seat is not None
        team_of = self.game.team_of
        c.index += 1
        while c.index < len(c.order) and team_of[c.order[c.index]] == team_of[c.best_seat]:
            c.index += 1
        if c.index < len(c.order):
            return
        self.count = None
        self._settle_accepted(self.game.contests[c.contest], c.best_seat)

    def _settle_accepted(self, cont: "CompiledContest", winner_seat: int) -> None:
        g = self.game
        cs = self.contests[cont.index]
        cs.status = CLOSED
        team = g.team_of[winner_seat]
        formula = cont.call_accept.get(cs.chain[-1][0], cont.accept)
        caller_team = g.team_of[cs.chain[-1][1]]
        pay = self._pay_facts(cont, team, caller_team)
        self._resume()
        self.events.append({"type": "contest_won", "contest": cont.name, "seat": winner_seat, "team": team,
                            "value": self._value(cont, winner_seat)})
        self._score(team, int(formula(Ctx(self, winner_seat, team, pay))), cont.name)

    def _pay_facts(self, cont: "CompiledContest", team: int, caller_team: int) -> Pay:
        cs = self.contests[cont.index]
        worths = [int(cont.worth[c](Ctx(self, s, team))) for c, s in cs.chain]
        team_of = self.game.team_of
        return Pay(total=sum(worths), total_but_last=sum(worths[:-1]), calls=len(worths),
                   last=worths[-1] if worths else 0, declared=len(cs.declared),
                   declared_by_winner=sum(1 for s in cs.declared if team_of[s] == team),
                   declared_by_caller=sum(1 for s in cs.declared if team_of[s] == caller_team))

    def _settle_declarations(self) -> None:
        """Score declaration-only contests once no seat can still declare."""
        if self.hand_over:
            return
        for cont in self.game.contests:
            if not self._only_declared(cont) or self._contest_pending(cont):
                continue
            cs = self.contests[cont.index]
            if any(s not in cs.declared and self.played[s] == 0 and self._holds(cont, s)
                   for s in range(self.game.num_players)):
                continue
            self._settle_unraised(cont)
            if self.match_over:
                return

    def _only_declared(self, cont: "CompiledContest") -> bool:
        """A live contest whose chain holds declarations only: settled by its `unraised` rule."""
        cs = self.contests[cont.index]
        return cs.status == ACTIVE and cont.declares and all(cont.calls[c].declare for c, _ in cs.chain)

    def _settle_unraised(self, cont: "CompiledContest") -> None:
        g = self.game
        cs = self.contests[cont.index]
        cs.status = CLOSED
        teams = sorted({g.team_of[s] for s in cs.declared})
        if cont.unraised_mode == "each" or len(teams) == 1:
            for team in teams:
                pay = self._pay_facts(cont, team, team)
                pay.declared = pay.declared_by_winner
                self._score(team, int(cont.unraised_pays(Ctx(self, None, team, pay))), cont.name)
            return
        best = self._best(cont, self._comparing(cont))
        team = g.team_of[best]
        self.events.append({"type": "contest_won", "contest": cont.name, "seat": best, "team": team,
                            "value": self._value(cont, best)})
        self._score(team, int(cont.unraised_pays(Ctx(self, best, team, self._pay_facts(cont, team, team)))),
                    cont.name)
