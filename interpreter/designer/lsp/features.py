"""Completion, hover, definition, references and code actions on one analysed buffer.

Each function takes the buffer's Analysis and an LSP position and returns lsprotocol types;
the server only routes requests here, so the tests may call them directly too.
"""
from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

from rulespec import dsl
from rulespec.blame import parse_path
from rulespec.errors import Loc, SpecError
from rulespec.ir import CARD_VERBS, COMMON_VERBS
from rulespec.load import bundled_names
from rulespec.prose import Prose
from rulespec.rulebook_i18n import catalog
from rulespec.schema import deref, schema_at
from rulespec.vocabulary import (
    FUNCTIONS,
    NAMES,
    SCOPE_WORDS,
    SITE_SCOPES,
    SITE_WORDS,
    Type,
    site_of,
)
from rulespec.yamlload import Located, load_yaml

from interpreter.designer.lsp import cases, refs
from interpreter.designer.lsp.analysis import ENGINE_ERRORS, Analysis, value_at, word_at
from interpreter.designer.lsp.context import KEY, Context, context_at
from interpreter.designer.lsp.known import (
    calls_of,
    cards_of,
    deck_items,
    game_of,
    item,
    options_of,
    ranks_of,
    spec_data,
)

PROSE_KEYS = ("source", "note", "doc", "title")
ENTRY_MAPS = (("options",), ("stakes", "calls"), ("contests",), ("contests", "*", "calls"), ("values",),
              ("special_hands",), ("annul",), ("when",))
"""Mappings whose entries are declarations, each of which may cite its `source:`."""


def _docs(node: Any) -> str:
    node = deref(node) if isinstance(node, dict) else {}
    return " — ".join(x for x in (node.get("title"), node.get("description")) if x)


# -- names of the spec ----------------------------------------------------------------------


CARD_VALUE = "#/$defs/cardValue"
RANK_KEYED = (("deck", "points"), ("turned", "trumps", "points"))
"""Mappings keyed by the deck's ranks."""
_CALLED = re.compile(r"(\w+)\(\s*['\"]\w*$")


def _spec_path(path: tuple) -> tuple:
    """The path in the spec of a node written under a `when` entry's `set`."""
    return path[3:] if len(path) >= 3 and path[0] == "when" and path[2] == "set" else path


def card_place(a: Analysis, ctx: Context) -> str | None:
    """What of the deck the value at the cursor names: "cards" (a card id or a rank, as in
    the ranking or a card-valued option), "ranks", "suits", or None where no card belongs."""
    if ctx.key is None:
        return "ranks" if _spec_path(ctx.path) in RANK_KEYED else None
    path = _spec_path(ctx.value_path)
    if path == ("ranking",):
        return "cards"
    if path == ("turned", "trumps", "suits"):
        return "suits"
    if site_of(ctx.value_path) is not None:
        called = _CALLED.search(ctx.text)
        wants = FUNCTIONS[called.group(1)].names if called and called.group(1) in FUNCTIONS else None
        return "ranks" if wants == "rank" else None
    node = schema_at(ctx.value_path, raw=True)
    if node is not None and ctx.in_list:
        node = deref(node).get("items")
    if isinstance(node, dict) and node.get("$ref") == CARD_VALUE:
        return "ranks"
    if path[:1] == ("options",) and len(path) == 3 and path[2] == "values" and ctx.in_list:
        return "cards" if _card_valued(a, str(path[1]), ctx.text.strip("\"'")) else None
    return None


def _card_valued(a: Analysis, option: str, typing: str) -> bool:
    """Whether an option's values may be cards: every value known of it but the one being typed
    (its values and default, in this file and its base) is a card or a rank of the deck. An
    option with no value known yet may be one, so its first value completes the deck too."""
    known: list[Any] = []
    for data in (spec_data(a), a.base.data if a.base is not None else None):
        node = value_at(data, ("options", option))
        if isinstance(node, dict):
            known += [v for v in node.get("values") or [] if v is not None]
            known += [node["default"]] if node.get("default") is not None else []
    deck = set(cards_of(a)) | set(ranks_of(a))
    return all(str(v) in deck for v in known if str(v) != typing)


