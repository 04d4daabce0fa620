"""`truco diff A B`: what differs between two specs once `extends` is resolved.

Both specs are built (under their default options, or the options given to both) and
described as facts in words — one per rule: a card order, a payoff formula, a trick
pattern's result, an option — and the facts are compared. Formulas and conditions read as
the rulebook writes them (rulespec/prose.py, in English), under the chosen
options; `--code` adds the DSL text. Facts are compared on their DSL text too, so a change
the sentences do not show still shows (with its code). Then the payoff tables that
payoffs.py computes by playing the calls are compared row by row, so a changed formula
shows up as the points it changes.
"""
from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape

from rulespec.ir import Formula, Spec
from rulespec.load import open_spec
from rulespec.prose import Prose
from rulespec.rulebook_i18n import catalog

from interpreter.designer.payoffs import Payoffs, payoffs, show
from interpreter.designer.rulebook import chain_words, effective, folded, outcome_words, said
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


PROSE = Prose(catalog("en"), said)


def facts(game: Game, code: bool = False) -> dict[str, str]:
    """Every rule of a compiled spec as `label → value`, in words; formulas and conditions as
    the rulebook's sentences under the chosen options, followed by their DSL text with `code`."""
    spec: Spec = game.spec
    out: dict[str, str] = {}

    def written(words: str, f: Formula) -> str:
        return f"{words} (code: {effective(f, spec)})" if code else words

    def fx(f: Formula) -> str:
        """An amount (a formula)."""
        return written(PROSE.amount(folded(f, spec)), f)

    def cx(f: Formula) -> str:
        """A clause (a condition)."""
        return written(PROSE.cond(folded(f, spec)), f)

    t = spec.table
    out["players"] = str(t.players)
    out["teams"] = str(t.teams)
    out["the deal passes to"] = "the next seat" if t.dealer == "next" else "the previous seat"
    out["a call is answered by"] = "any player of the asked team" if t.answer == "any_opponent" \
        else "the next opponent"
    d = spec.deck
    out["suits"] = ", ".join(d.suits)
    out["ranks"] = ", ".join(d.ranks)
    out["cards per hand"] = str(d.hand_size)
    for rank, points in d.points:
        out[f"points of a {rank}"] = str(points)
    out["figures"] = ", ".join(sorted(d.figures)) or "none"
    out["card order"] = card_order(game)
    if spec.trumps is not None:
        tr = spec.trumps
        out["trumps"] = f"{tr.kind}: cycle {', '.join(tr.cycle)}; suits {' < '.join(tr.suit_order)}" \
            if tr.kind == "next_rank" else f"{tr.kind}: {', '.join(tr.ranks)}"
    for v in spec.values:
        out[f"hand value {v.name}"] = fx(v.formula)
        out[f"hand value {v.name} is held when"] = cx(v.holds) if v.holds else "always"
    tr2 = spec.tricks
    out["tricks per hand"] = str(tr2.count)
    out["after a tied trick, the lead goes to"] = {"same_leader": "the seat that led it", "mano": "the mano"}.get(
        tr2.after_tie, tr2.after_tie)
    out["partners tying for the best card"] = "win the trick" if tr2.partners_tie == "team_wins" else "tie it"
    out["a card may be covered when"] = cx(tr2.cover) if tr2.cover else "never"
    if tr2.cover:
        out["a covered card"] = "keeps its rank" if tr2.cover_counts else "never wins"
    for o in tr2.outcomes:
        pattern, result = outcome_words(o.pattern, o.result)
        tied = " (every trick tied)" if set(o.pattern) == {"T"} else ""
        out[f"trick results {pattern}{tied}"] = result
    st = spec.stakes
    out["an unraised hand is worth"] = fx(st.base)
    out["the stake may be raised by"] = "the accepting team" if st.raise_by == "accepting_team" else "either team"
    out["a stake call may be made when"] = cx(st.when)
    for c in st.calls:
        out[f"{said(c.name)} makes the hand worth"] = fx(c.worth)
        out[f"{said(c.name)} declined pays"] = fx(c.declined)
    for cont in spec.contests:
        name = said(cont.name)
        out[f"{name} compares"] = cont.value
        out[f"{name} may be opened when"] = cx(cont.window)
        out[f"{name} may answer a stake call when"] = cx(cont.interrupt)
        out[f"{name} accepted pays"] = fx(cont.accept)
        out[f"{name} declined pays"] = fx(cont.decline)
        count = cont.count
        out[f"{name} count"] = f"{said(count.procedure)}; good when {cx(count.good)}; ties: {said(count.tie)}"
        out[f"{name} winner's cards shown"] = "when the hand is over" if count.show == "hand_end" else "never"
        out[f"{name} wipes"] = ", ".join(said(c) for c in cont.cancels) or "nothing"
        if cont.unraised:
            out[f"{name} unanswered declarations pay"] = f"{fx(cont.unraised.pays)} ({cont.unraised.mode})"
        for call in cont.calls:
            rules = [f"worth {fx(call.worth)}", "opens" if call.opens else "does not open"]
            if call.after:
                rules.append(f"answers {', '.join(said(a) for a in call.after)}")
            if call.max is not None:
                rules.append(f"at most {call.max}")
            if call.declare:
                rules.append("a declaration")
            if call.accept is not None:
                rules.append(f"accepted pays {fx(call.accept)}")
            if call.decline is not None:
                rules.append(f"declined pays {fx(call.decline)}")
            out[f"{name} call {said(call.name)}"] = "; ".join(rules)
    f = spec.fold
    out["a player may fold when"] = cx(f.when)
    out["folding gives the other team"] = fx(f.pays)
    out["a contest call waiting on the folder"] = "counts as declined" if f.pending_contest == "declined" else "is void"
    for h in spec.special_hands:
        parts = [f"when {cx(h.when)}"] + ([f"worth {fx(h.base)}"] if h.base else []) + \
            ([f"raising: {h.forbid_stakes}"] if h.forbid_stakes else []) + (["played blind"] if h.blind else [])
        out[f"special hand {h.name}"] = "; ".join(parts)
    for a in spec.annulments:
        out[f"annulment {a.name}"] = f"holds {cx(a.holds)}; when {cx(a.when)}; dealer {a.dealer}"
    if spec.signals is not None:
        out["signs"] = f"{spec.signals.verb}: {', '.join(spec.signals.names)} (to {spec.signals.to})"
    out["match target"] = str(spec.match.target)
    out["the match ends"] = "at once" if spec.match.end == "immediately" else "at the end of the hand"
    for alias, verb in spec.verbs:
        out[f"'{alias}' means"] = verb
    for opt in spec.options:
        kind = "interpretation choice" if opt.kind == "interpretation" else "table option"
        values = ", ".join(sorted((_value(v) for v in opt.values), key=lambda v: (len(v), v)))
        out[f"{kind} {opt.name}"] = f"{values} (default {_value(opt.default)})"
    return out


