"""Message catalogs of the generated rulebook, one module per language (en, es, fr, pt); the
engine's refusals read their formulas with the English one (rulespec/prose.py).

Each module defines
- `MESSAGES`: message id → text with `{placeholders}` (section titles, sentences, the
  phrasing of operators for rulespec/prose.py);
- `NAMES`: DSL name → a noun phrase (a value: `trick`) or a pair (the clause when it holds,
  the clause when it does not: `played`);
- `FUNCTIONS`: DSL function → the same, with `{x}` for the argument;
- `IDIOMS`: DSL text of a whole subexpression → a better reading than the word-by-word one;
- `PLURAL`: the names and functions whose phrase is plural ("the points needed to win the
  match"), which take the plural verb of a comparison (`cmp.==.plural`: "are 30");
- `CONTRACTIONS` (optional): (pattern, replacement) pairs the language requires when phrases
  are put together (French `à les` → `aux`), applied to the sentences read from formulas.

A message missing from a language comes from English; `catalog("xx")` of an unknown
language is English.
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from types import ModuleType
from typing import Any

LANGUAGES = ("en", "es", "fr", "pt")


@dataclass(frozen=True)
class Entry:
    """How a name or function reads: a noun phrase, or a clause and its negation."""

    clause: bool
    yes: str
    no: str = ""


def _entry(value: Any) -> Entry:
    if isinstance(value, tuple):
        return Entry(True, value[0], value[1])
    return Entry(False, str(value))


class Catalog:
    """The messages of one language, English under it."""

    def __init__(self, language: str = "en") -> None:
        self.language = language if language in LANGUAGES else "en"
        self.layers: list[ModuleType] = [_module(self.language)]
        if self.language != "en":
            self.layers.append(_module("en"))

    def _find(self, table: str, key: str) -> Any:
        for layer in self.layers:
            found = getattr(layer, table, {}).get(key)
            if found is not None:
                return found
        return None

    def has(self, key: str) -> bool:
        return self._find("MESSAGES", key) is not None

    def __call__(self, key: str, **kw: Any) -> str:
        text = self._find("MESSAGES", key)
        if text is None:
            raise KeyError(f"no message {key!r}")
        return str(text).format(**kw) if kw else str(text)

    def name(self, dotted: str) -> Entry:
        found = self._find("NAMES", dotted)
        if found is not None:
            return _entry(found)
        if dotted.startswith("options."):
            return Entry(False, self("name.option", x=dotted.split(".", 1)[1].replace("_", " ")))
        return Entry(False, self("name.unknown", x=dotted.replace("_", " ")))

    def plural(self, name: str) -> bool:
        """Whether the phrase of a name or function is plural, in the layer that phrases it."""
        for layer in self.layers:
            if name in getattr(layer, "NAMES", {}) or name in getattr(layer, "FUNCTIONS", {}):
                return name in getattr(layer, "PLURAL", ())
        return False

    def function(self, name: str) -> Entry | None:
        found = self._find("FUNCTIONS", name)
        return None if found is None else _entry(found)

    def contract(self, text: str) -> str:
        """`text` with the language's contractions made (never borrowed from another language)."""
        for pattern, replacement in getattr(self.layers[0], "CONTRACTIONS", ()):
            text = re.sub(pattern, replacement, text)
        return text

    def idiom(self, text: str) -> str | None:
        for layer in self.layers[:1]:          # an idiom is never borrowed from another language
            found = getattr(layer, "IDIOMS", {}).get(text)
            if found is not None:
                return str(found)
        return None


def _module(language: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{language}")


def catalog(language: str | None) -> Catalog:
    return Catalog(language or "en")