def declarations(a: Analysis, word: str) -> list[tuple]:
    """The paths declaring a name: a call, an option, a contest, a hand value, an option value."""
    data = spec_data(a)
    out: list[tuple] = []
    calls = calls_of(a)
    if word in calls:
        out.append(calls[word])
    for key in ("options", "contests", "values", "special_hands", "annul", "when"):
        if isinstance(data.get(key), dict) and word in data[key]:
            out.append((key, word))
    for name, node in options_of(a).items():
        values = node.get("values") or []
        if word in [str(v) for v in values]:
            out.append(("options", name, "values", [str(v) for v in values].index(word)))
    return out


# -- completion -----------------------------------------------------------------------------


def completion(a: Analysis, line: int, char: int) -> list[lsp.CompletionItem]:
    if a.case:
        return list(cases.completion(a, line, char))
    ctx = context_at(a.text, line, char)
    if ctx.key is None:
        return list(_keys(a, ctx))
    return list(_values(a, ctx))


def _keys(a: Analysis, ctx: Context) -> Iterator[lsp.CompletionItem]:
    present = value_at(a.own.data if a.own else None, ctx.path)
    present = (set(present) if isinstance(present, dict) else set()) | set(ctx.written)
    place = card_place(a, ctx)
    if place is not None:
        yield from (item(i.label, lsp.CompletionItemKind.Constant, i.detail or "", insert=f"{i.label}: ")
                    for i in deck_items(a, place) if i.label not in present)
        return
    node = schema_at(ctx.path)
    seen: set[str] = set()
    if node is not None:
        for key, sub in (node.get("properties") or {}).items():
            if key not in present:
                seen.add(key)
                yield item(key, lsp.CompletionItemKind.Property, _docs(sub).split(" — ")[0], _docs(sub),
                            f"{key}: ")
    if ctx.path == () and not present:         # an empty file may also begin a case file
        yield item("spec", lsp.CompletionItemKind.Module, "a conformance case file: the spec its cases are about",
                    "Begins a conformance case file (docs/conformance.md), not a spec.", "spec: ")
    entries: list[str] = []                     # entries of the base the file may override
    for data in (spec_data(a), a.base.data if a.base is not None else None):
        for path in dict.fromkeys((ctx.path, _spec_path(ctx.path))):     # under a `when`'s set, the spec's
            found = value_at(data, path)        # (a key just typed, still empty, removes the base's)
            entries += list(found) if isinstance(found, dict) else []
    if entries:
        for key in dict.fromkeys(entries):
            if key not in present and key not in seen:
                yield item(key, lsp.CompletionItemKind.Field, "an entry of the base", insert=f"{key}:")


