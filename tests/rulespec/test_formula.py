"""Compiling DSL expressions to closures: semantics, folding, functions and located errors."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.dsl import Binary, IfElse, Name, Num, Unary, parse_expr, parse_value, unparse
from rulespec.errors import Loc, SpecError
from rulespec.formula import VARIADIC, Compiled, Env, FunctionSpec, compile_expr


def locate(offset: int) -> Loc:
    return Loc("spec.yaml", 3, 20 + offset)


VALUES = {"a": 7, "b": 2, "c": 0, "yes": True, "no": False, "word": "truco", "items": (1, 2, 3)}


def getters(values: dict[str, Any]) -> dict[str, Any]:
    """Context getters, as the engine provides them: the context here is a dict."""
    return {name: (lambda ctx, n=name: ctx[n]) for name in values}


def run(text: str, env: Env | None = None) -> Compiled:
    return compile_expr(parse_expr(text, locate), env or Env(getters(VALUES)), locate, "$.f",
                        text=text)


def value(text: str) -> Any:
    return run(text).fn(VALUES)


def folded(text: str) -> Compiled:
    return run(text, Env(constants=dict(VALUES)))


def compile_error(text: str, env: Env | None = None):
    with pytest.raises(SpecError) as info:
        run(text, env)
    (diag,) = info.value.diagnostics
    assert diag.path == "$.f" and diag.severity == "error"
    return diag


CASES = [
    ("a + b", 9), ("a - b", 5), ("a * b", 14), ("a // b", 3), ("a % b", 1), ("-a // b", -4),
    ("-a", -7), ("- -a", 7), ("a + b * 3", 13), ("(a + b) * 3", 27), ("a - b - 1", 4),
    ("a == 7", True), ("a != 7", False), ("b < a", True), ("a <= 7", True), ("b > a", False),
    ("a >= 8", False), ("b in items", True), ("a in items", False), ("a not in items", True),
    ("word in ['truco', 'envido']", True), ("a in [b, c]", False), ("[a, b + 1]", (7, 3)),
    ("yes and no", False), ("yes or no", True), ("not no", True), ("not a", False),
    ("a and b", True), ("c or a", True), ("c and a", False),  # and/or give bools
    ("not no and no", False), ("not (no and no)", True),
    ("if yes then a else b", 7), ("if no then a else b", 2),
    ("if no then 1 else if c then 2 else 3", 3), ("if a > b then a - b else b - a", 5),
    ("max(a, b, 10)", 10), ("min(a, b)", 2), ("abs(b - a)", 5), ("max(items)", 3),
    ("max(a, b, c, 10)", 10), ("min(a, b, c, 10)", 0), ("max(a, b, c)", 7), ("max(c, a, b)", 7),
    ("min(a, c, b)", 0), ("a // (b - 1)", 7), ("a % (b - 1)", 0),
    ("'x'", "x"), ("word == 'truco'", True), ("1 + 2 * 3", 7),
]


@pytest.mark.parametrize("text, expected", CASES)
def test_semantics_at_run_time_and_folded(text: str, expected: Any) -> None:
    dynamic = run(text)
    assert dynamic.fn(VALUES) == expected and type(dynamic.fn(VALUES)) is type(expected)
    constant = folded(text)
    assert constant.constant and constant.value == expected
    assert type(constant.value) is type(expected)
    assert constant.fn(None) == expected


def test_a_zero_divisor_in_play_is_the_specs_error() -> None:
    """A divisor known only in play that turns out 0 raises the formula's located error, not the
    engine's ZeroDivisionError, whether what it divides is known in play or a constant; a
    divisor of 1 divides."""
    for text in ("a // c", "10 // c", "10 % c"):
        with pytest.raises(SpecError) as info:
            run(text).fn(VALUES)
        (diag,) = info.value.diagnostics
        offset = text.index(" ") + 1
        assert diag.loc == locate(offset) and diag.path == "$.f"
        assert diag.message.split("\n") == ["division by zero: the divisor is 0 in this situation",
                                             "  " + text, "  " + " " * offset + "^"]
    assert run("21 // a").fn(VALUES) == 3 and run("22 % a").fn(VALUES) == 1
    assert run("a // (b - 1)").fn(VALUES) == 7


def test_names_make_it_dynamic_and_read_the_context() -> None:
    compiled = run("a * 2 + b")
    assert not compiled.constant and compiled.value is None
    assert compiled.fn({"a": 1, "b": 1}) == 3
    assert compiled.fn({"a": 10, "b": -1}) == 19


def test_name_getters_are_used_directly() -> None:
    env = Env(getters(VALUES))
    assert compile_expr(Name("a"), env, locate, "$").fn is env.names["a"]


def test_and_or_short_circuit_at_run_time() -> None:
    def boom(ctx: Any) -> Any:
        raise AssertionError("evaluated the right side")

    env = Env({**getters(VALUES), "boom": boom})
    assert run("no and boom", env).fn(VALUES) is False
    assert run("yes or boom", env).fn(VALUES) is True
    assert run("if yes then a else boom", env).fn(VALUES) == 7


def test_options_as_constants_fold_whole_conditions() -> None:
    env = Env(getters({"trick": 1, "played": 0}),
              constants={"options.flor": False, "options.target": 30})
    assert run("options.flor and trick == 1", env).value is False
    never = run("options.flor and trick == 1", env)
    assert never.constant and never.fn({"trick": 1}) is False
    assert run("not options.flor or played", env).constant
    half = run("options.target // 2 + 1", env)
    assert half.constant and half.value == 16
    picked = run("if options.flor then trick else 3", env)
    assert picked.constant and picked.value == 3
    partly = run("trick == 1 and not options.flor", env)
    assert not partly.constant and partly.fn({"trick": 1}) is True and partly.fn({"trick": 2}) is False
    assert run("trick or true", env).value is True


def test_constants_shadow_getters() -> None:
    env = Env(getters({"x": 1}), constants={"x": 5})
    assert run("x + 1", env).value == 6


def test_what_is_no_expression_is_refused_by_name() -> None:
    """The compiler takes the parser's nodes only; anything else is a caller's mistake, named."""
    with pytest.raises(TypeError) as info:
        compile_expr(3, Env(), locate, "$")             # type: ignore[arg-type]
    assert str(info.value) == "not an expression: 3"


def test_compiled_text() -> None:
    """A formula keeps its text as written (or, without it, as the parser reads it back), to
    show it in refusals and the rulebook: folded to a constant or not."""
    assert run("a+b").text == "a+b" and run("a+b").constant is False
    assert folded("a+b").text == "a+b" and folded("a+b").constant is True
    assert compile_expr(parse_expr("(a)+b*2", locate), Env(getters(VALUES)), locate, "$").text == "a + b * 2"


# ---- functions -------------------------------------------------------------------------------

class Calls:
    """A stand-in for the engine's call registry: resolves names once, at compile time."""

    def __init__(self) -> None:
        self.index = {"truco": 0, "retruco": 1, "envido": 2}
        self.resolved: list[str] = []

    def called(self, name: str):
        if name not in self.index:
            raise KeyError(f"no call named {name!r}")
        self.resolved.append(name)
        bit = 1 << self.index[name]
        return lambda ctx: bool(ctx["called"] & bit)


