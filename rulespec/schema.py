"""Check a spec's shape against the JSON Schema, with every error located and in plain words.

The schema catches typos and wrong types before the DSL or the IR builder look at a spec,
so those later stages may assume the shape is right. Validate the document after `extends`
is merged: the schema requires some keys (an option's `values`) a partial child may omit.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match, relevance

from .errors import Diagnostic, Loc, did_you_mean, unknown
from .yamlload import Located, NodePath, format_path

SCHEMA: dict[str, Any] = json.loads(
    resources.files(__package__).joinpath("spec.schema.json").read_text(encoding="utf-8")
)
IDENTIFIER_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$"
PARTIAL_FILE = "spec-partial.schema.json"


def partial_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema of a spec that `extends` another, as an editor sees it alone: no key is
    required (the base has it) and any key may be null (`~` removes the base's key)."""
    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(n) for n in node]
        if not isinstance(node, dict):
            return node
        out = {k: walk(v) for k, v in node.items() if k != "required"}
        if isinstance(out.get("properties"), dict):
            out["properties"] = {k: _nullable(v) for k, v in out["properties"].items()}
        if isinstance(out.get("additionalProperties"), dict):
            out["additionalProperties"] = _nullable(out["additionalProperties"])
        return out
    result: dict[str, Any] = walk(schema)
    result["$id"] = schema["$id"].replace("spec.schema.json", PARTIAL_FILE)
    result["title"] = f"{schema.get('title', 'Spec')} (a variant that extends another)"
    return result


def _nullable(node: Any) -> Any:
    return {"anyOf": [{"type": "null"}, node]} if isinstance(node, dict) and node else node


_VALIDATOR = Draft202012Validator(SCHEMA)


def deref(node: Any) -> Any:
    """A schema node with its `$ref` followed (its own keys kept beside the target's)."""
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        target: Any = SCHEMA
        for part in ref.lstrip("#/").split("/"):
            if part:
                target = target[part]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def schema_at(path: tuple[str | int, ...], raw: bool = False) -> dict[str, Any] | None:
    """The schema of the node at `path` (a `when` entry's `set` is a partial spec); `raw`
    keeps its `$ref`, if it is one."""
    parts = list(path)
    if len(parts) >= 3 and parts[0] == "when" and parts[2] == "set":
        parts = parts[3:]
    node: Any = SCHEMA
    for part in parts:
        node = deref(node)
        if not isinstance(node, dict):
            return None
        props = node.get("properties") or {}
        if part in props:
            node = props[part]
        elif isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        elif node.get("patternProperties"):
            node = next(iter(node["patternProperties"].values()))
        elif isinstance(node.get("items"), dict) and isinstance(part, int):
            node = node["items"]
        else:
            return None
    node = node if raw else deref(node)
    return node if isinstance(node, dict) else None

_TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "object": "a mapping",
    "array": "a list",
    "null": "nothing (null)",
}


@dataclass(frozen=True)
class _Finding:
    """One diagnostic before ranking: the error it came from and where it points."""

    error: ValidationError
    path: NodePath
    loc: Loc | None
    message: str


def validate(located: Located) -> list[Diagnostic]:
    """Every schema violation in `located`, best first (deeper and more specific first)."""
    findings: list[_Finding] = []
    for error in _VALIDATOR.iter_errors(located.data):
        findings.extend(_findings(_useful(error), located))
    findings.sort(key=_rank)
    out: list[Diagnostic] = []
    seen: set[tuple[str, str]] = set()
    for f in findings:
        path = format_path(f.path)
        if (path, f.message) not in seen:
            seen.add((path, f.message))
            out.append(Diagnostic("error", f.loc, path, f.message, _source_for(located.data, f.path)))
    return out


def _useful(error: ValidationError) -> ValidationError:
    """For anyOf/oneOf, the branch error that says what is wrong (as `best_match` picks it)."""
    if not error.context:
        return error
    return best_match([error]) or error


def _rank(f: _Finding) -> tuple[Any, ...]:
    """Deeper first, then `relevance`'s keyword preferences, then document order (stable)."""
    rel: Any = relevance(f.error)          # jsonschema's key: a tuple of comparable facts
    where = (f.loc.file, f.loc.line, f.loc.col) if f.loc else ("", 0, 0)
    return (-len(f.path), not rel[2], not rel[3], rel[4], where)