def _values(a: Analysis, ctx: Context) -> Iterator[lsp.CompletionItem]:
    path = ctx.value_path
    text = ctx.text.lstrip("\"'")
    place = card_place(a, ctx)
    if place is not None:
        yield from deck_items(a, place)
        return
    site = site_of(path)
    if site is not None and not ctx.in_list:
        yield from _formula(a, site, text)
        return
    if ctx.key == "after":
        names: list[str] = []
        for data in (spec_data(a), a.base.data if a.base else None, a.own.data if a.own else None):
            for calls in dict.fromkeys((ctx.path[:-1], _spec_path(ctx.path[:-1]))):
                found = value_at(data, calls)
                names += list(found) if isinstance(found, dict) else []
        for name in dict.fromkeys(names):
            if name not in PROSE_KEYS:
                yield item(name, lsp.CompletionItemKind.Function, "a call of this contest")
        return
    spec_path = _spec_path(path)
    if len(spec_path) == 3 and spec_path[0] == "contests" and spec_path[2] in ("value", "cancels"):
        kind, names = (("a hand value", list(spec_data(a).get("values") or {})) if spec_path[2] == "value"
                       else ("a contest", [c for c in spec_data(a).get("contests") or {} if c != spec_path[1]]))
        for name in names:
            yield item(name, lsp.CompletionItemKind.EnumMember, kind)
        return
    if ctx.key == "extends":
        for name in bundled_names():
            yield item(name, lsp.CompletionItemKind.Module, "a bundled spec")
        return
    if ctx.path[:1] == ("options",) and len(ctx.path) == 2 and ctx.key == "default":
        for v in (options_of(a).get(ctx.path[1]) or {}).get("values") or []:
            yield item(json.dumps(v) if isinstance(v, bool) else str(v), lsp.CompletionItemKind.EnumMember,
                        f"a value of {ctx.path[1]}")
        return
    if ctx.path == ("verbs",):          # an alias stands for a verb, a call, an annulment or the signal verb
        for verb in COMMON_VERBS + CARD_VERBS:
            yield item(verb, lsp.CompletionItemKind.Keyword, "a verb")
        data = spec_data(a)
        for call in calls_of(a):
            if call not in PROSE_KEYS:
                yield item(call, lsp.CompletionItemKind.Function, "a call")
        for name in data.get("annul") or {}:
            if name not in PROSE_KEYS:
                yield item(name, lsp.CompletionItemKind.Function, "an annulment")
        signals = data.get("signals")
        if isinstance(signals, dict):
            yield item(str(signals.get("verb", "signal")), lsp.CompletionItemKind.Function, "the signal verb")
        return
    node = schema_at(path)
    if node is not None:
        if isinstance(node.get("items"), dict) and ctx.in_list:
            node = deref(node["items"])
        for v in node.get("enum") or []:
            yield item(str(v), lsp.CompletionItemKind.EnumMember, _docs(node).split(" — ")[0], _docs(node))
        if node.get("type") == "boolean":
            for v in ("true", "false"):
                yield item(v, lsp.CompletionItemKind.EnumMember)


_OPTION_VALUE = re.compile(r"options\.([A-Za-z_]\w*)\s*(?:==|!=)\s*['\"]?\w*$")


def _formula(a: Analysis, site: Any, text: str) -> Iterator[lsp.CompletionItem]:
    """Names valid in this formula's scope, with their types; options; call and contest names."""
    m = _OPTION_VALUE.search(text)
    if m:
        for v in (options_of(a).get(m.group(1)) or {}).get("values") or []:
            shown = json.dumps(v) if isinstance(v, bool) else str(v)
            yield item(shown, lsp.CompletionItemKind.EnumMember, f"a value of options.{m.group(1)}")
        return
    if re.search(r"options\.\w*$", text):
        for name, node in options_of(a).items():
            values = ", ".join(str(v) for v in node.get("values") or [])
            yield item(name, lsp.CompletionItemKind.Variable, f"option ({values})", _doc(node.get("doc")))
        return
    called = _CALLED.search(text)
    if called and called.group(1) in FUNCTIONS:
        wants = FUNCTIONS[called.group(1)].names
        names = list(calls_of(a)) if wants == "call" else list(spec_data(a).get("contests") or {})
        for name in names:
            if name not in PROSE_KEYS:
                yield item(name, lsp.CompletionItemKind.EnumMember, f"a {wants}")
        return
    scopes = SITE_SCOPES[site.kind]
    for name, n in NAMES.items():
        if n.scope in scopes:
            yield item(name, lsp.CompletionItemKind.Variable, f"{n.type.value} — {n.scope.value}", n.doc)
    for name, f in FUNCTIONS.items():
        if f.scope in scopes:
            args = ", ".join(t.value for t in f.args) + (", ..." if f.variadic else "")
            yield item(name, lsp.CompletionItemKind.Function, f"({args}) -> {f.result.value} — {f.scope.value}",
                        f.doc, f"{name}(")
    yield item("options", lsp.CompletionItemKind.Module, "options.NAME: a table option's value", insert="options.")
    if site.type == Type.CONDITION:         # `blind: true`: a condition may be a constant
        for word, holds in (("true", "always"), ("false", "never")):
            yield item(word, lsp.CompletionItemKind.Keyword, f"a condition that {holds} holds")


