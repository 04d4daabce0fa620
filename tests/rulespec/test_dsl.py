"""The DSL parser: rankings, expressions, outcomes, and the messages for syntax errors."""
from __future__ import annotations

import pytest

from rulespec.dsl import (
    MISTAKES,
    Binary,
    Bool,
    Call,
    IfElse,
    ListLit,
    Name,
    Num,
    Ranking,
    RankItem,
    Str,
    Unary,
    calls_used,
    names_used,
    parse_expr,
    parse_outcome,
    parse_ranking,
    parse_value,
    unparse,
)
from rulespec.errors import Loc, SpecError

PARSERS = {"ranking": parse_ranking, "expr": parse_expr, "outcome": parse_outcome}


def locate(offset: int) -> Loc:
    """A fake loader position: the text starts at line 7, column 12 of spec.yaml."""
    return Loc("spec.yaml", 7, 12 + offset)


def expr(text: str):
    return parse_expr(text, locate)


def error(start: str, text: str, path: str = "$.x"):
    with pytest.raises(SpecError) as info:
        PARSERS[start](text, locate, path=path)
    (diag,) = info.value.diagnostics
    assert diag.severity == "error"
    assert diag.path == path
    return diag


a, b, c, d = Name("a"), Name("b"), Name("c"), Name("d")


# ---- ranking ---------------------------------------------------------------------------------

ARGENTINE = "1e > 1b > 7e > 7o > 3 > 2 > 1o = 1c > 12 > 11 > 10 > 7c = 7b > 6 > 5 > 4"


def test_ranking_tiers_and_offsets() -> None:
    ranking = parse_ranking(ARGENTINE, locate)
    assert len(ranking.tiers) == 14
    texts = [[item.text for item in tier] for tier in ranking.tiers]
    assert texts == [["1e"], ["1b"], ["7e"], ["7o"], ["3"], ["2"], ["1o", "1c"], ["12"], ["11"],
                     ["10"], ["7c", "7b"], ["6"], ["5"], ["4"]]
    for tier in ranking.tiers:
        for item in tier:
            assert ARGENTINE[item.offset:item.offset + len(item.text)] == item.text
    assert ranking.tiers[6] == (RankItem("1o", 28), RankItem("1c", 33))
    assert ranking.tiers[-1] == (RankItem("4", 71),)


def test_ranking_accepts_letters_and_no_spaces() -> None:
    assert parse_ranking("As>K=Q>7d", locate) == Ranking(
        ((RankItem("As", 0),), (RankItem("K", 3), RankItem("Q", 5)), (RankItem("7d", 7),)))
    assert parse_ranking("3", locate) == Ranking(((RankItem("3", 0),),))


def test_ranking_error_message_and_location() -> None:
    diag = error("ranking", "1e > > 7e", path="$.ranking")
    assert diag.loc == Loc("spec.yaml", 7, 12 + 5)
    assert diag.message.startswith("unexpected '>' — expected a card or rank")
    assert diag.message.endswith("\n  1e > > 7e\n       ^")


def test_ranking_generic_error_lists_what_was_expected() -> None:
    diag = error("ranking", "1e = > 7e")
    assert diag.message.splitlines()[0] == "unexpected '>' — expected a card or rank"
    diag = error("ranking", "1e 7e")
    assert diag.message.splitlines()[0] == "unexpected '7e' — expected '>', '=' or end of text"
    assert diag.loc == locate(3)


# ---- expressions: atoms ----------------------------------------------------------------------

def test_literals() -> None:
    assert expr("42") == Num(42)
    assert expr("true") == Bool(True) and expr("false") == Bool(False)
    assert expr("'truco'") == Str("truco")
    assert expr('"vale cuatro"') == Str("vale cuatro")
    assert expr(r"'it\'s'") == Str("it's")
    assert expr(r'"a\"b\\c"') == Str('a"b\\c')
    assert expr("''") == Str("")


def test_names_dotted_and_keyword_like() -> None:
    assert expr("options.flor") == Name("options.flor")
    assert expr("a.b.c_1") == Name("a.b.c_1")
    # names that merely start with a keyword stay names
    assert expr("iffy + notable + android + options.in_x + true_") == Binary(
        "+", Binary("+", Binary("+", Binary("+", Name("iffy"), Name("notable")), Name("android")),
                    Name("options.in_x")), Name("true_"))


def test_keywords_are_never_names() -> None:
    diag = error("expr", "a and or b")
    assert diag.message.splitlines()[0] == "unexpected 'or' — expected a value"
    assert diag.loc == locate(6)


