"""`truco rules`: the rulebook of a spec, generated from it, in Markdown or HTML.

Everything is read from the IR and from the engine: the card order from the compiled
strengths, the examples from the hand-value tables, the payoff tables from payoffs.py, what
a table option changes from the payoff tables and the calls of the games built under each
of its values. Formulas and conditions are written as sentences (rulespec/prose.py), in
the spec's language (`language:`, or `--lang`) from the catalogs of
rulespec/rulebook_i18n/. Each article cites the `source:` and `note:` written in the spec;
a note (or an option's doc) is printed in the book's language, or marked as borrowed from the
language it is written in; the spec's `display:` labels name suits, special hands, options and
their values in that language.
"""
from __future__ import annotations

import argparse
import functools
import html
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape

from rulespec import dsl
from rulespec.formula import option_constants
from rulespec.ir import Cited, Contest, Formula, OptionDecl, Spec, Wording
from rulespec.prose import Prose, fold
from rulespec.rulebook_i18n import Catalog, catalog

from interpreter.designer.examples import Example, case_file, examples, value_hands, write_cases
from interpreter.designer.payoffs import Chain, Payoffs, payoffs, show
from interpreter.engine.game import Game, load_game

# -- a small document model, rendered as Markdown or HTML ---------------------------------


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str | None = None


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


@dataclass(frozen=True)
class Contents:
    """The table of contents: (anchor, title) of every article."""

    title: str
    entries: tuple[tuple[str, str], ...]


Block = Heading | Para | Items | Grid | Quote | Contents

# A text borrowed from another language is wrapped in these marks with its language code:
# Markdown drops them (the visible mark, "[not translated, fr]", says it), HTML makes them a
# span with its `lang`, so a browser and a screen reader read it as the language it is in.
BORROWED = re.compile("\ue000([a-z]{2})\ue001(.*?)\ue002", re.S)


def borrowed(language: str, text: str) -> str:
    return f"\ue000{language}\ue001{text}\ue002"


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
        elif isinstance(b, Contents):
            out.append(f"**{b.title}**\n\n" + "\n".join(f"- {t}" for _, t in b.entries))
        else:
            out.append("\n".join(f"> {line}" for line in b.text.splitlines()))
    return BORROWED.sub(r"\2", "\n\n".join(out) + "\n")


def _inline(text: str) -> str:
    """HTML for the inline Markdown this module writes: **strong**, _emphasis_."""
    text = html.escape(text, quote=False)
    text = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)
    text = re.sub(r"(?<![\w])_([^_]+)_(?![\w])", r"<em>\1</em>", text)
    return BORROWED.sub(r'<span lang="\1">\2</span>', text)


STYLE = """
body{font-family:Georgia,'Times New Roman',serif;max-width:46em;margin:2em auto;padding:0 1em;
 line-height:1.45;color:#111}
h1{font-size:1.8em;margin-bottom:.2em}h2{margin-top:1.8em;border-bottom:1px solid #999}
h3{margin-top:1.2em}table{border-collapse:collapse;margin:.6em 0}
td,th{border:1px solid #999;padding:.15em .5em;text-align:left;vertical-align:top}
th{background:#eee}blockquote{color:#444;border-left:3px solid #bbb;margin:.6em 0;padding-left:1em;font-style:italic}
nav.toc ol{columns:2}nav.toc a{text-decoration:none;color:inherit}
@media print{
 @page{size:A4;margin:18mm 16mm 20mm 16mm}
 body{max-width:none;margin:0;padding:0;font-size:10.5pt}
 h2{break-before:auto;break-after:avoid}h3{break-after:avoid}
 table,blockquote,li{break-inside:avoid}thead{display:table-header-group}
 a{color:inherit;text-decoration:none}nav.toc{break-after:page}
}
"""