def call_env(calls: Calls) -> Env:
    return Env(getters({"called": 0, "trick": 1}),
               {"called": FunctionSpec(1, calls.called, const_args=True),
                "twice": FunctionSpec(1, lambda x: 2 * x),
                "pair": FunctionSpec(2, lambda x, y: (x, y)),
                "lookup": FunctionSpec(1, {"x": 1}.__getitem__, const_args=True),
                "cell": FunctionSpec(2, lambda row, col: {("x", 1): 1}[(row, col)], const_args=True)},
               constants={"options.call": "retruco"})


def test_const_arg_functions_resolve_once() -> None:
    calls = Calls()
    compiled = run("called('truco') and not called(\"envido\")", call_env(calls))
    assert calls.resolved == ["truco", "envido"]
    assert compiled.fn({"called": 0b001}) is True
    assert compiled.fn({"called": 0b101}) is False
    assert compiled.fn({"called": 0b000}) is False
    assert calls.resolved == ["truco", "envido"]  # nothing resolved at run time
    assert run("called(options.call)", call_env(calls)).fn({"called": 0b010}) is True


def test_const_arg_function_rejects_unknown_argument_at_its_position() -> None:
    diag = compile_error("trick == 1 and called('trucoo')", call_env(Calls()))
    assert diag.loc == locate(22)
    assert diag.message.splitlines()[0] == "called(): no call named 'trucoo'"
    assert diag.message.splitlines()[2] == "  " + " " * 22 + "^"
    diag = compile_error("lookup('y')", call_env(Calls()))
    assert diag.message.splitlines()[0] == "lookup(): unknown argument 'y'"
    diag = compile_error("1 + cell('x', 2)", call_env(Calls()))
    assert diag.loc == locate(9)
    assert diag.message.splitlines()[0] == "cell(): unknown argument 'x', 2"


