"""`truco diff A B`: what differs between two specs once `extends` is resolved.

Both specs are built (under their default options, or the options given to both) and
described as facts in words — one per rule: a card order, a payoff formula, a trick
pattern's result, an option — and the facts are compared. Formulas and conditions read as
the rulebook writes them (rulespec/prose.py), under the chosen options, and every label
and value comes from the rulebook's catalogs (rulespec/rulebook_i18n/): the diff reads in
the first spec's `language:` (or `--lang`), like `truco rules`, and names calls by the
spec's display words in that language; `--code` adds the DSL text. Facts are compared on their DSL text too, so a change
the sentences do not show still shows (with its code). Then the payoff tables that
payoffs.py computes by playing the calls are compared row by row, so a changed formula
shows up as the points it changes.
"""
from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape

from rulespec import dsl
from rulespec.ir import Formula, Spec
from rulespec.load import open_spec
from rulespec.prose import Prose
from rulespec.rulebook_i18n import LANGUAGES, Catalog, catalog

from interpreter.designer.payoffs import Payoffs, payoffs, show
from interpreter.designer.rulebook import effective, folded, label_words, option_name, said, value_words
from interpreter.engine.game import Game


def _value(v: Any) -> str:
    return json.dumps(v) if isinstance(v, bool) else str(v)


def card_order(game: Game) -> str:
    """The compiled order (under the first possible turned card), strongest first."""
    ids = game.cards.ids
    turned = next(iter(game.strength))
    row = game.strength[turned]
    levels = sorted({row[c] for c in range(len(ids)) if c != turned}, reverse=True)
    tiers = [" = ".join(ids[c] for c in range(len(ids)) if row[c] == s and c != turned) for s in levels]
    return " > ".join(tiers)


def _outcome(t: Catalog, pattern: Sequence[str], result: str) -> tuple[str, str]:
    """A trick pattern (in the catalog's letters) and the result it gives."""
    first: dict[str, int] = {}
    for i, letter in enumerate(pattern):
        first.setdefault(letter, i + 1)
    shown = " ".join(t(f"tricks.letter.{p}") for p in pattern)
    if result in ("A", "B"):
        where = first.get(result)
        letter = t(f"tricks.letter.{result}")
        return shown, t("diff.result.team", team=letter, n=where) if where else letter
    return shown, t(f"diff.result.{result}") if t.has(f"diff.result.{result}") else result


Names = Callable[[str, str], str]
"""How a diff names a call, hand value or special hand: (kind, name) → words."""


