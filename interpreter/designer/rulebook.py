"""`truco rules`: a readable rulebook generated from a spec, in Markdown or HTML.

Everything is read from the IR and from the engine (the card order from the compiled
strengths, the examples from the hand-value tables, the payoff tables from payoffs.py), so
the document says what the interpreter will do. Each section cites the `source:` and
`note:` written in the spec.
"""
from __future__ import annotations

import argparse
import html
import operator
import random
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping, Sequence, Union

from rich.console import Console

from rulespec import dsl
from rulespec.formula import option_constants
from rulespec.ir import Cited, Contest, Formula, OptionDecl, Spec

from interpreter.engine.game import Game, load_game
from interpreter.designer.payoffs import Chain, Payoffs, payoffs, show

# -- a small document model, rendered as Markdown or HTML ---------------------------------


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Para:
    text: str


@dataclass(frozen=True)
class Items:
    items: tuple[str, ...]


@dataclass(frozen=True)
class Grid:
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Quote:
    text: str


Block = Heading | Para | Items | Grid | Quote


def markdown(blocks: Sequence[Block]) -> str:
    out: list[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            out.append(f"{'#' * b.level} {b.text}")
        elif isinstance(b, Para):
            out.append(b.text)
        elif isinstance(b, Items):
            out.append("\n".join(f"- {i}" for i in b.items))
        elif isinstance(b, Grid):
            cells = [b.head, tuple("---" for _ in b.head), *b.rows]
            out.append("\n".join("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in cells))
        else:
            out.append("\n".join(f"> {line}" for line in b.text.splitlines()))
    return "\n\n".join(out) + "\n"


def _inline(text: str) -> str:
    """HTML for the inline Markdown this module writes: `code`, **strong**, _emphasis_."""
    text = html.escape(text, quote=False)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    text = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)
    return re.sub(r"(?<![\w])_([^_]+)_(?![\w])", r"<em>\1</em>", text)


def page(blocks: Sequence[Block], title: str) -> str:
    body: list[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            body.append(f"<h{b.level}>{_inline(b.text)}</h{b.level}>")
        elif isinstance(b, Para):
            body.append(f"<p>{_inline(b.text)}</p>")
        elif isinstance(b, Items):
            body.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in b.items) + "</ul>")
        elif isinstance(b, Grid):
            head = "".join(f"<th>{_inline(c)}</th>" for c in b.head)
            rows = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in b.rows)
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        else:
            body.append(f"<blockquote>{_inline(b.text)}</blockquote>")
    style = ("body{font-family:sans-serif;max-width:52em;margin:2em auto;line-height:1.45}"
             "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.2em .6em}"
             "blockquote{color:#555;border-left:3px solid #ccc;margin-left:0;padding-left:1em}")
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{style}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


# -- words ---------------------------------------------------------------------------------

SHOWN_CHAIN = 4
"""Payoff tables list chains of up to this many calls; longer ones are counted."""


def said(name: str) -> str:
    """A call or option name as words: `real_envido` → `real envido`."""
    return name.replace("_", " ")


def chain_words(calls: Sequence[str]) -> str:
    return ", ".join(said(c) for c in calls)


def _cite(cited: Cited) -> Iterator[Block]:
    if cited.source:
        yield Quote(f"Source: {cited.source}")
    if cited.note:
        yield Para(f"_Note:_ {cited.note}")


_FOLDS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod,
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
    ">=": operator.ge, "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
}


def _literal(value: Any) -> dsl.Expr | None:
    if isinstance(value, bool):
        return dsl.Bool(value)
    if isinstance(value, int):
        return dsl.Num(value)
    if isinstance(value, str):
        return dsl.Str(value)
    return None


def _known(e: dsl.Expr) -> bool:
    return isinstance(e, (dsl.Num, dsl.Bool, dsl.Str))