# -- hover ----------------------------------------------------------------------------------


def hover(a: Analysis, line: int, char: int) -> lsp.Hover | None:
    lines = a.text.split("\n")
    if line >= len(lines):
        return None
    found = word_at(lines[line], char)
    ctx = context_at(a.text, line, len(lines[line]))
    parts: list[str] = []
    span = None
    cited: tuple | None = None      # the node whose citation the hover shows, when not the cursor's
    if found is not None:
        word, start, end = found
        span = lsp.Range(lsp.Position(line, start), lsp.Position(line, end))
        before = lines[line][:start]
        # the value at the word (a flow may close later on the line) or the line's key's value
        site = next((site_of(c.value_path) for c in (context_at(a.text, line, end), ctx)
                     if c.key is not None and site_of(c.value_path) is not None), None)
        in_formula = site is not None
        if before.endswith("options.") or (ctx.path == ("options",) and ctx.key == word):
            parts += _hover_option(a, word)
        if word in calls_of(a) and not before.endswith("options."):
            parts += _hover_call(a, word)
        if in_formula and word in NAMES and not before.endswith("."):
            n = NAMES[word]
            parts.append(f"**{word}**: {n.type.value}, {n.scope.value} ({SCOPE_WORDS[n.scope]})\n\n{n.doc}")
        if in_formula and word in FUNCTIONS:
            f = FUNCTIONS[word]
            args = ", ".join(t.value for t in f.args) + (", ..." if f.variadic else "")
            parts.append(f"**{word}**({args}) -> {f.result.value}, {f.scope.value}\n\n{f.doc}")
        if site is not None and not parts:
            parts.append(f"a formula giving {site.type.described}, {SITE_WORDS[site.kind]}")
        key = KEY.match(lines[line])
        if a.case:                  # a key of the case format: at the line's start, or in a flow mapping
            inner = context_at(a.text, line, end)
            if key is not None and key.start("key") == start and ctx.key == word:
                parts += [m for m in (cases.meaning(ctx.path, word),) if m]
            elif inner.key is None and inner.text == word and lines[line][end:].lstrip().startswith(":"):
                parts += [m for m in (cases.meaning(inner.path, word),) if m]
        entry = None if a.case else _entry_at(a, line, char)
        if entry is not None:           # an annulment, special hand or `when` entry, where declared or used
            parts += _hover_entry(a, entry)
            cited = entry
        if key is not None and key.start("key") == start and ctx.key == word and not a.case and entry is None \
                and not any(p.startswith(("**option", "**call")) for p in parts):   # a key: what the schema says
            docs = _docs(schema_at(ctx.value_path) or {})
            parts += [f"**{word}**: {docs}"] if docs else []
        if word in cards_of(a):
            parts += _hover_card(a, word)
        elif word in ranks_of(a) and card_place(a, context_at(a.text, line, start)) in ("cards", "ranks"):
            parts += _hover_rank(a, word)
    if not a.case:
        parts += _citation(a, cited or (ctx.value_path if ctx.key is not None else ctx.path))
    if not parts:
        return None
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, "\n\n---\n\n".join(parts)), span)


def _hover_option(a: Analysis, word: str) -> list[str]:
    node = options_of(a).get(word)
    if node is None:
        return []
    values = " | ".join(json.dumps(v) if isinstance(v, bool) else str(v) for v in node.get("values") or [])
    kind = node.get("kind", "table")
    return [f"**option {word}** ({kind}): {values}; default {node.get('default', (node.get('values') or [None])[0])}"
            + (f"\n\n{_doc(node['doc'])}" if node.get("doc") else "")]


