"""An abstract deal: what the cards decide, chosen as it is asked instead of dealt.

The engine asks a deal five things (rules.py: `trick_top`, `holds`, `value`, `value_top`,
`annuls`): whose card takes a trick (or which cards tie), whether a hand holds a value (a flor),
how hand values compare, one at a time or whose is best of several at once, and whether a hand
may annul the deal. Answering each from a choice made when it is
first asked lets the exhaustive pass walk every deal at once: a question not yet answered raises
`Undecided` with its possible answers, and the walk branches on them.

The choices are made independently, so a combination may be one that no deal realizes (two
seats holding the same card's worth of flor, say). `concretize` looks for a deal that realizes
a finding's choices, so that a finding replays as a conformance case; one it cannot realize is
reported as found on an abstract deal.
"""
from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulespec.errors import TrucoError
from rulespec.growth import inspected, stays_false
from rulespec.ir import Formula

from interpreter.engine.context import PLAY_NAMES, context
from interpreter.engine.game import Deal, Game
from interpreter.engine.match import Match
from interpreter.engine.records import ACTIVE, CLOSED
from interpreter.engine.rules import Rules, strongest, trick_winner

Fact = tuple[str, str, int]
"""("trick", "", number) · ("holds", value, seat) · ("value", value, seat) · ("annul", name, seat)
· ("top", value, seats as a bit mask)."""

SPREAD = 1 << 24
"""The gap left between abstract values: room to place six more between any two."""


class Undecided(TrucoError):
    """A question about the cards the abstract deal has not answered yet."""

    def __init__(self, fact: Fact, choices: Sequence[Any]) -> None:
        super().__init__(f"undecided: {fact}")
        self.fact = fact
        self.choices = tuple(choices)


