"""Which actions a seat may take now: cards, stake calls, contest calls, answers, counts.

Part of `State` (a mixin that reads its fields): generating legal actions is most of the
engine's work, and keeping it apart keeps `state.py` about what actions do.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.engine.context import Ctx
from interpreter.engine.records import CLOSED, IDLE, Action, Pending

if TYPE_CHECKING:
    from interpreter.engine.game import CompiledContest


class LegalActions:
    """The legal-action rules of a State."""

    def _acts(self, seat: int) -> list[Action]:
        """Every legal action of `seat`, in vocabulary order; remembered until the state changes,
        so checking the action a bot picked from `legal_actions` costs nothing more."""
        memo = self._legal
        if memo is not None and memo[0] == seat:
            return memo[1]
        acts = self._find_acts(seat)
        self._legal = (seat, acts)
        return acts

    def _find_acts(self, seat: int) -> list[Action]:
        g = self.game
        if self.hand_over or not 0 <= seat < g.num_players:
            return []
        if self.count is not None:
            return self._compulsory(seat, self._count_acts(seat)) if seat == self.count.seat else []
        p = self.pending
        if p is not None:
            if not self._may_answer(seat):
                return self._out_of_turn(seat)
            return self._compulsory(seat, self._answer_acts(seat, p))
        if seat != self.turn:
            return self._out_of_turn(seat)
        return self._compulsory(seat, self._turn_acts(seat))

    def _out_of_turn(self, seat: int) -> list[Action]:
        """What a seat that is not to act may do: fold, where the spec's `fold.when` allows it."""
        return [("fold", None)] if self.game.fold_when(Ctx(self, seat, self.game.team_of[seat])) else []

    def _compulsory(self, seat: int, acts: list[Action]) -> list[Action]:
        """A holder of a compulsory declaration declares before anything else it may do now:
        while one of its declarations is among `acts` (or it is to speak in a count the
        declaration cancels), only those declarations and folding remain."""
        g = self.game
        p = self.pending
        for cont in g.compulsory:
            if not self._may_declare(cont, seat) or not self._holds(cont, seat) \
                    or self.contests[cont.index].status == CLOSED or (p is not None and p.contest == cont.index):
                continue
            declare = [a for a in acts if a[0] == "call" and a[1] in cont.calls and cont.calls[a[1]].declare]
            c = self.count
            if not declare and c is not None and g.contests[c.contest].name in cont.ir.cancels \
                    and cont.window(Ctx(self, seat, g.team_of[seat])):
                declare = [("call", name) for name in cont.openers if cont.calls[name].declare]
            if declare:
                return declare + [a for a in acts if a[0] == "fold"]
        return acts

    def _turn_acts(self, seat: int) -> list[Action]:
        g = self.game
        ctx = Ctx(self, seat, g.team_of[seat])
        acts: list[Action] = []
        acts += self._card_acts(seat, ctx)
        if self._stake_call_ok(seat, ctx):
            acts.append(("call", g.stake_names[self.stake_level]))
        for cont in g.contests:
            acts += self._contest_calls(seat, cont, ctx, answering=None)
        for name, holds, when, _ in g.annulments:
            if holds(self.dealt[seat], self.turned) and when(ctx):
                acts.append(("annul", name))
        if g.fold_when(ctx):
            acts.append(("fold", None))
        return acts

    def _card_acts(self, seat: int, ctx: Ctx) -> list[Action]:
        g = self.game
        if self.blind:
            return [("play_pos", i) for i, c in enumerate(self.dealt[seat]) if c in self.hands[seat]]
        acts: list[Action] = [("play", c) for c in sorted(self.hands[seat])]
        if g.cover is not None and g.cover(ctx):
            acts += [("cover", c) for c in sorted(self.hands[seat])]
        return acts

    def _count_acts(self, seat: int) -> list[Action]:
        c = self.count
        assert c is not None
        if seat != c.seat:
            return []
        cont = self.game.contests[c.contest]
        ctx = Ctx(self, seat, self.game.team_of[seat])
        acts: list[Action] = []
        if not c.opened or cont.announce(ctx):
            acts.append(("announce", None))
        if c.opened and cont.good(ctx):
            acts.append(("good", None))
        return acts

    def _answer_acts(self, seat: int, p: Pending) -> list[Action]:
        g = self.game
        ctx = Ctx(self, seat, g.team_of[seat])
        acts: list[Action] = [("accept", None), ("decline", None)]
        if p.contest is not None:
            cont = g.contests[p.contest]
            if cont.calls[p.call].declare:      # a declaration asks: answers are the call's own
                acts = [(verb, None) for verb, table in (("accept", cont.call_accept),
                                                         ("decline", cont.call_decline)) if p.call in table]
                if g.team_of[seat] == g.team_of[p.caller]:
                    acts = []                   # a partner asked in turn can only declare too
        if p.contest is None:
            if p.step < len(g.stake_names) and self.forbid != "refuse" and g.stake_when(ctx):
                acts.append(("call", g.stake_names[p.step]))
        for cont in g.contests:
            acts += self._contest_calls(seat, cont, ctx, answering=p)
        if g.fold_when(ctx):
            acts.append(("fold", None))
        return acts

    def _stake_call_ok(self, seat: int, ctx: Ctx) -> bool:
        g = self.game
        if self.stake_level >= len(g.stake_names) or self.forbid == "refuse":
            return False
        if self.stake_owner is not None and not g.raise_any and self.stake_owner != g.team_of[seat]:
            return False
        return bool(g.stake_when(ctx))

    def _contest_calls(self, seat: int, cont: "CompiledContest", ctx: Ctx, answering: Pending | None) -> list[Action]:
        """Calls of one contest `seat` may make now: open, raise, or declare."""
        cs = self.contests[cont.index]
        if cs.status == CLOSED:
            return []
        out: list[Action] = []
        if answering is not None and answering.contest == cont.index:
            holds = cont.declares and self._holds(cont, seat)  # only declarations ask what a hand holds
            last = answering.call
            used = [c for c, _ in cs.chain]
            partner = self.game.team_of[answering.caller] == self.game.team_of[seat]
            for name, call in cont.calls.items():
                counter = name == last and call.declare       # answering a declaration with one's own
                if (counter or (last in call.after and not partner)) \
                        and (call.max is None or used.count(name) < call.max) \
                        and (not cont.declares or holds) and cont.allowed[name](ctx):
                    out.append(("call", name))
            return out
        if answering is not None:
            # an interruption: "el envido está primero", or a flor that wipes the waiting envido
            wipes = answering.contest is not None and \
                self.game.contests[answering.contest].name in cont.ir.cancels
            if not (wipes or (answering.contest is None and cont.interrupt(ctx))):
                return []
        if not cont.window(ctx):
            return []
        holds = cont.declares and self._holds(cont, seat)
        if cs.status == IDLE:
            for name in cont.openers:
                if (not cont.calls[name].declare or holds) and cont.allowed[name](ctx):
                    out.append(("call", name))
            return out
        if not cont.declares or not holds or seat in cs.declared or self._contest_pending(cont):
            return []
        last, last_seat = cs.chain[-1]
        used = [c for c, _ in cs.chain]
        for name, call in cont.calls.items():
            if call.declare and name in cont.openers:
                out.append(("call", name))
            elif last in call.after and self.game.team_of[last_seat] != self.game.team_of[seat] \
                    and (call.max is None or used.count(name) < call.max) and cont.allowed[name](ctx):
                out.append(("call", name))
        return out

    def _contest_pending(self, cont: "CompiledContest") -> bool:
        return any(p is not None and p.contest == cont.index for p in (self.pending, self.suspended))

    def _holds(self, cont: "CompiledContest", seat: int) -> bool:
        return self.game.values[cont.value](self.dealt[seat], self.turned) is not None

    def _may_answer(self, seat: int) -> bool:
        """The asked seat, or any of its partners where the table lets a teammate answer. In a
        contest of declarations only a holder answers: one who declared or can still show it."""
        p = self.pending
        assert p is not None
        if seat != p.answerer and not (self.game.answer_any and self.game.team_of[seat] == p.answer_team):
            return False
        if p.contest is not None and seat != p.answerer:
            cont = self.game.contests[p.contest]
            if cont.declares:
                declared = seat in self.contests[cont.index].declared
                return self._holds(cont, seat) and (declared or self._may_declare(cont, seat))
        return True