def _doc(doc: Any) -> str:
    """An option's doc as written: a string, or one paragraph per language of a mapping."""
    if isinstance(doc, dict):
        return "\n\n".join(f"{language}: {text}" for language, text in doc.items())
    return str(doc or "")


def _hover_call(a: Analysis, word: str) -> list[str]:
    path = calls_of(a)[word]
    where = "the stake" if path[0] == "stakes" else f"contest {path[1]}"
    out = [f"**call {word}** of {where}"]
    node = value_at(spec_data(a), path)
    if isinstance(node, dict) and node.get("worth") is not None:
        out.append(f"worth: `{node['worth']}`")
    table = _payoffs(a)
    if table is None:
        return ["\n\n".join(out)]
    from interpreter.designer.payoffs import show
    for step in table.ladder:
        if step.call == word:
            out.append(f"accepted: the hand is worth {step.accepted}; declined: {step.declined} "
                       f"to the caller")
    rows = [c for c in table.chains if c.calls and c.calls[-1] == word]
    if rows:
        out.append("| chain | accepted | declined |\n|---|---|---|" + "".join(
            f"\n| {' '.join(c.calls)} | {show(c.accepted)} | {show(c.declined)} |" for c in rows))
    return ["\n\n".join(out)]


def _payoffs(a: Analysis) -> Any:
    """The payoff tables under the default options (computed once per analysis)."""
    if a.cache.get("payoffs", False) is not False:
        return a.cache["payoffs"]
    table = None
    game = game_of(a)
    if game is not None:
        from interpreter.designer.payoffs import payoffs
        try:
            table = payoffs(game)
        except ENGINE_ERRORS:   # a spec the engine cannot play has no table to show
            table = None
    a.cache["payoffs"] = table
    return table


def _rank(strength: tuple[int, ...], card: int) -> tuple[int, int]:
    levels = sorted(set(strength), reverse=True)
    return levels.index(strength[card]) + 1, len(levels)


def _hover_card(a: Analysis, word: str) -> list[str]:
    game = game_of(a)
    spec = a.spec
    if spec is None:
        return []
    text = f"**card {word}**"
    for i, tier in enumerate(spec.ranking.tiers):
        if word in tier:
            ties = [c for c in tier if c != word]
            text += f": rank {i + 1} of {len(spec.ranking.tiers)} under the ranking" + (
                f" (ties with {', '.join(ties)})" if ties else "")
    if game is not None and game.turns_card:
        idx = game.cards.index[word]
        rows = []
        for turned, row in game.strength.items():
            if turned is None:
                continue
            r, n = _rank(row, idx)
            rows.append(f"| {game.cards.ids[turned]} | {r} of {n} |")
        text += "\n\n| turned | rank |\n|---|---|\n" + "\n".join(rows)
    return [text]


def _hover_rank(a: Analysis, rank: str) -> list[str]:
    """Every card of a bare rank: its rank under the ranking and under each turned card."""
    spec = a.spec
    if spec is None:
        return []
    cards = [c for c in spec.deck.cards if c[:len(rank)] == rank and c[len(rank):] in spec.deck.suits]
    tiers = {c: i + 1 for i, tier in enumerate(spec.ranking.tiers) for c in tier}
    n = len(spec.ranking.tiers)
    text = f"**rank {rank}** under the ranking: " + ", ".join(f"{c} {tiers[c]} of {n}" for c in cards if c in tiers)
    game = game_of(a)
    if game is not None and game.turns_card:
        idx = [game.cards.index[c] for c in cards]
        rows = []
        for turned, row in game.strength.items():
            if turned is not None:
                ranks = [_rank(row, i) for i in idx]
                rows.append(f"| {game.cards.ids[turned]} | " + " | ".join(f"{r} of {k}" for r, k in ranks) + " |")
        text += (f"\n\n| turned | {' | '.join(cards)} |\n|---|{'---|' * len(cards)}\n" + "\n".join(rows))
    return [text]