def fold(e: dsl.Expr, constants: Mapping[str, Any]) -> dsl.Expr:
    """The expression with the chosen options put in and what they decide taken out, so
    `if options.x == 'a' then 1 else total` reads `total` when x is not `a`."""
    if isinstance(e, dsl.Name):
        return _literal(constants[e.dotted]) or e if e.dotted in constants else e
    if isinstance(e, dsl.IfElse):
        cond = fold(e.cond, constants)
        if _known(cond):
            return fold(e.then if cond.value else e.other, constants)  # type: ignore[union-attr]
        return dsl.IfElse(cond, fold(e.then, constants), fold(e.other, constants))
    if isinstance(e, dsl.Unary):
        operand = fold(e.operand, constants)
        if _known(operand):
            value = operand.value  # type: ignore[union-attr]
            # typecheck.py lets a unary minus apply to numbers only
            return _literal(not value if e.op == "not" else -value) or dsl.Unary(e.op, operand)  # type: ignore[operator]
        return dsl.Unary(e.op, operand)
    if isinstance(e, dsl.Binary):
        left, right = fold(e.left, constants), fold(e.right, constants)
        if e.op in ("and", "or"):
            for known, other in ((left, right), (right, left)):
                if _known(known):
                    decides = bool(known.value) != (e.op == "and")  # type: ignore[union-attr]
                    return dsl.Bool(e.op == "or") if decides else other
            return dsl.Binary(e.op, left, right)
        if e.op in ("+", "-") and isinstance(right, dsl.Num) and right.value == 0:
            return left
        if e.op == "+" and isinstance(left, dsl.Num) and left.value == 0:
            return right
        if _known(left) and _known(right):
            try:
                return _literal(_FOLDS[e.op](left.value, right.value)) or dsl.Binary(e.op, left, right)  # type: ignore[union-attr]
            except (ArithmeticError, TypeError):
                pass
        return dsl.Binary(e.op, left, right)
    if isinstance(e, dsl.Call):
        return dsl.Call(e.name, tuple(fold(a, constants) for a in e.args))
    if isinstance(e, dsl.ListLit):
        return dsl.ListLit(tuple(fold(a, constants) for a in e.items))
    return e


def effective(f: Formula, spec: Spec) -> str:
    """A formula as it reads under the spec's chosen options."""
    constants = option_constants(spec.chosen)
    if not any(n in constants for n in dsl.names_used(f.expr)):
        return f.text
    return dsl.unparse(fold(f.expr, constants))


@dataclass(frozen=True)
class Book:
    """What the sections read: the compiled game and its payoff tables."""

    game: Game
    table: Payoffs

    def formula(self, f: Formula) -> str:
        """A formula in backquotes, as it reads under the options the rulebook is made for."""
        return f"`{effective(f, self.game.spec)}`"


RESULTS = {"A": "A", "B": "B", "mano": "the mano's team", "none": "nobody scores"}


def outcome_words(pattern: Sequence[str], result: str) -> tuple[str, str]:
    """A trick pattern and its result in words: (`A B T`, `A (won the first trick)`)."""
    first: dict[str, int] = {}
    for i, letter in enumerate(pattern):
        first.setdefault(letter, i + 1)
    if result in ("A", "B"):
        where = first.get(result)
        decided = f"{result} (the team that won trick {where})" if where else result
    else:
        decided = RESULTS.get(result, result)
    return " ".join(pattern), decided


# -- sections ------------------------------------------------------------------------------


def rulebook(game: Game) -> list[Block]:
    """The whole document for one compiled game."""
    spec = game.spec
    book = Book(game, payoffs(game))
    blocks: list[Block] = [Heading(1, spec.title or spec.name)]
    if spec.source:
        blocks.append(Para(f"_Encodes:_ {spec.source}"))
    chosen = ", ".join(f"{k} = {_shown(v)}" for k, v in spec.chosen) or "none"
    blocks.append(Para(f"Generated from `{spec.file}` under the table options: {chosen}. "
                       "Every number below is what the interpreter does with these rules."))
    for section in (_players_and_deck, _card_order, _values, _tricks, _stakes, _contests, _special,
                    _fold_and_more, _match, _options, _interpretations):
        blocks += section(book)
    return blocks


def _players_and_deck(book: Book) -> Iterator[Block]:
    spec = book.game.spec
    t, deck = spec.table, spec.deck
    yield Heading(2, "Players and deck")
    answer = "any player of the asked team" if t.answer == "any_opponent" else "the next opponent in turn"
    yield Items((
        f"{t.players} players in {t.teams} teams; partners sit alternately (seat s is on team s mod {t.teams}).",
        "The deal passes to the " + ("next seat" if t.dealer == "next" else "previous seat")
        + "; the seat after the dealer is the mano, who leads the first trick.",
        f"A call is answered by {answer}.",
        f"{len(deck.cards)} cards: ranks {', '.join(deck.ranks)} in the suits {', '.join(deck.suits)}; "
        f"a card is written rank then suit (`{deck.cards[0]}`). Each player gets {deck.hand_size} cards.",
    ))
    yield from _cite(t.cited)
    points = dict(deck.points)
    if any(points.values()):
        yield Grid(("Rank", *deck.ranks), (("Points", *(str(points.get(r, 0)) for r in deck.ranks)),))
    if deck.figures:
        yield Para(f"Figures: {', '.join(sorted(deck.figures, key=deck.ranks.index))}.")
    yield from _cite(deck.cited)