def page(blocks: Sequence[Block], title: str, language: str = "en") -> str:
    body: list[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            anchor = f' id="{b.anchor}"' if b.anchor else ""
            tag = f"h{b.level}"
            body.append(f"<{tag}{anchor}>{_inline(b.text)}</{tag}>")
        elif isinstance(b, Para):
            body.append(f"<p>{_inline(b.text)}</p>")
        elif isinstance(b, Items):
            body.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in b.items) + "</ul>")
        elif isinstance(b, Grid):
            head = "".join(f"<th>{_inline(c)}</th>" for c in b.head)
            rows = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in b.rows)
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        elif isinstance(b, Contents):
            items = "".join(f'<li><a href="#{a}">{_inline(t)}</a></li>' for a, t in b.entries)
            body.append(f'<nav class="toc"><h2>{_inline(b.title)}</h2><ol>{items}</ol></nav>')
        else:
            body.append(f"<blockquote>{_inline(b.text)}</blockquote>")
    return (f"<!DOCTYPE html>\n<html lang=\"{language}\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


# -- words ---------------------------------------------------------------------------------

SHOWN_CHAIN = 4
"""Payoff tables list chains of up to this many calls; longer ones are counted."""


def said(name: str) -> str:
    """A call or option name as words: `real_envido` → `real envido`."""
    return name.replace("_", " ")


def chain_words(calls: Sequence[str], words: Callable[[str], str] = said) -> str:
    return ", ".join(words(c) for c in calls)


def display(spec: Spec, language: str, kind: str) -> dict[str, str]:
    """The spec's `display:` labels of one kind (calls, suits, ...) in one language."""
    return {name: label for code, kinds in spec.display if code == language
            for k, pairs in kinds if k == kind for name, label in pairs}


def label_words(spec: Spec, language: str, kind: str) -> Callable[[str], str]:
    """How a text in `language` names a call, hand value or special hand (`kind`: calls,
    values, hands): the spec's display word for it in that language ("Match envido", "Points"
    on the English board), else its name in words."""
    labels = display(spec, language, kind)
    return lambda name: labels.get(name) or said(name)


def call_words(spec: Spec, language: str) -> Callable[[str], str]:
    """How a text in `language` names a call or verb (the spec's `display: calls` words)."""
    return label_words(spec, language, "calls")


def folded(f: Formula, spec: Spec) -> dsl.Expr:
    """A formula's tree as it reads under the spec's chosen options."""
    return fold(f.expr, option_constants(spec.chosen))


def effective(f: Formula, spec: Spec) -> str:
    """A formula's DSL text as it reads under the spec's chosen options (for `truco diff`)."""
    constants = option_constants(spec.chosen)
    if not any(n in constants for n in dsl.names_used(f.expr)):
        return f.text
    return dsl.unparse(fold(f.expr, constants))


def plain(text: str) -> str:
    """A text the spec's author wrote (a source, a note, a doc) without code spans: a
    backquoted name reads as words (`falta_half` → falta half)."""
    return re.sub(r"`([^`]*)`", lambda m: said(m.group(1)), text)


def _shown(value: object) -> str:
    """An option value as a reader writes it (`yes`/`no` for a switch, `real envido`)."""
    return str(value).lower() if isinstance(value, bool) else said(str(value))


# -- the book ------------------------------------------------------------------------------


@dataclass
class Book:
    """What the articles read: the compiled game, its payoff tables, the catalog; and the
    articles written so far (numbers and titles, for the table of contents)."""

    game: Game
    table: Payoffs
    t: Catalog
    articles: list[tuple[str, str]] = field(default_factory=list)
    found: list[Example] = field(default_factory=list)
    shown: list[tuple[Example, str]] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)        # examples printed per article

    @property
    def spec(self) -> Spec:
        return self.game.spec

    @functools.cached_property
    def prose(self) -> Prose:
        return Prose(self.t, self.call_words)

    def call_words(self, name: str) -> str:
        """A call's (or verb's, or contest's) name as the book writes it: the spec's display
        word, if any (a contest named like its call, flor, takes that call's word)."""
        return call_words(self.spec, self.t.language)(name)

    def value_name(self, name: str) -> str:
        """A hand value's name as the book writes it: the spec's display word (`values`)."""
        return label_words(self.spec, self.t.language, "values")(name)

    def hand_name(self, name: str) -> str:
        """A special hand's name as the book writes it: the spec's display word (`hands`)."""
        return label_words(self.spec, self.t.language, "hands")(name)

    def chain(self, calls: Sequence[str]) -> str:
        return chain_words(calls, self.call_words)

    def cond(self, f: Formula) -> str:
        """A condition as a clause, as it reads under the options the rulebook is made for."""
        return self.t.contract(self.prose.cond(folded(f, self.spec)))

    def amount(self, f: Formula) -> str:
        """A formula as what it is worth, under the chosen options."""
        return self.t.contract(self.prose.amount(folded(f, self.spec)))

    def always(self, f: Formula) -> bool:
        e = folded(f, self.spec)
        return isinstance(e, dsl.Bool) and e.value

    def never(self, f: Formula) -> bool:
        e = folded(f, self.spec)
        return isinstance(e, dsl.Bool) and not e.value

    def article(self, key: str, **kw: Any) -> Heading:
        number = len(self.articles) + 1
        title = self.t("article", n=number, title=self.t(key, **kw))
        anchor = f"art-{number}"
        self.articles.append((anchor, title))
        return Heading(2, title, anchor)

    def worked(self, article: str) -> Iterator[Block]:
        """The worked examples of an article: the deal, the actions and the result, each
        also written as a conformance case (`--cases`)."""
        mine = [ex for ex in self.found if ex.article == article]
        for ex in mine:
            self.counts[len(self.articles)] = self.counts.get(len(self.articles), 0) + 1
            number = f"{len(self.articles)}.{self.counts[len(self.articles)]}"
            title = self.t(ex.title, calls=self.chain(ex.calls) if ex.calls else "",
                           call=self.call_words(self.spec.stakes.calls[0].name) if self.spec.stakes.calls else "")
            self.shown.append((ex, f"{number}. {title}"))
            yield Para(self.t("example", n=number, title=title))
            yield Items(tuple(self._example_lines(ex)))

    def _example_lines(self, ex: Example) -> list[str]:
        t = self.t
        lines: list[str] = []
        if ex.deal is None:
            if "beats" in ex.facts:
                beats = t("list.sep").join(t("example.beats", a=a, b=b) for a, b in ex.facts["beats"][:4])
                lines.append(t("example.order", beats=beats))
            if "value_of" in ex.facts:
                v = ex.facts["value_of"]
                value = t("values.none") if v["value"] is None else str(v["value"])
                lines.append(t("example.value", name=self.value_name(v["name"]), hand=" ".join(v["hand"]), value=value))
            return lines
        hands = t("list.semi").join(t("example.seat", seat=s, cards=" ".join(h)) for s, h in enumerate(ex.deal.hands))
        lines.append(t("example.deal", hands=hands))
        if ex.deal.turned:
            lines.append(t("example.turned", card=ex.deal.turned))
        if ex.options:
            lines.append(t("example.options", options=t("list.sep").join(
                self.option_value(k, v) for k, v in ex.options.items())))
        if ex.score:
            lines.append(t("example.score", a=ex.score[0], b=ex.score[1]))
        lines.append(t("example.play", steps=t("list.sep").join(self._step(s) for s in ex.actions)))
        result = ex.expect
        if result.get("tricks"):
            lines.append(t("example.tricks", tricks=t("list.sep").join(
                t("example.tie") if x == "tie" else t("example.team", n=x) for x in result["tricks"])))
        if result.get("match_over"):
            lines.append(t("example.result.match", team=result["winner"], a=result["score"][0], b=result["score"][1]))
        else:
            lines.append(t("example.result", a=result["score"][0], b=result["score"][1]))
        return lines

    def _step(self, step: str) -> str:
        seat, action = step.split(" ", 1)
        words = action.split()
        verb = words[0]
        if verb == "play" and words[1].startswith("@"):
            what = self.t("example.plays.blind", n=words[1][1:])
        elif verb == "play":
            what = self.t("example.plays", card=words[1])
        elif verb == "cover":
            what = self.t("example.covers", card=words[1])
        elif verb in ("accept", "decline", "fold", "announce", "good"):
            what = self.labels("calls").get(verb) or self.t(f"verb.{verb}")
        else:
            what = " ".join([self.call_words(words[0]), *(said(w) for w in words[1:])])
        return self.t("example.step", seat=seat, what=what)

    def cite(self, cited: Cited) -> Iterator[Block]:
        if cited.source:
            yield Quote(self.t("source", text=plain(cited.source)))
        if cited.note:
            yield Para(self.t("note", text=self.wording(cited.note)))

    def cite_part(self, title: str, cited: Cited) -> Iterator[Block]:
        """The citation of one part of an article (a call, a hand format), under its name."""
        if cited.source or cited.note:
            yield Para(f"**{title}**")
            yield from self.cite(cited)

    def wording(self, text: Wording) -> str:
        """A note or doc in the book's language; failing that, the first the spec wrote (its own
        language's), marked with the language it is in: a reader sees it was not translated."""
        own = text.get(self.t.language)
        if own is not None:
            return plain(own)
        language, other = text.texts[0]
        return self.t("untranslated", language=language, text=borrowed(language, plain(other)))

    def doc(self, o: OptionDecl) -> str:
        """An option's doc as the start of its paragraph (empty when it has none)."""
        return self.wording(o.doc) + " " if o.doc else ""

    def labels(self, kind: str) -> dict[str, str]:
        """The spec's `display:` labels of one kind in the book's language."""
        return display(self.spec, self.t.language, kind)

    def suits(self) -> str:
        """The suits by their letters, each with the spec's name for it in the book's language."""
        names = self.labels("suits")
        return ", ".join(self.t("deck.suit", label=names[s], letter=s) if s in names else s
                         for s in self.spec.deck.suits)

    def option_name(self, option: str) -> str:
        return option_name(self.spec, self.t, option)

    def option_value(self, option: str, value: object) -> str:
        return self.t("option.value", name=self.option_name(option), value=self.value_words(value))

    def value_words(self, value: object) -> str:
        return value_words(self.spec, self.t, value)


