"""The project's one exception family, and the located diagnostics spec errors carry."""
from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

SPEC_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True, order=True)
class Loc:
    """A position in a source file, 1-based line and column."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


Severity = Literal["error", "warning"]


def did_you_mean(word: str, names: Iterable[str]) -> str:
    """` (did you mean 'name'?)` for the name closest to a misspelt word, or nothing. Written
    one way everywhere: the editor's quick fix reads it to replace the word."""
    close = difflib.get_close_matches(word, [str(n) for n in names], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def unknown(word: str, names: Iterable[str], what: str) -> str:
    """After a word that names nothing: the closest name, then every name `what` could be
    there, so that the designer can pick the right one without opening the reference."""
    listed = [str(n) for n in names]
    return f"{did_you_mean(word, listed)}; {what}: {', '.join(listed) or 'none'}"


def so(cause: str, consequence: str) -> str:
    """`cause, so consequence`: a finding says first what was written wrong, which the designer
    acts on, then what follows from it. Lines under the cause (a formula and its caret) stay
    under the sentence."""
    head, sep, rest = cause.partition("\n")
    return f"{head}, so {consequence}{sep}{rest}"


def missing_file(text: str, looked: Iterable[str | os.PathLike[str]], what: str = "file") -> str:
    """A file named but not there, said as such by every command that reads one (a spec, a
    base, a case file), with where it was looked for and the YAML file beside it it may be."""
    places = list(dict.fromkeys(os.path.abspath(p) for p in looked))
    folder = Path(places[0]).parent
    beside = sorted(p.name for p in folder.glob("*") if p.suffix in SPEC_SUFFIXES) if folder.is_dir() else []
    hint = did_you_mean(Path(text).name, beside)
    return f"the {what} {text!r} does not exist{hint}: there is no file {' or '.join(places)}"


@dataclass(frozen=True)
class Diagnostic:
    """One finding about a spec: where it is, which YAML path, and what is wrong.

    `related` names the other nodes the finding is made of (the option a formula reads, the
    players a hand size is multiplied by), so that a finding about a base's node can be
    placed at the one a variant wrote (rulespec.blame)."""

    severity: Severity
    loc: Loc | None
    path: str
    message: str
    source: str | None = None
    related: tuple[tuple[str | int, ...], ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        where = str(self.loc) if self.loc else "<unknown>"
        text = f"{where} at {self.path}: {self.message}"
        if self.source:
            text += f" (source: {self.source})"
        return text


class TrucoError(Exception):
    """Base of every error this project raises on purpose."""


class SpecError(TrucoError):
    """A spec cannot be used; carries every diagnostic found, best first."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


class SpecNotFound(TrucoError):
    """No bundled spec has that name, no file has that path, or the path is not a spec file."""


class OptionError(TrucoError):
    """A table option or value the spec does not offer."""


class IllegalAction(TrucoError):
    """An action refused by the rules; the state it was tried on is unchanged. `reason` is what a
    player reads (the failing fact and the rule's sentence); `detail`, for a designer, the rule's
    whole condition in words and its DSL text, empty when there is no more to say."""

    def __init__(self, action: str, reason: str, detail: str = "") -> None:
        self.action = action
        self.reason = reason
        self.detail = detail
        super().__init__(f"illegal action {action!r}: {reason}")


class CaseError(TrucoError):
    """A conformance case file that is not valid (not a failed case)."""
