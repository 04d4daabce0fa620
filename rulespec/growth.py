"""Conditions that, once false, stay false for the rest of a hand.

A name marked `grows` in the vocabulary never goes down within a hand, so `not played` once the
seat has played, `trick == 1` past the first trick or `calls_made < 2` once two calls are made
can never hold again in that hand. The checker's walk over every deal uses this to forget an
answer of the cards that the engine will not ask for again (whether a hand may annul the deal).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulespec.dsl import Binary, Bool, Expr, Name, Num, Unary
from rulespec.vocabulary import NAMES

_MIRRORED = {"==": "==", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
"""`c OP x` read as `x MIRRORED[OP] c`."""


def stays_false(expr: Expr, value_of: Callable[[str], Any]) -> bool:
    """Whether `expr` is false now and cannot hold again this hand, `value_of` giving a name's
    value now. Only what is certain counts: a literal false, a conjunct (or every alternative)
    that stays false, `not X` once a growing X holds, and a growing number compared with a
    literal it has passed (`X == c` or `X <= c` once above c, `X < c` once at c)."""
    if isinstance(expr, Bool):
        return not expr.value
    if isinstance(expr, Unary):
        return expr.op == "not" and _growing(expr.operand) and bool(value_of(_name(expr.operand)))
    if not isinstance(expr, Binary):
        return False
    if expr.op == "and":
        return stays_false(expr.left, value_of) or stays_false(expr.right, value_of)
    if expr.op == "or":
        return stays_false(expr.left, value_of) and stays_false(expr.right, value_of)
    compared = _compared(expr)
    if compared is None:
        return False
    name, op, limit = compared
    value = value_of(name)
    return (op in ("==", "<=") and value > limit) or (op == "<" and value >= limit)


def inspected(expr: Expr) -> tuple[str, ...]:
    """The names `stays_false` may ask the value of for `expr`, each once, in the order first
    met: its answer is a function of their values alone."""
    out: list[str] = []
    if isinstance(expr, Unary):
        if expr.op == "not" and _growing(expr.operand):
            out.append(_name(expr.operand))
    elif isinstance(expr, Binary):
        if expr.op in ("and", "or"):
            out += inspected(expr.left) + inspected(expr.right)
        else:
            compared = _compared(expr)
            if compared is not None:
                out.append(compared[0])
    return tuple(dict.fromkeys(out))


def _growing(expr: Expr) -> bool:
    return isinstance(expr, Name) and expr.dotted in NAMES and NAMES[expr.dotted].grows


def _name(expr: Expr) -> str:
    assert isinstance(expr, Name)
    return expr.dotted


def _compared(expr: Binary) -> tuple[str, str, int] | None:
    """A growing name compared with a number literal, as (name, operator, literal) with the
    name on the left."""
    if expr.op not in _MIRRORED:
        return None
    if _growing(expr.left) and isinstance(expr.right, Num):
        return _name(expr.left), expr.op, expr.right.value
    if _growing(expr.right) and isinstance(expr.left, Num):
        return _name(expr.right), _MIRRORED[expr.op], expr.left.value
    return None
