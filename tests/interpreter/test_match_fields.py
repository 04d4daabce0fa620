"""The hand reset and the copy are written out field by field, for speed; these tests tie them to
the declarations in `engine/match.py`, so that a field added there is reset and copied too."""
from __future__ import annotations

import ast
import random
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any

from interpreter import engine
from interpreter.engine.game import load_game
from interpreter.engine.match import Match, names
from interpreter.engine.records import ContestState, Count, Pending

# What `reset_hand` sets from its arguments rather than to the declared default.
SIZED = {"seats", "mano", "turn", "leader", "hand_format", "played", "dealt", "hands", "contests"}


def _declared_default(name: str) -> Any:
    f = next(f for f in fields(Match) if f.name == name)
    return f.default_factory() if f.default is MISSING else f.default  # type: ignore[misc]


OTHER = {"stake_owner": 1, "turned": 5, "forbid": "refuse", "pending": Pending("x", 0, 1, 1, None),
         "suspended": Pending("x", 0, 1, 1, None), "count": Count(0, [0]), "_legal": (0, [])}
"""A value for each field whose default is None, of its declared type (a compiled engine checks)."""


def _changed(name: str, value: Any) -> Any:
    """Some other value of the same kind, so that a field the reset forgets shows."""
    if value is None:
        return OTHER.get(name, Count(1, [1]))
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 7
    if isinstance(value, str):
        return value + "x"
    return type(value)([1])


def test_reset_hand_sets_every_field_of_the_hand_and_only_those() -> None:
    game = load_game("reglamento", players=4, flor=True)
    st = game.new_match(seed=3)
    before = {name: getattr(st, name) for name in names(hand=False)}
    for name in names(hand=True):
        setattr(st, name, _changed(name, getattr(st, name)))
    st.reset_hand(4, 2, [0, 1, 2, 3], 2, "pairs")
    for name in names(hand=True):
        if name not in SIZED:
            assert getattr(st, name) == _declared_default(name), name
    assert (st.seats, st.mano, st.turn, st.leader, st.hand_format) == ([0, 1, 2, 3], 2, 2, 2, "pairs")
    assert st.played == [0] * 4 and st.dealt == [()] * 4 and st.hands == [[]] * 4
    assert [(c.status, c.chain, c.declared) for c in st.contests] == [(0, [], [])] * 2
    assert len({id(h) for h in st.hands}) == 4          # one list per seat
    assert {name: getattr(st, name) for name in names(hand=False)} == before


def test_the_copy_assigns_every_declared_field() -> None:
    """`copy_into` names each field once: read from its source, checked against `match.py`."""
    source = Path(engine.__file__).with_name("serial.py").read_text(encoding="utf-8")   # compiled or not
    tree = next(node for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.FunctionDef) and node.name == "copy_into")
    assigned = [t.attr for node in ast.walk(tree) if isinstance(node, ast.Assign) for target in node.targets
                for t in ast.walk(target) if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                and t.value.id == "new"]
    assert sorted(assigned) == sorted(names())


def test_a_copy_shares_nothing_it_may_change() -> None:
    """Play on the copy of a state in mid-hand (a contest counted, a truco put off) and on the
    original: each goes its own way, and the original is as it was."""
    game = load_game("teg", players=4, flor=True)
    st = game.new_match(seed=5)
    rng = random.Random(1)
    for _ in range(3):
        st.apply(rng.choice([a for a in st.legal_actions() if a != "fold"]))
    st.count = Count(0, [0, 1], 0, None, -1, [(3, 20)])
    st.contests[0] = ContestState(1, [("envido", 0)], [0])
    st.pending = Pending("truco", 1, 2, 0, None, 1)
    saved = st.to_json()
    copy = st.clone()
    for name in names():
        value = getattr(st, name)
        if isinstance(value, (list, set, dict, Count, Pending)) and (value or not isinstance(value, list)):
            assert getattr(copy, name) is not value, name
    assert copy.to_json() == saved
    copy.count.announced.append((1, 30))                     # type: ignore[union-attr]
    copy.contests[0].chain.append(("real_envido", 1))
    copy.pending.step = 2                                    # type: ignore[union-attr]
    copy.hands[0].clear()
    assert st.to_json() == saved


def test_copies_share_the_generator_until_one_deals() -> None:
    """A copy deals what its original would have dealt, whichever of the two deals first, and
    however many copies were made: the shared generator is never drawn from."""
    game = load_game("teg")
    alone = game.new_match(seed=8)
    st = game.new_match(seed=8)
    for s in (alone, st):
        s.apply("fold")
    first, second = st.clone(), st.clone()
    assert first.rng is st.rng is second.rng
    dealt = []
    for s in (first, st, alone, second):
        s.next_hand()
        dealt.append(s.dealt)
    assert dealt[0] == dealt[1] == dealt[2] == dealt[3]
    assert len({id(s.rng) for s in (first, st, second)}) == 3
    for s in (first, st, alone, second):
        s.apply("fold")
        s.next_hand()
    assert first.dealt == st.dealt == alone.dealt == second.dealt