def _findings(error: ValidationError, located: Located) -> list[_Finding]:
    path = tuple(error.absolute_path)
    if "propertyNames" in error.relative_schema_path:
        return [_bad_name(error, located, path)]
    if error.validator == "additionalProperties":
        return _unknown_keys(error, located, path)
    if error.validator == "required":
        return _missing(error, located, path)
    return [_Finding(error, path, located.loc(path), _message(error))]


def _unknown_keys(error: ValidationError, located: Located, path: NodePath) -> list[_Finding]:
    """One finding per unknown key, at the key itself, with a suggestion when one is close."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    known = list(schema.get("properties", {}))
    patterns = list(schema.get("patternProperties", {}))
    out = []
    instance: Any = error.instance         # JSON, never jsonschema's unset marker here
    for key in instance:
        if key in known or any(re.search(p, key) for p in patterns):
            continue
        out.append(_Finding(error, path + (key,), located.key_loc(path + (key,)),
                            _unknown_key_message(key, known, patterns)))
    return out


def _unknown_key_message(key: str, known: list[str], patterns: list[str]) -> str:
    if patterns and not did_you_mean(key, known):
        return f"unknown key {key!r}: keys here must match {' or '.join(patterns)}"
    return f"unknown key {key!r}{unknown(key, known, 'the keys here')}"


def _bad_name(error: ValidationError, located: Located, path: NodePath) -> _Finding:
    key = str(error.instance)
    where = path + (key,)
    if error.validator == "pattern" and error.validator_value == IDENTIFIER_PATTERN:
        message = (f"{key!r} is not a usable name: use letters, digits and _, "
                   "not starting with a digit (formulas refer to it)")
    else:
        message = f"key {key!r}: {_message(error)}"
    return _Finding(error, where, located.key_loc(where), message)


def _missing(error: ValidationError, located: Located, path: NodePath) -> list[_Finding]:
    present = error.instance if isinstance(error.instance, dict) else {}
    required: Any = error.validator_value  # the list of required keys
    return [_Finding(error, path, located.loc(path), f"missing required key {key!r}")
            for key in required if key not in present]


def _message(error: ValidationError) -> str:
    """The error in the words of a spec author rather than of JSON Schema."""
    want: Any = error.validator_value          # JSON values of a validation error: never unset here
    value: Any = error.instance
    kind = error.validator
    if kind == "type":
        wanted = [want] if isinstance(want, str) else list(want)
        return f"expected {' or '.join(_TYPE_WORDS.get(w, w) for w in wanted)}, got {_describe(value)}"
    if kind == "enum":
        text = f"{_describe(value)} is not allowed here; expected one of {_words(want)}"
        return text + (did_you_mean(value, [str(w) for w in want]) if isinstance(value, str) else "")
    if kind == "minimum":
        return f"must be at least {want}, got {_describe(value)}"
    if kind == "minItems":
        return f"must have at least {want} item{'s' if want != 1 else ''}"
    if kind == "uniqueItems":
        return "items must not repeat"
    if kind == "minLength":
        return "must not be empty" if want == 1 else f"must be at least {want} characters long"
    if kind == "pattern":
        return f"{_describe(value)} does not match the pattern {want}"
    return error.message


def _describe(value: Any) -> str:
    """A value and its kind, as YAML would show it."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def _words(items: Any) -> str:
    return ", ".join(repr(i) if isinstance(i, str) else json.dumps(i) for i in items)


def _source_for(data: Any, path: NodePath) -> str | None:
    """The `source` of the innermost mapping around `path`, to cite the rulebook clause.

    The top-level `source` names the whole rulebook, not a clause, so it is not cited, nor is a
    `source` that is itself the value found wrong.
    """
    node, found = data, None
    for i, part in enumerate(path):
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
        if path[i + 1:i + 2] != ("source",):
            found = _own_source(node) or found
    return found


def _own_source(node: Any) -> str | None:
    source = node.get("source") if isinstance(node, dict) else None
    return source if isinstance(source, str) else None