def facts(game: Game, t: Catalog, code: bool = False, names: Names | None = None) -> dict[str, str]:
    """Every rule of a compiled spec as `label → value`, in the catalog's language; formulas
    and conditions as the rulebook's sentences under the chosen options, followed by their
    DSL text with `code`. Calls, hand values and special hands are named by `names` (default:
    the spec's display words in that language)."""
    spec: Spec = game.spec
    named: Names = names or (lambda kind, name: label_words(spec, t.language, kind)(name))

    def words(name: str) -> str:
        return named("calls", name)

    prose = Prose(t, words)
    out: dict[str, str] = {}

    def written(text: str, f: Formula) -> str:
        return f"{text} (code: {effective(f, spec)})" if code else text

    def fx(f: Formula) -> str:
        """An amount (a formula)."""
        return written(t.contract(prose.amount(folded(f, spec))), f)

    def cx(f: Formula) -> str:
        """A clause (a condition)."""
        return written(t.contract(prose.cond(folded(f, spec))), f)

    def when(key: str, f: Formula, **kw: Any) -> str:
        """A sentence with a condition in it; a condition that always (or never) holds has
        a sentence of its own (`key.always`, `key.never`), not "when always"."""
        tree = folded(f, spec)
        if isinstance(tree, dsl.Bool):
            return written(t(f"{key}.{'always' if tree.value else 'never'}", **kw), f)
        return t(key, cond=cx(f), **kw)

    def calls(names: Sequence[str]) -> str:
        return t("list.sep").join(words(n) for n in names)

    tb = spec.table
    out[t("diff.players")] = str(tb.players)
    out[t("diff.teams")] = str(tb.teams)
    out[t("diff.dealer")] = t("diff.dealer.next" if tb.dealer == "next" else "diff.dealer.previous")
    out[t("diff.answer")] = t("diff.answer.any" if tb.answer == "any_opponent" else "diff.answer.next")
    d = spec.deck
    out[t("diff.suits")] = ", ".join(d.suits)
    out[t("diff.ranks")] = ", ".join(d.ranks)
    out[t("diff.hand_size")] = str(d.hand_size)
    for rank, points in d.points:
        out[t("diff.points", rank=rank)] = str(points)
    out[t("diff.figures")] = ", ".join(sorted(d.figures)) or t("diff.none")
    out[t("diff.order")] = card_order(game)
    if spec.trumps is not None:
        tr = spec.trumps
        out[t("diff.trumps")] = t("diff.trumps.next_rank", cycle=", ".join(tr.cycle), suits=" < ".join(tr.suit_order)) \
            if tr.kind == "next_rank" else t("diff.trumps.same_suit", ranks=", ".join(tr.ranks))
    for v in spec.values:
        out[t("diff.value", name=named("values", v.name))] = fx(v.formula)
        out[t("diff.value.holds", name=named("values", v.name))] = cx(v.holds) if v.holds else t("cond.true")
    tr2 = spec.tricks
    out[t("diff.tricks")] = str(tr2.count)
    out[t("diff.after_tie")] = t(f"diff.after_tie.{tr2.after_tie}")
    out[t("diff.partners")] = t("diff.partners.team" if tr2.partners_tie == "team_wins" else "diff.partners.tie")
    out[t("diff.cover")] = cx(tr2.cover) if tr2.cover else t("cond.false")
    if tr2.cover:
        out[t("diff.covered")] = t("diff.covered.counts" if tr2.cover_counts else "diff.covered.dead")
    for o in tr2.outcomes:
        pattern, result = _outcome(t, o.pattern, o.result)
        out[t("diff.outcome.tied" if set(o.pattern) == {"T"} else "diff.outcome", pattern=pattern)] = result
    st = spec.stakes
    out[t("diff.base")] = fx(st.base)
    out[t("diff.raise_by")] = t("diff.raise_by.accepting" if st.raise_by == "accepting_team" else "diff.raise_by.any")
    out[t("diff.stake_when")] = cx(st.when)
    for c in st.calls:
        out[t("diff.call.worth", call=words(c.name))] = fx(c.worth)
        out[t("diff.call.declined", call=words(c.name))] = fx(c.declined)
    for cont in spec.contests:
        name = words(cont.name)
        out[t("diff.contest.compares", name=name)] = named("values", cont.value)
        out[t("diff.contest.window", name=name)] = cx(cont.window)
        out[t("diff.contest.interrupt", name=name)] = cx(cont.interrupt)
        out[t("diff.contest.accept", name=name)] = fx(cont.accept)
        out[t("diff.contest.decline", name=name)] = fx(cont.decline)
        count = cont.count
        procedure = "announce.leaders_wait" if count.procedure == "announce" and count.order == "leaders_wait" \
            else count.procedure
        out[t("diff.contest.count", name=name)] = t(
            "diff.count", procedure=t(f"diff.count.{procedure}"), good=when("diff.count.good", count.good),
            tie=t(f"diff.tie.{count.tie}"))
        out[t("diff.contest.count_announce", name=name)] = cx(count.announce)
        out[t("diff.contest.show", name=name)] = t(f"diff.show.{count.show}")
        out[t("diff.contest.cancels", name=name)] = t("list.sep").join(said(c) for c in cont.cancels) \
            or t("diff.none")
        if cont.unraised:
            out[t("diff.contest.unraised", name=name)] = t(f"diff.unraised.{cont.unraised.mode}",
                                                           pays=fx(cont.unraised.pays))
        for call in cont.calls:
            rules = [t("diff.call.is_worth", amount=fx(call.worth)),
                     t("diff.call.opens" if call.opens else "diff.call.not_opens")]
            if call.after:
                rules.append(t("diff.call.answers", calls=calls(call.after)))
            if call.max is not None:
                rules.append(t("diff.call.max", n=call.max))
            if call.declare:
                rules.append(t("diff.call.declare"))
            if call.accept is not None:
                rules.append(t("diff.call.accept", amount=fx(call.accept)))
            if call.decline is not None:
                rules.append(t("diff.call.decline", amount=fx(call.decline)))
            out[t("diff.contest.call", name=name, call=words(call.name))] = t("list.semi").join(rules)
    f = spec.fold
    out[t("diff.fold.when")] = cx(f.when)
    out[t("diff.fold.pays")] = fx(f.pays)
    out[t("diff.fold.pending")] = t("diff.fold.pending.declined" if f.pending_contest == "declined"
                                    else "diff.fold.pending.void")
    out[t("diff.fold.count")] = t(f"diff.fold.count.{f.count}")
    for h in spec.special_hands:
        parts = [when("diff.special.when", h.when)]
        if h.base:
            parts.append(t("diff.special.worth", amount=fx(h.base)))
        if h.forbid_stakes:
            parts.append(t(f"diff.special.{h.forbid_stakes}"))
        if h.blind:
            parts.append(t("diff.special.blind"))
        out[t("diff.special", name=named("hands", h.name))] = t("list.semi").join(parts)
    for a in spec.annulments:
        out[t("diff.annul", name=words(a.name))] = t("diff.annul.line", holds=cx(a.holds), cond=cx(a.when),
                                                     dealer=t(f"diff.annul.{a.dealer}"))
    if spec.signals is not None:
        sg = spec.signals
        out[t("diff.signals")] = t(f"diff.signals.{sg.to}", verb=said(sg.verb),
                                   names=t("list.sep").join(said(n) for n in sg.names))
    out[t("diff.target")] = str(spec.match.target)
    out[t("diff.end")] = t("diff.end.now" if spec.match.end == "immediately" else "diff.end.hand")
    for alias, verb in spec.verbs:
        out[t("diff.alias", alias=said(alias))] = t(f"verb.{verb}") if t.has(f"verb.{verb}") else words(verb)
    for opt in spec.options:
        kind = "diff.choice" if opt.kind == "interpretation" else "diff.option"
        ordered = sorted(opt.values, key=lambda v: (len(_value(v)), _value(v)))
        values = t("list.sep").join(value_words(spec, t, v) for v in ordered)
        out[t(kind, name=option_name(spec, t, opt.name))] = t("diff.option.values", values=values,
                                                              default=value_words(spec, t, opt.default))
    return out


