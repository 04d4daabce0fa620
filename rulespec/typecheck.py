"""Type and scope checking of every formula of a spec, at load, from rulespec.vocabulary.

A formula that compiles may still be wrong: a number where a condition is expected opens a
window at every trick, a text option read as a condition is always true, a per-trick name
in a per-hand condition is read at the deal. Each formula is checked against its position
(SITES): the type it must give and the scopes of the names it may read; so is each
option's use against its declared values. Errors say what was expected and what was found.
"""
from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from rulespec import dsl
from rulespec.dsl import Binary, Bool, Call, Expr, IfElse, ListLit, Name, Num, Str, Unary
from rulespec.errors import Diagnostic, SpecError, did_you_mean, unknown
from rulespec.ir import OptionDecl
from rulespec.vocabulary import FUNCTIONS, NAMES, SCOPE_WORDS, SITE_SCOPES, SITE_WORDS, Site, Type, scope_of, site_of
from rulespec.yamlload import Located, NodePath, format_path

OPTION_TYPES = {"int": Type.NUMBER, "bool": Type.CONDITION, "string": Type.TEXT}
YES_NO = {"no": "false", "si": "true", "sí": "true", "yes": "true", "on": "true", "off": "false",
          "y": "true", "n": "false", "True": "true", "False": "false", "TRUE": "true", "FALSE": "false"}
"""Words a designer writes for true and false; only `true`/`false` are conditions."""
ARITHMETIC = {"+", "-", "*", "//", "%"}
ORDER = {"<", "<=", ">", ">="}


