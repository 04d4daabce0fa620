"""The project's one exception family, and the located diagnostics spec errors carry."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True, order=True)
class Loc:
    """A position in a source file, 1-based line and column."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


Severity = Literal["error", "warning"]


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
    """An action refused by the rules; the state it was tried on is unchanged."""

    def __init__(self, action: str, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action!r}: {reason}")


class CaseError(TrucoError):
    """A conformance case file that is not valid (not a failed case)."""