@dataclass(init=False)
class AbstractDeal:
    """The answers chosen so far; copied with the state it belongs to. Its `__init__` is
    written out: a dataclass's generated one would run interpreted in a compiled build, at
    every copy."""

    game: Game
    chosen: dict[Fact, Any]
    known: tuple[Any, ...] | None = field(compare=False, repr=False)
    """`key()` while the answers stay as they were: most steps of the walk change none."""

    def __init__(self, game: Game, chosen: dict[Fact, Any] | None = None,
                 known: tuple[Any, ...] | None = None) -> None:
        self.game = game
        self.chosen = {} if chosen is None else chosen
        self.known = known

    def copy(self) -> AbstractDeal:
        return AbstractDeal(self.game, self.chosen.copy(), self.known)

    def answered(self, fact: Fact, answer: Any) -> AbstractDeal:
        """A copy that answers `fact` with `answer`: a fork shares its state's deal
        (`serial.copy_into`), so an answer is decided on a copy, never on the shared one."""
        new = AbstractDeal(self.game, self.chosen.copy())
        new.decide(fact, answer)
        return new

    def decide(self, fact: Fact, answer: Any) -> None:
        """Choose `answer`; the seats a comparison puts on top get one value, above all."""
        self.known = None
        self.chosen[fact] = answer
        kind, name, _ = fact
        if kind == "top":
            numbers = self.values(name)
            number = numbers[-1] + SPREAD if numbers else 0
            for seat in answer:
                self.chosen[("value", name, seat)] = number

    # -- the questions the engine asks (match.DealFacts) ---------------------------------

    def trick_top(self, m: Match, shown: list[int]) -> list[int]:
        fact: Fact = ("trick", "", m.trick_no)
        if fact not in self.chosen:
            raise Undecided(fact, trick_choices(self.game, shown))
        top: list[int] = self.chosen[fact]
        return top

    def holds(self, m: Match, value: str, seat: int) -> bool:
        if not self.game.values[value].partial:
            return True                                   # every hand has this value
        fact: Fact = ("holds", value, seat)
        if fact not in self.chosen:
            raise Undecided(fact, (True, False))
        return bool(self.chosen[fact])

    def value(self, m: Match, value: str, seat: int) -> int | None:
        if not self.holds(m, value, seat):
            return None
        fact: Fact = ("value", value, seat)
        if fact not in self.chosen:
            raise Undecided(fact, value_choices(self.values(value, m)))
        number: int = self.chosen[fact]
        return number

    def value_top(self, m: Match, value: str, seats: list[int]) -> list[int]:
        """Who holds the value is asked seat by seat (the payoff counts holders); the best
        is one choice among the holders, unless one of them already has a value."""
        holders = [s for s in seats if self.holds(m, value, s)]
        if len(holders) < 2:
            return holders or list(seats)
        fact: Fact = ("top", value, _mask(seats))
        if fact in self.chosen:
            top: list[int] = self.chosen[fact]
            return top
        if any(("value", value, s) in self.chosen for s in holders):
            numbers = [self.value(m, value, s) for s in holders]
            best = max(n for n in numbers if n is not None)
            return [s for s, n in zip(holders, numbers, strict=True) if n == best]
        raise Undecided(fact, top_choices(self.game, holders))

    def annuls(self, m: Match, name: str, seat: int) -> bool:
        fact: Fact = ("annul", name, seat)
        if fact not in self.chosen:
            raise Undecided(fact, (True, False))
        return bool(self.chosen[fact])

    # -- for the walk -------------------------------------------------------------------

    def values(self, value: str, m: Match | None = None) -> list[int]:
        """The distinct numbers chosen for a value, lowest first, and the best announced in
        `m`'s count of it: a new one is placed among these."""
        numbers = {a for (kind, name, _), a in self.chosen.items() if kind == "value" and name == value}
        c = m.count if m is not None else None
        if c is not None and c.best_value >= 0 and self.game.contests[c.contest].value == value:
            numbers.add(c.best_value)
        return sorted(numbers)

    def rank(self, value: str, number: int, numbers: Sequence[int] | None = None) -> int:
        """A number's place among the value's chosen numbers (`numbers` if already sorted):
        twice the count below it, plus one if it equals one — all that comparisons can see."""
        ordered = self.values(value) if numbers is None else numbers
        below = bisect_left(ordered, number)
        return 2 * below + (below < len(ordered) and ordered[below] == number)

    def key(self) -> tuple[Any, ...]:
        """The answers, values by their order rather than their numbers."""
        if self.known is not None:
            return self.known
        sorted_numbers: dict[str, list[int]] = {}
        out = []
        for (kind, name, seat), answer in self.chosen.items():
            if kind == "value":
                if name not in sorted_numbers:
                    sorted_numbers[name] = self.values(name)
                answer = self.rank(name, answer, sorted_numbers[name])
            elif type(answer) is list:
                answer = tuple(answer)                    # seats: a trick's or a comparison's best
            out.append((kind, name, seat, answer))
        self.known = tuple(sorted(out))
        return self.known

    def forget(self, m: Match) -> None:
        """Drop the answers the engine will not ask again: a trick's, once played; a value's,
        once no contest compares it or its seat has spoken in the count (the count keeps what
        was announced); whether a seat holds a value, once it has played without
        declaring it (it may then neither declare nor be compared); whether a hand may annul
        the deal, once the annulment's `when` can no longer hold for it this hand. Asked again
        all the same, a question is answered afresh, every way: more deals, never fewer.

        `m`'s deal is replaced by one without them, this one left as it is: the forks of a state
        share its deal (`serial.copy_into`)."""
        chosen = self.chosen
        if not chosen:
            return                                        # nothing to drop: most states before a question
        gone: list[Fact] = []
        for fact in chosen:
            kind, name, seat = fact
            if kind == "trick" or kind == "annul" and self._closed(m, name, seat) or (
                    kind != "annul" and not self._asked(m, kind, name, seat)):
                gone.append(fact)
        if gone:
            m.facts = AbstractDeal(self.game, {fact: answer for fact, answer in chosen.items() if fact not in gone})

    def _asked(self, m: Match, kind: str, value: str, seat: int) -> bool:
        """Whether a value's answer (`kind` "holds", "value" or "top", `seat` a seat mask for
        the last) may still be asked. Whether a seat holds it: while a contest comparing it is
        not over, unless the seat has played without declaring it. Its number, or whose is
        best: while a contest comparing it is under way or counted, unless the seat has spoken
        in the count."""
        c = m.count
        counted = -1 if c is None else c.contest
        live = active = declared = False
        for cont in self.game.contests:
            if cont.value == value:
                cs = m.contests[cont.index]
                live = live or cs.status != CLOSED
                active = active or cs.status == ACTIVE or counted == cont.index
                declared = declared or seat in cs.declared
        if kind == "holds":
            return live and (not m.played[seat] or declared)
        return active and not (c is not None and self.game.contests[c.contest].value == value
                               and seat in c.order[:c.index])

    def _closed(self, m: Match, name: str, seat: int) -> bool:
        """Whether the annulment `name` can no longer be made by `seat` this hand."""
        when = next(a.when for a in self.game.spec.annulments if a.name == name)
        return never_again(when, m, self.game, seat)

    def describe(self, fact: Fact, answer: Any) -> str:
        """A choice in words, for a finding's path."""
        kind, name, seat = fact
        if kind == "trick":
            if len(answer) == 1:
                return f"seat {answer[0]}'s card takes trick {seat + 1}"
            return f"trick {seat + 1} ties (seat {answer[0]}'s card first among the best)"
        if kind == "holds":
            return f"seat {seat} {'holds' if answer else 'does not hold'} {name}"
        if kind == "annul":
            return f"seat {seat}'s hand {'is' if answer else 'is not'} a {name}"
        if kind == "top":
            if len(answer) == 1:
                return f"seat {answer[0]}'s {name} is the best"
            return f"seats {' and '.join(map(str, answer))} tie for the best {name}"
        others = [(s, a) for (k, n, s), a in self.chosen.items() if k == "value" and n == name and s != seat]
        relation = [f"{'above' if answer > a else 'below' if answer < a else 'equal to'} seat {s}'s"
                    for s, a in others]
        return f"seat {seat}'s {name}" + (f" {', '.join(relation)}" if relation else " is shown first")


