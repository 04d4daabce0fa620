"""The intermediate representation: a spec resolved for one choice of table options.

Frozen dataclasses only; every node keeps the span (file:line:col and YAML path) it was
built from, so the interpreter's compile errors and the checker's findings can point back
into the YAML. The interpreter sees nothing but these classes.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rulespec.dsl import Expr
from rulespec.errors import Loc

OptionValue = int | bool | str

# The verbs every spec understands besides its calls (docs/conformance.md), card verbs apart.
COMMON_VERBS = ("accept", "decline", "fold", "announce", "good")
CARD_VERBS = ("play", "cover")


@dataclass(frozen=True)
class Span:
    """Where a node was written: its file position and YAML path."""

    loc: Loc | None
    path: str

    def __str__(self) -> str:
        return f"{self.loc or '<unknown>'} at {self.path}"


@dataclass(frozen=True)
class Formula:
    """A parsed DSL expression with the text it came from."""

    expr: Expr
    text: str
    span: Span
    locate: Callable[[int], Loc] = field(compare=False, repr=False)


@dataclass(frozen=True)
class Wording:
    """A designer's text (a note, an option's doc) in one or more languages. A plain string in a
    spec is in the spec's `language:`; a mapping {en: ..., es: ...} gives it per language, so a
    base that variants in several languages extend can speak each of them."""

    texts: tuple[tuple[str, str], ...]   # (language, text), the spec's language first if present

    def __str__(self) -> str:
        return self.texts[0][1]

    def get(self, language: str) -> str | None:
        """The text in `language`, None when it is not written in it."""
        return dict(self.texts).get(language)


@dataclass(frozen=True)
class Cited:
    """The rulebook citation and the designer's note attached to a node."""

    source: str | None = None
    note: Wording | None = None


@dataclass(frozen=True)
class OptionDecl:
    name: str
    type: str
    values: tuple[OptionValue, ...]
    default: OptionValue
    kind: str
    doc: Wording | None
    cited: Cited


@dataclass(frozen=True)
class Deck:
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    points: tuple[tuple[str, int], ...]
    figures: frozenset[str]
    hand_size: int
    cited: Cited

    @property
    def cards(self) -> tuple[str, ...]:
        """Every card id, rank-major in the order the deck lists them."""
        return tuple(r + s for r in self.ranks for s in self.suits)


@dataclass(frozen=True)
class Ranking:
    """Tiers of card ids, strongest first; cards in one tier tie."""

    tiers: tuple[tuple[str, ...], ...]
    cited: Cited
    span: Span


@dataclass(frozen=True)
class Trumps:
    """Cards a turned card lifts above the ranking (manilhas)."""

    kind: str
    cycle: tuple[str, ...]
    suit_order: tuple[str, ...]
    ranks: tuple[str, ...]
    substitute: str | None
    points: tuple[tuple[str, int], ...]
    cited: Cited


@dataclass(frozen=True)
class HandValue:
    name: str
    formula: Formula
    holds: Formula | None
    cited: Cited


@dataclass(frozen=True)
class Table:
    """The seats, in `teams` alternating teams: always 2 (the builder refuses any other number),
    which the engine relies on when it pays the one other team."""

    players: int
    teams: int
    dealer: str
    answer: str
    cited: Cited


@dataclass(frozen=True)
class Outcome:
    pattern: tuple[str, ...]
    result: str
    span: Span


@dataclass(frozen=True)
class Tricks:
    count: int
    after_tie: str
    partners_tie: str
    cover: Formula | None
    cover_counts: bool
    outcomes: tuple[Outcome, ...]
    outcomes_cited: Cited
    cited: Cited
    span: Span
    cover_cited: Cited = Cited()    # the covered cards' own clause


@dataclass(frozen=True)
class StakeCall:
    name: str
    worth: Formula
    declined: Formula
    cited: Cited
    span: Span


@dataclass(frozen=True)
class Stakes:
    base: Formula
    calls: tuple[StakeCall, ...]
    when: Formula
    raise_by: str
    cited: Cited
    span: Span


@dataclass(frozen=True)
class ContestCall:
    name: str
    worth: Formula
    opens: bool
    after: tuple[str, ...]
    max: int | None
    declare: bool
    asks: str                       # "": no; "opponents": the next opposing holder; "all": every holder in turn
    allowed: Formula
    accept: Formula | None
    decline: Formula | None
    cited: Cited
    span: Span