def test_calls_and_lists() -> None:
    assert expr("f()") == Call("f", ())
    assert expr("called('truco')") == Call("called", (Str("truco"),))
    assert expr("max(a, b + 1, 3,)") == Call("max", (a, Binary("+", b, Num(1)), Num(3)))
    assert expr("f(g(a))") == Call("f", (Call("g", (a,)),))
    assert expr("[]") == ListLit(())
    assert expr("[1, [a], 'x']") == ListLit((Num(1), ListLit((a,)), Str("x")))


# ---- expressions: operators and precedence ---------------------------------------------------

@pytest.mark.parametrize("op", ["+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=",
                                "in", "not in", "and", "or"])
def test_every_binary_operator(op: str) -> None:
    assert expr(f"a {op} b") == Binary(op, a, b)


@pytest.mark.parametrize("text, tree", [
    ("1 + 2 * 3", Binary("+", Num(1), Binary("*", Num(2), Num(3)))),
    ("(1 + 2) * 3", Binary("*", Binary("+", Num(1), Num(2)), Num(3))),
    ("a - b - c", Binary("-", Binary("-", a, b), c)),
    ("a // b % c", Binary("%", Binary("//", a, b), c)),
    ("a - b * c + d", Binary("+", Binary("-", a, Binary("*", b, c)), d)),
    ("-a * b", Binary("*", Unary("-", a), b)),
    ("- -a", Unary("-", Unary("-", a))),
    ("a - -b", Binary("-", a, Unary("-", b))),
    ("a + b == c * d", Binary("==", Binary("+", a, b), Binary("*", c, d))),
    ("a < b and c", Binary("and", Binary("<", a, b), c)),
    ("not a and b", Binary("and", Unary("not", a), b)),
    ("not a == b", Unary("not", Binary("==", a, b))),
    ("not not a", Unary("not", Unary("not", a))),
    ("a or b and c", Binary("or", a, Binary("and", b, c))),
    ("a and b or c and d", Binary("or", Binary("and", a, b), Binary("and", c, d))),
    ("a or b or c", Binary("or", Binary("or", a, b), c)),
    ("a + 1 in [b, c]", Binary("in", Binary("+", a, Num(1)), ListLit((b, c)))),
    ("a not in b and c", Binary("and", Binary("not in", a, b), c)),
    ("not a in b", Unary("not", Binary("in", a, b))),
])
def test_precedence(text: str, tree) -> None:
    assert expr(text) == tree


def test_if_then_else_is_lowest_and_right_associative() -> None:
    assert expr("if a then b else c") == IfElse(a, b, c)
    assert expr("if a then 1 else 2 + 3") == IfElse(a, Num(1), Binary("+", Num(2), Num(3)))
    assert expr("if a or b then c else d") == IfElse(Binary("or", a, b), c, d)
    assert expr("if a then b else if c then d else 0") == IfElse(a, b, IfElse(c, d, Num(0)))
    assert expr("if a then if b then 1 else 2 else 3") == IfElse(a, IfElse(b, Num(1), Num(2)), Num(3))
    assert expr("(if a then b else c) + 1") == Binary("+", IfElse(a, b, c), Num(1))
    assert expr("f(if a then 1 else 2)") == Call("f", (IfElse(a, Num(1), Num(2)),))


def test_offsets_point_at_the_node() -> None:
    text = "if trick == 1 then max(x, 2) else not [y]"
    tree = expr(text)
    assert isinstance(tree, IfElse) and tree.offset == 0
    assert tree.cond.offset == text.index("==")  # a binary node's offset is its operator
    assert tree.cond.left.offset == 3 and tree.cond.right.offset == text.index("1")
    assert tree.then.offset == text.index("max") and tree.then.args[0].offset == text.index("x,")
    assert tree.other.offset == text.index("not") and tree.other.operand.offset == text.index("[")
    assert expr("a not in b").offset == 2
    assert expr("  -a").offset == 2


def test_names_and_calls_used() -> None:
    tree = expr("if called('truco') then max(a, options.x) else b.c + f(g(a), [d])")
    assert names_used(tree) == {"a", "options.x", "b.c", "d"}
    assert calls_used(tree) == {("called", 1), ("max", 2), ("f", 2), ("g", 1)}
    assert names_used(Num(1)) == set() and calls_used(Num(1)) == set()


def test_unparse_round_trips() -> None:
    for text in ["1 + 2 * 3", "(a + b) * c", "a - (b - c)", "not (a and b)", "-(a + 1)",
                 "if a then b else if c then d else 0", "(if a then 1 else 2) + 3",
                 "a not in [1, 'x']", "f(g(a), -1)", "(a < b) == c", "not -a < b"]:
        tree = expr(text)
        assert unparse(tree) == text
        assert expr(unparse(tree)) == tree