def option_name(spec: Spec, t: Catalog, option: str) -> str:
    """An option's name in words: the spec's label in the catalog's language, else the
    catalog's for the options every spec has, else its name."""
    label = display(spec, t.language, "options").get(option)
    if label:
        return label
    return t(f"opt.{option}") if t.has(f"opt.{option}") else said(option)


def value_words(spec: Spec, t: Catalog, value: object) -> str:
    """An option's value in words: yes/no in the catalog's language, the spec's label, its name."""
    if isinstance(value, bool):
        return t("value.true" if value else "value.false")
    return display(spec, t.language, "choices").get(str(value)) or said(str(value))


def rulebook(game: Game, language: str | None = None) -> list[Block]:
    """The whole document for one compiled game, in `language` (default: the spec's)."""
    return _book(game, language)[1]


def _book(game: Game, language: str | None = None) -> tuple[Book, list[Block]]:
    spec = game.spec
    t = catalog(language or spec.language)
    book = Book(game, payoffs(game), t)
    book.found = examples(game, book.table)
    known = {c.name for c in spec.contests}
    for option, value, other in _switched(book):
        new = [c.name for c in other.spec.contests if c.name not in known]
        if new:
            book.found += examples(other, _payoffs(other), {option: value}, new)
            known |= set(new)
    body: list[Block] = []
    for article in (_players_and_deck, _card_order, _values, _tricks, _stakes, _contests, _special, _schedule,
                    _fold_and_more, _signals, _match, _options, _interpretations, _glossary):
        body += article(book)
    head: list[Block] = [Heading(1, spec.title or spec.name)]
    if spec.source:
        head.append(Para(t("encodes", text=spec.source)))
    tables = {o.name for o in spec.options if o.kind != "interpretation"}
    chosen = [book.option_value(k, v) for k, v in spec.chosen if k in tables]
    head.append(Para(t("edition", options=t("list.sep").join(chosen) if chosen else t("edition.none"))))
    head.append(Contents(t("contents"), tuple(book.articles)))
    return book, head + body