def payoff_rows(table: Payoffs) -> dict[str, str]:
    """The payoff tables as `row → accepted / declined`."""
    out = {"unraised hand": str(table.base)}
    for s in table.ladder:
        out[said(s.call)] = f"accepted {s.accepted}, declined {s.declined}"
    for c in table.chains:
        parts = []
        if c.accepted is not None or c.declined is not None:
            parts.append(f"accepted {show(c.accepted)}{'*' if c.varies else ''}, declined {show(c.declined)}")
        if c.unanswered is not None:
            parts.append(f"unanswered {show(c.unanswered)}")
        out[f"{said(c.contest)}: {chain_words(c.calls)}"] = "; ".join(parts)
    return out


@dataclass
class Difference:
    label: str
    before: str | None
    after: str | None

    def words(self, a: str, b: str) -> str:
        if self.before is None:
            return f"{self.label}: only in {b} ({self.after})"
        if self.after is None:
            return f"{self.label}: only in {a} ({self.before})"
        return f"{self.label}: {self.before} → {self.after}"


@dataclass
class Comparison:
    a: str
    b: str
    rules: list[Difference] = field(default_factory=list)
    payoffs: list[Difference] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        def rows(ds: list[Difference]) -> list[dict[str, Any]]:
            return [{"what": d.label, self.a: d.before, self.b: d.after} for d in ds]
        return {"from": self.a, "to": self.b, "rules": rows(self.rules), "payoffs": rows(self.payoffs)}


def _compare(left: Mapping[str, str], right: Mapping[str, str]) -> list[Difference]:
    out = [Difference(k, v, right.get(k)) for k, v in left.items() if right.get(k) != v]
    out += [Difference(k, None, v) for k, v in right.items() if k not in left]
    return out


def _game(name: str, options: Mapping[str, object]) -> Game:
    """A spec under its defaults, with those of `options` it declares."""
    source = open_spec(name)
    declared = {o.name for o in source.options}
    return Game(source.build({k: v for k, v in options.items() if k in declared}))


def _rules(ga: Game, gb: Game, code: bool) -> list[Difference]:
    """The rules that differ in their DSL text, in sentences — with the code when asked, or
    when the sentences of both sides read the same."""
    words_a, words_b = facts(ga), facts(gb)
    code_a, code_b = facts(ga, code=True), facts(gb, code=True)
    out = []
    for d in _compare(code_a, code_b):
        same = words_a.get(d.label) == words_b.get(d.label)
        if not code and not same:
            d = Difference(d.label, words_a.get(d.label), words_b.get(d.label))
        out.append(d)
    return out


def compare(a: str, b: str, options: Mapping[str, object] | None = None, code: bool = False) -> Comparison:
    ga, gb = _game(a, options or {}), _game(b, options or {})
    out = Comparison(ga.spec.name or a, gb.spec.name or b)
    out.rules = _rules(ga, gb, code)
    out.payoffs = _compare(payoff_rows(payoffs(ga)), payoff_rows(payoffs(gb)))
    return out


def run(args: argparse.Namespace, console: Console) -> int:
    from interpreter.engine.game import parse_options
    result = compare(args.first, args.second, parse_options(args.option), code=args.code)
    if args.json:
        print(json.dumps(result.as_dict(), indent=2, ensure_ascii=False))
        return 1 if result.rules or result.payoffs else 0
    a, b = result.a, result.b
    if not result.rules and not result.payoffs:
        console.print(f"{escape(a)} and {escape(b)} have the same rules", highlight=False)
        return 0
    console.print(f"[bold]Rules[/] ({escape(a)} → {escape(b)})", highlight=False)
    for d in result.rules:
        console.print(f"  {escape(d.words(a, b))}", soft_wrap=True, highlight=False)
    if result.payoffs:
        console.print(f"[bold]Payoffs[/] ({escape(a)} → {escape(b)}; * depends on the score)", highlight=False)
        for d in result.payoffs:
            console.print(f"  {escape(d.words(a, b))}", soft_wrap=True, highlight=False)
    return 1


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("diff", help="what differs between two specs, in words and payoffs")
    p.add_argument("first", help="a bundled spec name or a spec file")
    p.add_argument("second", help="a bundled spec name or a spec file: what changes from the first")
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a table option, for each spec that declares it")
    p.add_argument("--json", action="store_true", help="print the differences as JSON")
    p.add_argument("--code", action="store_true",
                   help="follow each formula's sentence with its DSL text")
    p.set_defaults(run=run)