def test_a_call_with_the_wrong_number_of_arguments_says_how_many_it_takes() -> None:
    assert compile_error("pair(1)", call_env(Calls())).message.splitlines()[0] == \
        "pair() takes 2 arguments, got 1"
    assert compile_error("twice(1, 2)", call_env(Calls())).message.splitlines()[0] == \
        "twice() takes 1 argument, got 2"


def test_const_arg_function_needs_constant_arguments() -> None:
    diag = compile_error("called(trick)", call_env(Calls()))
    assert diag.loc == locate(7)
    assert "must be constants" in diag.message


def test_plain_functions_run_on_values_and_fold() -> None:
    env = call_env(Calls())
    assert run("twice(trick + 1)", env).fn({"trick": 4}) == 10
    assert run("pair(trick, 3)", env).fn({"trick": 1}) == (1, 3)
    constant = run("twice(21)", env)
    assert constant.constant and constant.value == 42


def test_builtins_always_available_and_overridable() -> None:
    assert folded("max(1)").value == 1 and folded("min(3, 1, 2)").value == 1
    env = Env(functions={"max": FunctionSpec(VARIADIC, lambda *xs: "mine")})
    assert run("max(1, 2)", env).value == "mine"


@pytest.mark.parametrize("text, offset, first_line", [
    # an unknown name: the closest one, then every name the formula could read
    ("a + stak_level", 4, "unknown name 'stak_level' (did you mean 'stake_level'?); the names here: a, stake_level, options.flor, b"),
    ("options.flr", 0, "unknown name 'options.flr' (did you mean 'options.flor'?); the names here: a, stake_level, options.flor, b"),
    ("zzz", 0, "unknown name 'zzz'; the names here: a, stake_level, options.flor, b"),
    ("True or a", 0, "unknown name 'True' (did you mean 'true'?)"),
    ("TRUE", 0, "unknown name 'TRUE' (did you mean 'true'?)"),
    ("a and False", 6, "unknown name 'False' (did you mean 'false'?)"),
    ("FALSE", 0, "unknown name 'FALSE' (did you mean 'false'?)"),
    ("1 + calld('truco')", 4, "unknown function 'calld' (did you mean 'called'?); the functions: max, min, abs, called"),
    ("mx(1, 2)", 0, "unknown function 'mx' (did you mean 'max'?); the functions: max, min, abs, called"),
    ("called('truco', 'envido')", 0, "called() takes 1 argument, got 2"),
    ("abs()", 0, "abs() takes 1 argument, got 0"),
    ("max()", 0, "max() needs at least 1 argument"),
    ("a(1)", 0, "'a' is not a function: drop the parentheses"),
    ("called", 0, "'called' is a function: call it as called(...)"),
    ("a // (b - 2)", 2, "division by zero"),
    ("a % 0", 2, "division by zero"),
    ("'x' - 1", 4, "cannot compute this: unsupported operand type(s) for -: 'str' and 'int'"),
    ("1 + min(2, 'x')", 4, "cannot compute this: '<' not supported between instances of 'str' and 'int'"),
    ("1 + 4 // (b - 2)", 6, "division by zero"),
    ("7 % (b - 2)", 2, "division by zero"),
    ("a + -'x'", 4, "cannot compute this: bad operand type for unary -: 'str'"),
])
def test_compile_errors_are_located(text: str, offset: int, first_line: str) -> None:
    calls = Calls()
    env = Env(getters({"a": 1, "stake_level": 0}),
              {"called": FunctionSpec(1, calls.called, const_args=True)},
              constants={"options.flor": True, "b": 2})
    diag = compile_error(text, env)
    assert diag.loc == locate(offset)
    lines = diag.message.split("\n")
    assert lines == [first_line, "  " + text, "  " + " " * offset + "^"]