_NEVER: dict[int, tuple[Formula, tuple[str, ...], dict[tuple[Any, ...], bool]]] = {}
"""For each rule asked about (by identity, the rule held so that its identity stays its own):
the names its answer reads, and the answer for each of their values met so far."""


def never_again(rule: Formula, m: Match, game: Rules, seat: int) -> bool:
    """Whether `rule`, read for `seat`, cannot hold again this hand (rulespec/growth.py);
    worked out once for each value of the few growing names the answer reads."""
    entry = _NEVER.get(id(rule))
    if entry is None or entry[0] is not rule:
        entry = _NEVER[id(rule)] = (rule, inspected(rule.expr), {})
    _, names, known = entry
    ctx = context(m, game, seat, game.team_of[seat])
    values = tuple([PLAY_NAMES[name](ctx) for name in names])
    answer = known.get(values)
    if answer is None:
        answer = known[values] = stays_false(rule.expr, dict(zip(names, values, strict=True)).__getitem__)
    return answer


def trick_choices(game: Game, shown: Sequence[int]) -> list[list[int]]:
    """Each seat's card best alone; and the ties that play differently: by which seat's card
    came first among the best where the next trick is led by it, else one tie."""
    team = game.team_of
    wins = [[s] for s in shown]
    ties = []
    for i, s in enumerate(shown):
        other = next((t for t in shown[i + 1:] if team[t] != team[s] or game.partners_tie != "team_wins"), None)
        if other is not None:
            ties.append([s, other])
    return wins + (ties if game.after_tie == "first_best" else ties[:1])


def top_choices(game: Game, holders: Sequence[int]) -> list[list[int]]:
    """Each holder's value best alone, and each tie across teams (a tie within a team goes
    to it whatever the rule, as one seat's best would)."""
    team = game.team_of
    ties = [[s, t] for i, s in enumerate(holders) for t in holders[i + 1:] if team[s] != team[t]]
    return [[s] for s in holders] + ties


def _mask(seats: Sequence[int]) -> int:
    return sum(1 << s for s in seats)