def _card_order(book: Book) -> Iterator[Block]:
    game = book.game
    spec = game.spec
    yield Heading(2, "The order of the cards")
    yield Para("From the strongest down; cards on one row are equal (a trick they tie in is tied).")
    ids = game.cards.ids
    turned = None
    if game.turns_card:
        turned = next(iter(game.strength))
    row = game.strength[turned]
    levels = sorted({row[c] for c in range(len(ids)) if c != turned}, reverse=True)
    rows = [(str(i + 1), " ".join(ids[c] for c in range(len(ids)) if row[c] == s and c != turned))
            for i, s in enumerate(levels)]
    if turned is not None:
        yield Para(f"A card is turned after the deal and makes trumps, above every other card. For example, "
                   f"with `{ids[turned]}` turned:")
    yield Grid(("Place", "Cards"), tuple(rows))
    yield Para(f"The spec writes the order: `{spec.ranking.text}`.")
    if spec.trumps is not None:
        tr = spec.trumps
        if tr.kind == "next_rank":
            yield Para(f"The trumps are the cards of the rank after the turned card's in the cycle "
                       f"{', '.join(tr.cycle)} (wrapping round), ordered by suit, weakest first: "
                       f"{' < '.join(tr.suit_order)}.")
        else:
            yield Para(f"The trumps are the cards {', '.join(tr.ranks)} of the turned card's suit, strongest "
                       "last" + (f"; when the turned card is one of them, {tr.substitute} stands in for it"
                                 if tr.substitute else "") + ".")
        yield from _cite(tr.cited)
    yield from _cite(spec.ranking.cited)


