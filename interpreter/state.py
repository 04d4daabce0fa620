"""The state of a match and its rules engine: who acts, what is legal, what an action does.

One class holds the whole match so that clone, serialisation and equality are simple.
Every mechanism is generic: the spec names the calls, the interpreter only knows ladders,
contests, counts, tricks and the formulas the spec compiled into closures.
"""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from rulespec.errors import IllegalAction

from interpreter.context import Ctx, Pay
from interpreter.tables import MANO, NOBODY, TIE

if TYPE_CHECKING:
    from interpreter.game import CompiledContest, Deal, Game

Action = tuple[str, Any]   # (verb, argument): ("play", card), ("call", name), ("accept", None)...

IDLE, ACTIVE, CLOSED = 0, 1, 2


@dataclass
class Pending:
    """A call waiting for an answer."""

    call: str
    caller: int
    answerer: int
    answer_team: int
    contest: int | None      # index of the contest, None for a stake call
    step: int = 0            # 1-based stake step for stake calls


@dataclass
class ContestState:
    status: int = IDLE
    chain: list[tuple[str, int]] = field(default_factory=list)   # (call, seat)
    declared: list[int] = field(default_factory=list)


@dataclass
class Count:
    """An accepted contest's announcement round, in seat order from the mano."""

    contest: int
    order: list[int]
    index: int = 0
    best_seat: int | None = None
    best_value: int = -1
    announced: list[tuple[int, int | None]] = field(default_factory=list)   # (seat, value or None=good)

    @property
    def seat(self) -> int:
        return self.order[self.index]


def shuffled(rng: random.Random, n: int) -> list[int]:
    """`range(n)` in exactly the order `rng.shuffle` leaves it, drawing the same bits.

    The deal was a fifth of random play, most of it the method calls inside `shuffle`;
    this is its Fisher-Yates loop inlined (a test checks the two agree)."""
    deck = list(range(n))
    bits = rng.getrandbits
    for i, width in _draws(n):
        j = bits(width)
        while j > i:
            j = bits(width)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@functools.cache
def _draws(n: int) -> tuple[tuple[int, int], ...]:
    """Each step of the shuffle: the position it fills and how many random bits it draws."""
    return tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))


