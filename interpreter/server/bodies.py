"""Reading what clients send: JSON objects only, bounded in size and depth, in UTF-8 that
can be echoed back; anything else is a 4xx with a code, never an exception.

A body must say `Content-Type: application/json`: a cross-site page can send `text/plain`
without asking, but not JSON, so this keeps other sites from acting through a browser.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from interpreter.server.errors import ApiError

JSON_TYPE = "application/json"


def parse_json(raw: bytes | str, max_depth: int) -> Any:
    """A JSON value no deeper than `max_depth`, whose strings are all valid Unicode."""
    try:
        data = json.loads(raw, parse_constant=_not_a_number)
    except RecursionError:
        raise ApiError(400, "too_deep", f"JSON may nest at most {max_depth} levels") from None
    except ValueError as err:
        raise ApiError(400, "malformed_json", f"not valid JSON: {_printable(str(err))}") from None
    _check(data, max_depth)
    return data


def _not_a_number(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _check(data: Any, max_depth: int) -> None:
    """Walk the value without recursion: its depth, and no lone surrogate in any string."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, str):
            _text(node)
        elif isinstance(node, (dict, list)):
            if depth >= max_depth:
                raise ApiError(400, "too_deep", f"JSON may nest at most {max_depth} levels")
            items = [*node.keys(), *node.values()] if isinstance(node, dict) else node
            stack.extend((item, depth + 1) for item in items)


def _text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(400, "bad_text", "strings must be valid Unicode (no lone surrogate)") from None


def _printable(text: str) -> str:
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def too_large(max_body: int) -> ApiError:
    return ApiError(413, "too_large", f"the body may hold at most {max_body} bytes")


def require_json(content_type: str | None) -> None:
    if (content_type or "").split(";")[0].strip().lower() != JSON_TYPE:
        raise ApiError(415, "unsupported_media_type", f"send the body as {JSON_TYPE}")


def json_object(raw: bytes, max_depth: int, fields: Mapping[str, tuple[type, ...]],
                required: Sequence[str] = ()) -> dict[str, Any]:
    """The JSON object of a request body, with only known fields of the right types."""
    data = parse_json(raw or b"null", max_depth)
    if not isinstance(data, dict):
        raise ApiError(400, "bad_body", "the body must be a JSON object")
    for key, value in data.items():
        if key not in fields:
            raise ApiError(400, "bad_body", f"unknown field {key!r}; fields: {', '.join(fields)}")
        kinds = fields[key]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise ApiError(400, "bad_body", f"field {key!r} must be {names}")
    for key in required:
        if key not in data:
            raise ApiError(400, "bad_body", f"field {key!r} is required")
    return data