def _examples(game: Game, name: str, turned: int | None) -> list[tuple[str, str]]:
    """Hands that show a value's range: the best and worst of a sample, and one that does
    not hold it when a hand may not."""
    table = game.values[name]
    rng = random.Random(0)
    codes = [c for c in range(len(game.cards)) if c != turned]
    seen: dict[tuple[int, ...], int | None] = {}
    for _ in range(400):
        hand = tuple(sorted(rng.sample(codes, game.hand_size)))
        seen[hand] = table(hand, turned)
    held = {h: v for h, v in seen.items() if v is not None}
    picks: list[tuple[int, ...]] = []
    if held:
        ordered = sorted(held, key=lambda h: (held[h], h))
        picks += [ordered[-1], ordered[len(ordered) // 2], ordered[0]]
    missing = [h for h, v in seen.items() if v is None]
    picks += missing[:1]
    ids = game.cards.ids
    out = []
    for h in dict.fromkeys(picks):
        value = seen[h]
        out.append((" ".join(ids[c] for c in h), "does not hold it" if value is None else str(value)))
    return out


def _values(book: Book) -> Iterator[Block]:
    game = book.game
    spec = game.spec
    if not spec.values:
        return
    yield Heading(2, "Counting the hands")
    turned = next(iter(game.strength)) if game.turns_card else None
    for v in spec.values:
        yield Heading(3, said(v.name))
        lines = [f"Value: {book.formula(v.formula)}."]
        if v.holds is not None:
            lines.append(f"A hand holds it only when {book.formula(v.holds)}.")
        yield Para(" ".join(lines))
        note = f" (with `{game.cards.ids[turned]}` turned)" if turned is not None else ""
        yield Para(f"Examples{note}:")
        yield Grid(("Hand", said(v.name)), tuple(_examples(game, v.name, turned)))
        yield from _cite(v.cited)


def _tricks(book: Book) -> Iterator[Block]:
    game = book.game
    tr = game.spec.tricks
    yield Heading(2, "Tricks and ties")
    items = [f"A hand is {tr.count} tricks; the mano leads the first, the winner of a trick leads the next.",
             "After a tied trick, " + ("the seat that led it leads again." if tr.after_tie == "same_leader"
                                       else "the mano leads." if tr.after_tie == "mano"
                                       else f"the lead goes as `{tr.after_tie}` says."),
             "When partners tie for the best card, " + ("their team wins the trick." if tr.partners_tie ==
                                                        "team_wins" else "the trick is tied.")]
    if tr.cover is not None:
        items.append(f"A card may be played face down when {book.formula(tr.cover)}; "
                     + ("it keeps its rank, only hidden." if tr.cover_counts else "it never wins a trick."))
    yield Items(tuple(items))
    yield Para("How the results decide the hand (A is a team, B the other, T a tied trick; the first pattern "
               "that matches the results so far decides):")
    yield Grid(("Results", "The hand goes to"), tuple(outcome_words(o.pattern, o.result) for o in tr.outcomes))
    yield from _cite(tr.cited)


def _stakes(book: Book) -> Iterator[Block]:
    game, table = book.game, book.table
    st = game.spec.stakes
    if not st.calls:
        return
    yield Heading(2, "Raising the stake")
    raiser = "only the team that accepted the last call" if st.raise_by == "accepting_team" else "either team"
    yield Para(f"An unraised hand is worth {table.base}. The calls go in order, none skipped; after an accept, "
               f"{raiser} may raise, as the answer or later on its own turn before playing. A call may be "
               f"made when {book.formula(st.when)}.")
    rows = [(said(s.call), str(s.accepted), str(s.declined)) for s in table.ladder]
    yield Grid(("Call", "If accepted, the hand is worth", "If declined, the caller scores"), tuple(rows))
    yield from _cite(st.cited)
    for c in st.calls:
        if c.cited.source or c.cited.note:
            yield Para(f"**{said(c.name)}**")
            yield from _cite(c.cited)


def _contest_rules(book: Book, c: Contest) -> list[str]:
    out = [f"It may be opened when {book.formula(c.window)}."]
    if c.interrupt.text not in ("false", ""):
        out.append(f"It may also answer a waiting stake call when {book.formula(c.interrupt)}, and goes first.")
    for call in c.calls:
        how = []
        if call.declare:
            how.append("a declaration: only a hand that holds the value may make it, once per player")
        if call.opens:
            how.append("opens the chain")
        if call.after:
            how.append(f"answers {', '.join(said(a) for a in call.after)}")
        if call.max is not None:
            how.append(f"at most {call.max} in a chain")
        out.append(f"**{said(call.name)}** (worth {book.formula(call.worth)}): {'; '.join(how)}.")
    count = c.count
    ties = "the seat nearer the mano." if count.tie == "nearer_lead" else "the mano's team."
    if count.procedure == "announce":
        out.append("An accepted chain is counted aloud from the mano; a player may concede (\"good\") when "
                   f"{book.formula(count.good)}. Ties go to {ties}")
    else:
        out.append(f"An accepted chain is settled by comparing the values at once; ties go to {ties}")
    if c.cancels:
        out.append(f"Opening it wipes {', '.join(c.cancels)} if not yet scored.")
    return out


def _contests(book: Book) -> Iterator[Block]:
    game, table = book.game, book.table
    for c in game.spec.contests:
        yield Heading(2, f"{said(c.name)}: calls and what they pay")
        yield Items(tuple(_contest_rules(book, c)))
        chains = table.contest(c.name)
        shown = [ch for ch in chains if len(ch.calls) <= SHOWN_CHAIN]
        answerable = [ch for ch in shown if ch.answerable]
        if answerable:
            yield Para(f"What each chain pays (accepted: to the better hand; declined: to the last caller). "
                       f"Computed by the interpreter at the start of a match; a row marked * depends on the score "
                       f"(accepted: {book.formula(c.accept)}; declined: {book.formula(c.decline)} unless a call says "
                       "otherwise).")
            yield Grid(("Calls", "If accepted", "If declined"), tuple(_chain_row(ch) for ch in answerable))
        unanswered = [ch for ch in shown if ch.unanswered is not None]
        if unanswered:
            pays = f" ({book.formula(c.unraised.pays)})" if c.unraised else ""
            yield Para(f"Declarations nobody answers score{pays}:")
            yield Grid(("Declarations", "Scores"), tuple((chain_words(ch.calls), show(ch.unanswered))
                                                          for ch in unanswered))
        longer = len(chains) - len(shown)
        if longer:
            yield Para(f"And {longer} longer chains (up to {max(len(ch.calls) for ch in chains)} calls), which "
                       "add up the same way.")
        yield from _cite(c.cited)
        for call in c.calls:
            if call.cited.source or call.cited.note:
                yield Para(f"**{said(call.name)}**")
                yield from _cite(call.cited)


def _chain_row(ch: Chain) -> tuple[str, str, str]:
    mark = " *" if ch.varies else ""
    return chain_words(ch.calls), show(ch.accepted) + mark, show(ch.declined)


def _special(book: Book) -> Iterator[Block]:
    game = book.game
    hands = game.spec.special_hands
    if not hands:
        return
    yield Heading(2, "Special hands")
    for h in hands:
        parts = [f"**{said(h.name)}**, when {book.formula(h.when)}:"]
        if h.base is not None:
            parts.append(f"the hand is worth {book.formula(h.base)}")
        if h.forbid_stakes:
            parts.append("raising the stake is " + ("refused" if h.forbid_stakes == "refuse"
                                                    else "forbidden: the team that raises loses the match"))
        if h.blind:
            parts.append("the players cannot see their own cards and play them by position")
        yield Para(" ".join(parts[:1]) + " " + "; ".join(parts[1:]) + ".")
        yield from _cite(h.cited)


def _fold_and_more(book: Book) -> Iterator[Block]:
    spec = book.game.spec
    f = spec.fold
    yield Heading(2, "Leaving the hand")
    pending = "counts as declined" if f.pending_contest == "declined" else "is void"
    yield Para(f"A player may fold when {book.formula(f.when)}; the other team scores {book.formula(f.pays)}. "
               f"A contest call waiting on the player who folds {pending}.")
    yield from _cite(f.cited)
    for a in spec.annulments:
        yield Para(f"**{said(a.name)}**: a hand with {book.formula(a.holds)} may annul the deal when "
                   f"{book.formula(a.when)}; "
                   f"nobody scores and the {'same' if a.dealer == 'same' else 'next'} dealer deals again.")
        yield from _cite(a.cited)
    if spec.signals is not None:
        s = spec.signals
        yield Para(f"Signs (`{s.verb} NAME`), shown to {'the whole table' if s.to == 'table' else 'the partners'}: "
                   f"{', '.join(s.names)}.")
        yield from _cite(s.cited)
    if spec.verbs:
        yield Para("Other words for the actions: " + ", ".join(f"`{a}` = `{v}`" for a, v in spec.verbs) + ".")


def _match(book: Book) -> Iterator[Block]:
    game = book.game
    m = game.spec.match
    yield Heading(2, "The match")
    when = "the moment a team reaches it, even in the middle of a hand" if m.end == "immediately" \
        else "at the end of the hand in which a team reaches it"
    yield Para(f"The match is played to {m.target} points and ends {when}.")
    yield from _cite(m.cited)


def _shown(value: object) -> str:
    """An option value as YAML writes it (`true`, not `True`)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _option_rows(options: Sequence[OptionDecl]) -> tuple[tuple[str, ...], ...]:
    return tuple((f"`{o.name}`", ", ".join(_shown(v) for v in o.values), _shown(o.default), o.doc or "",
                  o.cited.source or o.cited.note or "") for o in options)


def _options(book: Book) -> Iterator[Block]:
    game = book.game
    tables = [o for o in game.spec.options if o.kind != "interpretation"]
    if tables:
        yield Heading(2, "Table options")
        yield Para("Chosen when a match is created.")
        yield Grid(("Option", "Values", "Default", "What it does", "Source"), _option_rows(tables))


def _interpretations(book: Book) -> Iterator[Block]:
    game = book.game
    choices = [o for o in game.spec.options if o.kind == "interpretation"]
    yield Heading(2, "Interpretation choices")
    if not choices:
        yield Para("The spec names no interpretation choice.")
        return
    yield Para("Where the written rules are silent or rulebooks disagree, the spec names the choice; the "
               "default follows its own source.")
    yield Grid(("Choice", "Values", "Default", "What it decides", "Source"), _option_rows(choices))


# -- the command ---------------------------------------------------------------------------


def render(game: Game, fmt: str = "md") -> str:
    blocks = rulebook(game)
    return page(blocks, game.spec.title) if fmt == "html" else markdown(blocks)


def run(args: argparse.Namespace, console: Console) -> int:
    from interpreter.engine.game import parse_options
    game = load_game(args.spec, parse_options(args.option))
    text = render(game, args.format)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        print(text, end="")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("rules", help="print the rulebook of a spec, generated from it")
    p.add_argument("spec", help="a bundled spec name or a spec file")
    p.add_argument("--format", choices=["md", "html"], default="md", help="Markdown (default) or HTML")
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE", help="a table option")
    p.add_argument("--output", metavar="FILE", default=None, help="write to FILE instead of printing")
    p.set_defaults(run=run)