# ---- outcomes --------------------------------------------------------------------------------

def test_outcome_patterns() -> None:
    assert parse_outcome("A", locate) == ("A",)
    assert parse_outcome("A B T", locate) == ("A", "B", "T")
    assert parse_outcome("  T   T  T ", locate) == ("T", "T", "T")


@pytest.mark.parametrize("text, offset, first_line", [
    ("A X", 2, "unexpected 'X' — expected A, B or T (A and B stand for the teams, T for a tie)"),
    ("A AB", 2, "unexpected 'AB' — write one letter per trick, separated by spaces: 'A B'"),
    ("a b", 0, "unexpected 'a' — trick results are the capital letters A, B and T"),
    ("A > B", 2, "unexpected '>' — expected a trick result (A, B or T) or end of text"),
])
def test_outcome_errors(text: str, offset: int, first_line: str) -> None:
    diag = error("outcome", text)
    assert diag.message.splitlines()[0] == first_line
    assert diag.loc == locate(offset)


# ---- parse_value -----------------------------------------------------------------------------

def test_parse_value_accepts_yaml_scalars() -> None:
    assert parse_value(2, locate) == Num(2)
    assert parse_value(True, locate) == Bool(True) and parse_value(False, locate) == Bool(False)
    assert parse_value("target - leader", locate) == Binary("-", Name("target"), Name("leader"))


@pytest.mark.parametrize("value", [None, 1.5, [1], {"a": 1}])
def test_parse_value_rejects_other_yaml(value) -> None:
    with pytest.raises(SpecError) as info:
        parse_value(value, locate, path="$.stakes.base")
    (diag,) = info.value.diagnostics
    assert diag.path == "$.stakes.base" and diag.loc == locate(0)
    assert "expected a formula" in diag.message


# ---- syntax errors: positions and the table of common mistakes ---------------------------------

@pytest.mark.parametrize("start, text, offset, first_line", [
    ("expr", "trick = 1", 6, "unexpected '=' — '=' is not a comparison: write '==' to compare"),
    ("expr", "a && b", 2, "unexpected '&&' — write 'and' instead of '&&'"),
    ("expr", "a || b", 2, "unexpected '||' — write 'or' instead of '||'"),
    ("expr", "if a then 1", 11, "unexpected end of text — an 'if' needs an 'else': write 'if C then A else B'"),
    ("expr", "if a 1 else 2", 5, "unexpected '1' — an 'if' needs 'then' and 'else': write 'if C then A else B'"),
    ("expr", "max(1, (2 + 3)", 3, "unclosed '(': add ')' to close it"),
    ("expr", "a >> b", 3, "unexpected '>' — '>>' is not an operator: compare with '>'"),
    ("ranking", "1e > 7e >", 9, "unexpected end of text — the ranking ends with '>': remove it or name the weakest tier after it"),
    ("ranking", "1e >> 7e", 4, "unexpected '>' — expected a card or rank: two '>' in a row leave an empty tier"),
    ("expr", "1 +", 3, "unexpected end of text — expected a value"),
    ("expr", "a b", 2, "unexpected 'b' — expected an operator or end of text"),
    ("expr", "f(,)", 2, "unexpected ',' — expected a value or ')'"),
    ("expr", "f(a b)", 4, "unexpected 'b' — expected an operator, ',' or ')'"),
    ("expr", "x not 3", 6, "unexpected '3' — expected 'in' after 'not'"),
])
def test_error_message_and_position(start: str, text: str, offset: int, first_line: str) -> None:
    diag = error(start, text)
    assert diag.loc == locate(offset)
    lines = diag.message.split("\n")
    assert lines[0] == first_line
    assert lines[1] == "  " + text
    assert lines[2] == "  " + " " * offset + "^"


@pytest.mark.parametrize("mistake, example", [
    (m, example) for m in MISTAKES for example in m.examples
], ids=lambda v: getattr(v, "hint", v)[:40] if not isinstance(v, str) else repr(v))
def test_every_common_mistake_gets_its_hint(mistake, example: str) -> None:
    diag = error(mistake.start, example)
    assert mistake.hint in diag.message.splitlines()[0]


def test_every_mistake_has_examples() -> None:
    assert all(m.examples for m in MISTAKES)
    hints = [m.hint for m in MISTAKES]
    assert len(hints) == len(set(hints))


def test_multiline_text_shows_the_offending_line() -> None:
    text = "if trick == 1\nthen 2\nelse 3 4"
    diag = error("expr", text)
    assert diag.loc == locate(len(text) - 1)
    assert diag.message.split("\n")[1:] == ["  else 3 4", "         ^"]