class _Check:
    """One formula: its site, the spec's options and names, where to point."""

    def __init__(self, tree: Located, path: NodePath, site: Site, options: dict[str, OptionDecl],
                 names: dict[str, set[str]], unsure: frozenset[str] = frozenset()) -> None:
        self.tree = tree
        self.path = path
        self.site = site
        self.scopes = SITE_SCOPES[site.kind]
        self.options = options
        self.unsure = unsure
        self.names = names
        self.errors: list[Diagnostic] = []

    def error(self, node: Expr, message: str, related: tuple[NodePath, ...] = (), skip: int = 0) -> None:
        offset = _start(node) + skip        # one line: the column points into the formula
        self.errors.append(Diagnostic("error", self.tree.locate_in(self.path, offset), format_path(self.path),
                                      message, related=related))

    def expect(self, node: Expr, want: Type) -> Type | None:
        got = self.infer(node)
        if got is not None and got is not want:
            self.mismatch(node, want, got)
            return None
        return got

    def mismatch(self, node: Expr, want: Type, got: Type) -> None:
        message = f"expected {want.described}, got {got.described}"
        related: tuple[NodePath, ...] = ()
        option = self.option_of(node)
        if option is not None:
            shown = ", ".join(repr(v) for v in option.values)
            message += f": option {option.name!r} has the values {shown}"
            words = [YES_NO.get(str(v)) for v in option.values]
            if want is Type.CONDITION and option.type == "string" and all(words):
                message += f"; write [{', '.join(w or '' for w in words)}] to use it as a condition"
            related = (("options", option.name, "values"), ("options", option.name))
        elif isinstance(node, Binary) and node.op in ARITHMETIC and want is Type.CONDITION:
            message += " (a number is not a condition: compare it, as in `trick == 1`)"
        self.error(node, message, related)

    def option_of(self, node: Expr) -> OptionDecl | None:
        if isinstance(node, Name) and node.dotted.startswith("options."):
            return self.options.get(node.dotted[len("options."):])
        return None

    # -- inference ----------------------------------------------------------------------

    def infer(self, node: Expr) -> Type | None:
        """The node's type; None when it is wrong (the error is already recorded)."""
        if isinstance(node, Num):
            return Type.NUMBER
        if isinstance(node, Bool):
            return Type.CONDITION
        if isinstance(node, Str):
            return Type.TEXT
        if isinstance(node, Name):
            return self.name(node)
        if isinstance(node, Call):
            return self.call(node)
        if isinstance(node, ListLit):
            types = [self.infer(item) for item in node.items]
            if None in types:
                return None
            first = types[0]
            for item, got in zip(node.items[1:], types[1:], strict=False):
                if got is not first and first is not None and got is not None:
                    self.error(item, f"a list holds one type: the first item is {first.described}, "
                                     f"this one {got.described}")
                    return None
            return Type.LIST
        if isinstance(node, Unary):
            return self.expect(node.operand, Type.CONDITION if node.op == "not" else Type.NUMBER)
        if isinstance(node, IfElse):
            self.expect(node.cond, Type.CONDITION)
            then, other = self.infer(node.then), self.infer(node.other)
            if then is not None and other is not None and then is not other:
                self.error(node.other, f"both branches must give the same type: `then` gives {then.described}, "
                                       f"`else` gives {other.described}")
                return None
            return then if then is not None else other
        return self.binary(node)

    def binary(self, node: Binary) -> Type | None:
        if node.op in ("and", "or"):
            left, right = self.expect(node.left, Type.CONDITION), self.expect(node.right, Type.CONDITION)
            return Type.CONDITION if left and right else None
        if node.op in ARITHMETIC or node.op in ORDER:
            left, right = self.expect(node.left, Type.NUMBER), self.expect(node.right, Type.NUMBER)
            if not (left and right):
                return None
            return Type.NUMBER if node.op in ARITHMETIC else Type.CONDITION
        if node.op in ("in", "not in"):
            left = self.infer(node.left)
            right = self.expect(node.right, Type.LIST)
            if left is not None and right is not None and isinstance(node.right, ListLit) and node.right.items:
                first = node.right.items[0]
                item = self.infer(first)
                if item is not None and item is not left:
                    self.error(first, f"cannot compare {left.described} with {item.described}")
                    return None
                for each in node.right.items:
                    self.same(node.left, left, each)
            return Type.CONDITION if left and right else None
        left, right = self.infer(node.left), self.infer(node.right)       # == and !=
        if left is None or right is None:
            return None
        if left is not right:
            self.error(node.right, f"cannot compare {left.described} with {right.described}")
            return None
        self.same(node.left, left, node.right)
        self.same(node.right, right, node.left)
        return Type.CONDITION

    def same(self, named: Expr, _type: Type, literal: Expr) -> None:
        """An option compared with a constant: the constant must be one of its values."""
        option = self.option_of(named)
        if option is None or not isinstance(literal, (Num, Str, Bool)) or literal.value in option.values:
            return
        hint = did_you_mean(str(literal.value), [str(v) for v in option.values])
        self.error(literal, f"option {option.name!r} is never {literal.value!r}{hint}; its values: "
                            f"{', '.join(repr(v) for v in option.values)}")

    def name(self, node: Name) -> Type | None:
        word = node.dotted
        if word.startswith("options."):
            option = self.options.get(word[len("options."):])
            if option is None and word[len("options."):] in self.unsure:
                return None                 # declared, but so wrongly that its type is unknown
            if option is None:
                name = word[len("options."):]
                self.error(node, f"unknown option {name!r}{unknown(name, sorted(self.options), 'the options')}",
                           skip=len("options."))
                return None
            return OPTION_TYPES[option.type]
        if word in NAMES:
            return NAMES[word].type if self.in_scope(node, word) else None
        if word in FUNCTIONS:
            self.error(node, f"{word!r} is a function: call it as {word}(...)")
            return None
        if word in YES_NO:
            self.error(node, f"unknown name {word!r} (did you mean {YES_NO[word]!r}?): only true and false "
                             "are conditions")
            return None
        self.error(node, f"unknown name {word!r}{unknown(word, self.known(), 'the names here')}")
        return None

    def in_scope(self, node: Expr, word: str) -> bool:
        scope = scope_of(word)
        if scope is None or scope in self.scopes:
            return True
        self.error(node, f"{word!r} has a meaning only {scope.value} — {SCOPE_WORDS[scope]}; this formula is "
                         f"{SITE_WORDS[self.site.kind]}")
        return False

    def known(self) -> list[str]:
        words = [w for w in NAMES if NAMES[w].scope in self.scopes]
        return words + [f"options.{o}" for o in self.options]

    def call(self, node: Call) -> Type | None:
        fn = FUNCTIONS.get(node.name)
        if fn is None:
            if node.name in NAMES or node.name.startswith("options."):
                self.error(node, f"{node.name!r} is not a function: drop the parentheses")
            else:
                funcs = [f for f in FUNCTIONS if FUNCTIONS[f].scope in self.scopes]
                self.error(node, f"unknown function {node.name!r}{unknown(node.name, funcs, 'the functions here')}")
            return None
        if not self.in_scope(node, node.name):
            return None
        count = len(node.args)
        if fn.variadic and count == 0:
            self.error(node, f"{node.name}() needs at least 1 argument")
            return None
        if not fn.variadic and count != len(fn.args):
            plural = "" if len(fn.args) == 1 else "s"
            self.error(node, f"{node.name}() takes {len(fn.args)} argument{plural}, got {count}")
            return None
        if fn.variadic and count == 1:
            only = self.infer(node.args[0])
            if only is not None and only not in (Type.LIST, Type.NUMBER):
                self.mismatch(node.args[0], Type.NUMBER, only)
            return fn.result if only is not None else None
        ok = True
        for i, arg in enumerate(node.args):
            if fn.names:
                ok = self.named(node, fn.names, arg) and ok
            else:
                ok = self.expect(arg, fn.args[min(i, len(fn.args) - 1)]) is not None and ok
        return fn.result if ok else None

    def named(self, node: Call, kind: str, arg: Expr) -> bool:
        """`called('truco')`: the argument is a constant naming a call (or a contest) of the spec."""
        known = self.names[kind]
        if kind == "rank" and isinstance(arg, Num):       # rank_count(4) as rank_count('4')
            arg = Str(str(arg.value), arg.offset)
        if not isinstance(arg, Str):
            self.error(arg, f"the argument of {node.name}() must be the name of a {kind} in quotes, "
                            f"like {node.name}({next(iter(sorted(known)), 'name')!r})")
            return False
        if arg.value not in known:
            hint = unknown(arg.value, sorted(known), f"the {kind}s")
            self.error(arg, f"{node.name}(): no {kind} named {arg.value!r}{hint}")
            return False
        return True