def test_yaml_values_are_formulas_too() -> None:
    """A formula as YAML gives it, parsed and compiled as the builder does: ``worth: 2`` and
    ``enabled: true`` are constants; a text reads the context; an unknown name in it is an
    error at its own column, under the key's path."""
    env = Env(getters({"target": 30, "leader": 12}))

    def compiled(value: object, path: str = "$") -> Compiled:
        return compile_expr(parse_value(value, locate, path=path), env, locate, path)

    assert compiled(2).value == 2
    assert compiled(True).value is True
    formula = compiled("target - leader")
    assert formula.text == "target - leader" and formula.fn({"target": 30, "leader": 12}) == 18
    with pytest.raises(SpecError) as info:
        compiled("target - leadr", "$.contests")
    assert info.value.diagnostics[0].loc == locate(9)
    assert info.value.diagnostics[0].path == "$.contests"


# ---- property: printing and reparsing keeps the value ------------------------------------------

NAMES = {"x": 5, "y": -3, "z": 0}


def reference(e: Any) -> Any:
    """A direct evaluator of the generated ASTs, independent of the compiler."""
    if isinstance(e, Num):
        return e.value
    if isinstance(e, Name):
        return NAMES[e.dotted]
    if isinstance(e, Unary):
        return -reference(e.operand) if e.op == "-" else not reference(e.operand)
    if isinstance(e, IfElse):
        return reference(e.then) if reference(e.cond) else reference(e.other)
    left, right = reference(e.left), reference(e.right)
    return {"+": lambda: left + right, "-": lambda: left - right, "*": lambda: left * right,
            "//": lambda: left // right, "%": lambda: left % right,
            "<": lambda: left < right, "==": lambda: left == right}[e.op]()


leaves = st.one_of(st.integers(-50, 50).map(Num), st.sampled_from([Name(n) for n in NAMES]))


def extend(children):
    nonzero = st.integers(1, 9).map(Num)
    return st.one_of(
        st.builds(Binary, st.sampled_from(["+", "-", "*"]), children, children),
        st.builds(Binary, st.sampled_from(["//", "%"]), children, nonzero),
        st.builds(Unary, st.just("-"), children),
        st.builds(IfElse, st.builds(Binary, st.sampled_from(["<", "=="]), children, children),
                  children, children),
    )


arithmetic = st.recursive(leaves, extend, max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(arithmetic)
def test_unparse_then_parse_keeps_the_value(tree) -> None:
    text = unparse(tree)
    reparsed = parse_expr(text, locate)
    env = Env(getters(NAMES))
    expected = reference(tree)
    assert compile_expr(reparsed, env, locate, "$").fn(NAMES) == expected
    assert compile_expr(tree, env, locate, "$").fn(NAMES) == expected
    assert compile_expr(reparsed, Env(constants=NAMES), locate, "$").value == expected