ENTRY_KINDS = {"annulment": "annul", "special_hand": "special_hands", "when": "when"}
"""The named entries whose uses hover as their declaration, and the mapping declaring each."""
PROSE = Prose(catalog("en"), lambda name: name.replace("_", " "))


def _entry_at(a: Analysis, line: int, char: int) -> tuple[str, str] | None:
    """The declaration path of the annulment, special hand or `when` entry the structure names
    at the cursor: its key, an alias's value under `verbs:`, a `when`'s `set`, a display label."""
    data = spec_data(a)
    for target in sorted(_targets_at(a, line, char), key=lambda t: t.kind):
        key = ENTRY_KINDS.get(target.kind)
        if key is not None and isinstance(value_at(data, (key, target.name)), dict):
            return key, target.name
    return None


def _hover_entry(a: Analysis, path: tuple[str, str]) -> list[str]:
    """What the schema says of the entry, and each of its conditions in words with its DSL text."""
    node = value_at(spec_data(a), path)
    out = [f"**{path[1]}**: {_docs(schema_at(path) or {})}"]
    for key, text in node.items():
        site = site_of(path + (key,))
        if isinstance(text, str) and site is not None and site.type == Type.CONDITION:
            out.append(f"**{key}**: {_in_words(text)} — `{text}`")
    return ["\n\n".join(out)]


def _in_words(text: str) -> str:
    """A condition as a sentence (rulespec/prose.py); one that does not parse, as written."""
    try:
        return PROSE.cond(dsl.parse_expr(text, lambda offset: Loc("", 1, offset + 1)))
    except SpecError:       # the diagnostics say what is wrong with it
        return text


def _citation(a: Analysis, path: tuple) -> list[str]:
    """The `source:` nearest the node at `path`. One this file inherits from its base over a
    node it changes cites the base's rule, not this file's: it is shown as the base's, after
    what this file changes (a call the house makes worth 4 does not keep the base's "3")."""
    data = spec_data(a)
    for n in range(len(path), -1, -1):
        node = value_at(data, path[:n])
        if isinstance(node, dict) and isinstance(node.get("source"), str):
            changed = _changes(a, path[:n])
            if not changed:
                return [f"source: {node['source']}"]
            shown = [f"`{'.'.join(map(str, p))}: {_shown(mine)}` (base: `{_shown(theirs)}`)"
                     for p, mine, theirs in changed[:MAX_CHANGES]]
            more = " …" if len(changed) > MAX_CHANGES else ""
            return [f"**changed by this variant**: {', '.join(shown)}{more}", f"base: {node['source']}"]
    return []


MAX_CHANGES = 6


def _changes(a: Analysis, path: tuple) -> list[tuple[tuple, Any, Any]]:
    """The values this file writes under `path`, without a `source:` of its own there, that
    differ from its base's: (path below `path`, this file's value, the base's)."""
    if a.own is None or a.base is None:
        return []
    mine = value_at(a.own.data, path)
    if mine is None or (isinstance(mine, dict) and "source" in mine):
        return []
    out = []
    for sub, value in _leaves(mine):
        theirs = value_at(a.base.data, path + sub)
        if value != theirs:
            out.append((sub, value, theirs))
    return out


