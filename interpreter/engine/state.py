"""A match in progress and its public methods: who acts, what is legal, what an action does.

`State` is a `Match` (every field, declared in `match.py`) plus the compiled rules it is played
under (`game`) and the methods drivers call. It plays cards, tricks, stake calls and folds
itself, and hands the rest to functions of (`Match`, `Rules`): legal actions (`legal.py`),
contests (`contests.py`), refusals (`explain.py`), views (`views.py`), copies (`serial.py`).
Every mechanism is generic: the spec names the calls, the interpreter only knows ladders,
contests, counts, tricks and the formulas the spec compiled into closures.
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

from rulespec.errors import IllegalAction
from rulespec.ir import CARD_VERBS, COMMON_VERBS

from interpreter.engine import contests, explain, legal, scoring, serial, views
from interpreter.engine.context import context, hand_worth
from interpreter.engine.match import Match
from interpreter.engine.records import PLAIN, Action, Deal, Pending
from interpreter.engine.rules import Rules, after, from_mano, next_opponent, trick_top, trick_winner
from interpreter.engine.shuffle import shuffled
from interpreter.engine.tables import MANO, NOBODY, TIE

_LOGGED_WITH_MORE: Final = frozenset({"signal", "play_pos", "cover"})
"""The verbs whose action event says more than who did what (`State._log_more`)."""


class State(Match):
    """A match in progress. Mutated only through `apply` and `next_hand`."""

    __slots__ = ("game",)  # a slot, as `Match`'s fields are
    game: Rules     # the compiled rules it is played under (a `game.Game`)

    # -- construction -----------------------------------------------------------------

    def __init__(self, game: Rules, rng: random.Random, seed: int | None = None, blank: bool = False) -> None:
        """A match of `game` drawing from `rng`, before its first deal (`start` deals it;
        `clone` and `from_json` set every field). A `blank` one is for a copy to fill in
        (`serial.copy_into`): no hand is laid out only to be replaced."""
        if blank:
            super().__init__(rng, seed, None, 0, True)
        else:
            super().__init__(rng, seed, [0] * game.teams, game.num_players - 1)
        self.game = game

    @classmethod
    def start(cls, game: Rules, seed: int | None, dealer: int | None,
              deals: Sequence[Deal] | None, score: Sequence[int] | None) -> State:
        st = cls(game, random.Random(seed), seed)
        st.script = list(deals or [])
        if dealer is not None:
            if not 0 <= dealer < game.num_players:
                raise ValueError(f"dealer must be a seat 0..{game.num_players - 1}, not {dealer}")
            st.dealer = dealer
        if score is not None:
            problem = game.score_problem(score)
            if problem is not None:
                raise ValueError(problem)
            st.score = list(score)
        st._deal()
        return st

    # -- the deal ---------------------------------------------------------------------

    def next_hand(self, deal: Deal | None = None) -> None:
        """Deal the next hand after one has ended; the deal passes as the spec says."""
        if self.match_over:
            raise IllegalAction("next_hand", "the match is over")
        if not self.hand_over:
            raise IllegalAction("next_hand", "the hand is still being played")
        if self.redeal_same:
            if self.game.schedule_when is not None:
                self.plan.insert(0, (self.hand_format, list(self.seats)))   # the same seats play it again
        else:
            self.dealer = (self.dealer + self.game.deal_step) % self.game.num_players
        if deal is not None:
            self.script.insert(0, deal)
        self._deal()

    def _deal(self) -> None:
        g = self.game
        n = g.num_players
        if g.schedule_when is None:                 # every seat plays every hand
            seats, hand_format = list(g.every_seat), ""
            mano = (self.dealer + 1) % n
        else:
            seats, hand_format = self._next_seats()
            mano = (self.dealer + 1) % n if len(seats) == n \
                else next(s for s in g.from_seat[(self.dealer + 1) % n] if s in seats)
        self.reset_hand(n, len(g.contests), seats, mano, hand_format)
        self.hand_number += 1
        order = from_mano(self, g)
        dealt = self.dealt
        if self.script:
            self._deal_script(order)
        else:
            size = g.hand_size
            deck = shuffled(self.generator(), g.deck_size)
            hands = self.hands
            for k, seat in enumerate(order):
                cards = deck[k * size:(k + 1) * size]
                hands[seat] = cards
                dealt[seat] = tuple(cards)
            if g.turns_card:
                self.turned = deck[len(order) * size]
        self.strength = g.strength[self.turned]
        if g.special or g.base_worth is None:
            self._special_hands()
        else:
            self.base_worth = g.base_worth
        self.worth = self.base_worth
        event = {"type": "deal", "hand": self.hand_number, "dealer": self.dealer, "mano": self.mano,
                 "turned": g.cards.ids[self.turned] if self.turned is not None else None,
                 "special": list(self.special)}
        if self.hand_format:
            event.update(format=self.hand_format, playing=list(self.seats))
        self.events.append(event)
        if g.blind_rules and self.special:
            self._update_blind()
        else:                                       # nothing played yet: each seat is shown its deal
            ids = g.cards.ids
            for seat in self.seats:
                names = []                          # a loop: a comprehension is a call of its own
                for c in dealt[seat]:
                    names.append(ids[c])
                self.events.append({"type": "hand", "seat": seat, "only": seat, "cards": names})

    def _deal_script(self, order: Sequence[int]) -> None:
        """The next scripted deal, its turned card drawn from the rest where it names none."""
        g = self.game
        deal = self.script.pop(0)
        idx = g.cards.index
        for seat in order:
            self.dealt[seat] = tuple(idx[c] for c in deal.hands[seat])
            self.hands[seat] = list(self.dealt[seat])
        used = {c for h in self.dealt for c in h}
        if g.turns_card:
            if deal.turned is not None:
                self.turned = idx[deal.turned]
            else:
                self.turned = self.generator().choice([c for c in range(g.deck_size) if c not in used])

    def _next_seats(self) -> tuple[list[int], str]:
        """The seats that play the hand about to be dealt, and its format: the next hand of the
        round under a schedule (planning a round as one starts), or every seat."""
        g = self.game
        if g.schedule_when is not None:
            if not self.plan or not g.round_goes_on(self):
                self.plan = g.round_plan(self)
            if self.plan:
                hand_format, seats = self.plan.pop(0)
                return sorted(seats), hand_format
        return list(range(g.num_players)), ""

    def _special_hands(self) -> None:
        """The special hands dealt, and what the hand is worth unraised."""
        g = self.game
        ctx = context(self, g, None)
        self.base_worth = int(g.stake_base(ctx))
        for hand, when, base, _ in g.special:
            if when(ctx):
                self.special.append(hand.name)
                if base is not None:
                    self.base_worth = int(base(ctx))
                if hand.forbid_stakes:
                    self.forbid = hand.forbid_stakes

    def _update_blind(self) -> None:
        """As a hand is dealt, and as each trick of a blind hand starts: is it played blind? When
        it is not (the deal) or no longer (the first trick not played blind), each seat's cards
        come into its sight: each seat is shown its own."""
        g = self.game
        if g.blind_rules and self.special:
            ctx = context(self, g, None)
            self.blind = any(name in self.special and blind(ctx) for name, blind in g.blind_rules)
        else:
            self.blind = False
        if not self.blind:
            ids = g.cards.ids
            for seat in self.seats:
                self.events.append({"type": "hand", "seat": seat, "only": seat,
                                    "cards": [ids[c] for c in self.dealt[seat] if c in self.hands[seat]]})

    # -- who acts ---------------------------------------------------------------------

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

    # -- action strings and ids -------------------------------------------------------

    def _to_string(self, act: Action) -> str:
        """Every action is in the game's vocabulary but signals, which are free actions."""
        text = self.game.action_text.get(act)
        if text is not None:
            return text
        assert act[0] == "signal" and self.game.signals is not None
        return f"{self.game.signals.verb} {act[1]}"

    def _parse(self, action: str | int) -> Action:
        g = self.game
        if isinstance(action, int) and not isinstance(action, bool):
            if not 0 <= action < len(g.actions):
                raise IllegalAction(str(action), f"no action has the id {action} (ids run 0..{len(g.actions) - 1})")
            action = g.actions[action]
        act = g.parsed.get(action) if isinstance(action, str) else None
        if act is not None:
            return act
        text = str(action)
        words = text.split()
        if not words:
            raise IllegalAction(text, "empty action")
        verb = g.aliases.get(words[0], words[0])
        arg = words[1] if len(words) > 1 else None
        if len(words) > 2:
            raise IllegalAction(text, "an action is a verb and at most one argument")
        if verb in CARD_VERBS:
            if arg is None:
                raise IllegalAction(text, f"{verb} needs a card, e.g. '{verb} {g.cards.ids[0]}'")
            if verb == "play" and arg.startswith("@") and arg[1:].isdigit():
                return Action("play_pos", int(arg[1:]) - 1)
            if arg not in g.cards.index:
                raise IllegalAction(text, f"{arg!r} is not a card of this deck")
            return Action(verb, g.cards.index[arg])
        signals = g.signals
        if signals is not None and verb == signals.verb:
            if arg not in signals.names:
                raise IllegalAction(text, f"{verb} needs one of: {', '.join(signals.names)}")
            return Action("signal", arg)
        if arg is not None:
            raise IllegalAction(text, f"{verb!r} takes no argument")
        if any(verb == name for name, *_ in g.annulments):
            return Action("annul", verb)
        if verb in g.call_names:
            return Action("call", verb)
        if verb in COMMON_VERBS:
            return PLAIN[verb]
        if verb in g.spec.disabled_calls:
            raise IllegalAction(text, f"{verb} is not played under these table options")
        used = {action.split(" ", 1)[0] for action in g.actions}     # only the verbs this spec has
        common = (*CARD_VERBS, *COMMON_VERBS)
        known = sorted(used.difference(common)) + [v for v in common if v in used]
        if signals is not None:
            known.append(signals.verb)
        raise IllegalAction(text, f"unknown verb {verb!r}; this spec knows: {', '.join(known)}")

    def legal_actions(self, seat: int | None = None) -> list[str]:
        """Legal actions of `seat` (default: the seat to act) as readable strings."""
        seat = self.current_player() if seat is None else seat
        if seat is None:
            return []
        return list(legal.texts(self, self.game, seat))

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
        refused = self.refusal(action, seat)
        return None if refused is None else refused.reason

    def refusal(self, action: str | int, seat: int | None = None) -> IllegalAction | None:
        """The refusal `apply` would raise for `action` now (its `reason`, and its `detail` for a
        designer: the refusing rule's condition and DSL text), or None when it is legal."""
        try:
            self._resolve(action, seat)
        except IllegalAction as err:
            return err
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
        if act in legal.acts(self, self.game, actor):
            return actor, act
        reason, detail = explain.explain(self, self.game, actor, act)
        raise IllegalAction(str(action), reason, detail)

    # -- applying ---------------------------------------------------------------------

    def apply(self, action: str | int, seat: int | None = None) -> None:
        """Apply a legal action; an illegal one raises IllegalAction and changes nothing.

        An action found among the legal ones remembered for the seat that takes it, as a bot
        that just listed them gives it back, is taken as it is: the memo holds only while the
        state has not changed, so what it holds is legal now. Any other goes through `_resolve`."""
        actor = self.current_player() if seat is None else seat
        memo = self._legal
        if memo is not None and memo[0] == actor and isinstance(action, str) and action in memo[1]:
            assert actor is not None
            act, text = self.game.act_of[action], action
        else:
            actor, act = self._resolve(action, seat)
            text = self._to_string(act)
        self._legal = None
        verb, arg = act
        event: dict[str, Any] = {"type": "action", "seat": actor, "action": text}
        if verb in _LOGGED_WITH_MORE:
            self._log_more(event, actor, act)
        else:
            self.events.append(event)
        if verb in ("play", "cover"):
            self._play(actor, arg, covered=verb == "cover")
        elif verb == "play_pos":
            self._play(actor, self.dealt[actor][arg], covered=False)
        elif verb == "call":
            if arg in self.game.contest_of_call:
                contests.contest_call(self, self.game, actor, self.game.contest_of_call[arg], arg)
            else:
                self._stake_call(actor, arg)
        elif verb == "accept":
            self._accept(actor)
        elif verb == "decline":
            self._decline(actor)
        elif verb == "fold":
            self._fold(actor)
        elif verb == "announce":
            contests.announce(self, self.game, actor)
        elif verb == "good":
            contests.good(self, self.game, actor)
        elif verb == "annul":
            self._annul(actor, arg)
        if self.game.declaring:
            contests.settle_declarations(self, self.game)

    def _log_more(self, event: dict[str, Any], seat: int, act: Action) -> None:
        """Log an action of a verb whose event says more than who did what."""
        verb, arg = act
        if verb == "signal" and self.game.signals is not None and self.game.signals.to == "partners":
            team = self.game.team_of[seat]
            event["seats"] = [s for s, t in enumerate(self.game.team_of) if t == team]
        if verb == "play_pos":
            event["card"] = self.game.cards.ids[self.dealt[seat][arg]]      # a blind card shows as it lands
        if verb == "cover":
            event["action"] = "cover"
            self.events.append({**event, "card": self.game.cards.ids[arg], "only": seat})
            event["hidden"] = True
            self.events.append({**event, "except": seat})
            return
        self.events.append(event)

    def _play(self, seat: int, card: int, covered: bool) -> None:
        g = self.game
        held = self.hands[seat][:]          # replaced, not changed: a fork shares it (serial.copy_into)
        held.remove(card)
        self.hands[seat] = held
        self.trick.append((seat, card, covered))
        self.played[seat] += 1
        if len(self.trick) < len(self.seats):
            self.turn = after(self, g, seat)[0]
            return
        self._end_trick()

    def _end_trick(self) -> None:
        g = self.game
        shown = [(s, c) for s, c, cov in self.trick if not cov or g.cover_counts]
        winner_seat: int | None = None
        first_best: int | None = None        # who first played the best card shown
        if shown:
            top = trick_top(self, shown)
            first_best = top[0]
            winner_seat = trick_winner(g, top)
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
        if self.blind:
            self._update_blind()

    def _stake_call(self, seat: int, name: str) -> None:
        g = self.game
        team = g.team_of[seat]
        if self.forbid == "lose_match":
            self.events.append({"type": "forbidden", "seat": seat, "call": name})
            scoring.lose_match(self, self.game, team)
            return
        p = self.pending
        if p is not None and p.contest is None:
            self._accept_stake(p, team)
        step = self.stake_level + 1
        self.stake_calls += 1
        scoring.record_call(self, name)
        answerer = next_opponent(self, g, seat)
        self.pending = Pending(name, seat, answerer, g.team_of[answerer], None, step)

    def _accept_stake(self, p: Pending, team: int) -> None:
        self.stake_level = p.step
        worth = self.game.stake_fixed[p.step - 1]
        if worth is None:
            caller_team = self.game.team_of[p.caller]       # the worth is read for the seat that called
            worth = int(self.game.stake_worth[p.step - 1](context(self, self.game, p.caller, caller_team)))
        self.worth = worth
        self.stake_owner = team
        self.accepted.add(p.call)
        self.events.append({"type": "accepted", "call": p.call, "team": team, "worth": self.worth})

    def _annul(self, seat: int, name: str) -> None:
        """The holder annuls the deal: nobody scores, and the cards are dealt again."""
        dealer = next(d for n, _, _, d in self.game.annulments if n == name)
        self.redeal_same = dealer == "same"
        self.hand_over = True
        self.events.append({"type": "annulled", "seat": seat, "by": name})
        scoring.reveal(self)

    def _accept(self, seat: int) -> None:
        p = self.pending
        assert p is not None
        team = self.game.team_of[seat]
        if p.contest is None:
            self._accept_stake(p, team)
            self.pending = None
            return
        cont = self.game.contests[p.contest]
        self.accepted.add(p.call)
        self.events.append({"type": "accepted", "call": p.call, "team": team})
        self.pending = None
        shown = (p.answerer, seat)          # holders, where only a holder answers
        if cont.procedure == "announce":
            contests.start_count(self, self.game, cont, shown)
        else:
            seats = contests.comparing(self, self.game, cont, shown)
            contests.settle_accepted(self, self.game, cont, contests.best(self, self.game, cont, seats), seats)

    def _decline(self, seat: int) -> None:
        p = self.pending
        assert p is not None
        g = self.game
        caller_team = g.team_of[p.caller]
        self.events.append({"type": "declined", "call": p.call, "seat": seat})
        if p.contest is None:
            declined = g.stake_declined[p.step - 1]
            pts = self.worth if declined is hand_worth else int(declined(context(self, g, p.caller, caller_team)))
            self._end_hand(caller_team, points=pts)
            return
        contests.pay_declined(self, self.game, p)

    def _fold(self, seat: int) -> None:
        """The seat's team leaves the hand. A contest call waiting on that team counts as refused
        (an unanswered declaration instead stands, settled with the hand); a call the team itself
        made and left unanswered is withdrawn; a count under way is conceded to the other team,
        or void, as `fold.count` says."""
        g = self.game
        other = 1 - g.team_of[seat]
        if self.count is not None and g.fold_concedes:
            contests.concede_count(self, self.game, other)
            if self.match_over:
                return
        p = self.pending
        asked = p is not None and p.contest is not None and g.contests[p.contest].calls[p.call].declare
        if p is not None and p.contest is not None and g.fold_declines and not asked \
                and p.answer_team == g.team_of[seat]:
            contests.pay_declined(self, self.game, p)
            if self.match_over:
                return
        pays = g.fold_pays                                  # read as the seat folds
        pts = self.worth if pays is hand_worth else int(pays(context(self, g, seat, g.team_of[seat])))
        self._end_hand(other, points=pts)

    # -- scoring and the end of hands -------------------------------------------------

    def _end_hand(self, team: int | None, points: int | None = None) -> None:
        """The hand is decided: `team` scores the hand's worth (or `points`)."""
        g = self.game
        for cont in g.declaring:
            if contests.only_declared(self, cont):
                contests.settle_unraised(self, g, cont)
        if team is not None and team != NOBODY:
            scoring.score(self, g, team, self.worth if points is None else points, "hand")
        if self.match_over:
            return
        self.hand_over = True
        self.pending = self.suspended = None
        self.count = None
        if self.shows:
            scoring.reveal(self)
        self.events.append({"type": "hand_over", "winner": None if team is None or team == NOBODY else team,
                            "score": list(self.score)})
        if not g.end_at_once:                   # else a team at the target has won as it scored
            winner = scoring.winner_at_hand_end(self, g)
            if winner is not None:
                scoring.finish(self, winner)

    # -- views ------------------------------------------------------------------------

    def observation(self, seat: int) -> dict[str, Any]:
        return views.observation(self, self.game, seat)

    def visible_events(self, seat: int | None) -> list[dict[str, Any]]:
        return views.visible_events(self.events, seat)

    # -- copies and serialisation -----------------------------------------------------

    def clone(self) -> State:
        new = State(self.game, self.rng, self.seed, True)
        serial.copy_into(self, new)
        return new

    def fork(self) -> State:
        """A copy for a search within this hand (`serial.copy_into`, `within_hand`): it never
        deals, starts an empty log, and shares what only a deal changes."""
        new = State(self.game, self.rng, self.seed, True)
        serial.copy_into(self, new, True)
        return new

    def to_json(self) -> dict[str, Any]:
        return serial.to_json(self, self.game)

    @classmethod
    def from_json(cls, game: Rules, data: Mapping[str, Any]) -> State:
        st = cls(game, serial.rng_from_json(data["rng"]))
        serial.fill(st, game, data)
        return st

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and other.game is self.game and other.to_json() == self.to_json()

    __hash__ = None  # type: ignore[assignment]


def turns(state: State, max_hands: int | None = None) -> Iterator[int]:
    """The seat to decide, turn after turn, dealing each next hand, until the match ends
    (or `max_hands` hands are over): the loop every driver of a match shares."""
    while not state.match_over:
        if state.hand_over:
            if max_hands is not None and state.hand_number >= max_hands:
                return
            state.next_hand()
            continue
        seat = state.current_player()
        assert seat is not None
        yield seat
