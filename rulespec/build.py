"""Build the IR from a validated, option-resolved YAML tree.

Every DSL string is parsed here, so syntax errors surface at load time with the position
inside the YAML file. Diagnostics are collected, not raised one by one: a designer sees
every problem of a spec in one run.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rulespec import dsl, formula
from rulespec.errors import Diagnostic, Loc, SpecError, unknown
from rulespec.ir import (
    CARD_VERBS,
    COMMON_VERBS,
    Annulment,
    Cited,
    Contest,
    ContestCall,
    Count,
    Deck,
    Fold,
    Formula,
    HandFormat,
    HandValue,
    Match,
    OptionDecl,
    OptionValue,
    Outcome,
    Ranking,
    Schedule,
    Signals,
    Span,
    Spec,
    SpecialHand,
    StakeCall,
    Stakes,
    Table,
    Tricks,
    Trumps,
    Unraised,
    Wording,
)
from rulespec.yamlload import Located, format_path

Path = tuple[str | int, ...]
DECK: tuple[Path, ...] = (("ranking",), ("deck", "ranks"), ("deck", "suits"))
"""What a ranking's finding is made of: the ranking and the deck it orders."""
CITATION = ("source", "note")
"""Keys that cite a table rather than fill it, beside its entries."""


class Builder:
    """Walks one located tree, collecting diagnostics instead of stopping at the first."""

    def __init__(self, tree: Located, chosen: dict[str, OptionValue]) -> None:
        self.tree = tree
        self.chosen = chosen
        self.diagnostics: list[Diagnostic] = []
        self.disabled: list[str] = []

    # -- access -----------------------------------------------------------------------

    def get(self, path: Path, default: Any = None) -> Any:
        node: Any = self.tree.data
        for key in path:
            if isinstance(node, dict) and isinstance(key, str) and key in node:
                node = node[key]
            elif isinstance(node, list) and isinstance(key, int) and key < len(node):
                node = node[key]
            else:
                return default
        return node

    def span(self, path: Path) -> Span:
        return Span(self.tree.loc(path), format_path(path))

    def cited(self, path: Path) -> Cited:
        node = self.get(path)
        if not isinstance(node, dict):
            return Cited()
        return Cited(node.get("source"), wording(node.get("note"), self.get(("language",), "en")))

    def error(self, path: Path, message: str, related: tuple[Path, ...] = ()) -> None:
        self.diagnostics.append(Diagnostic("error", self.tree.loc(path), format_path(path), message,
                                           related=related))

    def reads(self, path: Path) -> tuple[Path, ...]:
        """The formula at `path` and the options it reads: what a finding about it is made of."""
        text = self.get(path)
        options = re.findall(r"\boptions\.([A-Za-z_][A-Za-z0-9_]*)", text) if isinstance(text, str) else []
        return (path,) + tuple(("options", name) for name in options)

    def locator(self, path: Path) -> Callable[[int], Loc]:
        tree = self.tree
        return lambda offset: tree.locate_in(path, offset)

    def formula(self, path: Path, default: Any = None) -> Formula:
        """Parse the formula at `path`; a missing one falls back to `default`. The type check has
        parsed every formula of the spec before it is built, so this one parses."""
        value = self.get(path, default)
        locate = self.locator(path)
        return Formula(dsl.parse_value(value, locate, path=format_path(path)), _literal(value), self.span(path), locate)

    def optional_formula(self, path: Path) -> Formula | None:
        return None if self.get(path) is None else self.formula(path)

    def constant(self, path: Path, default: Any) -> Any:
        """Evaluate a formula that may only depend on options (players, target)."""
        f = self.formula(path, default)
        env = formula.Env(constants=self.option_constants())
        try:
            compiled = formula.compile_expr(f.expr, env, f.locate, f.span.path)
        except SpecError as err:
            self.diagnostics.extend(err.diagnostics)
            return default
        return compiled.fn(None)

    def option_constants(self) -> dict[str, OptionValue]:
        return formula.option_constants(self.chosen)

    # -- sections ---------------------------------------------------------------------

    def build(self, file: str, options: tuple[OptionDecl, ...]) -> Spec:
        deck = self.deck()
        table = self.table()
        self.deal_fits(deck, table)
        spec = Spec(
            name=str(self.get(("name",), "")),
            title=str(self.get(("title",), self.get(("name",), ""))),
            source=self.get(("source",)),
            file=file,
            options=options,
            chosen=tuple(self.chosen.items()),
            deck=deck,
            ranking=self.ranking(deck),
            trumps=self.trumps(deck),
            values=self.values(),
            table=table,
            tricks=self.tricks(),
            stakes=self.stakes(),
            contests=self.contests(),
            fold=self.fold(),
            special_hands=self.special_hands(),
            annulments=self.annulments(),
            signals=self.signals(),
            match=self.match(),
            schedule=self.schedule(table),
            verbs=self.verbs(),
            disabled_calls=tuple(self.disabled),
            language=str(self.get(("language",), "en")),
            display=self.display(),
            raw=self.tree,
        )
        if self.diagnostics:
            raise SpecError(self.diagnostics)
        return spec

    def verbs(self) -> tuple[tuple[str, str], ...]:
        """Calls, annulments and the signal verb name actions, so each name is one action's;
        an alias that takes such a name would hide the action."""
        taken = {v: "the verb" for v in COMMON_VERBS + CARD_VERBS}
        named: list[tuple[Path, str, str]] = [(("stakes", "calls", n), n, "the call")
                                              for n in self.get(("stakes", "calls")) or {}]
        for contest, node in (self.get(("contests",)) or {}).items():
            named += [(("contests", contest, "calls", n), n, "the call") for n in (node.get("calls") or {})]
        named += [(("annul", n), n, "the annulment") for n in self.get(("annul",)) or {}]
        signals = self.get(("signals",))
        if signals is not None:
            named.append((("signals", "verb"), str(signals["verb"]), "the signal verb"))
        for path, name, what in named:
            if name in taken:
                self.diagnostics.append(Diagnostic("error", self.tree.key_loc(path), format_path(path),
                                                   f"{what} {name!r} takes the name of {taken[name]} {name!r}: "
                                                   "each action needs its own name"))
            taken.setdefault(name, what)
        out = []
        for alias, verb in (self.get(("verbs",)) or {}).items():
            if alias in CITATION:
                continue
            if alias in taken:
                self.diagnostics.append(Diagnostic("error", self.tree.key_loc(("verbs", alias)),
                                                   format_path(("verbs", alias)),
                                                   f"alias {alias!r} shadows {taken[alias]} {alias!r}: "
                                                   "name the alias otherwise"))
            out.append((str(alias), str(verb)))
        return tuple(out)

    def display(self) -> tuple[tuple[str, tuple[tuple[str, tuple[tuple[str, str], ...]], ...]], ...]:
        """Display labels per language (the schema checked their shape)."""
        out = []
        for language, kinds in (self.get(("display",)) or {}).items():
            if language in CITATION or not isinstance(kinds, dict):
                continue
            out.append((str(language), tuple((str(kind), tuple((str(k), str(v)) for k, v in (labels or {}).items()))
                                             for kind, labels in kinds.items())))
        return tuple(out)

    def deck(self) -> Deck:
        p: Path = ("deck",)
        if self.get(p) is None:
            self.error(p, "the spec needs a deck")
        suits = tuple(str(s) for s in self.get(p + ("suits",)) or ())    # a deck has both (the schema)
        ranks = tuple(str(r) for r in self.get(p + ("ranks",)) or ())
        points_raw = self.get(p + ("points",))
        points = []
        for r in ranks:
            if points_raw is not None and r not in points_raw:
                self.error(p + ("points",), f"rank {r!r} has no point value")
            points.append((r, int((points_raw or {}).get(r, 0))))
        points_raw = points_raw or {}
        for r in points_raw:
            if r not in ranks:
                self.error(p + ("points", r), f"{r!r} is not a rank of the deck {list(ranks)}", ((*p, "ranks"),))
        figures = frozenset(str(f) for f in self.get(p + ("figures",)) or [])
        for f in sorted(figures - set(ranks)):
            self.error(p + ("figures",), f"figure {f!r} is not a rank of the deck", (p + ("ranks",),))
        return Deck(suits, ranks, tuple(points), figures, int(self.get(p + ("hand_size",), 3)), self.cited(p))

    def deal_fits(self, deck: Deck, table: Table) -> None:
        """Every seat gets a whole hand, and the turned card is left to turn."""
        turned = self.get(("turned",)) is not None
        need = table.players * deck.hand_size + (1 if turned else 0)
        if deck.cards and need > len(deck.cards):
            plus = " plus the turned card" if turned else ""
            self.error(("deck", "hand_size"),
                       f"the deck has {len(deck.cards)} cards: {table.players} players × {deck.hand_size} cards"
                       f"{plus} need {need}", self.reads(("table", "players"))
                       + (("deck", "ranks"), ("deck", "suits"), ("turned",)))

    def ranking(self, deck: Deck) -> Ranking:
        p: Path = ("ranking",)
        text = self.get(p)
        if not isinstance(text, str):
            self.error(p, "the spec needs a ranking")
            return Ranking((), Cited(), self.span(p))
        try:
            parsed = dsl.parse_ranking(text, self.locator(p), path=format_path(p))
        except SpecError as err:
            self.diagnostics.extend(err.diagnostics)
            return Ranking((), Cited(), self.span(p))
        cards = deck.cards
        placed: set[str] = set()
        explicit = {i.text for tier in parsed.tiers for i in tier if i.text in cards}
        tiers: list[tuple[str, ...]] = []
        for tier in parsed.tiers:
            members: list[str] = []
            for item in tier:
                if item.text in cards:
                    group = [item.text]
                elif item.text in deck.ranks:
                    group = [item.text + s for s in deck.suits if item.text + s not in explicit]
                else:
                    self.diagnostics.append(Diagnostic(
                        "error", self.tree.locate_in(p, item.offset), format_path(p),
                        f"{item.text!r} is neither a card nor a rank of the deck", related=DECK))
                    continue
                for card in group:
                    if card in placed:
                        self.diagnostics.append(Diagnostic(
                            "error", self.tree.locate_in(p, item.offset), format_path(p),
                            f"card {card} is ranked twice"))
                    placed.add(card)
                    members.append(card)
            tiers.append(tuple(members))
        missing = [c for c in cards if c not in placed]
        if missing and self.get(("turned",)) is None:
            self.error(p, f"the ranking leaves out {', '.join(missing)}", DECK)
        return Ranking(tuple(tiers), Cited(), self.span(p))

    def trumps(self, deck: Deck) -> Trumps | None:
        p: Path = ("turned", "trumps")
        node = self.get(p)
        if node is None:
            return None
        kind = str(node.get("kind", "next_rank"))
        cycle = tuple(str(r) for r in node.get("cycle", []))
        ranks = tuple(str(r) for r in node.get("ranks", []))
        substitute = None if node.get("substitute") is None else str(node["substitute"])
        points = tuple((str(r), int(v)) for r, v in (node.get("points") or {}).items())
        for key, named in (("cycle", cycle), ("ranks", ranks), ("points", [r for r, _ in points]),
                           ("substitute", [substitute] if substitute else [])):
            for r in named:
                if r not in deck.ranks:
                    self.error(p + (key,), f"{r!r} is not a rank of the deck", (("deck", "ranks"),))
        order = tuple(s.strip() for s in str(node.get("suits", "")).split("<") if s.strip())
        if kind == "next_rank" and sorted(order) != sorted(deck.suits):
            self.error(p + ("suits",), f"the trump suit order must name each suit {list(deck.suits)} once",
                       (("deck", "suits"),))
        if kind == "next_rank" and not cycle:
            self.error(p + ("cycle",), "a next_rank trump needs the rank cycle")
        elif kind == "next_rank":
            missing = [r for r in deck.ranks if r not in cycle]
            twice = sorted({r for r in cycle if cycle.count(r) > 1})
            if missing:
                self.error(p + ("cycle",), f"the cycle leaves out {', '.join(missing)}: with such a card turned, "
                                           "no rank follows it", (("deck", "ranks"),))
            if twice:
                self.error(p + ("cycle",), f"the cycle lists {', '.join(twice)} more than once")
        if kind == "same_suit" and not ranks:
            self.error(p + ("ranks",), "a same_suit trump needs its ranks, strongest first")
        return Trumps(kind, cycle, order, ranks, substitute, points, self.cited(p))

    def values(self) -> tuple[HandValue, ...]:
        out = []
        for name, _node in (self.get(("values",)) or {}).items():
            p: Path = ("values", name)
            out.append(HandValue(name, self.formula(p + ("formula",)), self.optional_formula(p + ("holds",)),
                                 self.cited(p)))
        return tuple(out)

    def table(self) -> Table:
        """Two teams, no more: the engine pays a fold, a lost match and a decided hand to the one
        other team, and no source rulebook plays three teams to say otherwise."""
        p: Path = ("table",)
        players = self.constant(p + ("players",), 2)
        teams = int(self.get(p + ("teams",), 2))
        if teams != 2:
            self.error(p + ("teams",), "a table has exactly 2 teams: a call is answered by the other team, and "
                                       f"a fold, a lost match and a decided hand score for it; got {teams}")
            teams = 2
        if not isinstance(players, int) or players < 2 or players % teams:
            # the options the formula reads are the finding's own (blame.py); the teams are always 2
            self.error(p + ("players",), f"{players!r} players cannot sit in {teams} alternating teams")
            players = teams
        return Table(players, teams, str(self.get(p + ("dealer",), "next")),
                     str(self.get(p + ("answer",), "next_opponent")), self.cited(p))

    def tricks(self) -> Tricks:
        p: Path = ("tricks",)
        outcomes = []
        for pattern, result in (self.get(p + ("outcome",)) or {}).items():
            if pattern in CITATION:
                continue
            op = p + ("outcome", pattern)     # the schema's key pattern is the grammar's: it parses
            parsed = dsl.parse_outcome(pattern, self.locator(op), path=format_path(op))
            if "B" in parsed and ("A" not in parsed or parsed.index("B") < parsed.index("A")):
                self.diagnostics.append(Diagnostic(
                    "error", self.tree.key_loc(op), format_path(op),
                    f"the pattern {pattern!r} names B before A: A is the team that won the first trick not "
                    "tied, so that trick is written A"))
            elif str(result) in ("A", "B") and "A" not in parsed:
                self.error(op, f"the result {result!r} names a team, but the pattern {pattern!r} has no trick won "
                               "to say which: give the hand to mano or none")
            outcomes.append(Outcome(tuple(parsed), str(result), self.span(op)))
        return Tricks(int(self.get(p + ("count",), 3)), str(self.get(p + ("after_tie",), "same_leader")),
                      str(self.get(p + ("partners_tie",), "team_wins")),
                      self.optional_formula(p + ("cover", "when")), bool(self.get(p + ("cover", "counts"))),
                      tuple(outcomes), self.cited(p + ("outcome",)),
                      self.cited(p), self.span(p), self.cited(p + ("cover",)))

    def stakes(self) -> Stakes:
        p: Path = ("stakes",)
        calls = []
        for name in (self.get(p + ("calls",)) or {}):
            cp = p + ("calls", name)
            declined_default = self.get(p + ("declined",), "stake")
            calls.append(StakeCall(name, self.formula(cp + ("worth",)),
                                   self.formula(cp + ("declined",), declined_default),
                                   self.cited(cp), self.span(cp)))
        return Stakes(self.formula(p + ("base",), 1), tuple(calls), self.formula(p + ("when",), True),
                      str(self.get(p + ("raise",), "accepting_team")), self.cited(p), self.span(p))

    def contests(self) -> tuple[Contest, ...]:
        out = []
        for name, node in (self.get(("contests",)) or {}).items():
            p: Path = ("contests", name)
            if not self.enabled(p):
                self.disabled.extend(node.get("calls") or {})
                continue
            calls = []
            for cname in node.get("calls") or {}:
                cp = p + ("calls", cname)
                if not self.enabled(cp):
                    self.disabled.append(cname)
                    continue
                after = tuple(str(a) for a in self.get(cp + ("after",)) or [])
                mx = self.get(cp + ("max",))
                calls.append(ContestCall(
                    cname, self.formula(cp + ("worth",), 0), bool(self.get(cp + ("opens",), not after)),
                    after, int(mx) if mx is not None else None, bool(self.get(cp + ("declare",))),
                    _asks(self.get(cp + ("asks",))), self.formula(cp + ("allowed",), True),
                    self.optional_formula(cp + ("accept",)), self.optional_formula(cp + ("decline",)),
                    self.cited(cp), self.span(cp)))
            names = {c.name for c in calls}
            written = list(node.get("calls") or {})
            for i, c in enumerate(calls):
                for a in c.after:
                    if a not in written:
                        self.error(p + ("calls", c.name, "after"), f"{a!r} is not a call of contest {name!r}"
                                   + unknown(a, written, "its calls"))
                # a call switched off by the options cannot be answered
                calls[i] = replace(c, after=tuple(a for a in c.after if a in names))
            up = p + ("unraised",)
            unraised = None
            if self.get(up) is not None:
                unraised = Unraised(str(self.get(up + ("mode",), "compare")), self.formula(up + ("pays",)))
            elif any(c.declare for c in calls):
                # a declaration nobody answers is scored by this rule: without it play cannot go on
                self.error(p, f"contest {name!r} has declarations (declare: true) but no `unraised:` rule "
                              "saying what a declaration nobody answers scores")
            kp = p + ("count",)
            count = Count(str(self.get(kp + ("procedure",), "announce")), self.formula(kp + ("good",), True),
                          self.formula(kp + ("announce",), True), str(self.get(kp + ("tie",), "nearer_lead")),
                          self.cited(kp), self.span(kp), str(self.get(kp + ("show",), "never")),
                          str(self.get(kp + ("order",), "in_turn")))
            value = str(self.get(p + ("value",), name))
            if value not in (self.get(("values",)) or {}):
                self.error(p + ("value",), f"{value!r} is not a hand value defined under values")
            out.append(Contest(
                name, value, self.formula(p + ("window",), True), self.formula(p + ("interrupt",), False),
                tuple(calls), self.formula(p + ("accept",), "total"),
                self.formula(p + ("decline",), "if calls == 1 then 1 else total_but_last"),
                unraised, count, tuple(str(c) for c in self.get(p + ("cancels",)) or []),
                self.cited(p), self.span(p), str(self.get(p + ("declaration",), "optional"))))
        return tuple(out)

    def enabled(self, path: Path) -> bool:
        return bool(self.constant(path + ("enabled",), True))

    def fold(self) -> Fold:
        p: Path = ("fold",)
        return Fold(self.formula(p + ("when",), "my_turn or answering"), self.formula(p + ("pays",), "stake"),
                    str(self.get(p + ("pending_contest",), "declined")), self.cited(p),
                    str(self.get(p + ("count",), "conceded")))

    def special_hands(self) -> tuple[SpecialHand, ...]:
        out = []
        for name, node in (self.get(("special_hands",)) or {}).items():
            p: Path = ("special_hands", name)
            out.append(SpecialHand(name, self.formula(p + ("if",)), self.optional_formula(p + ("base",)),
                                   node.get("forbid_stakes"),
                                   None if node.get("blind") in (None, False) else self.formula(p + ("blind",)),
                                   self.cited(p), self.span(p)))
        return tuple(out)

    def annulments(self) -> tuple[Annulment, ...]:
        out = []
        for name, node in (self.get(("annul",)) or {}).items():
            p: Path = ("annul", name)
            if self.enabled(p):
                out.append(Annulment(name, self.formula(p + ("holds",)), self.formula(p + ("when",), True),
                                     str(node.get("dealer", "same")), self.cited(p)))
            else:
                self.disabled.append(name)
        return tuple(out)

    def signals(self) -> Signals | None:
        p: Path = ("signals",)
        node = self.get(p)
        if node is None:
            return None
        return Signals(str(node["verb"]), tuple(str(n) for n in node["names"]),            # both required
                       str(node.get("to", "table")), self.cited(p))

    def schedule(self, table: Table) -> Schedule | None:
        """The rounds of hand formats, if the spec plays them under these options."""
        p: Path = ("schedule",)
        if self.get(p) is None or not self.enabled(p):
            return None
        formats = []
        for i, node in enumerate(self.get(p + ("formats",)) or []):
            fp: Path = p + ("formats", i)
            seats = str(node["seats"])                     # required
            if seats == "facing" and (table.players // 2) % table.teams == 0:     # players are even
                self.error(fp + ("seats",), f"at {table.players} players a seat does not face an opponent: "
                                            "facing pairs need the seat across the table on the other team")
            formats.append(HandFormat(str(node.get("name", seats)), seats, self.cited(fp)))
        return Schedule(self.formula(p + ("if",), True), tuple(formats), self.cited(p),
                        str(self.get(p + ("check",), "round")))

    def match(self) -> Match:
        p: Path = ("match",)
        target = self.constant(p + ("target",), 30)
        if not isinstance(target, int) or target < 1:     # the type check has refused a condition
            self.error(p + ("target",), f"the target must be a positive number of points, not {target!r}")
            target = 1
        return Match(target, str(self.get(p + ("end",), "immediately")), self.cited(p), self.span(p))


def _literal(value: Any) -> str:
    """A formula's text as its spec writes it: YAML's true/false, not Python's."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


TYPE_NAMES = {int: "int", bool: "bool", str: "string"}


def wording(value: Any, language: str) -> Wording | None:
    """A note or doc as the schema allows it: a string in the spec's `language`, or a mapping
    language → text (the spec's language first)."""
    if value is None:
        return None
    if isinstance(value, dict):
        texts = sorted(((str(k), str(v)) for k, v in value.items()), key=lambda kv: kv[0] != language)
        return Wording(tuple(texts))
    return Wording(((language, str(value)),))


def build_options(tree: Located) -> tuple[OptionDecl, ...]:
    """Read the option declarations; they do not depend on any chosen value."""
    out, diagnostics = read_options(tree)
    if diagnostics:
        raise SpecError(diagnostics)
    return out


def read_options(tree: Located, shapeless: frozenset[str] = frozenset()) -> tuple[tuple[OptionDecl, ...],
                                                                                 list[Diagnostic]]:
    """The option declarations and what is wrong with them, `shapeless` ones (refused by the
    schema, so without the keys read here) left out."""
    diagnostics: list[Diagnostic] = []
    out = []
    entries = tree.data.get("options")
    for name, node in entries.items() if isinstance(entries, dict) else ():
        if name in shapeless or not isinstance(node, dict):
            continue
        p: Path = ("options", name)
        values = tuple(node["values"])                  # the schema requires values, one at least, and a default
        default = node["default"]
        if default not in values or type(default) is not type(values[0]):
            diagnostics.append(Diagnostic("error", tree.loc(p + ("default",)), format_path(p + ("default",)),
                                          f"default {default!r} is not one of the allowed values {list(values)}"))
        declared = node.get("type", TYPE_NAMES[type(values[0])])
        wrong = [v for v in values if TYPE_NAMES.get(type(v)) != declared]
        if wrong:
            diagnostics.append(Diagnostic("error", tree.loc(p + ("values",)), format_path(p + ("values",)),
                                          f"the allowed values must all be of type {declared}, not {wrong}"))
        language = str(tree.data.get("language", "en"))
        out.append(OptionDecl(name, declared, values, default, str(node.get("kind", "table")),
                              wording(node.get("doc"), language),
                              Cited(node.get("source"), wording(node.get("note"), language))))
    return tuple(out), diagnostics


def _asks(value: object) -> str:
    """`asks: true` asks the next opposing holder; `asks: all` every other holder in turn."""
    return "all" if value == "all" else "opponents" if value is True else ""