def payoff_rows(table: Payoffs, t: Catalog, words: Callable[[str], str]) -> dict[str, str]:
    """The payoff tables as `row → accepted / declined`."""
    out = {t("diff.unraised_hand"): str(table.base)}
    for s in table.ladder:
        out[words(s.call)] = t("diff.pays", accepted=s.accepted, declined=s.declined)
    for c in table.chains:
        parts = []
        if c.accepted is not None or c.declined is not None:
            parts.append(t("diff.pays", accepted=f"{show(c.accepted)}{'*' if c.varies else ''}",
                           declined=show(c.declined)))
        if c.unanswered is not None:
            parts.append(t("diff.unanswered", points=show(c.unanswered)))
        out[f"{said(c.contest)}: {t('list.sep').join(words(n) for n in c.calls)}"] = t("list.semi").join(parts)
    return out


@dataclass
class Difference:
    label: str
    before: str | None
    after: str | None

    def words(self, a: str, b: str, t: Catalog | None = None) -> str:
        t = t or catalog("en")
        if self.before is None:
            return t("diff.only", label=self.label, spec=b, value=self.after)
        if self.after is None:
            return t("diff.only", label=self.label, spec=a, value=self.before)
        return t("diff.changed", label=self.label, before=self.before, after=self.after)


@dataclass
class Comparison:
    a: str
    b: str
    t: Catalog = field(default_factory=lambda: catalog("en"))
    rules: list[Difference] = field(default_factory=list)
    payoffs: list[Difference] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        def rows(ds: list[Difference]) -> list[dict[str, Any]]:
            return [{"what": d.label, self.a: d.before, self.b: d.after} for d in ds]
        return {"from": self.a, "to": self.b, "language": self.t.language, "rules": rows(self.rules),
                "payoffs": rows(self.payoffs)}

    def lines(self, ds: list[Difference]) -> list[str]:
        return [d.words(self.a, self.b, self.t) for d in ds]