class State:
    """A match in progress. Mutated only through `apply` and `next_hand`."""

    # -- construction -----------------------------------------------------------------

    def __init__(self, game: "Game") -> None:
        self.game = game
        self.rng = random.Random()
        self.seed: int | None = None
        self.script: list[Deal] = []
        self.score = [0] * game.teams
        self.dealer = game.num_players - 1
        self.hand_number = 0
        self.match_over = False
        self.winner: int | None = None
        self.events: list[dict[str, Any]] = []
        self._reset_hand()

    def _reset_hand(self) -> None:
        n = self.game.num_players
        self.hand_over = False
        self.dealt: list[tuple[int, ...]] = [()] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.turned: int | None = None
        self.mano = (self.dealer + 1) % n
        self.turn = self.mano
        self.leader = self.mano
        self.trick_no = 0
        self.trick: list[tuple[int, int, bool]] = []         # (seat, card, covered)
        self.history: list[list[tuple[int, int, bool]]] = []
        self.results: list[int] = []
        self.played = [0] * n
        self.stake_level = 0
        self.worth = 1
        self.stake_owner: int | None = None
        self.stake_calls = 0
        self.pending: Pending | None = None
        self.suspended: Pending | None = None
        self.contests = [ContestState() for _ in self.game.contests]
        self.count: Count | None = None
        self.called: set[str] = set()
        self.called_log: list[str] = []
        self.accepted: set[str] = set()
        self.redeal_same = False
        self.blind = False
        self.forbid: str | None = None
        self.special: list[str] = []
        self._legal: tuple[int, list[Action]] | None = None     # (seat, its legal actions) until a change

    @classmethod
    def start(cls, game: "Game", seed: int | None, dealer: int | None,
              deals: Sequence["Deal"] | None, score: Sequence[int] | None) -> "State":
        st = cls(game)
        st.seed = seed
        st.rng.seed(seed)
        st.script = list(deals or [])
        if dealer is not None:
            if not 0 <= dealer < game.num_players:
                raise ValueError(f"dealer must be a seat 0..{game.num_players - 1}, not {dealer}")
            st.dealer = dealer
        if score is not None:
            st.score = [int(s) for s in score]
        st._deal()
        return st

    # -- the deal ---------------------------------------------------------------------

    def next_hand(self, deal: "Deal | None" = None) -> None:
        """Deal the next hand after one has ended; the deal passes as the spec says."""
        if self.match_over:
            raise IllegalAction("next_hand", "the match is over")
        if not self.hand_over:
            raise IllegalAction("next_hand", "the hand is still being played")
        n = self.game.num_players
        if not self.redeal_same:
            self.dealer = (self.dealer + (1 if self.game.spec.table.dealer == "next" else n - 1)) % n
        if deal is not None:
            self.script.insert(0, deal)
        self._deal()

    def _deal(self) -> None:
        g = self.game
        self._reset_hand()
        self.hand_number += 1
        n, size = g.num_players, g.hand_size
        order = [(self.mano + k) % n for k in range(n)]
        if self.script:
            deal = self.script.pop(0)
            idx = g.cards.index
            for seat in range(n):
                self.dealt[seat] = tuple(idx[c] for c in deal.hands[seat])
            used = {c for h in self.dealt for c in h}
            if g.turns_card:
                if deal.turned is not None:
                    self.turned = idx[deal.turned]
                else:
                    self.turned = self.rng.choice([c for c in range(len(g.cards)) if c not in used])
        else:
            deck = shuffled(self.rng, len(g.cards))
            for k, seat in enumerate(order):
                self.dealt[seat] = tuple(deck[k * size:(k + 1) * size])
            if g.turns_card:
                self.turned = deck[n * size]
        self.hands = [list(h) for h in self.dealt]
        self.strength = g.strength[self.turned]
        self._special_hands()
        self.worth = self.base_worth
        self.events.append({"type": "deal", "hand": self.hand_number, "dealer": self.dealer, "mano": self.mano,
                            "turned": g.cards.ids[self.turned] if self.turned is not None else None,
                            "special": list(self.special)})
        for seat in range(n):
            if not self.blind:
                self.events.append({"type": "hand", "seat": seat, "only": seat,
                                    "cards": [g.cards.ids[c] for c in self.dealt[seat]]})

    def _special_hands(self) -> None:
        ctx = Ctx(self, None)
        self.base_worth = int(self.game.stake_base(ctx))
        for hand, when, base in self.game.special:
            if when(ctx):
                self.special.append(hand.name)
                if base is not None:
                    self.base_worth = int(base(ctx))
                if hand.forbid_stakes:
                    self.forbid = hand.forbid_stakes
                if hand.blind:
                    self.blind = True

    # -- who acts ---------------------------------------------------------------------

    def current_player(self) -> int | None:
        """The seat whose decision is next; None when the hand or the match is over."""
        if self.hand_over:
            return None
        if self.count is not None:
            return self.count.seat
        if self.pending is not None:
            return self.pending.answerer
        return self.turn

    def is_terminal(self) -> bool:
        return self.match_over

    @property
    def hand_worth(self) -> int:
        return self.worth

    @property
    def tricks(self) -> list[int | str]:
        return ["tie" if r == TIE else r for r in self.results]

    def returns(self) -> list[float]:
        """+1 for the winning team's seats, -1 for the others, 0 while the match goes on."""
        if self.winner is None:
            return [0.0] * self.game.num_players
        return [1.0 if self.game.team_of[s] == self.winner else -1.0 for s in range(self.game.num_players)]

    # -- legal actions ----------------------------------------------------------------

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
            return self._count_acts(seat)
        p = self.pending
        if p is not None:
            if not self._may_answer(seat):
                return []
            return self._answer_acts(seat, p)
        if seat != self.turn:
            return []
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
        if c.best_seat is None or cont.announce(ctx):
            acts.append(("announce", None))
        if c.best_seat is not None and cont.good(ctx):
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
            for name, call in cont.calls.items():
                counter = name == last and call.declare       # answering a declaration with one's own
                if (counter or last in call.after) and (call.max is None or used.count(name) < call.max) \
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
        p = self.pending
        assert p is not None
        return seat == p.answerer or (self.game.answer_any and self.game.team_of[seat] == p.answer_team)

    # -- action strings and ids -------------------------------------------------------

    def _to_string(self, act: Action) -> str:
        text = self.game.action_text.get(act)
        if text is not None:
            return text
        verb, arg = act
        ids = self.game.cards.ids
        if verb == "play":
            return f"play {ids[arg]}"
        if verb == "play_pos":
            return f"play @{arg + 1}"
        if verb == "cover":
            return f"cover {ids[arg]}"
        if verb in ("call", "annul"):
            return arg
        if verb == "signal":
            return f"{self.game.signals.verb} {arg}"
        return verb

    def _parse(self, action: str | int) -> Action:
        g = self.game
        if isinstance(action, int) and not isinstance(action, bool):
            if not 0 <= action < len(g.actions):
                raise IllegalAction(str(action), f"no action has the id {action} (ids run 0..{len(g.actions) - 1})")
            action = g.actions[action]
        act = g.parsed.get(action) if isinstance(action, str) else None
        if act is not None:
            return act
        words = str(action).split()
        if not words:
            raise IllegalAction(str(action), "empty action")
        verb = g.aliases.get(words[0], words[0])
        arg = words[1] if len(words) > 1 else None
        if len(words) > 2:
            raise IllegalAction(action, "an action is a verb and at most one argument")
        if verb in ("play", "cover"):
            if arg is None:
                raise IllegalAction(action, f"{verb} needs a card, e.g. '{verb} {g.cards.ids[0]}'")
            if verb == "play" and arg.startswith("@") and arg[1:].isdigit():
                return ("play_pos", int(arg[1:]) - 1)
            if arg not in g.cards.index:
                raise IllegalAction(action, f"{arg!r} is not a card of this deck")
            return (verb, g.cards.index[arg])
        signals = g.signals
        if signals is not None and verb == signals.verb:
            if arg not in signals.names:
                raise IllegalAction(action, f"{verb} needs one of: {', '.join(signals.names)}")
            return ("signal", arg)
        if arg is not None:
            raise IllegalAction(action, f"{verb!r} takes no argument")
        if any(verb == name for name, *_ in g.annulments):
            return ("annul", verb)
        if verb in g.call_names:
            return ("call", verb)
        if verb in ("accept", "decline", "fold", "announce", "good"):
            return (verb, None)
        if verb in g.spec.disabled_calls:
            raise IllegalAction(action, f"{verb} is not played under these table options")
        known = sorted(g.call_names) + ["play", "cover", "accept", "decline", "fold", "announce", "good"]
        raise IllegalAction(action, f"unknown verb {verb!r}; this spec knows: {', '.join(known)}")

    def legal_actions(self, seat: int | None = None) -> list[str]:
        """Legal actions of `seat` (default: the seat to act) as readable strings."""
        seat = self.current_player() if seat is None else seat
        if seat is None:
            return []
        text = self.game.action_text
        return [text.get(a) or self._to_string(a) for a in self._acts(seat)]

    def legal_action_ids(self, seat: int | None = None) -> list[int]:
        index = self.game.action_index
        return sorted(index[a] for a in self.legal_actions(seat))

    def action_mask(self, seat: int | None = None) -> list[bool]:
        mask = [False] * len(self.game.actions)
        for i in self.legal_action_ids(seat):
            mask[i] = True
        return mask

    def why_illegal(self, action: str | int, seat: int | None = None) -> str | None:
        """Why `action` is refused now, or None when it is legal."""
        try:
            self._resolve(action, seat)
        except IllegalAction as err:
            return err.reason
        return None

    def _resolve(self, action: str | int, seat: int | None) -> tuple[int, Action]:
        """Parse and check an action; raise IllegalAction with the reason if refused."""
        act = self._parse(action)
        if self.match_over:
            raise IllegalAction(str(action), "the match is over")
        if self.hand_over:
            raise IllegalAction(str(action), "the hand is over; deal the next one")
        actor = self.current_player() if seat is None else seat
        assert actor is not None
        if not 0 <= actor < self.game.num_players:
            raise IllegalAction(str(action), f"there is no seat {actor}")
        if act[0] == "signal":
            return actor, act            # a sign to the partners: any seat, any time in a hand
        if act[0] == "play" and self.blind and act[1] in self.hands[actor]:
            act = ("play_pos", self.dealt[actor].index(act[1]))
        if act in self._acts(actor):
            return actor, act
        raise IllegalAction(str(action), self._explain(actor, act))

    def _explain(self, seat: int, act: Action) -> str:
        """The reason an action is not among the legal ones, as precise as we can say."""
        from interpreter.explain import explain
        return explain(self, seat, act)

    # -- applying ---------------------------------------------------------------------

    def apply(self, action: str | int, seat: int | None = None) -> None:
        """Apply a legal action; an illegal one raises IllegalAction and changes nothing."""
        actor, act = self._resolve(action, seat)
        self._legal = None
        verb, arg = act
        self._log(actor, act)
        if verb in ("play", "cover"):
            self._play(actor, arg, covered=verb == "cover")
        elif verb == "play_pos":
            self._play(actor, self.dealt[actor][arg], covered=False)
        elif verb == "call":
            if arg in self.game.contest_of_call:
                self._contest_call(actor, self.game.contest_of_call[arg], arg)
            else:
                self._stake_call(actor, arg)
        elif verb == "accept":
            self._accept(actor)
        elif verb == "decline":
            self._decline(actor)
        elif verb == "fold":
            self._fold(actor)
        elif verb == "announce":
            self._announce(actor)
        elif verb == "good":
            self._good(actor)
        elif verb == "annul":
            self._annul(actor, arg)
        self._settle_declarations()

    def _log(self, seat: int, act: Action) -> None:
        verb, arg = act
        event: dict[str, Any] = {"type": "action", "seat": seat, "action": self._to_string(act)}
        if verb == "signal" and self.game.signals is not None and self.game.signals.to == "partners":
            team = self.game.team_of[seat]
            event["seats"] = [s for s, t in enumerate(self.game.team_of) if t == team]
        if verb == "cover":
            event["action"] = "cover"
            self.events.append({**event, "card": self.game.cards.ids[arg], "only": seat})
            event["hidden"] = True
            self.events.append({**event, "except": seat})
            return
        self.events.append(event)

    def _play(self, seat: int, card: int, covered: bool) -> None:
        g = self.game
        self.hands[seat].remove(card)
        self.trick.append((seat, card, covered))
        self.played[seat] += 1
        if len(self.trick) < g.num_players:
            self.turn = (seat + 1) % g.num_players
            return
        self._end_trick()

    def _end_trick(self) -> None:
        g = self.game
        strength = self.strength
        shown = [(s, c) for s, c, cov in self.trick if not cov or g.cover_counts]
        winner_seat: int | None = None
        first_best: int | None = None        # who first played the best card shown
        if shown:
            best = max(strength[c] for _, c in shown)
            top = [s for s, c in shown if strength[c] == best]
            first_best = top[0]
            teams = {g.team_of[s] for s in top}
            if len(teams) == 1 and (len(top) == 1 or g.partners_tie == "team_wins"):
                winner_seat = top[0]
        result = TIE if winner_seat is None else g.team_of[winner_seat]
        self.results.append(result)
        self.history.append(self.trick)
        self.events.append({"type": "trick", "number": self.trick_no + 1,
                            "winner": None if winner_seat is None else g.team_of[winner_seat],
                            "seat": winner_seat})
        self.trick = []
        outcome = g.outcomes.get(tuple(self.results))
        if outcome is not None:
            self._end_hand(g.team_of[self.mano] if outcome == MANO else outcome)
            return
        self.trick_no += 1
        if winner_seat is not None:
            self.leader = winner_seat
        elif g.after_tie == "mano":
            self.leader = self.mano
        elif g.after_tie == "first_best" and first_best is not None:
            self.leader = first_best
        self.turn = self.leader

    def _stake_call(self, seat: int, name: str) -> None:
        g = self.game
        team = g.team_of[seat]
        if self.forbid == "lose_match":
            self.events.append({"type": "forbidden", "seat": seat, "call": name})
            self._lose_match(team)
            return
        p = self.pending
        if p is not None and p.contest is None:
            self._accept_stake(p, team)
        step = self.stake_level + 1
        self.stake_calls += 1
        self._called(name)
        answerer = g.next_opponent(seat)
        self.pending = Pending(name, seat, answerer, g.team_of[answerer], None, step)

    def _accept_stake(self, p: Pending, team: int) -> None:
        self.stake_level = p.step
        self.worth = int(self.game.stake_worth[p.step - 1](Ctx(self, p.caller, team)))
        self.stake_owner = team
        self.accepted.add(p.call)
        self.events.append({"type": "accepted", "call": p.call, "team": team, "worth": self.worth})

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

    def _called(self, name: str) -> None:
        self.called.add(name)
        self.called_log.append(name)

    def _annul(self, seat: int, name: str) -> None:
        """The holder annuls the deal: nobody scores, and the cards are dealt again."""
        dealer = next(d for n, _, _, d in self.game.annulments if n == name)
        self.redeal_same = dealer == "same"
        self.hand_over = True
        self.events.append({"type": "annulled", "seat": seat, "by": name})

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

    def _accept(self, seat: int) -> None:
        p = self.pending
        assert p is not None
        team = self.game.team_of[seat]
        if p.contest is None:
            self._accept_stake(p, team)
            self.pending = None
            return
        cont = self.game.contests[p.contest]
        declared = self.contests[cont.index].declared
        if cont.declares and seat not in declared and self._holds(cont, seat):
            declared.append(seat)                        # accepting a declaration shows one's own
        self.accepted.add(p.call)
        self.events.append({"type": "accepted", "call": p.call, "team": team})
        self.pending = None
        if cont.procedure == "announce":
            self._start_count(cont)
        else:
            best = self._best(cont, self._comparing(cont))
            self._settle_accepted(cont, best)

    def _decline(self, seat: int) -> None:
        p = self.pending
        assert p is not None
        g = self.game
        caller_team = g.team_of[p.caller]
        self.events.append({"type": "declined", "call": p.call, "seat": seat})
        if p.contest is None:
            pts = int(g.stake_declined[p.step - 1](Ctx(self, p.caller, caller_team)))
            self.pending = None
            self._end_hand(caller_team, points=pts)
            return
        self._pay_declined(p)

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

    def _fold(self, seat: int) -> None:
        g = self.game
        other = 1 - g.team_of[seat]
        p = self.pending
        asked = p is not None and p.contest is not None and g.contests[p.contest].calls[p.call].declare
        if p is not None and p.contest is not None and g.fold_declines and not asked:
            self._pay_declined(p)     # an unanswered declaration instead stands, settled with the hand
            if self.match_over:
                return
        self.pending = self.suspended = None
        pts = int(g.fold_pays(Ctx(self, seat, other)))
        self._end_hand(other, points=pts)

    # -- contests: counts and payoffs -------------------------------------------------

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
            cs = self.contests[cont.index]
            if cs.status != ACTIVE or not cont.declares or self._contest_pending(cont):
                continue
            if not all(cont.calls[c].declare for c, _ in cs.chain):
                continue
            if any(s not in cs.declared and self.played[s] == 0 and self._holds(cont, s)
                   for s in range(self.game.num_players)):
                continue
            self._settle_unraised(cont)
            if self.match_over:
                return

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

    # -- scoring and the end of hands -------------------------------------------------

    def _score(self, team: int, points: int, reason: str) -> None:
        points = max(points, 0)
        if points == 0 or self.match_over:
            return
        self.score[team] += points
        self.events.append({"type": "score", "team": team, "points": points, "reason": reason,
                            "score": list(self.score)})
        if self.score[team] >= self.game.target and self.game.spec.match.end == "immediately":
            self._finish(team)

    def _finish(self, team: int) -> None:
        self.match_over = True
        self.hand_over = True
        self.winner = team
        self.pending = self.suspended = None
        self.count = None
        self.events.append({"type": "match_over", "winner": team, "score": list(self.score)})

    def _lose_match(self, team: int) -> None:
        other = 1 - team
        self.score[other] = max(self.score[other], self.game.target)
        self._finish(other)

    def _end_hand(self, team: int | None, points: int | None = None) -> None:
        """The hand is decided: `team` scores the hand's worth (or `points`)."""
        g = self.game
        for cont in g.contests:
            cs = self.contests[cont.index]
            if cs.status == ACTIVE and cont.declares and all(cont.calls[c].declare for c, _ in cs.chain):
                self._settle_unraised(cont)
        if team is not None and team != NOBODY:
            self._score(team, self.worth if points is None else points, "hand")
        if self.match_over:
            return
        self.hand_over = True
        self.pending = self.suspended = None
        self.count = None
        self.events.append({"type": "hand_over", "winner": None if team in (None, NOBODY) else team,
                            "score": list(self.score)})
        if g.spec.match.end != "immediately":
            leaders = [t for t, s in enumerate(self.score) if s >= g.target]
            if leaders:
                self._finish(max(leaders, key=lambda t: self.score[t]))

    # -- views ------------------------------------------------------------------------

    def observation(self, seat: int) -> dict[str, Any]:
        from interpreter.views import observation
        return observation(self, seat)

    def visible_events(self, seat: int | None) -> list[dict[str, Any]]:
        from interpreter.views import visible_events
        return visible_events(self.events, seat)

    # -- copies and serialisation -----------------------------------------------------

    def clone(self) -> "State":
        from interpreter.serial import clone
        return clone(self)

    def to_json(self) -> dict[str, Any]:
        from interpreter.serial import to_json
        return to_json(self)

    @classmethod
    def from_json(cls, game: "Game", data: dict[str, Any]) -> "State":
        from interpreter.serial import from_json
        return from_json(game, data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and other.game is self.game and other.to_json() == self.to_json()

    __hash__ = None  # type: ignore[assignment]
