"""Compiling DSL expressions to Python closures for the engine's hot path.

Every node becomes a closure over its children's closures (or a folded constant), so an
evaluation is a few direct calls: no AST walking, no name lookups beyond the getters the
environment supplies. Names, functions and arities are checked once, here, with located errors.
"""
from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .dsl import (
    Binary,
    Bool,
    Call,
    Expr,
    IfElse,
    ListLit,
    Locate,
    Name,
    Num,
    Str,
    Unary,
    show_position,
    unparse,
)
from .errors import Diagnostic, SpecError, unknown

Getter = Callable[[Any], Any]
VARIADIC = -1
"""`FunctionSpec.arity` for functions taking one or more arguments (``max``, ``min``)."""


def option_constants(options: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """Chosen table options as the constants formulas read (`options.NAME`), so conditions
    on options fold away when a formula is compiled."""
    pairs = options.items() if isinstance(options, Mapping) else options
    return {f"options.{k}": v for k, v in pairs}


@dataclass(frozen=True)
class FunctionSpec:
    """A function formulas may call.

    With ``const_args`` the arguments must be compile-time constants (``called('truco')``):
    ``impl(*values)`` runs once, may raise ``KeyError``/``ValueError`` to reject them, and
    returns the getter to run per evaluation. Otherwise ``impl(*values)`` runs per evaluation
    on the evaluated arguments; it must be pure, since constant arguments fold.
    """

    arity: int
    impl: Callable[..., Any]
    const_args: bool = False
    source: Callable[..., str] | None = None
    """With ``const_args``: the Python source over the context ``c`` of the getter ``impl``
    returns for the same arguments, for generated formulas (otherwise they call the getter)."""


@dataclass
class Env:
    """What formulas may read: getters of the context, functions, and names known up front.

    ``constants`` (such as the chosen ``options.NAME``) take precedence over ``names`` and fold
    whole conditions away at compile time.
    """

    names: dict[str, Getter] = field(default_factory=dict)
    functions: dict[str, FunctionSpec] = field(default_factory=dict)
    constants: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    """The Python source over the context ``c`` of a name's getter, for generated formulas
    (a name without one is called)."""


def _extreme(pick: Callable[..., Any]) -> Callable[..., Any]:
    """``max(a, b, ...)``, and ``max(list)`` over a list; ``max(a)`` is ``a``."""

    def extreme(*values: Any) -> Any:
        if len(values) > 1:
            return pick(values)
        (only,) = values
        return pick(only) if isinstance(only, (tuple, list)) else only

    return extreme


BUILTINS: dict[str, FunctionSpec] = {
    "max": FunctionSpec(VARIADIC, _extreme(max)),
    "min": FunctionSpec(VARIADIC, _extreme(min)),
    "abs": FunctionSpec(1, abs),
}


@dataclass(frozen=True)
class Compiled:
    """A compiled formula: ``fn(ctx)`` evaluates it; constant ones also carry their ``value``.

    ``fn`` is the closure tree, or with ``generate`` one Python function compiled from
    ``source``: the same evaluation in one call instead of one per node, for the engine."""

    fn: Getter
    constant: bool
    value: Any
    text: str
    source: str = ""


class _Const:
    """A folded subexpression during compilation (never seen at run time)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class _Code:
    """A subexpression known only in play: its closure, and the same as Python source over the
    context `c` (names it needs are bound in the compiler's scope)."""

    __slots__ = ("fn", "src")

    def __init__(self, fn: Getter, src: str) -> None:
        self.fn = fn
        self.src = src


_Node = _Const | _Code

# Binary operators as tiny closure factories, one per operand shape, so the closure does the
# operation inline instead of calling operator.xxx. Generated once: 13 operators x 3 shapes.
_SYMBOLS = ("+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=", "in", "not in")
_FOLD: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
    "%": operator.mod, "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge, "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
}


def _factories(symbol: str) -> tuple[Callable[..., Getter], ...]:
    source = (
        f"def both(a, b):\n    return lambda c: a(c) {symbol} b(c)\n"
        f"def left(k, b):\n    return lambda c: k {symbol} b(c)\n"
        f"def right(a, k):\n    return lambda c: a(c) {symbol} k\n"
    )
    scope: dict[str, Any] = {}
    exec(source, scope)  # noqa: S102 - fixed operator symbols only, never spec text
    return scope["both"], scope["left"], scope["right"]


_MAKERS = {symbol: _factories(symbol) for symbol in _SYMBOLS}


def _and(a: Getter, b: Getter) -> Getter:
    return lambda c: True if a(c) and b(c) else False


def _or(a: Getter, b: Getter) -> Getter:
    return lambda c: True if a(c) or b(c) else False


def _truth(a: Getter) -> Getter:
    return lambda c: True if a(c) else False


def _ifelse(cond: Getter, then: _Node, other: _Node) -> Getter:
    if isinstance(then, _Const) and isinstance(other, _Const):
        x, y = then.value, other.value
        return lambda c: x if cond(c) else y
    t, o = _getter(then), _getter(other)
    return lambda c: t(c) if cond(c) else o(c)


def _apply(impl: Callable[..., Any], args: list[Getter]) -> Getter:
    if len(args) == 1:
        (a,) = args
        return lambda c: impl(a(c))
    if len(args) == 2:
        a, b = args
        return lambda c: impl(a(c), b(c))
    if len(args) == 3:
        a, b, d = args
        return lambda c: impl(a(c), b(c), d(c))
    fs = tuple(args)
    return lambda c: impl(*[f(c) for f in fs])


def _getter(node: _Node) -> Getter:
    if isinstance(node, _Const):
        value = node.value
        return lambda c: value
    return node.fn


_LITERALS = (bool, int, str, type(None))


class _Compiler:
    """One compilation: the environment, where to point errors, and the objects the generated
    source names (`scope`)."""

    def __init__(self, env: Env, locate: Locate, path: str, text: str | None) -> None:
        self.names = env.names
        self.sources = env.sources
        self.constants = env.constants
        self.functions = {**BUILTINS, **env.functions}
        self.locate = locate
        self.path = path
        self.text = text
        self.scope: dict[str, Any] = {}

    def bind(self, value: Any) -> str:
        """A name for `value` in the generated source's scope."""
        name = f"_{len(self.scope)}"
        self.scope[name] = value
        return name

    def source(self, node: _Node) -> str:
        if isinstance(node, _Code):
            return node.src
        value = node.value
        if type(value) in _LITERALS or (type(value) is tuple and all(type(v) in _LITERALS for v in value)):
            return repr(value)
        return self.bind(value)

    def error(self, offset: int, message: str) -> SpecError:
        if self.text is not None:
            message = f"{message}\n{show_position(self.text, offset)}"
        return SpecError([Diagnostic("error", self.locate(offset), self.path, message)])

    def suggest(self, word: str, candidates: list[str], what: str) -> str:
        if word.lower() in ("true", "false"):      # `true` itself is a literal, never a name
            return f" (did you mean {word.lower()!r}?)"
        return unknown(word, candidates, what)

    def fold(self, offset: int, fn: Callable[..., Any], *args: Any) -> _Const:
        try:
            return _Const(fn(*args))
        except ZeroDivisionError:
            raise self.error(offset, "division by zero") from None
        except (TypeError, ValueError) as exc:
            raise self.error(offset, f"cannot compute this: {exc}") from None

    def compile(self, expr: Expr) -> _Node:
        if isinstance(expr, (Num, Bool, Str)):
            return _Const(expr.value)
        if isinstance(expr, Name):
            return self.name(expr)
        if isinstance(expr, Binary):
            if expr.op in ("and", "or"):
                return self.logic(expr)
            return self.binary(expr)
        if isinstance(expr, Unary):
            return self.unary(expr)
        if isinstance(expr, IfElse):
            cond = self.compile(expr.cond)
            then, other = self.compile(expr.then), self.compile(expr.other)
            if isinstance(cond, _Const):
                return then if cond.value else other
            return _Code(_ifelse(cond.fn, then, other),
                         f"({self.source(then)} if {cond.src} else {self.source(other)})")
        if isinstance(expr, ListLit):
            items = [self.compile(item) for item in expr.items]
            if all(isinstance(item, _Const) for item in items):
                return _Const(tuple(item.value for item in items))      # type: ignore[union-attr]
            fs = tuple(_getter(item) for item in items)
            return _Code(lambda c: tuple([f(c) for f in fs]), f"({''.join(self.source(i) + ', ' for i in items)})")
        if isinstance(expr, Call):
            return self.call(expr)
        raise TypeError(f"not an expression: {expr!r}")

    def name(self, expr: Name) -> _Node:
        if expr.dotted in self.constants:
            return _Const(self.constants[expr.dotted])
        getter = self.names.get(expr.dotted)
        if getter is not None:
            template = self.sources.get(expr.dotted)
            return _Code(getter, f"({template})" if template else f"{self.bind(getter)}(c)")
        if expr.dotted in self.functions:
            raise self.error(expr.offset, f"{expr.dotted!r} is a function: call it as {expr.dotted}(...)")
        known = [*self.names, *self.constants]
        hint = self.suggest(expr.dotted, known, "the names here")
        raise self.error(expr.offset, f"unknown name {expr.dotted!r}{hint}")

    def logic(self, expr: Binary) -> _Node:
        """``and``/``or`` short-circuit and give bools; a constant side decides at compile time."""
        left, right = self.compile(expr.left), self.compile(expr.right)
        is_and = expr.op == "and"
        if isinstance(left, _Const):
            if bool(left.value) != is_and:  # false and x, true or x
                return _Const(not is_and)
            return _Const(bool(right.value)) if isinstance(right, _Const) else self.truth(right)
        if isinstance(right, _Const):
            if bool(right.value) != is_and:  # x and false, x or true: formulas have no side effects
                return _Const(not is_and)
            return self.truth(left)
        fn = _and(left.fn, right.fn) if is_and else _or(left.fn, right.fn)
        return _Code(fn, f"(True if ({left.src} {expr.op} {right.src}) else False)")

    @staticmethod
    def truth(node: _Code) -> _Code:
        return _Code(_truth(node.fn), f"(True if {node.src} else False)")

    def binary(self, expr: Binary) -> _Node:
        left, right = self.compile(expr.left), self.compile(expr.right)
        both, left_const, right_const = _MAKERS[expr.op]
        if isinstance(left, _Const) and isinstance(right, _Const):
            return self.fold(expr.offset, _FOLD[expr.op], left.value, right.value)
        src = f"({self.source(left)} {expr.op} {self.source(right)})"
        if isinstance(right, _Const):
            if expr.op in ("//", "%") and right.value == 0:
                raise self.error(expr.offset, "division by zero")
            assert isinstance(left, _Code)
            return _Code(right_const(left.fn, right.value), src)
        if expr.op in ("//", "%"):              # a constant divided by a number known in play too
            checked, dividend, divisor = self.checked_division(expr), _getter(left), right.fn
            return _Code(lambda c: checked(dividend(c), divisor(c)),
                         f"{self.bind(checked)}({self.source(left)}, {right.src})")
        if isinstance(left, _Const):
            return _Code(left_const(left.value, right.fn), src)
        return _Code(both(left.fn, right.fn), src)

    def checked_division(self, expr: Binary) -> Callable[[Any, Any], Any]:
        """A divisor known only in play: dividing by zero is the spec's error, reported at the
        formula, not a crash of the engine."""
        divide = _FOLD[expr.op]
        error = self.error(expr.offset, "division by zero: the divisor is 0 in this situation")

        def checked(dividend: Any, divisor: Any) -> Any:
            if divisor == 0:
                raise error
            return divide(dividend, divisor)
        return checked

    def unary(self, expr: Unary) -> _Node:
        operand = self.compile(expr.operand)
        if expr.op == "not":
            if isinstance(operand, _Const):
                return _Const(not operand.value)
            fn = operand.fn
            return _Code(lambda c: not fn(c), f"(not {operand.src})")
        if isinstance(operand, _Const):
            return self.fold(expr.offset, operator.neg, operand.value)
        fn = operand.fn
        return _Code(lambda c: -fn(c), f"(-{operand.src})")

    def call(self, expr: Call) -> _Node:
        spec = self.functions.get(expr.name)
        if spec is None:
            if expr.name in self.names or expr.name in self.constants:
                raise self.error(expr.offset, f"{expr.name!r} is not a function: drop the parentheses")
            suggestion = self.suggest(expr.name, list(self.functions), "the functions")
            raise self.error(expr.offset, f"unknown function {expr.name!r}" + suggestion)
        count = len(expr.args)
        if spec.arity == VARIADIC and count == 0:
            raise self.error(expr.offset, f"{expr.name}() needs at least 1 argument")
        if spec.arity != VARIADIC and count != spec.arity:
            plural = "" if spec.arity == 1 else "s"
            raise self.error(expr.offset,
                             f"{expr.name}() takes {spec.arity} argument{plural}, got {count}")
        args = [self.compile(arg) for arg in expr.args]
        if spec.const_args:
            return self.const_call(expr, spec, args)
        if all(isinstance(arg, _Const) for arg in args):
            return self.fold(expr.offset, spec.impl, *[arg.value for arg in args])  # type: ignore[union-attr]
        src = f"{self.bind(spec.impl)}({', '.join(self.source(a) for a in args)})"
        return _Code(_apply(spec.impl, [_getter(arg) for arg in args]), src)

    def const_call(self, expr: Call, spec: FunctionSpec, args: list[_Node]) -> _Code:
        """Resolve ``called('truco')`` once: check the argument now, keep only its getter."""
        values = []
        for arg, node in zip(expr.args, args, strict=False):
            if not isinstance(node, _Const):
                raise self.error(arg.offset, f"the arguments of {expr.name}() must be constants, "
                                             f"like {expr.name}('truco')")
            values.append(node.value)
        try:
            getter: Getter = spec.impl(*values)
        except (KeyError, ValueError) as exc:
            given = ", ".join(map(repr, values))
            # a bare dict KeyError carries only the key; a deliberate one carries a sentence
            known = bool(exc.args) and isinstance(exc.args[0], str) and exc.args[0] not in values
            detail = exc.args[0] if known else f"unknown argument {given}"
            at = expr.args[0].offset if expr.args else expr.offset
            raise self.error(at, f"{expr.name}(): {detail}") from None
        template = spec.source(*values) if spec.source is not None else None
        return _Code(getter, f"({template})" if template else f"{self.bind(getter)}(c)")


def compile_expr(expr: Expr, env: Env, locate: Locate, path: str, *,
                 text: str | None = None, generate: bool = False) -> Compiled:
    """Compile ``expr`` against ``env``; ``text`` (its source) adds a caret to error messages.
    With ``generate``, the formula becomes one Python function (`Compiled.source`) instead of
    a closure tree: the engine's way, held to the closures by a differential test."""
    compiler = _Compiler(env, locate, path, text)
    node = compiler.compile(expr)
    shown = text if text is not None else unparse(expr)
    if isinstance(node, _Const):
        return Compiled(_getter(node), True, node.value, shown, repr(node.value))
    if not generate:
        return Compiled(node.fn, False, None, shown, node.src)
    code = compile(f"lambda c: {node.src}", f"<formula {path}>", "eval")    # named for profiles and tracebacks
    fn = eval(code, compiler.scope)  # noqa: S307 - built from the parsed tree, its names bound
    return Compiled(fn, False, None, shown, node.src)
