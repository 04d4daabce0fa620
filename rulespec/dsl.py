"""The spec language's DSL: card rankings, formulas and trick outcomes, parsed into small ASTs.

One Lark grammar (``dsl.lark``, three start rules) is built once at import. Syntax errors become
located :class:`SpecError`\\ s whose message names what was expected and shows a caret, with a
friendlier hint for the mistakes people actually make (see :data:`MISTAKES`).
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, cast

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.tree import Meta

from .errors import Diagnostic, Loc, SpecError

Locate = Callable[[int], Loc]
"""Maps a 0-based offset in a DSL text to a position in the spec file (the loader provides it)."""

_GRAMMAR = resources.files("rulespec").joinpath("dsl.lark").read_text(encoding="utf-8")
_PARSER = Lark(_GRAMMAR, start=["ranking", "expr", "outcome"], parser="lalr", propagate_positions=True)


# ---------------------------------------------------------------------------------------------
# ASTs. Offsets are excluded from equality so that two texts with the same meaning compare equal.


@dataclass(frozen=True)
class RankItem:
    """One card (``1e``) or rank (``3``) of a ranking; the deck decides which it is."""

    text: str
    offset: int


@dataclass(frozen=True)
class Ranking:
    """Tiers from strongest to weakest; items of one tier tie."""

    tiers: tuple[tuple[RankItem, ...], ...]


@dataclass(frozen=True)
class Num:
    value: int
    offset: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Bool:
    value: bool
    offset: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Str:
    value: str
    offset: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Name:
    """A variable, possibly dotted (``options.flor``); the dotted text is one name."""

    dotted: str
    offset: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Call:
    name: str
    args: tuple[Expr, ...]
    offset: int = field(default=0, compare=False)


@dataclass(frozen=True)
class ListLit:
    items: tuple[Expr, ...]
    offset: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Unary:
    """``-`` or ``not``; the offset is the operator's."""

    op: str
    operand: Expr
    offset: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Binary:
    """``or and == != < <= > >= in, not in + - * // %``; the offset is the operator's."""

    op: str
    left: Expr
    right: Expr
    offset: int = field(default=0, compare=False)


@dataclass(frozen=True)
class IfElse:
    cond: Expr
    then: Expr
    other: Expr
    offset: int = field(default=0, compare=False)


Expr = Num | Bool | Str | Name | Call | ListLit | Unary | Binary | IfElse


def walk(expr: Expr) -> Iterator[Expr]:
    """Every node of ``expr``, parents before children."""
    stack: list[Expr] = [expr]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, Call):
            stack.extend(reversed(node.args))
        elif isinstance(node, ListLit):
            stack.extend(reversed(node.items))
        elif isinstance(node, Unary):
            stack.append(node.operand)
        elif isinstance(node, Binary):
            stack.extend((node.right, node.left))
        elif isinstance(node, IfElse):
            stack.extend((node.other, node.then, node.cond))


def names_used(expr: Expr) -> set[str]:
    """The variables an expression reads, so the checker can find undefined and unused ones."""
    return {node.dotted for node in walk(expr) if isinstance(node, Name)}


def calls_used(expr: Expr) -> set[tuple[str, int]]:
    """The functions an expression calls, with their argument counts."""
    return {(node.name, len(node.args)) for node in walk(expr) if isinstance(node, Call)}


# ---------------------------------------------------------------------------------------------
# Printing back: used for messages, `truco rules`, and the round-trip property test.

_PREC = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
         "in": 4, "not in": 4, "+": 5, "-": 5, "*": 6, "//": 6, "%": 6}
_ATOM = 8


def _prec(expr: Expr) -> int:
    if isinstance(expr, IfElse):
        return 0
    if isinstance(expr, Binary):
        return _PREC[expr.op]
    if isinstance(expr, Unary):
        return 3 if expr.op == "not" else 7
    if isinstance(expr, Num) and expr.value < 0:
        return 7
    return _ATOM


