"""API errors: each carries the HTTP status and a short code, and answers as JSON."""
from __future__ import annotations

from typing import Any

from rulespec.errors import TrucoError


class ApiError(TrucoError):
    """A request the server refuses; the match it names is left exactly as it was."""

    def __init__(self, status: int, code: str, message: str, **details: Any) -> None:
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        super().__init__(message)

    def body(self) -> dict[str, Any]:
        return {"error": {"status": self.status, "code": self.code, "message": self.message, **self.details}}
