"""DSL formulas and conditions as sentences, for the rulebook and for the engine's refusals.

It sits in rulespec, beside the language it reads, so that both the designer's rulebook and the
engine's explanations of a refused action (interpreter/engine/explain.py) can say a rule in words.

The renderer walks the syntax tree of `rulespec.dsl`: one method per node kind (number,
truth value, text, name, function call, list, unary and binary operator, if-then-else),
in two roles — a *condition* (a clause: "the player has not played a card") and an
*amount* (a noun phrase: "20 plus the best two cards of one suit"). Every word comes from
a message catalog (`rulespec.rulebook_i18n`), so the phrasing follows the rulebook's
language. A catalog may also give an idiom for a whole subtree (`target - leader`: "what
the leading team lacks to reach the target"); without one, the generic phrasing applies,
so any formula the language can write has a reading.
"""
from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rulespec import dsl
from rulespec.rulebook_i18n import Catalog

COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")
LOGIC = ("and", "or")
ARITHMETIC = ("+", "-", "*", "//", "%")
NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "in": "not in", "not in": "in"}


class Prose:
    """Sentences for DSL expressions in one language.

    `said` turns a call, contest or option-value name into the rulebook's words
    (`vale_cuatro` → `vale cuatro`).
    """

    def __init__(self, catalog: Catalog, said: Callable[[str], str]) -> None:
        self.cat = catalog
        self.said = said

    # -- conditions ---------------------------------------------------------------------

    def cond(self, e: dsl.Expr) -> str:
        """A condition as a clause."""
        idiom = self.cat.idiom(dsl.unparse(e))
        if idiom is not None:
            return idiom
        if isinstance(e, dsl.Bool):
            return self.cat("cond.true" if e.value else "cond.false")
        if isinstance(e, dsl.Name):
            entry = self.cat.name(e.dotted)
            if entry.clause:
                return entry.yes
            return self._cmp("!=", e, self._name_noun(e.dotted), "0")
        if isinstance(e, dsl.Call):
            fn = self.cat.function(e.name)
            if fn is not None and fn.clause:
                return fn.yes.format(**self._args(e.args))
            return self._cmp("!=", e, self.amount(e), "0")
        if isinstance(e, dsl.Unary) and e.op == "not":
            return self.negate(e.operand)
        if isinstance(e, dsl.Binary) and e.op in LOGIC:
            return self._logic(e)
        if isinstance(e, dsl.Binary) and e.op in COMPARISONS:
            return self._compare(e.op, e.left, e.right)
        if isinstance(e, dsl.IfElse):
            cases, other = _cases(e)
            parts = [self.cat("if.case", then=self.cond(t), cond=self.cond(c)) for c, t in cases]
            return self.cat("if.join", cases=self.cat("if.sep").join(parts), other=self.cond(other))
        return self.cat("cmp.!=", a=self.amount(e), b="0")

    def negate(self, e: dsl.Expr) -> str:
        """The clause that holds when `e` does not."""
        idiom = self.cat.idiom(dsl.unparse(dsl.Unary("not", e)))
        if idiom is not None:
            return idiom
        if isinstance(e, dsl.Bool):
            return self.cat("cond.false" if e.value else "cond.true")
        if isinstance(e, dsl.Name):
            entry = self.cat.name(e.dotted)
            if entry.clause:
                return entry.no
            return self._cmp("==", e, self._name_noun(e.dotted), "0")
        if isinstance(e, dsl.Call):
            fn = self.cat.function(e.name)
            if fn is not None and fn.clause:
                return fn.no.format(**self._args(e.args))
            return self._cmp("==", e, self.amount(e), "0")
        if isinstance(e, dsl.Unary) and e.op == "not":
            return self.cond(e.operand)
        if isinstance(e, dsl.Binary) and e.op in LOGIC:      # De Morgan: read without a "not" in front
            flipped = "or" if e.op == "and" else "and"
            return self._logic(dsl.Binary(flipped, dsl.Unary("not", e.left), dsl.Unary("not", e.right)))
        if isinstance(e, dsl.Binary) and e.op in COMPARISONS:
            return self._compare(NEGATED[e.op], e.left, e.right)
        return self.cat("cond.not", x=self.cond(e))

    def _logic(self, e: dsl.Binary) -> str:
        parts: list[str] = []
        for item in _flatten(e, e.op):
            text = self.cond(item)
            phrased = self.cat.idiom(dsl.unparse(item)) is not None    # an idiom is one clause
            if not phrased and isinstance(item, dsl.Binary) and item.op in LOGIC and item.op != e.op:
                text = self.cat(f"group.{item.op}", x=text)
            elif not phrased and isinstance(item, dsl.Unary) and item.op == "not" \
                    and isinstance(item.operand, dsl.Binary) and item.operand.op in LOGIC:
                text = self.cat("group.or" if item.operand.op == "and" else "group.and", x=text)
            parts.append(text)
        return self._join(parts, e.op)

    def _join(self, parts: Sequence[str], op: str) -> str:
        if len(parts) == 1:
            return parts[0]
        return self.cat("list.sep").join(parts[:-1]) + self.cat(f"list.{op}") + parts[-1]

    def _compare(self, op: str, left: dsl.Expr, right: dsl.Expr) -> str:
        if isinstance(right, dsl.Bool) and op in ("==", "!="):
            holds = right.value == (op == "==")
            return self.cond(left) if holds else self.negate(left)
        idiom = self.cat.idiom(dsl.unparse(dsl.Binary(op, left, right)))
        if idiom is not None:
            return idiom
        if isinstance(right, dsl.ListLit) and op in ("in", "not in"):
            b = self._join([self.amount(i) for i in right.items], "or")
        else:
            b = self.amount(right)
        return self._cmp(op, left, self.amount(left), b)

    def _cmp(self, op: str, subject: dsl.Expr, a: str, b: str) -> str:
        """`a` compared with `b`, the verb agreeing with the subject: "the points needed to win
        the match are 30", "the leading team's score is 30"."""
        name = subject.dotted if isinstance(subject, dsl.Name) else subject.name if isinstance(subject, dsl.Call) \
            else None
        plural = name is not None and self.cat.idiom(dsl.unparse(subject)) is None and self.cat.plural(name)
        return self.cat(f"cmp.{op}.plural" if plural else f"cmp.{op}", a=a, b=b)

    # -- amounts ------------------------------------------------------------------------

    def amount(self, e: dsl.Expr) -> str:
        """A formula as a noun phrase (what it is worth)."""
        idiom = self.cat.idiom(dsl.unparse(e))
        if idiom is not None:
            return idiom
        if isinstance(e, dsl.Num):
            return str(e.value)
        if isinstance(e, dsl.Bool):
            return self.cat("value.true" if e.value else "value.false")
        if isinstance(e, dsl.Str):
            return self.said(e.value)
        if isinstance(e, dsl.Name):
            entry = self.cat.name(e.dotted)
            return entry.yes if entry.clause else self._name_noun(e.dotted)
        if isinstance(e, dsl.Call):
            fn = self.cat.function(e.name)
            if fn is None:
                args = self._join([self.amount(a) for a in e.args], "and")
                return self.cat("func.unknown", name=self.said(e.name), args=args)
            if e.name in ("max", "min") and len(e.args) != 1:
                return fn.yes.format(x=self._join([self.amount(a) for a in e.args], "and"))
            return fn.yes.format(**self._args(e.args))
        if isinstance(e, dsl.ListLit):
            return self._join([self.amount(i) for i in e.items], "and")
        if isinstance(e, dsl.Unary):
            return self.cat("op.neg", a=self._operand(e.operand)) if e.op == "-" else self.negate(e.operand)
        if isinstance(e, dsl.Binary) and e.op in ARITHMETIC:
            return self.cat(f"op.{e.op}", a=self._operand(e.left), b=self._operand(e.right, e.op in ("-", "//", "%")))
        if isinstance(e, dsl.Binary):
            return self.cond(e)
        if isinstance(e, dsl.IfElse):
            cases, other = _cases(e)
            parts = [self.cat("if.case", then=self.amount(t), cond=self.cond(c)) for c, t in cases]
            return self.cat("if.join", cases=self.cat("if.sep").join(parts), other=self.amount(other))
        raise TypeError(f"not an expression: {e!r}")

    def _operand(self, e: dsl.Expr, right_of_minus: bool = False) -> str:
        """An operand of an arithmetic operator; a compound one is read as a whole
        ("the sum of a and b") so that the sentence keeps the tree's grouping."""
        if isinstance(e, dsl.Binary) and e.op in ARITHMETIC and self.cat.idiom(dsl.unparse(e)) is None:
            return self.cat(f"op.{e.op}.whole", a=self._operand(e.left), b=self._operand(e.right, True))
        if isinstance(e, dsl.IfElse):
            return self.cat("group.value", x=self.amount(e))
        return self.amount(e)

    def _name_noun(self, dotted: str) -> str:
        entry = self.cat.name(dotted)
        return entry.yes

    def _args(self, args: Sequence[dsl.Expr]) -> dict[str, str]:
        out: dict[str, str] = {}
        for i, a in enumerate(args):
            out["xyz"[i] if i < 3 else f"a{i}"] = self.amount(a)
        return out