def _quote_str(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def unparse(expr: Expr) -> str:
    """DSL text for ``expr`` with only the parentheses its meaning needs."""

    def wrap(sub: Expr, least: int) -> str:
        text = unparse(sub)
        return f"({text})" if _prec(sub) < least else text

    if isinstance(expr, Num):
        return str(expr.value)
    if isinstance(expr, Bool):
        return "true" if expr.value else "false"
    if isinstance(expr, Str):
        return _quote_str(expr.value)
    if isinstance(expr, Name):
        return expr.dotted
    if isinstance(expr, Call):
        return f"{expr.name}({', '.join(unparse(a) for a in expr.args)})"
    if isinstance(expr, ListLit):
        return f"[{', '.join(unparse(a) for a in expr.items)}]"
    if isinstance(expr, Unary):
        if expr.op == "not":
            return f"not {wrap(expr.operand, 3)}"
        return f"-{wrap(expr.operand, 7)}"
    if isinstance(expr, Binary):
        prec = _PREC[expr.op]
        right_least = prec + 1 if prec != 4 else 5  # left-associative; comparisons never chain
        left_least = prec if prec != 4 else 5
        return f"{wrap(expr.left, left_least)} {expr.op} {wrap(expr.right, right_least)}"
    if isinstance(expr, IfElse):
        return (f"if {wrap(expr.cond, 1)} then {wrap(expr.then, 1)} "
                f"else {unparse(expr.other)}")
    raise TypeError(f"not an expression: {expr!r}")


# ---------------------------------------------------------------------------------------------
# Tree → AST


def _unescape(literal: str) -> str:
    """A quoted string's value: a backslash keeps the next character as it is."""
    return re.sub(r"\\(.)", r"\1", literal[1:-1])


def _items(args: Tree[Expr] | None) -> tuple[Expr, ...]:
    return tuple(cast("list[Expr]", args.children)) if args is not None else ()


def _tokens(tree: Tree[Token] | Token) -> list[Token]:
    """The children of a rule the grammar fills with tokens only (a ranking's tier, an outcome)."""
    assert isinstance(tree, Tree)
    return cast("list[Token]", tree.children)


def _at(tok: Token) -> int:
    """A token's offset: the parser keeps every token's position."""
    assert tok.start_pos is not None
    return tok.start_pos


_Children = list[Any]      # a rule's children: tokens and the nodes already transformed


class _ToAst(Transformer[Token, Expr]):
    """Turns the expression parse tree into the frozen AST, keeping offsets for messages."""

    def num(self, children: list[Token]) -> Num:
        return Num(int(children[0]), _at(children[0]))

    @v_args(meta=True)
    def true(self, meta: Meta, children: _Children) -> Bool:
        return Bool(True, meta.start_pos)

    @v_args(meta=True)
    def false(self, meta: Meta, children: _Children) -> Bool:
        return Bool(False, meta.start_pos)

    def string(self, children: list[Token]) -> Str:
        return Str(_unescape(str(children[0])), _at(children[0]))

    def name(self, children: list[Token]) -> Name:
        return Name(str(children[0]), _at(children[0]))

    def call(self, children: _Children) -> Call:
        name, args = children
        return Call(str(name), _items(args), name.start_pos)

    @v_args(meta=True)
    def list(self, meta: Meta, children: _Children) -> ListLit:
        return ListLit(_items(children[0]), meta.start_pos)

    def unary(self, children: _Children) -> Unary:
        op, operand = children
        return Unary(str(op), operand, op.start_pos)

    def binary(self, children: _Children) -> Binary:
        left, op, right = children
        return Binary(str(op), left, right, op.start_pos)

    def not_in(self, children: _Children) -> Binary:
        left, not_, _in, right = children
        return Binary("not in", left, right, not_.start_pos)

    @v_args(meta=True)
    def ifelse(self, meta: Meta, children: _Children) -> IfElse:
        cond, then, other = children
        return IfElse(cond, then, other, meta.start_pos)


_TO_AST = _ToAst()


# ---------------------------------------------------------------------------------------------
# Syntax errors and the table of common mistakes


def show_position(text: str, offset: int) -> str:
    """The line of ``text`` holding ``offset`` with a caret under it, indented for a message."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    line = text[start:end if end >= 0 else len(text)]
    return f"  {line}\n  {' ' * (offset - start)}^"


def _quote(text: str) -> str:
    return f'"{text}"' if "'" in text else f"'{text}'"


@dataclass(frozen=True)
class Failure:
    """What the parser tripped on, in the terms the mistake table tests."""

    start: str
    text: str
    pos: int
    found: str  # the offending text; '' at the end of the text
    kind: str  # its terminal, '$END', or '' for characters no terminal matches
    accepts: frozenset[str]

    @property
    def before(self) -> str:
        """The last non-blank character before the error."""
        return self.text[: self.pos].rstrip()[-1:]

    @property
    def what(self) -> str:
        return _quote(self.found) if self.found else "end of text"


@dataclass(frozen=True)
class Mistake:
    """A common mistake: how to recognise it and the hint that replaces 'expected ...'."""

    start: str
    hint: str
    test: Callable[[Failure], bool]
    examples: tuple[str, ...]  # malformed texts that must produce this hint (the tests use them)
    where: Callable[[Failure], int] | None = None  # a better place to point at than the error


def _unclosed(opener: str) -> Callable[[Failure], int]:
    """Finds where the innermost ``opener`` still open at the error was opened (strings skipped)."""

    def where(f: Failure) -> int:
        stack: list[int] = []
        for m in re.finditer(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|[()\[\]]", f.text[: f.pos]):
            if m.group() in ("(", "["):
                stack.append(m.start())
            elif m.group() in (")", "]") and stack:
                stack.pop()
        opened = [p for p in stack if f.text[p] == opener]
        return opened[-1] if opened else f.pos

    return where


_COMPARISONS = {"==", "!=", "<", "<=", ">", ">="}

MISTAKES: tuple[Mistake, ...] = (
    # rankings
    Mistake("ranking", "the ranking is empty: list the cards from strongest to weakest",
            lambda f: f.kind == "$END" and not f.text.strip(), ("", "   ")),
    Mistake("ranking", "expected a card or rank: two '>' in a row leave an empty tier",
            lambda f: f.found == ">" and f.before == ">", ("1e >> 7e", "1e > > 7e", "1e > 7e = 1b >> 3")),
    Mistake("ranking", "expected a card or rank: a ranking starts with its strongest card",
            lambda f: f.found in (">", "=") and not f.text[: f.pos].strip(), ("> 1e > 7e", "= 1e")),
    Mistake("ranking", "the ranking ends with '>': remove it or name the weakest tier after it",
            lambda f: f.kind == "$END" and f.before == ">", ("1e > 7e >", "1e >")),
    Mistake("ranking", "one '=' joins equal cards: write '1o = 1c', not '=='",
            lambda f: f.found == "=" and f.before == "=", ("1o == 1c", "3 > 1o == 1c")),
    Mistake("ranking", "a ranking goes from strongest to weakest with '>'; '<' is not allowed",
            lambda f: f.found.startswith("<"), ("4 < 5 < 6",)),
    Mistake("ranking", "separate tiers with '>' and equal cards with '=', not ','",
            lambda f: f.found == ",", ("1e, 1b, 7e",)),
    # formulas and conditions
    Mistake("expr", "the formula is empty", lambda f: f.kind == "$END" and not f.text.strip(), ("", " ")),
    Mistake("expr", "write 'and' instead of '&&'", lambda f: f.found.startswith("&"),
            ("a && b", "(x == 1) && y", "f(1) & b")),
    Mistake("expr", "write 'or' instead of '||'", lambda f: f.found.startswith("|"),
            ("a || b", "1 || [2]")),
    Mistake("expr", "write 'not' instead of '!'", lambda f: f.found.startswith("!"),
            ("!played", "a and !b")),
    Mistake("expr", "'=' is not a comparison: write '==' to compare",
            lambda f: f.found == "=", ("trick = 1", "not played and stake_level = 0", "(a) = 1")),
    Mistake("expr", "'>>' is not an operator: compare with '>'",
            lambda f: f.found == ">" and f.before == ">", ("a >> b", "1 >> 2")),
    Mistake("expr", "'<<' is not an operator: compare with '<'",
            lambda f: f.found == "<" and f.before == "<", ("a << b",)),
    Mistake("expr", "there is no power operator '**': multiply instead",
            lambda f: f.found == "*" and f.before == "*", ("2 ** 3",)),
    Mistake("expr", "division is '//' (integer division); '/' is not an operator",
            lambda f: f.found.startswith("/"), ("a / 2", "(total + 1) / 2")),
    Mistake("expr", "comparisons do not chain: write 'a < b and b < c'",
            lambda f: f.found in _COMPARISONS and "COMP_OP" not in f.accepts and "ADD_OP" in f.accepts,
            ("1 < x < 3", "a == b == c", "a != b >= c")),
    Mistake("expr", "unterminated string: close it with the quote that opened it",
            lambda f: f.found[:1] in ("'", '"'), ("called('truco)", '"abc')),
    Mistake("expr", "an 'if' needs 'then' and 'else': write 'if C then A else B'",
            lambda f: "THEN" in f.accepts and f.found != "then",
            ("if a 1 else 2", "if trick == 1", "if x + 1 2")),
    Mistake("expr", "an 'if' needs an 'else': write 'if C then A else B'",
            lambda f: "ELSE" in f.accepts and f.found != "else",
            ("if a then 1", "if a then 1 2", "(if a then b)", "1 + (if x then 2)")),
    Mistake("expr", "unclosed '(': add ')' to close it", lambda f: f.kind == "$END" and "RPAR" in f.accepts,
            ("(1 + 2", "max(1, 2", "((a)", "called('truco'", "f('', (1"), _unclosed("(")),
    Mistake("expr", "unclosed '[': add ']' to close it", lambda f: f.kind == "$END" and "RSQB" in f.accepts,
            ("x in [1, 2", "[[1]"), _unclosed("[")),
    Mistake("expr", "this ')' closes nothing", lambda f: f.found == ")" and "RPAR" not in f.accepts,
            ("(1 + 2))", "a)")),
    Mistake("expr", "this ']' closes nothing", lambda f: f.found == "]" and "RSQB" not in f.accepts,
            ("x in [1]]",)),
    # trick outcomes
    Mistake("outcome", "the pattern is empty: write trick results such as 'A B'",
            lambda f: f.kind == "$END" and not f.text.strip(), ("",)),
    Mistake("outcome", "expected A, B or T: separate trick results with spaces, not ','",
            lambda f: f.found == ",", ("A, B",)),
)

# How a message names an expected terminal; the order here is the order messages list them.
_PHRASES = {
    "RANK_ITEM": "a card or rank", "MORETHAN": "'>'", "EQUAL": "'='", "TRICK": "a trick result (A, B or T)",
    "INT": "a value", "NAME": "a value", "STRING": "a value", "TRUE": "a value", "FALSE": "a value",
    "LSQB": "a value", "MINUS": "a value", "IF": "a value", "LPAR": "a value",
    "OR": "an operator", "AND": "an operator", "COMP_OP": "an operator", "ADD_OP": "an operator",
    "MUL_OP": "an operator", "IN": "an operator", "NOT": "an operator",
    "THEN": "'then'", "ELSE": "'else'", "COMMA": "','", "RPAR": "')'", "RSQB": "']'",
    "$END": "end of text",
}
_ORDER = {phrase: i for i, phrase in enumerate(dict.fromkeys(_PHRASES.values()))}


def _expected(accepts: frozenset[str]) -> str:
    """'expected a value or ')'': the accepted terminals, grouped into words people use."""
    if accepts == {"IN"}:
        return "expected 'in' after 'not'"
    operand = "NAME" in accepts  # a value is expected, so '(' and 'not' start one
    phrases = set()
    for term in accepts:
        if term in ("LPAR", "NOT") and operand:
            phrases.add("a value")
        elif term != "LPAR":  # a call's '(' after a name is noise in a message
            phrases.add(_PHRASES.get(term, term))
    ordered = sorted(phrases, key=lambda p: _ORDER.get(p, len(_ORDER)))
    if not ordered:
        return "expected nothing more"
    head = ", ".join(ordered[:-1])
    return "expected " + (f"{head} or {ordered[-1]}" if head else ordered[-1])


def _failure(start: str, text: str, err: UnexpectedInput) -> Failure:
    end = len(text.rstrip())
    parser = getattr(err, "interactive_parser", None)
    accepts = frozenset(parser.accepts() if parser is not None else getattr(err, "expected", ()) or ())
    if isinstance(err, UnexpectedToken) and err.token.type != "$END":
        tok = err.token
        return Failure(start, text, tok.start_pos, str(tok), tok.type, accepts)
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream
        assert pos is not None                  # lark gives every character error its offset
        run = re.match(r"[^\w\s'\"()\[\],]+|\S", text[pos:])
        return Failure(start, text, pos, run.group() if run else text[pos:pos + 1], "", accepts)
    return Failure(start, text, end, "", "$END", accepts)


def _error(text: str, pos: int, message: str, locate: Locate, path: str) -> SpecError:
    full = f"{message}\n{show_position(text, pos)}"
    return SpecError([Diagnostic("error", locate(pos), path, full)])


def _syntax_error(failure: Failure, locate: Locate, path: str) -> SpecError:
    for mistake in MISTAKES:
        if mistake.start == failure.start and mistake.test(failure):
            if mistake.where is not None:  # the real culprit is elsewhere: point at it
                return _error(failure.text, mistake.where(failure), mistake.hint, locate, path)
            message = f"unexpected {failure.what} — {mistake.hint}"
            return _error(failure.text, failure.pos, message, locate, path)
    message = f"unexpected {failure.what} — {_expected(failure.accepts)}"
    return _error(failure.text, failure.pos, message, locate, path)


def _parse(text: str, start: str, locate: Locate, path: str) -> Tree[Token]:
    try:
        return _parsed(text, start)
    except UnexpectedInput as err:
        raise _syntax_error(_failure(start, text, err), locate, path) from None


@functools.lru_cache(maxsize=4096)
def _parsed(text: str, start: str) -> Tree[Token]:
    """The parse tree of a text (never changed by its readers): every option combination of
    a spec, and every re-check of an edited one, parses the same formulas again."""
    return _PARSER.parse(text, start=start)


# ---------------------------------------------------------------------------------------------
# Public entry points


def parse_ranking(text: str, locate: Locate, *, path: str = "$") -> Ranking:
    """Split a ranking into tiers of items; the deck, not the parser, gives items meaning."""
    tree = _parse(text, "ranking", locate, path)
    return Ranking(tuple(
        tuple(RankItem(str(tok), _at(tok)) for tok in _tokens(tier)) for tier in tree.children
    ))


MAX_FORMULA = 2000      # characters: far past any rule a rulebook states in one formula
MAX_NESTING = 40        # parentheses within parentheses


def parse_expr(text: str, locate: Locate, *, path: str = "$") -> Expr:
    """Parse a formula or condition. An outsized one is refused before parsing, so that no
    input can exhaust the parser's or the checker's recursion."""
    if len(text) > MAX_FORMULA:
        raise SpecError([Diagnostic("error", locate(0), path, f"a formula of {len(text)} characters is too long "
                                    f"(at most {MAX_FORMULA}): name its parts as values or options")])
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth > MAX_NESTING:
            raise _error(text, i, f"parentheses nested more than {MAX_NESTING} deep", locate, path)
    try:
        return _TO_AST.transform(_parse(text, "expr", locate, path))
    except RecursionError:
        raise _error(text, 0, "this formula is too deeply nested to read", locate, path) from None


def parse_outcome(text: str, locate: Locate, *, path: str = "$") -> tuple[str, ...]:
    """Parse a trick-result pattern such as ``"A B T"`` into ``('A', 'B', 'T')``."""
    tree = _parse(text, "outcome", locate, path)
    for tok in _tokens(tree):
        if tok not in ("A", "B", "T"):
            if set(tok) <= set("ABT"):
                hint = "write one letter per trick, separated by spaces: " + _quote(" ".join(tok))
            elif set(tok.upper()) <= set("ABT"):
                hint = "trick results are the capital letters A, B and T"
            else:
                hint = "expected A, B or T (A and B stand for the teams, T for a tie)"
            raise _error(text, _at(tok), f"unexpected {_quote(tok)} — {hint}", locate, path)
    return tuple(str(tok) for tok in tree.children)


def parse_value(value: object, locate: Locate, *, path: str = "$") -> Expr:
    """A formula as YAML gives it: ``worth: 2`` and ``enabled: true`` are formulas too."""
    if isinstance(value, bool):
        return Bool(value, 0)
    if isinstance(value, int):
        return Num(value, 0)
    if isinstance(value, str):
        return parse_expr(value, locate, path=path)
    kind = "nothing" if value is None else type(value).__name__
    raise SpecError([Diagnostic(
        "error", locate(0), path, f"expected a formula (a number, true/false or a text), got {kind}")])
