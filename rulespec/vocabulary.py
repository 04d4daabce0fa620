"""The names and functions formulas may use, with their types and scopes, and where each
formula of a spec sits: the one table the type checker reads and the reference documents.

A new name is one line in NAMES (and its getter in interpreter/engine/context.py); a new formula
key of the spec language is one line in SITES. `scope` says where a name has a meaning: a
name that only exists while a contest is paid (``total``) is refused in a stake's worth, a
per-trick name (``trick``) in a condition decided once per hand.
"""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from enum import Enum


class Type(Enum):
    """What a formula or a name gives."""

    CONDITION = "condition"
    NUMBER = "number"
    TEXT = "text"
    LIST = "list"
    CARD = "card"
    SEAT = "seat"
    TEAM = "team"

    @property
    def described(self) -> str:
        """The words an error uses: `expected a condition (true or false), got a number`."""
        return {"condition": "a condition (true or false)", "number": "a number", "text": "a text",
                "list": "a list", "card": "a card", "seat": "a seat", "team": "a team"}[self.value]


class Scope(Enum):
    """Where a name has a meaning; each formula position offers some of them (SITE_SCOPES)."""

    ANYWHERE = "anywhere"
    CARDS = "in a hand's cards"
    HAND = "per hand"
    TRICK = "per trick"
    PAYOFF = "in a contest's payoff"
    CONTEST = "in a contest"
    COUNT = "in a count"


@dataclass(frozen=True)
class NameType:
    type: Type
    scope: Scope
    doc: str
    grows: bool = False
    """Never goes down within a hand (a number never smaller, a condition never back to
    false): a condition that needs it lower stays false for the rest of the hand."""


@dataclass(frozen=True)
class FunctionType:
    """A function: its arguments' types (`arg` repeated when `variadic`), result and scope.
    `names` says what a constant text argument must name (a call, a contest), if anything."""

    args: tuple[Type, ...]
    result: Type
    scope: Scope
    doc: str
    variadic: bool = False
    names: str | None = None


C, N, T = Type.CONDITION, Type.NUMBER, Type.TEXT
ANY, CARDS, HAND, TRICK = Scope.ANYWHERE, Scope.CARDS, Scope.HAND, Scope.TRICK
PAYOFF, CONTEST, COUNT = Scope.PAYOFF, Scope.CONTEST, Scope.COUNT

NAMES: dict[str, NameType] = {
    # the hand's cards (hand values, annulments' holds)
    "best_single": NameType(N, CARDS, "the highest point value of the hand"),
    "sum_points": NameType(N, CARDS, "the sum of the hand's point values"),
    "figures": NameType(N, CARDS, "how many cards are of the `deck.figures` ranks"),
    "trumps": NameType(N, CARDS, "how many trumps the hand holds under the turned card"),
    # the hand being played, the same for every seat
    "target": NameType(N, HAND, "the match's target"),
    "half": NameType(N, HAND, "target // 2"),
    "max_score": NameType(N, HAND, "the higher score"),
    "min_score": NameType(N, HAND, "the lower score"),
    "seats_in_hand": NameType(N, HAND, "how many seats play this hand (fewer than the table's in a one-against-one "
                              "hand of a `schedule`)"),
    "leader": NameType(N, HAND, "the higher score"),
    "trailer": NameType(N, HAND, "the lower score"),
    # one seat's moment of play
    "trick": NameType(N, TRICK, "the trick being played, from 1", grows=True),
    "played": NameType(C, TRICK, "this seat has played a card this hand", grows=True),
    "played_this_trick": NameType(C, TRICK, "this seat has played a card in this trick"),
    "my_turn": NameType(C, TRICK, "this seat is to play a card"),
    "answering": NameType(C, TRICK, "this seat may answer the waiting call"),
    "counting": NameType(C, TRICK, "a count of announced values is under way"),
    "pending_step": NameType(N, TRICK, "the step of the waiting stake call, 0 if none"),
    "stake_level": NameType(N, TRICK, "accepted stake steps", grows=True),
    "stake_calls": NameType(N, TRICK, "stake calls made this hand", grows=True),
    "calls_made": NameType(N, TRICK, "calls made this hand", grows=True),
    "stake": NameType(N, TRICK, "what the hand is worth now"),
    "is_mano": NameType(C, TRICK, "this seat is the mano"),
    "is_pie": NameType(C, TRICK, "this seat is the last of its team to play"),
    "score_us": NameType(N, TRICK, "this seat's team's score"),
    "score_them": NameType(N, TRICK, "the other team's score"),
    # a contest's chain being paid
    "total": NameType(N, CONTEST, "the sum of the chain's worths"),
    "total_but_last": NameType(N, CONTEST, "the sum of the worths but the last call's"),
    "calls": NameType(N, CONTEST, "how many calls the chain holds"),
    "last": NameType(N, CONTEST, "the last call's worth"),
    "declared": NameType(N, CONTEST, "the declared values that took part (every holder's, once accepted)"),
    "declared_by_winner": NameType(N, CONTEST, "those of the winning team"),
    "declared_by_caller": NameType(N, CONTEST, "those of the calling team"),
    "winner_score": NameType(N, PAYOFF, "the score of the team receiving a contest's points"),
    "loser_score": NameType(N, PAYOFF, "the other team's score"),
    # a contest's count (announcing the values)
    "opponent_announced": NameType(C, COUNT, "someone has announced a value in this count"),
    "can_beat": NameType(C, COUNT, "this seat's value would win the count for its team"),
    "beats_announced": NameType(C, COUNT, "this seat's value beats the best value announced so far in this count, "
                                "whoever announced it (true while nothing is announced)"),
    "beats_opponents": NameType(C, COUNT, "this seat's value beats the best value an opponent has announced so far "
                                "in this count (true while no opponent has announced one)"),
}