def _start(node: Expr) -> int:
    """Where the text of a node begins (a binary node's own offset is its operator's)."""
    return min(n.offset for n in dsl.walk(node))


def _get(data: Any, path: NodePath) -> Any:
    for part in path:
        data = data[part]
    return data


def formulas(data: Any, path: NodePath = ()) -> Iterator[tuple[NodePath, Site]]:
    """Every formula of the tree (also inside `when` entries) with its site."""
    if isinstance(data, dict):
        for key, value in data.items():
            child = path + (key,)
            site = site_of(child)
            if site is not None and not isinstance(value, (dict, list)) and value is not None:
                yield child, site
            else:
                yield from formulas(value, child)


def spec_names(data: Any) -> dict[str, set[str]]:
    """The calls and contests of the merged tree (with every `when` entry's) and the deck's
    ranks, which called(), idle() and rank_count() may name."""
    when = data.get("when")
    trees = [data] + [e.get("set") for e in (when.values() if isinstance(when, dict) else ()) if isinstance(e, dict)]
    calls: set[str] = set()
    contests: set[str] = set()
    for t in trees:
        if not isinstance(t, dict):
            continue
        stakes = t.get("stakes")
        if isinstance(stakes, dict) and isinstance(stakes.get("calls"), dict):
            calls |= set(stakes["calls"])
        for name, node in (t.get("contests") or {}).items() if isinstance(t.get("contests"), dict) else ():
            contests.add(name)
            if isinstance(node, dict) and isinstance(node.get("calls"), dict):
                calls |= set(node["calls"])
    deck = data.get("deck") if isinstance(data.get("deck"), dict) else {}
    ranks = {str(r) for r in deck.get("ranks") or [] if not isinstance(r, (dict, list))}
    return {"call": calls, "contest": contests, "rank": ranks}


def check_types(tree: Located, options: tuple[OptionDecl, ...], skip: frozenset[NodePath] = frozenset(),
                unsure: frozenset[str] = frozenset()) -> list[Diagnostic]:
    """Every formula of the spec against its site: syntax, names, scopes and types. Formulas
    at or under a `skip` path (refused already) are left out, and reading an option whose
    declaration is `unsure` is no finding: each would only repeat a mistake told elsewhere."""
    declared = {o.name: o for o in options}
    names = spec_names(tree.data)
    out: list[Diagnostic] = []
    for path, site in formulas(tree.data):
        if any(path[:len(s)] == s for s in skip):
            continue
        value = _get(tree.data, path)
        try:
            expr = dsl.parse_value(value, functools.partial(tree.locate_in, path), path=format_path(path))
        except SpecError as err:
            out += err.diagnostics
            continue
        check = _Check(tree, path, site, declared, names, unsure)
        check.expect(expr, site.type)
        out += check.errors
    return out

