"""Completion in a conformance case file (the format of docs/conformance.md).

The keys come from replay's own key lists, so they cannot drift from what `truco replay`
accepts: a file's, a case's, a deal's, a step's, an `expect:`'s and a fact's. The values come
from the spec the file names: its options and their values under `options:`, its bundled
names after `spec:`, seats after an action's start, `dealer:` and `to_act:`, its verbs,
aliases and calls after a seat, the action names of `legal` lists, its hand values in
`value_of`, teams in `winner:` and `tricks:`, and its cards wherever the format takes one.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

from rulespec.ir import CARD_VERBS
from rulespec.load import bundled_names

from interpreter.designer.lsp.analysis import Analysis, value_at
from interpreter.designer.lsp.context import KEY, Context, context_at, flow_start
from interpreter.designer.lsp.known import calls_of, deck_items, game_of, item
from interpreter.designer.replay import CASE_KEYS, EXPECT_KEYS, FACTS, FILE_KEYS, REJECT_KEYS

KEYS: dict[tuple[str, ...], tuple[str, ...]] = {
    (): FILE_KEYS,
    ("cases",): CASE_KEYS + FACTS,
    ("cases", "deals"): ("hands", "vira"),
    ("cases", "actions"): ("expect",) + REJECT_KEYS,
    ("cases", "actions", "expect"): EXPECT_KEYS,
    **{("cases", fact): ("hand", "value") + (("name",) if fact == "value_of" else ()) for fact in FACTS},
}
"""The keys allowed in each mapping of a case file, by its path of keys."""
WHAT = {(): "a key of a case file", ("cases",): "a key of a case", ("cases", "deals"): "a key of a deal",
        ("cases", "actions"): "a step", ("cases", "actions", "expect"): "an expectation"}
OPTIONS = (("options",), ("cases", "options"))
LEGAL = ("legal", "legal_includes", "legal_excludes")
_CARDS = re.compile(r"\b(?:hands|vira|hand|beats|ties)\s*:[^:]*$")
_CARD_ARGUMENT = re.compile(r"^(?:\d+\s+)?(?:play|cover)\s+\S*$")
_VERB = re.compile(r"^\d+\s+\w*$")
_CASE_FILE = re.compile(r"^spec\s*:", re.MULTILINE)
_STEP = re.compile(r"^\s*-\s+(?:\{\s*)?(?:reject:\s*)?[\"']?(\d+\s[^,{}]*)$")


_FILE = {
    "spec": "a bundled spec's name (`teg`, `reglamento`, …) or a path to a spec file, relative to the case file",
    "source": "where the example comes from: the rulebook and its clause (free text, optional)",
    "note": "anything a reader should know (optional)",
    "options": "table options for every case of the file, `{name: value}`",
    "cases": "the cases, a non-empty list",
}
_FACT = "facts checked without play (below)"
_CASE = {
    "name": "what the case shows, in a sentence",
    "options": "table options for this case, over the file's",
    "score": "the score before the deal, `[team 0, team 1]` (default `[0, 0]`)",
    "dealer": "the dealing seat (default: the last seat, so seat 0 is the mano)",
    "hands": "the deal: one list of cards per seat, seat 0 first (`[]` for a seat that does not play the hand, "
             "under a `schedule` of hand formats)",
    "vira": "the turned card, for a spec that turns one (ignored by a spec that does not)",
    "deals": "instead of `hands`: several deals played one after the other, each `{hands: ..., vira: ...}`",
    "actions": "the steps, in order: actions, `expect:` and `reject:`",
    **{fact: _FACT for fact in ("beats", "ties", "envido_of", "flor_of", "value_of")},
    "source": "as for the file, for this case", "note": "as for the file, for this case",
    "mid_hand": "why a case that scores stops before its hand ends (the project's own suite asks for it)",
}
_EXPECT = {
    "score": "the score of team 0 and team 1 is `a` and `b`",
    "to_act": "seat `s` decides next (`null`: nobody, the hand or the match is over; a hand annulled by a "
              "special hand such as the maldón is over too, and nobody acts until `next_hand()` deals again)",
    "legal": "these are exactly the legal actions of the seat to act, written without the seat",
    "legal_includes": "these are all legal, or none of them is",
    "legal_excludes": "these are all legal, or none of them is",
    "hand_over": "the hand, the match has ended or not", "match_over": "the hand, the match has ended or not",
    "winner": "the team that won the match",
    "hand_worth": "the hand is worth `n` points now (the accepted stake)",
    "tricks": "the tricks so far went to these teams (`0`, `1`, or `tie`)",
}
_STEP_KEYS = {
    "expect": "`- expect: {...}` checks the state after the steps before it. Every key is optional",
    "reject": "passes when the engine refuses the action, gives a reason, and leaves the state exactly as it was",
    "because": "also asks the reason to contain `TEXT` (case does not matter)",
}
MEANINGS: dict[tuple[str, ...], dict[str, str]] = {
    (): _FILE, ("cases",): _CASE, ("cases", "deals"): {"hands": _CASE["hands"], "vira": _CASE["vira"]},
    ("cases", "actions"): _STEP_KEYS, ("cases", "actions", "expect"): _EXPECT,
}
"""What each key of a case file means, in docs/conformance.md's words (a test keeps them equal)."""