FUNCTIONS: dict[str, FunctionType] = {
    "max": FunctionType((N,), N, ANY, "the greatest of numbers, or of a list", variadic=True),
    "min": FunctionType((N,), N, ANY, "the least of numbers, or of a list", variadic=True),
    "abs": FunctionType((N,), N, ANY, "the absolute value"),
    "suited": FunctionType((N,), C, CARDS, "some suit has at least n cards"),
    "best_suited": FunctionType((N,), N, CARDS, "the best sum of the n highest points within one suit"),
    "suited_plain": FunctionType((N,), C, CARDS, "as suited, leaving the trumps out"),
    "best_suited_plain": FunctionType((N,), N, CARDS, "as best_suited, leaving the trumps out"),
    "top": FunctionType((N,), N, CARDS, "the sum of the n highest point values"),
    "rest_mod": FunctionType((N,), N, CARDS, "the sum, over every card but the highest, of its points modulo m"),
    "rank_count": FunctionType((T,), N, CARDS, "how many cards of rank r", names="rank"),
    "called": FunctionType((T,), C, TRICK, "the call was made this hand", names="call"),
    "accepted": FunctionType((T,), C, TRICK, "the call was accepted this hand", names="call"),
    "in_chain": FunctionType((T,), N, TRICK, "how often the call appears in the chains so far", names="call"),
    "idle": FunctionType((T,), C, TRICK, "the contest has not been called this hand", names="contest"),
}

SITE_SCOPES: dict[str, frozenset[Scope]] = {
    "options": frozenset({ANY}),
    "cards": frozenset({ANY, CARDS}),
    "hand": frozenset({ANY, HAND}),
    "trick": frozenset({ANY, HAND, TRICK}),
    "worth": frozenset({ANY, HAND, TRICK, PAYOFF}),
    "contest": frozenset({ANY, HAND, TRICK, PAYOFF, CONTEST}),
    "settled": frozenset({ANY, HAND, PAYOFF, CONTEST}),
    "count": frozenset({ANY, HAND, TRICK, COUNT}),
}
"""What each kind of formula position may read: decided from the options alone, over a
hand's cards, once per hand, at a seat's moment of play, a contest call's worth (counted
when its chain is paid, for the team paid), paying a contest's chain, paying unraised
declarations (for a team, no seat speaking), in a count."""

SCOPE_WORDS = {
    Scope.ANYWHERE: "any formula", Scope.CARDS: "hand values and annulments' `holds`, over a hand's cards",
    Scope.HAND: "from the deal on", Scope.TRICK: "while the hand is played, at one seat's moment",
    Scope.PAYOFF: "a contest call's worth and a contest's payoffs, for the team paid",
    Scope.CONTEST: "a contest chain's payoffs (accept, decline, unraised.pays)",
    Scope.COUNT: "a contest's count (count.good, count.announce)",
}
SITE_WORDS = {"options": "decided from the table options alone", "cards": "over a hand's cards",
              "hand": "decided once per hand, before any card is played", "trick": "at a seat's moment of play",
              "worth": "a contest call's worth, counted when the chain is paid",
              "contest": "paying a contest's chain",
              "settled": "paying the declarations nobody raised, for a team (no seat is speaking)",
              "count": "in a contest's count"}