@dataclass(frozen=True)
class Count:
    procedure: str
    good: Formula
    announce: Formula
    tie: str
    cited: Cited
    span: Span
    show: str = "never"             # "hand_end": the winner's cards that make its value are shown then
    order: str = "in_turn"          # "leaders_wait": a seat whose team leads waits, asked once an opponent leads


@dataclass(frozen=True)
class Unraised:
    mode: str
    pays: Formula


@dataclass(frozen=True)
class Contest:
    name: str
    value: str
    window: Formula
    interrupt: Formula
    calls: tuple[ContestCall, ...]
    accept: Formula
    decline: Formula
    unraised: Unraised | None
    count: Count
    cancels: tuple[str, ...]
    cited: Cited
    span: Span
    declaration: str = "optional"   # "compulsory": a holder declares before anything else it does

    @property
    def declares(self) -> bool:
        """Whether the contest opens with declarations (no lying, no answer)."""
        return any(c.declare for c in self.calls)


@dataclass(frozen=True)
class Fold:
    when: Formula
    pays: Formula
    pending_contest: str
    cited: Cited
    count: str = "conceded"         # a fold during a count: "conceded" to the other team, or "void"


@dataclass(frozen=True)
class SpecialHand:
    name: str
    when: Formula
    base: Formula | None
    forbid_stakes: str | None
    blind: Formula | None           # the tricks played blind (evaluated as each trick starts)
    cited: Cited
    span: Span


@dataclass(frozen=True)
class Annulment:
    """A hand that its holder may annul (maldón): nobody scores and the cards are dealt again."""

    name: str
    holds: Formula
    when: Formula
    dealer: str
    cited: Cited


@dataclass(frozen=True)
class Signals:
    """Signs to one's partners (señas): free actions with no effect on the rules."""

    verb: str
    names: tuple[str, ...]
    to: str
    cited: Cited


@dataclass(frozen=True)
class HandFormat:
    """Which seats play a hand: `all`, or `facing` (one hand per pair of facing seats, one
    against one, played one after the other)."""

    name: str
    seats: str
    cited: Cited


@dataclass(frozen=True)
class Schedule:
    """Rounds of hands in set formats (three against three, then each seat against the one
    facing it), played while `when` holds as a round starts; the table's teams stay as they are
    and every point goes to the team of the seat that won it. `check` "hand" asks `when` before
    every hand too, and a round stops as soon as it fails."""

    when: Formula
    formats: tuple[HandFormat, ...]
    cited: Cited
    check: str = "round"


@dataclass(frozen=True)
class Match:
    target: int
    end: str
    cited: Cited
    span: Span


@dataclass(frozen=True)
class Spec:
    """A whole variant under one choice of options: what the interpreter compiles."""

    name: str
    title: str
    source: str | None
    file: str
    options: tuple[OptionDecl, ...]
    chosen: tuple[tuple[str, OptionValue], ...]
    deck: Deck
    ranking: Ranking
    trumps: Trumps | None
    values: tuple[HandValue, ...]
    table: Table
    tricks: Tricks
    stakes: Stakes
    contests: tuple[Contest, ...]
    fold: Fold
    special_hands: tuple[SpecialHand, ...]
    annulments: tuple[Annulment, ...]
    signals: Signals | None
    match: Match
    verbs: tuple[tuple[str, str], ...]
    raw: Any = field(compare=False, repr=False)   # the merged YAML tree (yamlload.Located)
    disabled_calls: tuple[str, ...] = ()
    language: str = "en"             # the rulebook's language: en, es, fr, pt
    # Display labels per language: language -> kind (calls, values, ranks) -> name -> label.
    # The boards show them; play never reads them.
    display: tuple[tuple[str, tuple[tuple[str, tuple[tuple[str, str], ...]], ...]], ...] = ()
    schedule: Schedule | None = None  # rounds of hand formats, where the spec plays them

    def option(self, name: str) -> OptionValue:
        return dict(self.chosen)[name]

    def value(self, name: str) -> HandValue:
        for v in self.values:
            if v.name == name:
                return v
        raise KeyError(name)