def meaning(path: tuple[str, ...], key: str) -> str | None:
    """The hover of a case file's key at `path`: what the format says of it."""
    said = MEANINGS.get(path, {}).get(key)
    if said is None and len(path) == 2 and path[0] == "cases" and path[1] in FACTS:
        return f"**{key}** of {path[1]}: " + ("the hand value named" if key == "name" else
                                               "the hand" if key == "hand" else "what it is worth")
    return f"**{key}** ({WHAT.get(path, 'a key')}): {said}" if said is not None else None


def completion(a: Analysis, line: int, char: int) -> Iterator[lsp.CompletionItem]:
    lines = a.text.split("\n")
    ctx = context_at(a.text, line, char)
    joined = flow_start(lines + [""], line, char)[1]
    before = lines[line][:char] if line < len(lines) else ""
    step = _STEP.match(before)
    if step:        # a seat's action, read from its line (a flow left open above may hide it)
        yield from _action(a, step.group(1), seat=True)
    elif ctx.key in ("hands", "vira", "hand", "beats", "ties") or _CARDS.search(joined):
        yield from deck_items(a, "cards_only")
    elif ctx.key is None:
        yield from _keys(a, ctx, lines, line, joined)
    else:
        yield from _values(a, ctx, lines, line, before)


def _keys(a: Analysis, ctx: Context, lines: list[str], line: int, joined: str) -> Iterator[lsp.CompletionItem]:
    in_flow = joined.count("{") > joined.count("}")
    present = set(ctx.written) | (set() if in_flow else _siblings(lines, line, ctx.indent))
    if ctx.path in OPTIONS:
        for option in a.options:
            if option.name not in present:
                values = ", ".join(_shown(v) for v in option.values)
                yield item(option.name, lsp.CompletionItemKind.Variable, f"option ({values})",
                            insert=f"{option.name}: ")
        return
    for key in KEYS.get(ctx.path, ()):
        if key not in present:
            yield item(key, lsp.CompletionItemKind.Property, WHAT.get(ctx.path, "a key of a fact"),
                        insert=f"{key}: ")


def _siblings(lines: list[str], line: int, indent: int) -> set[str]:
    """The keys written at `indent` in the block mapping around a line (the list item it is
    in, when it is one: its first key is written after the `- `)."""
    out: set[str] = set()
    for step in (-1, 1):
        i = line + step
        while 0 <= i < len(lines):
            text = lines[i]
            stripped = text.lstrip(" ")
            if stripped and not stripped.startswith("#"):
                lead = len(text) - len(stripped)
                item = stripped.startswith("- ")
                col = len(text) - len(text.lstrip(" -")) if item else lead
                if lead < indent:
                    m = KEY.match(text) if item and col == indent else None
                    if m is not None and step < 0:
                        out.add(m.group("key"))
                    break
                if lead == indent and not item:
                    m = KEY.match(text)
                    if m is not None:
                        out.add(m.group("key"))
            i += step
    return out