def _leaves(node: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """The scalar (and list) values of a mapping, prose keys aside."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in PROSE_KEYS:
                yield from _leaves(value, path + (key,))
    else:
        yield path, node


def _shown(value: Any) -> str:
    return "none" if value is None else json.dumps(value) if isinstance(value, bool) else str(value)


# -- definition and references --------------------------------------------------------------


def _location(loc: Any) -> lsp.Location:
    return lsp.Location(Path(loc.file).resolve().as_uri(),
                        lsp.Range(lsp.Position(loc.line - 1, loc.col - 1), lsp.Position(loc.line - 1, loc.col - 1)))


def definition(a: Analysis, line: int, char: int, read: Any = None) -> list[lsp.Location]:
    """The declarations of what the spec's structure names at the cursor (the one under the
    cursor aside, unless it is the only one); for a word it does not use structurally, of
    every declaration spelled so."""
    lines = a.text.split("\n")
    if line >= len(lines):
        return []
    if re.match(r"\s*extends\s*:", lines[line]) and a.base_path is not None:
        return [lsp.Location(a.base_path.resolve().as_uri(), lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)))]
    targets = _targets_at(a, line, char)
    if targets:
        found = [u for u in refs.references(a.files(), _reader(a, read), targets) if u.declaration]
        elsewhere = [u for u in found if not (Path(u.loc.file) == a.path and u.loc.line - 1 == line)]
        return [_location(u.loc) for u in elsewhere or found]
    word = word_at(lines[line], char)
    if word is None:
        return []
    out = []
    for path in (_acted(a, word[0]) if a.case else None) or declarations(a, word[0]):
        tree: Located | None = a.base if a.base is not None and value_at(a.base.data, path) is not None else a.tree
        if tree is None:
            continue
        loc = tree.key_locs.get(path) or tree.locs.get(path)
        if loc is not None:
            out.append(_location(loc))
    return out


def _acted(a: Analysis, word: str) -> list[tuple]:
    """In a case file, what an action's verb is declared as in the spec: a call, an
    annulment or a `verbs:` alias (not the contest or option spelled alike)."""
    data = spec_data(a)
    if word in calls_of(a):
        return [calls_of(a)[word]]
    return [(key, word) for key in ("annul", "verbs") if isinstance(data.get(key), dict) and word in data[key]]


def references(a: Analysis, line: int, char: int, read: Any = None,
               declaration: bool = True) -> list[lsp.Location]:
    """Where the spec's structure uses the call, contest, hand value, option or option value
    under the cursor, in this file and the files it extends (see refs.py)."""
    targets = _targets_at(a, line, char)
    if not targets:
        return []
    return [lsp.Location(Path(u.loc.file).resolve().as_uri(),
                         lsp.Range(lsp.Position(u.loc.line - 1, u.loc.col - 1),
                                   lsp.Position(u.loc.line - 1, u.loc.col - 1 + u.length)))
            for u in refs.references(a.files(), _reader(a, read), targets, declaration)]


def _targets_at(a: Analysis, line: int, char: int) -> set[refs.Target]:
    """What the structure of this buffer names at the cursor (nothing in prose)."""
    here = _tree_of(a.path, a.text) or a.own
    if here is None:
        return set()
    return {t for t, loc, _ in refs.uses(here)
            if loc.line - 1 == line and loc.col - 1 <= char <= loc.col - 1 + len(t.name)}


def _reader(a: Analysis, read: Any) -> Any:
    """A file's text: this buffer's, another open buffer's (`read`), or the file on disk."""
    def text_of(path: Path) -> str | None:
        if path == a.path:
            return a.text
        found = read(path) if read is not None else None
        if found is None:
            try:
                found = path.read_text(encoding="utf-8")
            except OSError:
                return None
        return found
    return text_of


def _tree_of(path: Path, text: str) -> Located | None:
    try:
        return load_yaml(text, str(path))
    except SpecError:       # a buffer that does not load: the last tree that did
        return None


# -- code actions ---------------------------------------------------------------------------

_MEANT = re.compile(r"\(did you mean '([^']+)'\?\)")
_QUOTED = re.compile(r"'([^']+)'")


def _misspelt(message: str, right: str, line: str) -> str | None:
    """The word a "did you mean" finding is about: of the words it quotes before the hint and
    the line writes, the one nearest the hint ('flr' in "'flr' is not a call of contest 'flor'")."""
    words = [w for w in _QUOTED.findall(message[:message.find("(did you mean")])
             if w != right and re.search(rf"(?<!\w){re.escape(w)}(?!\w)", line)]
    return max(words, key=lambda w: difflib.SequenceMatcher(None, w, right).ratio(), default=None)