def _flatten(e: dsl.Expr, op: str) -> list[dsl.Expr]:
    if isinstance(e, dsl.Binary) and e.op == op:
        return _flatten(e.left, op) + _flatten(e.right, op)
    return [e]


def _cases(e: dsl.IfElse) -> tuple[list[tuple[dsl.Expr, dsl.Expr]], dsl.Expr]:
    """`if a then x else if b then y else z` as [(a, x), (b, y)] and z."""
    cases: list[tuple[dsl.Expr, dsl.Expr]] = []
    node: dsl.Expr = e
    while isinstance(node, dsl.IfElse):
        cases.append((node.cond, node.then))
        node = node.other
    return cases, node


_FOLDS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod,
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
    ">=": operator.ge, "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
}


def _literal(value: Any) -> dsl.Expr | None:
    if isinstance(value, bool):
        return dsl.Bool(value)
    if isinstance(value, int):
        return dsl.Num(value)
    if isinstance(value, str):
        return dsl.Str(value)
    return None


def _known(e: dsl.Expr) -> bool:
    return isinstance(e, (dsl.Num, dsl.Bool, dsl.Str))


def fold(e: dsl.Expr, constants: Mapping[str, Any]) -> dsl.Expr:
    """The expression with the chosen options put in and what they decide taken out, so
    `if options.x == 'a' then 1 else total` reads `total` when x is not `a`."""
    if isinstance(e, dsl.Name):
        return _literal(constants[e.dotted]) or e if e.dotted in constants else e
    if isinstance(e, dsl.IfElse):
        cond = fold(e.cond, constants)
        if _known(cond):
            return fold(e.then if cond.value else e.other, constants)  # type: ignore[union-attr]
        return dsl.IfElse(cond, fold(e.then, constants), fold(e.other, constants))
    if isinstance(e, dsl.Unary):
        operand = fold(e.operand, constants)
        if _known(operand):
            value = operand.value  # type: ignore[union-attr]
            # typecheck.py lets a unary minus apply to numbers only
            return _literal(not value if e.op == "not" else -value) or dsl.Unary(e.op, operand)  # type: ignore[operator]
        return dsl.Unary(e.op, operand)
    if isinstance(e, dsl.Binary):
        left, right = fold(e.left, constants), fold(e.right, constants)
        if e.op in ("and", "or"):
            for known, other in ((left, right), (right, left)):
                if _known(known):
                    decides = bool(known.value) != (e.op == "and")  # type: ignore[union-attr]
                    return dsl.Bool(e.op == "or") if decides else other
            return dsl.Binary(e.op, left, right)
        if e.op in ("+", "-") and isinstance(right, dsl.Num) and right.value == 0:
            return left
        if e.op == "+" and isinstance(left, dsl.Num) and left.value == 0:
            return right
        if _known(left) and _known(right):
            try:
                return _literal(_FOLDS[e.op](left.value, right.value)) or dsl.Binary(e.op, left, right)  # type: ignore[union-attr]
            except (ArithmeticError, TypeError):
                pass
        return dsl.Binary(e.op, left, right)
    if isinstance(e, dsl.Call):
        return dsl.Call(e.name, tuple(fold(a, constants) for a in e.args))
    if isinstance(e, dsl.ListLit):
        return dsl.ListLit(tuple(fold(a, constants) for a in e.items))
    return e