def _players_and_deck(book: Book) -> Iterator[Block]:
    t, spec = book.t, book.spec
    table, deck = spec.table, spec.deck
    yield book.article("art.players")
    items = [t("players.two") if table.players == 2 and table.teams == 2
             else t("players.teams", players=table.players, teams=table.teams, per=table.players // table.teams),
             t("players.dealer.next" if table.dealer == "next" else "players.dealer.previous"),
             t("players.answer.any" if table.answer == "any_opponent" else "players.answer.next"),
             t("deck.cards", n=len(deck.cards), ranks=", ".join(deck.ranks), suits=book.suits(),
               example=deck.cards[0], hand=deck.hand_size)]
    yield Items(tuple(items))
    yield from book.cite(table.cited)
    points = dict(deck.points)
    if any(points.values()):
        yield Para(t("deck.points"))
        row = (t("deck.points.row"), *(str(points.get(r, 0)) for r in deck.ranks))
        yield Grid((t("deck.rank"), *deck.ranks), (row,))
    if deck.figures:
        yield Para(t("deck.figures", figures=", ".join(sorted(deck.figures, key=deck.ranks.index))))
    yield from book.cite(deck.cited)


def _example_turned(game: Game) -> int | None:
    return next(iter(game.strength)) if game.turns_card else None


def _card_order(book: Book) -> Iterator[Block]:
    t, game = book.t, book.game
    spec = game.spec
    yield book.article("art.order")
    yield Para(t("order.intro"))
    ids = game.cards.ids
    turned = _example_turned(game)
    row = game.strength[turned]
    levels = sorted({row[c] for c in range(len(ids)) if c != turned}, reverse=True)
    rows = [(str(i + 1), " ".join(ids[c] for c in range(len(ids)) if row[c] == s and c != turned))
            for i, s in enumerate(levels)]
    if turned is not None:
        yield Para(t("order.turned", card=ids[turned]))
    yield Grid((t("order.place"), t("order.cards")), tuple(rows))
    if spec.trumps is not None and turned is not None:
        tr = spec.trumps
        trumps = [c for c in sorted(range(len(ids)), key=lambda c: -row[c])
                  if game.views[turned].trump[c] and c != turned]
        if tr.kind == "next_rank":
            yield Para(t("trumps.next_rank", cycle=", ".join(tr.cycle)))
        else:
            rule = t("trumps.same_suit", ranks=", ".join(tr.ranks))
            if tr.substitute:
                rule += " " + t("trumps.substitute", rank=tr.substitute)
            yield Para(rule)
        yield Para(t("trumps.example", card=ids[turned], trumps=", ".join(ids[c] for c in trumps)))
        if tr.points:
            yield Para(t("trumps.points", points=", ".join(f"{r}: {p}" for r, p in tr.points)))
        yield from book.cite(tr.cited)
    yield from book.worked("order")
    yield from book.cite(spec.ranking.cited)


def _values(book: Book) -> Iterator[Block]:
    t, game = book.t, book.game
    spec = game.spec
    if not spec.values:
        return
    yield book.article("art.values")
    turned = _example_turned(game)
    for v in spec.values:
        name = book.value_name(v.name)
        yield Heading(3, name)
        lines = [t("values.value", name=name, value=book.amount(v.formula))]
        if v.holds is not None and not book.always(v.holds):
            lines.append(t("values.holds", cond=book.cond(v.holds)))
        yield Para(" ".join(lines))
        yield Para(t("values.examples.turned", card=game.cards.ids[turned]) if turned is not None
                   else t("values.examples"))
        rows = tuple((hand, t("values.none") if value is None else str(value))
                     for hand, value in value_hands(game, v.name, turned))
        yield Grid((t("values.hand"), name), rows)
        yield Para(t("example.values.checked"))
        book.shown += [(ex, f"{len(book.articles)}. {name}: {' '.join(ex.facts['value_of']['hand'])}")
                       for ex in book.found if ex.article == f"values:{v.name}"]
        yield from book.cite(v.cited)


def _outcome(t: Catalog, pattern: Sequence[str], result: str) -> tuple[str, str]:
    first: dict[str, int] = {}
    for i, letter in enumerate(pattern):
        first.setdefault(letter, i + 1)
    letters = {"A": t("tricks.letter.A"), "B": t("tricks.letter.B"), "T": t("tricks.letter.T")}
    shown = " ".join(letters[p] for p in pattern)
    if result in ("A", "B"):
        where = first.get(result)
        decided = t("tricks.to.team", team=letters[result], n=where) if where else letters[result]
    else:
        decided = t("tricks.to.mano" if result == "mano" else "tricks.to.none")
    return shown, decided


def _tricks(book: Book) -> Iterator[Block]:
    t, game = book.t, book.game
    tr = game.spec.tricks
    yield book.article("art.tricks")
    after = {"same_leader": "tricks.after.same", "mano": "tricks.after.mano", "first_best": "tricks.after.first"}
    items = [t("tricks.count", n=tr.count), t("tricks.any_card"), t(after.get(tr.after_tie, "tricks.after.same")),
             t("tricks.partners.team" if tr.partners_tie == "team_wins" else "tricks.partners.tie")]
    if tr.cover is not None:
        items.append(t("tricks.cover", cond=book.cond(tr.cover))
                     + " " + t("tricks.cover.counts" if tr.cover_counts else "tricks.cover.dead"))
    yield Items(tuple(items))
    yield Para(t("tricks.outcomes"))
    yield Grid((t("tricks.results"), t("tricks.winner")), tuple(_outcome(t, o.pattern, o.result) for o in tr.outcomes))
    yield from book.cite(tr.outcomes_cited)
    yield from book.worked("tricks")
    yield from book.cite(tr.cited)


def _stakes(book: Book) -> Iterator[Block]:
    t, game, table = book.t, book.game, book.table
    st = game.spec.stakes
    if not st.calls:
        return
    yield book.article("art.stakes")
    text = [t("stakes.intro", base=table.base),
            t("stakes.raise.accepting" if st.raise_by == "accepting_team" else "stakes.raise.any")]
    if not book.always(st.when):
        text.append(t("stakes.when", cond=book.cond(st.when)))
    yield Para(" ".join(text))
    rows = [(book.call_words(s.call), str(s.accepted), str(s.declined)) for s in table.ladder]
    yield Grid((t("stakes.call"), t("stakes.accepted"), t("stakes.declined")), tuple(rows))
    yield from book.worked("stakes")
    yield from book.cite(st.cited)
    for c in st.calls:
        yield from book.cite_part(book.call_words(c.name), c.cited)


def _contest_rules(book: Book, c: Contest) -> list[str]:
    t = book.t
    out = [t("contest.window", cond=book.cond(c.window))]
    if not any(call.declare for call in c.calls):        # a declaration is made once per player
        out.append(t("contest.once"))
    if not book.never(c.interrupt):
        out.append(t("contest.interrupt", cond=book.cond(c.interrupt)))
    if c.declaration == "compulsory":
        out.append(t("contest.compulsory"))
    for call in c.calls:
        how = []
        if call.declare:
            how.append(t("call.declare"))
        if call.asks:
            how.append(t("call.asks"))
        if call.opens and not call.declare:
            how.append(t("call.opens"))
        if call.after:
            how.append(t("call.after", calls=t("list.sep").join(book.call_words(a) for a in call.after)))
        if call.max is not None and call.max > 1:
            how.append(t("call.max", n=call.max))
        if not book.always(call.allowed):
            how.append(t("call.allowed", cond=book.cond(call.allowed)))
        if call.accept is not None:                   # what the call itself says, over the chain's rule
            how.append(t("call.accept", amount=book.amount(call.accept)))
        if call.decline is not None:
            how.append(t("call.decline", amount=book.amount(call.decline)))
        out.append(t("call.line", name=book.call_words(call.name), worth=book.amount(call.worth),
                     how=t("list.semi").join(how)))
    count = c.count
    ties = {"nearer_lead": "count.tie.nearer", "farther_lead": "count.tie.farther", "mano_team": "count.tie.mano",
            "nobody": "count.tie.nobody"}
    out.append(t("count.closed"))
    if count.procedure == "announce":
        line = t("count.announce" if count.order == "in_turn" else "count.announce.leaders_wait")
        if not book.always(count.announce):
            line += " " + t("count.announce.when", cond=book.cond(count.announce))
        good = book.labels("calls").get("good") or t("count.good.word")
        if book.always(count.good):
            line += " " + t("count.good.always", good=good)
        elif not book.never(count.good):
            line += " " + t("count.good", cond=book.cond(count.good), good=good)
        out.append(line + " " + t(ties.get(count.tie, "count.tie.nearer")))
    else:
        out.append(t("count.automatic") + " " + t(ties.get(count.tie, "count.tie.nearer")))
    if count.show == "hand_end":
        out.append(t("count.show", name=book.call_words(c.name)))
    if c.cancels:
        out.append(t("contest.cancels", names=t("list.sep").join(book.call_words(n) for n in c.cancels)))
    return out


def _contests(book: Book) -> Iterator[Block]:
    for c in book.spec.contests:
        yield from _contest(book, c, book.table)
    for option, value, game in _switched(book):
        known = {c.name for c in book.spec.contests}
        table = _payoffs(game)
        for c in game.spec.contests:
            if c.name not in known:
                other = Book(game, table, book.t, book.articles, book.found, book.shown, book.counts)
                yield from _contest(other, c, table, book.option_value(option, value))


def _contest(book: Book, c: Contest, table: Payoffs, only: str | None = None) -> Iterator[Block]:
    t = book.t
    name = book.call_words(c.name)
    yield book.article("art.contest", name=name, Name=name[:1].upper() + name[1:])
    if only:
        yield Para(t("contest.only", option=only))
    yield Items(tuple(_contest_rules(book, c)))
    chains = table.contest(c.name)
    shown = [ch for ch in chains if len(ch.calls) <= SHOWN_CHAIN]
    answerable = [ch for ch in shown if ch.answerable]
    if answerable:
        text = t("chains.intro")
        if any(ch.varies for ch in answerable):
            text += " " + t("chains.varies", accept=book.amount(c.accept), decline=book.amount(c.decline))
        yield Para(text)
        yield Grid((t("chains.calls"), t("chains.accepted"), t("chains.declined")),
                   tuple(_chain_row(book, ch) for ch in answerable))
    unanswered = [ch for ch in shown if ch.unanswered is not None]
    if unanswered:
        pays = t("chains.unanswered.pays", pays=book.amount(c.unraised.pays)) if c.unraised else ""
        yield Para(t("chains.unanswered", pays=pays))
        yield Grid((t("chains.declarations"), t("chains.scores")),
                   tuple((book.chain(ch.calls), show(ch.unanswered)) for ch in unanswered))
    longer = len(chains) - len(shown)
    if longer:
        yield Para(t("chains.longer", n=longer, most=max(len(ch.calls) for ch in chains)))
    yield from book.worked(f"contest:{c.name}")
    yield from book.cite(c.cited)
    for call in c.calls:
        yield from book.cite_part(book.call_words(call.name), call.cited)


def _chain_row(book: Book, ch: Chain) -> tuple[str, str, str]:
    mark = " *" if ch.varies else ""
    return book.chain(ch.calls), show(ch.accepted) + mark, show(ch.declined)


def _special(book: Book) -> Iterator[Block]:
    t, game = book.t, book.game
    hands = game.spec.special_hands
    if not hands:
        return
    yield book.article("art.special")
    for h in hands:
        parts = []
        if h.base is not None:
            parts.append(t("special.base", worth=book.amount(h.base)))
        if h.forbid_stakes:
            parts.append(t("special.refuse" if h.forbid_stakes == "refuse" else "special.lose"))
        if h.blind is not None and not book.never(h.blind):
            parts.append(t("special.blind") if book.always(h.blind)
                         else t("special.blind.when", cond=book.cond(h.blind)))
        name = book.hand_name(h.name)
        yield Para(t("special.line", name=name, cond=book.cond(h.when), what=t("list.semi").join(parts)))
        yield from book.cite(h.cited)


def _schedule(book: Book) -> Iterator[Block]:
    t, sched = book.t, book.spec.schedule
    if sched is None:
        return
    yield book.article("art.schedule")
    formats = t("list.semi").join(t("schedule.all" if f.seats == "all" else "schedule.facing", name=said(f.name))
                                  for f in sched.formats)
    yield Para(t("schedule.line", cond=book.cond(sched.when), formats=formats))
    if sched.check == "hand":
        yield Para(t("schedule.stops"))
    yield Para(t("schedule.teams"))
    yield from book.cite(sched.cited)
    for f in sched.formats:
        yield from book.cite_part(said(f.name), f.cited)


def _folds_while_counting(book: Book, when: Formula) -> bool:
    """Whether the fold rule may let a seat leave while points are counted: it always holds, or
    it reads `counting` (the rulebook says what a fold does to the count only then)."""
    return book.always(when) or "counting" in dsl.names_used(folded(when, book.spec))


def _fold_and_more(book: Book) -> Iterator[Block]:
    t, spec = book.t, book.spec
    f = spec.fold
    yield book.article("art.fold")
    pending = t("fold.pending.declined" if f.pending_contest == "declined" else "fold.pending.void")
    scored = " " + t("fold.scored") if spec.contests else ""
    counted = ""
    if any(c.count.procedure == "announce" for c in spec.contests) and _folds_while_counting(book, f.when):
        counted = " " + t("fold.count.conceded" if f.count == "conceded" else "fold.count.void")
    line = t("fold.line.always", pays=book.amount(f.pays)) if book.always(f.when) \
        else t("fold.line", cond=book.cond(f.when), pays=book.amount(f.pays))
    yield Para(line + " " + pending + counted + scored)
    yield from book.worked("fold")
    yield from book.cite(f.cited)
    for a in spec.annulments:
        yield Para(t("annul.line", name=book.call_words(a.name), holds=book.cond(a.holds), cond=book.cond(a.when))
                   + " " + t("annul.same" if a.dealer == "same" else "annul.next"))
        yield from book.cite(a.cited)


def _signals(book: Book) -> Iterator[Block]:
    """The signs (señas) a spec declares: who sees them, and — where the spec's `display:`
    gives them in the book's language — what each tells and the gesture that makes it."""
    t, s = book.t, book.spec.signals
    if s is None:
        return
    yield book.article("art.signals")
    gestures = book.labels("signals")
    yield Para(t("signals.table" if s.to == "table" else "signals.partners", verb=said(s.verb),
                 names=t("list.sep").join(said(n) for n in s.names)) + " " + t("signals.free"))
    if gestures:
        yield Para(t("signals.gestures"))
        yield Items(tuple(f"**{said(n)}** — {gestures[n]}" if n in gestures else f"**{said(n)}**" for n in s.names))
    yield from book.cite(s.cited)


def _match(book: Book) -> Iterator[Block]:
    t, m = book.t, book.spec.match
    yield book.article("art.match")
    yield Para(t("match.line", target=m.target) + " "
               + t("match.end.now" if m.end == "immediately" else "match.end.hand"))
    yield from book.worked("match")
    yield from book.cite(m.cited)


# -- options: what each value changes, computed by the engine --------------------------------


@functools.lru_cache(maxsize=256)
def _game_under(name: str, options: tuple[tuple[str, Any], ...]) -> Game:
    return load_game(name, dict(options))


@functools.lru_cache(maxsize=256)
def _payoffs_of(name: str, options: tuple[tuple[str, Any], ...]) -> Payoffs:
    return payoffs(_game_under(name, options))


def _payoffs(game: Game) -> Payoffs:
    return _payoffs_of(_spec_ref(game), _key(game.spec.chosen))


def _spec_ref(game: Game) -> str:
    return game.spec.file or game.spec.name


def _key(chosen: Sequence[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
    return tuple((k, _text(v)) for k, v in chosen)


def _text(v: object) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _variant(book: Book, option: str, value: object) -> Game:
    chosen: dict[str, object] = dict(book.spec.chosen)
    chosen[option] = value
    return _game_under(_spec_ref(book.game), _key(tuple(chosen.items())))


def _switched(book: Book) -> Iterator[tuple[str, object, Game]]:
    """The games under each other value of each table option (players aside)."""
    for o in book.spec.options:
        if o.kind == "interpretation" or o.name == "players":
            continue
        for v in o.values:
            if v != dict(book.spec.chosen).get(o.name):
                yield o.name, v, _variant(book, o.name, v)


def _calls(game: Game) -> list[str]:
    spec = game.spec
    names = [c.name for c in spec.stakes.calls]
    names += [call.name for c in spec.contests for call in c.calls]
    names += [a.name for a in spec.annulments]
    return names


def _rows(book: Book, table: Payoffs) -> dict[str, str]:
    t = book.t
    out = {t("changes.unraised"): str(table.base)}
    for s in table.ladder:
        out[book.call_words(s.call)] = t("changes.ladder", accepted=s.accepted, declined=s.declined)
    for c in table.chains:
        if len(c.calls) > SHOWN_CHAIN:
            continue
        parts = []
        if c.answerable:
            parts.append(t("changes.chain", accepted=show(c.accepted), declined=show(c.declined)))
        if c.unanswered is not None:
            parts.append(t("changes.unanswered", points=show(c.unanswered)))
        out[book.chain(c.calls)] = t("list.semi").join(parts)
    return out


def changes(book: Book, option: str, value: object) -> tuple[list[str], list[str], list[tuple[str, str, str]]]:
    """What playing with `option = value` changes against the rulebook's own choice: the calls
    it adds, those it removes, and the payoff rows that differ (row, before, after)."""
    other = _variant(book, option, value)
    mine, theirs = _calls(book.game), _calls(other)
    added = [c for c in theirs if c not in mine]
    removed = [c for c in mine if c not in theirs]
    before, after = _rows(book, book.table), _rows(book, _payoffs(other))
    rows = [(k, v, after.get(k, "—")) for k, v in before.items() if after.get(k) != v]
    rows += [(k, "—", v) for k, v in after.items() if k not in before]
    if other.target != book.game.target:
        rows.insert(0, (book.t("changes.target"), str(book.game.target), str(other.target)))
    return added, removed, rows


RULE_ARTICLES = ("_players_and_deck", "_card_order", "_values", "_tricks", "_special", "_schedule", "_fold_and_more",
                 "_signals", "_match")


_RULE_LINES: dict[tuple[Any, ...], list[tuple[str, str]]] = {}


def rule_lines(book: Book) -> list[tuple[str, str]]:
    """The rules of a game as lines of text, each under its article's title (numbers left
    out): what two games' rulebooks are compared by, to say what an option's value changes in
    words. Payoff tables are compared apart (`changes`); citations are left out."""
    key = (_spec_ref(book.game), _key(book.spec.chosen), book.t.language)
    if key not in _RULE_LINES:
        _RULE_LINES[key] = _rule_lines(book)
    return _RULE_LINES[key]


def _rule_lines(book: Book) -> list[tuple[str, str]]:
    probe = Book(book.game, book.table, book.t)
    blocks: list[Block] = []
    for name in RULE_ARTICLES:
        blocks += globals()[name](probe)
    if book.spec.stakes.calls:
        blocks += [b for b in _stakes(probe) if not isinstance(b, Grid)]
    for c in book.spec.contests:
        blocks += [b for b in _contest(probe, c, book.table) if not isinstance(b, Grid)]
    out: list[tuple[str, str]] = []
    title = ""
    note = book.t("note", text="").strip()
    for b in blocks:
        if isinstance(b, Heading):
            title = re.sub(r"^[^\d]*\d+\.\s*", "", b.text) if b.level == 2 else title
        elif isinstance(b, Para) and not b.text.startswith(note) and not re.fullmatch(r"\*\*[^*]+\*\*", b.text):
            out.append((title, b.text))
        elif isinstance(b, Items):
            out += [(title, i) for i in b.items]
        elif isinstance(b, Grid):
            out += [(title, " — ".join(row)) for row in b.rows]
    return out


def _value_changes(book: Book, o: OptionDecl) -> Iterator[Block]:
    """For each other value of an option: the calls it adds or removes, the rules that read
    otherwise, and the payoffs that differ, all from the game built under that value."""
    t = book.t
    chosen = dict(book.spec.chosen)
    mine = rule_lines(book)
    for v in o.values:
        if v == chosen.get(o.name):
            continue
        other = _variant(book, o.name, v)
        added, removed, rows = changes(book, o.name, v)
        theirs = rule_lines(Book(other, _payoffs(other), t))
        known = {title for title, _ in mine}
        reads = [t("options.reads", line=f"{title}: {text}") for title, text in theirs
                 if (title, text) not in mine and title in known]
        reads += [t("options.article", title=title) for title in
                  dict.fromkeys(title for title, _ in theirs if title not in known)]
        yield Para(t("options.with", option=book.option_value(o.name, v)))
        items = []
        if added:
            items.append(t("options.added", calls=t("list.sep").join(book.call_words(c) for c in added)))
        if removed:
            items.append(t("options.removed", calls=t("list.sep").join(book.call_words(c) for c in removed)))
        items += reads
        if items:
            yield Items(tuple(items))
        if rows:
            yield Grid((t("changes.what"), book.option_value(o.name, chosen.get(o.name)),
                        book.option_value(o.name, v)), tuple(rows))
        if not items and not rows:
            yield Items((t("options.nothing"),))


def _options(book: Book) -> Iterator[Block]:
    t = book.t
    tables = [o for o in book.spec.options if o.kind != "interpretation"]
    if not tables:
        return
    yield book.article("art.options")
    yield Para(t("options.intro"))
    chosen = dict(book.spec.chosen)
    for o in tables:
        yield Heading(3, book.option_name(o.name))
        values = t("list.sep").join(book.value_words(v) for v in o.values)
        line = t("options.values", values=values, default=book.value_words(o.default),
                 here=book.value_words(chosen.get(o.name)))
        yield Para(book.doc(o) + line)
        yield from book.cite(o.cited)
        if o.name != "players":
            yield from _value_changes(book, o)


def _interpretations(book: Book) -> Iterator[Block]:
    t = book.t
    choices = [o for o in book.spec.options if o.kind == "interpretation"]
    yield book.article("art.choices")
    if not choices:
        yield Para(t("choices.none"))
        return
    yield Para(t("choices.intro"))
    chosen = dict(book.spec.chosen)
    for o in choices:
        yield Heading(3, book.option_name(o.name))
        values = t("list.sep").join(book.value_words(v) for v in o.values)
        yield Para(book.doc(o) + t("options.values", values=values, default=book.value_words(o.default),
                                   here=book.value_words(chosen.get(o.name))))
        yield from book.cite(o.cited)
        yield from _value_changes(book, o)


def _glossary(book: Book) -> Iterator[Block]:
    """Every call and verb under the word the book uses for it (the spec's display word where
    it has one), with the other words said for it: its aliases, and its own name when the
    display word replaces it (the board's "Match envido" is the falta envido); never the word
    itself again (teg's alias "quiero" is the Spanish book's own word for accept)."""
    t, spec = book.t, book.spec
    yield book.article("art.glossary")
    labels = book.labels("calls")
    aliases: dict[str, list[str]] = {}
    for word, verb in spec.verbs:
        aliases.setdefault(verb, []).append(said(word))

    def row(name: str, plain_word: str, meaning: str) -> tuple[str, str, str]:
        word = labels.get(name, plain_word)
        others = aliases.get(name, []) + ([plain_word] if name in labels else [])
        return word, meaning, ", ".join(dict.fromkeys(o for o in others if o.lower() != word.lower()))

    rows: list[tuple[str, str, str]] = []
    for i, step in enumerate(spec.stakes.calls):
        rows.append(row(step.name, said(step.name), t("glossary.stake", n=i + 1)))
    seen: set[str] = set()
    contests = list(spec.contests) + [c for _, _, g in _switched(book) for c in g.spec.contests]
    for c in contests:
        for call in c.calls:
            if call.name in seen:
                continue
            seen.add(call.name)
            rows.append(row(call.name, said(call.name),
                            t("glossary.declare" if call.declare else "glossary.contest",
                              contest=book.call_words(c.name))))
    for verb in ("accept", "decline", "fold", "announce", "good"):
        rows.append(row(verb, t(f"verb.{verb}"), t(f"glossary.{verb}")))
    for a in spec.annulments:
        rows.append(row(a.name, said(a.name), t("glossary.annul")))
    yield Grid((t("glossary.word"), t("glossary.meaning"), t("glossary.aliases")), tuple(rows))


# -- the command ---------------------------------------------------------------------------


def render(game: Game, fmt: str = "md", language: str | None = None) -> str:
    blocks = rulebook(game, language)
    lang = catalog(language or game.spec.language).language
    return page(blocks, game.spec.title, lang) if fmt == "html" else markdown(blocks)


def worked_cases(game: Game, spec_ref: str, language: str | None = None) -> dict[str, Any]:
    """The rulebook's worked examples as one conformance case file, named as printed."""
    book, _ = _book(game, language)
    return case_file(game, spec_ref, [ex for ex, _ in book.shown], [title for _, title in book.shown])


def static_errors(spec: str, options: dict[str, Any]) -> list[str]:
    """The errors the checker finds without playing a hand (its quick pass), as it prints them."""
    from rulespec.load import open_spec

    from interpreter.designer.check import Report, diagnose_source, error_lines
    return error_lines(diagnose_source(open_spec(spec), Report(spec), exhaustive=False, fixed=options, play=False))


def run(args: argparse.Namespace, console: Console) -> int:
    from pathlib import Path

    from interpreter.engine.game import parse_options
    options = parse_options(args.option)
    game = load_game(args.spec, options)
    errors = static_errors(args.spec, options)
    if errors:                                  # no rulebook for rules the checker finds wrong
        for line in [*errors, f"no rulebook: {len(errors)} error(s); the checker (`check {args.spec}`) says more"]:
            console.print(escape(line), highlight=False, soft_wrap=True, emoji=False)
        return 1
    if args.cases:
        folder = Path(args.cases)
        spec_ref = args.spec
        if Path(spec_ref).suffix in (".yaml", ".yml"):
            import os
            spec_ref = os.path.relpath(Path(spec_ref).resolve(), folder.resolve())
        path = folder / f"{game.spec.name or 'spec'}.yaml"
        write_cases(path, worked_cases(game, spec_ref, args.lang))
        console.print(f"wrote the worked examples to {path}", highlight=False)
        return 0
    text = render(game, args.format, args.lang)
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
    p.add_argument("--lang", choices=["en", "es", "fr", "pt"], default=None,
                   help="the language of the rulebook (default: the spec's language:, else English)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE", help="a table option")
    p.add_argument("--output", metavar="FILE", default=None, help="write to FILE instead of printing")
    p.add_argument("--cases", metavar="DIR", default=None,
                   help="write the rulebook's worked examples as conformance cases into DIR/<spec>.yaml")
    p.set_defaults(run=run)