def code_actions(a: Analysis, uri: str, rng: lsp.Range,
                 diagnostics: Sequence[lsp.Diagnostic]) -> list[lsp.CodeAction]:
    out: list[lsp.CodeAction] = []
    lines = a.text.split("\n")
    for d in diagnostics:
        m = _MEANT.search(d.message)
        n = d.range.start.line
        right = m.group(1) if m else ""
        wrong = _misspelt(d.message, right, lines[n]) if m and n < len(lines) else None
        if wrong is not None:
            hits = list(re.finditer(rf"(?<!\w){re.escape(wrong)}(?!\w)", lines[n]))
            if hits:
                hit = min(hits, key=lambda h: abs(h.start() - d.range.start.character))
                edit = lsp.TextEdit(lsp.Range(lsp.Position(n, hit.start()), lsp.Position(n, hit.end())), right)
                out.append(lsp.CodeAction(f"Change '{wrong}' to '{right}'", kind=lsp.CodeActionKind.QuickFix,
                                          diagnostics=[d], is_preferred=True,
                                          edit=lsp.WorkspaceEdit(changes={uri: [edit]})))
        if "!replace" in d.message and a.own is not None:
            where = _quoted_path(d)
            loc = a.own.key_locs.get(where) if where else None
            if loc is not None and where:
                n = loc.line - 1
                colon = lines[n].find(":", loc.col - 1)
                if colon >= 0:
                    edit = lsp.TextEdit(lsp.Range(lsp.Position(n, colon + 1), lsp.Position(n, colon + 1)), " !replace")
                    out.append(lsp.CodeAction(f"Replace the base's {where[-1]} (!replace)",
                                              kind=lsp.CodeActionKind.QuickFix, diagnostics=[d],
                                              edit=lsp.WorkspaceEdit(changes={uri: [edit]})))
    stub = _source_stub(a, uri, rng.start.line)
    if stub is not None:
        out.append(stub)
    return out


def _quoted_path(d: lsp.Diagnostic) -> tuple | None:
    data = d.data if isinstance(d.data, dict) else {}
    path = data.get("path")
    if not isinstance(path, str):
        return None
    try:
        return tuple(parse_path(path))
    except (ValueError, IndexError):    # a path we cannot read offers no fix
        return None


def _source_stub(a: Analysis, uri: str, line: int) -> lsp.CodeAction | None:
    """`source: ""` under a declaration written in this file without one."""
    if a.own is None:
        return None
    lines = a.text.split("\n")
    if line >= len(lines):
        return None
    ctx = context_at(a.text, line, len(lines[line]))
    if ctx.key is None:
        return None
    target = ctx.path + (ctx.key,)
    pattern_ok = any(len(p) == len(ctx.path) and all(x in ("*", y) for x, y in zip(p, ctx.path, strict=False))
                     for p in ENTRY_MAPS)
    node = value_at(a.own.data, target)
    if not pattern_ok or not isinstance(node, dict) or "source" in node:
        return None
    text = lines[line]
    close = text.rfind("}")
    if "{" in text and close > text.find("{"):
        sep = ", " if text[text.find("{") + 1:close].strip() else ""
        edit = lsp.TextEdit(lsp.Range(lsp.Position(line, close), lsp.Position(line, close)), f'{sep}source: ""')
    else:
        indent = ctx.indent + 2
        for body in lines[line + 1:]:
            if body.strip() and not body.lstrip().startswith("#"):
                if len(body) - len(body.lstrip(" ")) > ctx.indent:
                    indent = len(body) - len(body.lstrip(" "))
                break
        edit = lsp.TextEdit(lsp.Range(lsp.Position(line + 1, 0), lsp.Position(line + 1, 0)),
                            f'{" " * indent}source: ""\n')
    return lsp.CodeAction(f"Add a source: citation to {ctx.key}", kind=lsp.CodeActionKind.QuickFix,
                          edit=lsp.WorkspaceEdit(changes={uri: [edit]}))