def value_choices(numbers: Sequence[int]) -> list[int]:
    """Equal to each value already chosen, or in each gap below, between and above them."""
    if not numbers:
        return [0]
    gaps = [numbers[0] - SPREAD] + [(a + b) // 2 for a, b in zip(numbers, numbers[1:], strict=False)] \
        + [numbers[-1] + SPREAD]
    return list(numbers) + gaps


# -- realizing a path's choices with cards ------------------------------------------------


class Mismatch(TrucoError):
    """A deal answers a question otherwise than the path chose."""


@dataclass(init=False)
class Realizing:
    """The cards answer, and each answer is held against the abstract choice it replaces."""

    game: Game
    wanted: dict[Fact, Any]
    numbers: dict[Fact, int]
    asked: set[Fact]

    def __init__(self, game: Game, wanted: dict[Fact, Any], numbers: dict[Fact, int] | None = None,
                 asked: set[Fact] | None = None) -> None:
        self.game = game
        self.wanted = wanted
        self.numbers = {} if numbers is None else numbers
        self.asked = set() if asked is None else asked

    def copy(self) -> Realizing:
        return Realizing(self.game, self.wanted, dict(self.numbers), set(self.asked))

    def _check(self, fact: Fact, answer: Any) -> None:
        self.asked.add(fact)
        if fact in self.wanted and self.wanted[fact] != answer:
            raise Mismatch(str(fact))

    def trick_top(self, m: Match, shown: list[int]) -> list[int]:
        played = {s: c for s, c, _ in m.trick}
        top = strongest(m, [(s, played[s]) for s in shown])
        fact: Fact = ("trick", "", m.trick_no)
        self.asked.add(fact)
        wanted = self.wanted.get(fact)
        if wanted is not None and _effect(self.game, top) != _effect(self.game, wanted):
            raise Mismatch(str(fact))
        return top

    def holds(self, m: Match, value: str, seat: int) -> bool:
        answer = self.game.values[value](m.dealt[seat], m.turned) is not None
        if self.game.values[value].partial:
            self._check(("holds", value, seat), answer)
        return answer

    def value(self, m: Match, value: str, seat: int) -> int | None:
        number = self.game.values[value](m.dealt[seat], m.turned)
        fact: Fact = ("value", value, seat)
        self.asked.add(fact)
        if number is not None and fact in self.wanted:
            self.numbers[fact] = number
            for other, theirs in self.numbers.items():
                if other[1] == value and other in self.wanted and \
                        _sign(number - theirs) != _sign(self.wanted[fact] - self.wanted[other]):
                    raise Mismatch(str(fact))
        return number

    def value_top(self, m: Match, value: str, seats: list[int]) -> list[int]:
        table = self.game.values[value]
        held = [s for s in seats if self.holds(m, value, s)]
        numbers = {s: table(m.dealt[s], m.turned) for s in held}
        best = max((n for n in numbers.values() if n is not None), default=None)
        top = [s for s in held if numbers[s] == best] or list(seats)
        team = self.game.team_of
        one_team = [top[0]] if len({team[s] for s in top}) == 1 else top     # as top_choices offers it
        self._check(("top", value, _mask(seats)), one_team)
        return top

    def annuls(self, m: Match, name: str, seat: int) -> bool:
        index = next(k for k, a in enumerate(self.game.annulments) if a[0] == name)
        answer = bool(self.game.annulments[index][1](m.dealt[seat], m.turned))
        self._check(("annul", name, seat), answer)
        return answer


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _effect(game: Game, top: Sequence[int]) -> tuple[int | None, int | None]:
    """What a trick's best cards change: the seat that takes it (or none), and the seat whose
    card came first among the best where that seat leads after a tie."""
    winner = trick_winner(game, top)
    first = top[0] if game.after_tie == "first_best" and winner is None else None
    return winner, first


Step = tuple[str, Any]
"""A path's step: ("act", "SEAT ACTION") or ("fact", (fact, answer))."""


def concretize(game: Game, root: Deal, steps: Sequence[Step], tries: int = 4000) -> tuple[Deal, list[str]] | None:
    """A deal and the same actions on it (each card played named as dealt there) that answer
    every question of `steps` as they chose; None if none is found in `tries` deals."""
    wanted = {fact: answer for kind, x in steps if kind == "fact" for fact, answer in [x]}
    rng = random.Random(0)
    for deal in _candidates(game, wanted, rng, tries):
        actions = _replay(game, root, deal, steps, wanted)
        if actions is not None:
            return deal, actions
    return None


def _replay(game: Game, root: Deal, deal: Deal, steps: Sequence[Step], wanted: dict[Fact, Any]) -> list[str] | None:
    st = game.new_match(seed=0, deals=[deal])
    st.facts = Realizing(game, wanted)
    out: list[str] = []
    acts = [x for kind, x in steps if kind == "act"]
    for kind, x in steps:
        if kind != "act":
            continue
        seat, _, action = x.partition(" ")
        verb, _, arg = action.partition(" ")
        if verb in ("play", "cover") and not arg.startswith("@"):
            arg = deal.hands[int(seat)][root.hands[int(seat)].index(arg)]
            action = f"{verb} {arg}"
        try:
            st.apply(action, seat=int(seat))
        except Mismatch:
            return None
        except TrucoError:                      # a finding may be the last action's failure
            if len(out) + 1 < len(acts):
                return None
            return [*out, f"{seat} {action}"]
        out.append(f"{seat} {action}")
    try:
        st.legal_actions()                          # what the last state asks of the cards
    except TrucoError:
        return None
    realized = st.facts
    assert isinstance(realized, Realizing)
    return out if set(wanted) <= realized.asked else None


def _candidates(game: Game, wanted: dict[Fact, Any], rng: random.Random, tries: int) -> Iterator[Deal]:
    """Random deals, each seat's hand drawn until it holds (or not) what the path chose."""
    ids = list(game.cards.ids)
    idx = game.cards.index
    n, size = game.num_players, game.hand_size
    for _ in range(tries):
        cards = ids[:]
        rng.shuffle(cards)
        turned = cards.pop() if game.turns_card else None
        code = idx[turned] if turned is not None else None
        hands = []
        for seat in range(n):
            need = [(game.values[name], answer) for (kind, name, s), answer in wanted.items()
                    if kind == "holds" and s == seat]
            hand = tuple(cards[:size])
            for _ in range(60):
                if all((table(tuple(idx[c] for c in hand), code) is not None) == answer for table, answer in need):
                    break
                rng.shuffle(cards)
                hand = tuple(cards[:size])
            hands.append(hand)
            cards = [c for c in cards if c not in hand]
        yield Deal(tuple(hands), turned)