def _compare(left: Mapping[str, str], right: Mapping[str, str]) -> list[Difference]:
    out = [Difference(k, v, right.get(k)) for k, v in left.items() if right.get(k) != v]
    out += [Difference(k, None, v) for k, v in right.items() if k not in left]
    return out


def _game(name: str, options: Mapping[str, object]) -> Game:
    """A spec under its defaults, with those of `options` it declares."""
    source = open_spec(name)
    declared = {o.name for o in source.options}
    return Game(source.build({k: v for k, v in options.items() if k in declared}))


def _shared_words(ga: Game, gb: Game, t: Catalog) -> Names:
    """One name for each call, hand value and special hand on both sides, so that a rule is
    compared under one label: the first spec's display word, else the second's, else the
    name in words."""
    def named(kind: str, name: str) -> str:
        first = label_words(ga.spec, t.language, kind)(name)
        return first if first != said(name) else label_words(gb.spec, t.language, kind)(name)
    return named


def _rules(ga: Game, gb: Game, t: Catalog, code: bool) -> list[Difference]:
    """The rules that differ in their DSL text, in sentences — with the code when asked, or
    when the sentences of both sides read the same."""
    names = _shared_words(ga, gb, t)
    words_a, words_b = facts(ga, t, names=names), facts(gb, t, names=names)
    code_a, code_b = facts(ga, t, True, names), facts(gb, t, True, names)
    out = []
    for d in _compare(code_a, code_b):
        same = words_a.get(d.label) == words_b.get(d.label)
        if not code and not same:
            d = Difference(d.label, words_a.get(d.label), words_b.get(d.label))
        out.append(d)
    return out


def compare(a: str, b: str, options: Mapping[str, object] | None = None, code: bool = False,
            language: str | None = None) -> Comparison:
    """The differences from `a` to `b`, in `language` (default: the language of `a`)."""
    ga, gb = _game(a, options or {}), _game(b, options or {})
    t = catalog(language or ga.spec.language)
    out = Comparison(ga.spec.name or a, gb.spec.name or b, t)
    out.rules = _rules(ga, gb, t, code)
    names = _shared_words(ga, gb, t)

    def words(name: str) -> str:
        return names("calls", name)

    out.payoffs = _compare(payoff_rows(payoffs(ga), t, words), payoff_rows(payoffs(gb), t, words))
    return out


def run(args: argparse.Namespace, console: Console) -> int:
    from interpreter.engine.game import parse_options
    result = compare(args.first, args.second, parse_options(args.option), code=args.code, language=args.lang)
    if args.json:
        print(json.dumps(result.as_dict(), indent=2, ensure_ascii=False))
        return 1 if result.rules or result.payoffs else 0
    a, b, t = result.a, result.b, result.t
    if not result.rules and not result.payoffs:
        console.print(escape(t("diff.same", a=a, b=b)), highlight=False)
        return 0
    console.print(f"[bold]{escape(t('diff.rules'))}[/] ({escape(a)} → {escape(b)})", highlight=False)
    for line in result.lines(result.rules):
        console.print(f"  {escape(line)}", soft_wrap=True, highlight=False)
    if result.payoffs:
        console.print(f"[bold]{escape(t('diff.payoffs'))}[/] ({escape(a)} → {escape(b)}; {escape(t('diff.varies'))})",
                      highlight=False)
        for line in result.lines(result.payoffs):
            console.print(f"  {escape(line)}", soft_wrap=True, highlight=False)
    return 1


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("diff", help="what differs between two specs, in words and payoffs",
                              description="What differs between two specs after `extends`, in words and as "
                                          "payoff-table differences. Exits 0 when the specs play alike, 1 when "
                                          "they differ (as diff does), 2 when one cannot be loaded.")
    p.add_argument("first", help="a bundled spec name or a spec file")
    p.add_argument("second", help="a bundled spec name or a spec file: what changes from the first")
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a table option, for each spec that declares it")
    p.add_argument("--lang", choices=list(LANGUAGES), default=None,
                   help="the language of the differences (default: the first spec's language:, else English)")
    p.add_argument("--json", action="store_true", help="print the differences as JSON")
    p.add_argument("--code", action="store_true",
                   help="follow each formula's sentence with its DSL text")
    p.set_defaults(run=run)
