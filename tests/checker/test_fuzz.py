"""Never a traceback: bundled specs mutated at random (keys deleted, renamed and retyped,
formulas garbled, random YAML) and run through `truco check`, `truco rules` and `truco
replay`. Every run ends with an exit code (0 only when the mutant is still a valid spec),
and a refused spec is refused with a diagnostic located in the mutant's own file, in time."""
from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec.errors import TrucoError
from rulespec.load import find_spec

from interpreter.cli import main
from interpreter.engine.game import load_game

SPECS = ["teg", "reglamento", "paulista", "uruguayo"]
PROSE = {"source", "note", "doc", "title", "name"}
SECONDS = 60.0      # a guard against a run that never ends, not a measure of speed
FORMULA_BITS = ["trick", " + ", " and ", " or ", "not ", "(", ")", "==", "1", "'x'", "options.", "if ", " then ",
                " else ", "total", "called('", "max(", ",", "true", "no", "[", "]", "-", "//", "0"]
VALUES: list[Any] = [None, 0, -1, 7, True, False, "", "no", "x y", [], [1, "a"], {}, {"a": 1}, "trick + 1"]


def paths(node: Any, path: tuple = ()) -> list[tuple]:
    out = [path] if path else []
    if isinstance(node, dict):
        for k, v in node.items():
            if k not in PROSE:
                out += paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths(v, path + (i,))
    return out


def parent_of(data: Any, path: tuple) -> Any:
    for part in path[:-1]:
        data = data[part]
    return data


@st.composite
def mutants(draw: st.DrawFn, spec: str) -> str:
    """A bundled spec's text with a few random mutations (or random YAML)."""
    file = find_spec(spec)
    data = yaml.safe_load(file.read_text(encoding="utf-8"))
    if "extends" in data:
        data["extends"] = str(find_spec(data["extends"], relative_to=file.parent))
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(alphabet=st.sampled_from(list("ab:- \n[]{}'\"#&*!|>1.~")), max_size=80))
    for _ in range(draw(st.integers(1, 3))):
        every = paths(data)
        path = draw(st.sampled_from(every))
        parent, key = parent_of(data, path), path[-1]
        how = draw(st.sampled_from(["delete", "rename", "retype", "garble"]))
        if how == "delete" and isinstance(parent, dict):
            del parent[key]
        elif how == "rename" and isinstance(parent, dict):
            parent[str(key) + draw(st.sampled_from(["_", "x", "s"]))] = parent.pop(key)
        elif how == "garble" and isinstance(parent[key], str):
            text = parent[key]
            at = draw(st.integers(0, len(text)))
            parent[key] = text[:at] + "".join(draw(st.lists(st.sampled_from(FORMULA_BITS), min_size=1,
                                                             max_size=3))) + text[at + draw(st.integers(0, 3)):]
        else:
            parent[key] = draw(st.sampled_from(VALUES))
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    start = time.perf_counter()
    code = main(args)
    assert time.perf_counter() - start < SECONDS, args
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("spec", SPECS)
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_mutated_spec_never_gives_a_traceback(spec: str, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path_factory.mktemp("mutant")
    path = folder / "mutant.yaml"
    path.write_text(data.draw(mutants(spec)), encoding="utf-8")
    case = folder / "case.yaml"
    case.write_text(yaml.safe_dump({"spec": str(path), "cases": [{"name": "a hand starts", "actions": [
        {"expect": {"hand_over": False}}]}]}), encoding="utf-8")
    located = re.compile(re.escape(str(path)) + r":\d+:\d+")
    check, said = run(["check", str(path), "--no-explore"], capsys)
    assert check in (0, 1, 2)
    if check:
        assert located.search(said), said
    rules, said = run(["rules", str(path)], capsys)
    assert rules in (0, 1, 2)
    if rules:
        assert located.search(said), said
    replay, said = run(["replay", str(case)], capsys)
    assert replay in (0, 1, 2)
    if not loads(path):                   # the spec does not load: the case file is invalid
        assert replay == 2 and check != 0
        assert located.search(said), said


def loads(path: Path) -> bool:
    """Whether the spec loads under its default options, as the case plays it (the rulebook
    also builds the other option values, so its refusal does not tell)."""
    try:
        load_game(str(path))
    except TrucoError:
        return False
    return True