@dataclass(frozen=True)
class Site:
    """A formula position: what it must give and what it may read."""

    type: Type
    kind: str


SITES: dict[str, Site] = {
    "table.players": Site(N, "options"),
    "match.target": Site(N, "options"),
    "when.*.if": Site(C, "options"),
    "contests.*.enabled": Site(C, "options"),
    "contests.*.calls.*.enabled": Site(C, "options"),
    "annul.*.enabled": Site(C, "options"),
    "values.*.formula": Site(N, "cards"),
    "values.*.holds": Site(C, "cards"),
    "annul.*.holds": Site(C, "cards"),
    "schedule.enabled": Site(C, "options"),
    "schedule.if": Site(C, "hand"),
    "special_hands.*.if": Site(C, "hand"),
    "special_hands.*.base": Site(N, "hand"),
    "special_hands.*.blind": Site(C, "trick"),
    "stakes.base": Site(N, "hand"),
    "stakes.declined": Site(N, "trick"),
    "stakes.when": Site(C, "trick"),
    "stakes.calls.*.worth": Site(N, "trick"),
    "stakes.calls.*.declined": Site(N, "trick"),
    "tricks.cover.when": Site(C, "trick"),
    "fold.when": Site(C, "trick"),
    "fold.pays": Site(N, "trick"),
    "annul.*.when": Site(C, "trick"),
    "contests.*.window": Site(C, "trick"),
    "contests.*.interrupt": Site(C, "trick"),
    "contests.*.calls.*.worth": Site(N, "worth"),
    "contests.*.calls.*.allowed": Site(C, "trick"),
    "contests.*.accept": Site(N, "contest"),
    "contests.*.decline": Site(N, "contest"),
    "contests.*.calls.*.accept": Site(N, "contest"),
    "contests.*.calls.*.decline": Site(N, "contest"),
    "contests.*.unraised.pays": Site(N, "settled"),
    "contests.*.count.good": Site(C, "count"),
    "contests.*.count.announce": Site(C, "count"),
}
"""Every formula key of the spec language, as a dotted path (`*` is any entry's name)."""


def site_of(path: tuple[str | int, ...]) -> Site | None:
    """The site of the node at `path` (inside a `when` entry's `set`, the path it sets)."""
    parts = [str(p) for p in path]
    if len(parts) > 3 and parts[0] == "when" and parts[2] == "set":
        parts = parts[3:]
    dotted = ".".join(parts)
    for pattern, site in SITES.items():
        if pattern.count(".") == dotted.count(".") and fnmatch.fnmatchcase(dotted, pattern):
            return site
    return None


def scope_of(name: str) -> Scope | None:
    """The scope of a name or function, None if the vocabulary has no such word."""
    if name in NAMES:
        return NAMES[name].scope
    if name in FUNCTIONS:
        return FUNCTIONS[name].scope
    return None


def markdown() -> str:
    """The reference of every name, function and formula position, for spec-language.md."""
    lines = ["| name | type | scope | meaning |", "|---|---|---|---|",
             "| `options.NAME` | the option's type: number (int), condition (bool), text (string) | anywhere "
             "| a table option's chosen value |"]
    for name, n in NAMES.items():
        grows = " (never goes down within a hand)" if n.grows else ""
        lines.append(f"| `{name}` | {n.type.value} | {n.scope.value} | {n.doc}{grows} |")
    for name, f in FUNCTIONS.items():
        args = ", ".join(a.value for a in f.args) + (", ..." if f.variadic else "")
        if f.names:
            args = f"a {f.names}'s name"
        lines.append(f"| `{name}({args})` | {f.result.value} | {f.scope.value} | {f.doc} |")
    lines += ["", "| formula | gives | reads names whose scope is |", "|---|---|---|"]
    for pattern, site in SITES.items():
        scopes = ", ".join(s.value for s in Scope if s in SITE_SCOPES[site.kind])
        lines.append(f"| `{pattern}` | {site.type.value} | {scopes} |")
    return "\n".join(lines) + "\n"


BEGIN, END = "<!-- vocabulary: generated by rulespec/vocabulary.py -->", "<!-- end of vocabulary -->"


def with_reference(document: str) -> str:
    """`document` with the text between the markers replaced by `markdown()`."""
    head, _, rest = document.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{markdown()}{END}{tail}"


if __name__ == "__main__":       # python -m rulespec.vocabulary docs/spec-language.md
    import sys
    from pathlib import Path

    target = Path(sys.argv[1])
    target.write_text(with_reference(target.read_text(encoding="utf-8")), encoding="utf-8")