def _values(a: Analysis, ctx: Context, lines: list[str], line: int, before: str) -> Iterator[lsp.CompletionItem]:
    key, text = str(ctx.key), ctx.text.strip("\"'")
    if ctx.path in OPTIONS:
        option = next((o for o in a.options if o.name == key), None)
        for v in option.values if option is not None else ():
            yield item(_shown(v), lsp.CompletionItemKind.EnumMember, f"a value of {key}")
    elif ctx.path == () and key == "spec":
        for name in bundled_names():
            yield item(name, lsp.CompletionItemKind.Module, "a bundled spec")
        for path in _specs_beside(a.path):
            yield item(path.name, lsp.CompletionItemKind.File, "a spec file beside this one")
    elif key == "dealer" or key == "to_act":
        yield from _seats(a, line, "")
        if key == "to_act":
            yield item("null", lsp.CompletionItemKind.EnumMember, "nobody is to act")
    elif key == "winner" or (key == "tricks" and ctx.in_list):
        game = game_of(a)
        for team in range(game.teams if game is not None else 2):
            yield item(str(team), lsp.CompletionItemKind.EnumMember, f"team {team}")
        yield item("null" if key == "winner" else "tie", lsp.CompletionItemKind.EnumMember,
                    "no winner yet" if key == "winner" else "a tied trick")
    elif key in ("hand_over", "match_over"):
        yield from (item(v, lsp.CompletionItemKind.EnumMember) for v in ("true", "false"))
    elif key == "name" and ctx.path == ("cases", "value_of"):
        game = game_of(a)
        for name in game.values if game is not None else ():
            yield item(name, lsp.CompletionItemKind.EnumMember, "a hand value of the spec")
    elif key in LEGAL and ctx.in_list:
        written = re.search(r"[\[,]\s*([^,\[\]]*)$", before)      # the action, its spaces kept
        yield from _action(a, written.group(1).lstrip(" \"'") if written else text, seat=False)
    elif ctx.in_list and (ctx.path + (key,)) in KEYS and key != "actions":     # `- ` a case's, a deal's first key
        yield from _keys(a, Context(ctx.path + (key,), None, text, indent=ctx.indent), lines, line, "")
    elif key == "reject" or (key == "actions" and ctx.in_list):
        written = re.search(r"(?:-|reject:)\s+([^,{}\[\]:]*)$", before)   # the action, its spaces kept
        text = written.group(1).lstrip(" \"'") if written else text
        if re.fullmatch(r"\d*", text):
            yield from _seats(a, line, " ")
        if key == "actions" and re.fullmatch(r"[a-z]*", text):
            for step in ("expect", "reject"):
                yield item(step, lsp.CompletionItemKind.Property, "a step", insert=f"{step}: ")
        yield from _action(a, text, seat=True)


def _specs_beside(path: Path) -> list[Path]:
    """The spec files in the case file's folder (a house variant's cases are written beside it);
    case files, which begin with `spec:`, left out."""
    out = []
    for other in sorted(path.parent.glob("*.yaml")):
        try:
            head = other.read_text(encoding="utf-8")[:4000]
        except (OSError, UnicodeDecodeError):     # an unreadable file is no spec to offer
            continue
        if other != path and not _CASE_FILE.search(head):
            out.append(other)
    return out


def _action(a: Analysis, text: str, seat: bool) -> Iterator[lsp.CompletionItem]:
    """After an action's seat (or where an action is written without one, as in `legal`):
    the spec's verbs, its aliases and calls; after `play`/`cover`, its cards."""
    if _CARD_ARGUMENT.match(text):
        yield from deck_items(a, "cards_only")
        return
    if seat and not _VERB.match(text):
        return
    game = game_of(a)
    verbs = sorted(game.verbs) + (list(game.aliases) if seat else []) if game is not None else []
    for verb in dict.fromkeys(verbs + list(calls_of(a))):
        yield item(verb, lsp.CompletionItemKind.Keyword, "a verb or call of the spec",
                    insert=f"{verb} " if verb in CARD_VERBS else None)


def _seats(a: Analysis, line: int, after: str) -> Iterator[lsp.CompletionItem]:
    """The seats of the table the case is played at (its `players` option, or the file's,
    or the spec's default)."""
    players = _players(a, line)
    for seat in range(players):
        yield item(str(seat), lsp.CompletionItemKind.EnumMember,
                    f"seat {seat}" + (" (the mano, with the default dealer)" if seat == 0 else ""),
                    insert=f"{seat}{after}")


def _players(a: Analysis, line: int) -> int:
    data = a.own.data if a.own is not None and isinstance(a.own.data, dict) else {}
    case: Any = None
    for i, _ in enumerate(data.get("cases") or []):
        loc = a.own.locs.get(("cases", i)) if a.own is not None else None
        if loc is not None and loc.line - 1 <= line:
            case = data["cases"][i]
    for options in ((case or {}).get("options") if isinstance(case, dict) else None, data.get("options")):
        players = value_at(options, ("players",)) if isinstance(options, dict) else None
        if isinstance(players, int) and players > 0:
            return players
    game = game_of(a)
    return game.num_players if game is not None else 2


def _shown(v: Any) -> str:
    return json.dumps(v) if isinstance(v, bool) else str(v)
