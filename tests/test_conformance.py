"""The conformance suite: every case file under tests/conformance/ replays and passes.

Meta-tests then ask whether the cases prove what they claim: every `reject:` states its
reason (`because:`), and a reject refused only because another seat was to act is allowed
only in a case that says it is about turn order.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from rulespec.yamlload import load_yaml_file

from interpreter.designer.replay import CaseResult, InvalidCase, run_file

ROOT = Path(__file__).parent / "conformance"
FILES = sorted(ROOT.rglob("*.yaml"))
IDS = [str(p.relative_to(ROOT)) for p in FILES]


@functools.cache
def results(path: Path) -> tuple[CaseResult, ...]:
    return tuple(run_file(path))


@functools.cache
def cases(path: Path) -> tuple[dict, ...]:
    """The file's cases as written, read once: the meta-tests below read them case by case."""
    return tuple(load_yaml_file(path).data["cases"])


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_case_file(path: Path) -> None:
    try:
        found = results(path)
    except InvalidCase as err:
        pytest.fail(f"invalid case file: {err}")
    failures = [f"{r.name}: step {r.step}: {r.message}" for r in found if not r.passed]
    assert not failures, "\n".join(failures)


# -- refusals with reasons -------------------------------------------------------------------

# The engine's wording when a seat is refused only because another seat is to act or to answer
# (interpreter/engine/explain.py): these say nothing about the rule a case names.
TURN_ORDER = re.compile(r"it is seat \d+'s turn|is waiting for seat \d+'s answer; seat \d+ cannot act now")
# A case is about turn order when its name says so: whose turn, the order of play or of the
# count, who answers a call, who leads.
ABOUT_TURNS = ("turn", "order", "answer", "wait", "speak", "lead", "asked", "mano")


def _rejects(path: Path):
    """(case name, step, reject node) for every reject step in the file."""
    for case in cases(path):
        for step, node in enumerate(case.get("actions") or [], start=1):
            if isinstance(node, dict) and "reject" in node:
                yield str(case.get("name")), step, node


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_every_reject_states_its_reason(path: Path) -> None:
    """The project's own rejects all give `because:`, so none passes for a reason it does not name."""
    missing = [f"{name}: step {step}: {node['reject']}" for name, step, node in _rejects(path)
               if "because" not in node]
    assert not missing, "reject without because:\n" + "\n".join(missing)


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_no_rule_is_proved_by_turn_order(path: Path) -> None:
    """A reject refused only because another seat was to act proves nothing about the rule a
    case names; it is allowed only in a case whose name says it is about turn order."""
    flagged = []
    for r in results(path):
        for ref in r.refusals:
            if TURN_ORDER.search(ref.reason) and not any(w in r.name.lower() for w in ABOUT_TURNS):
                flagged.append(f"{r.name}: step {ref.step}: '{ref.seat} {ref.action}' refused only as "
                               f"out of turn ({ref.reason})")
    assert not flagged, "\n".join(flagged)


def test_turn_order_wording_is_recognised() -> None:
    """The meta-test above reads the engine's words: if the wording changes, it must change too."""
    from interpreter import Deal, load_game
    st = load_game("teg", players=2).new_match(seed=0, deals=[Deal((("1e", "7o", "4c"), ("3e", "2b", "5o")))])
    assert TURN_ORDER.search(st.why_illegal("play 3e", seat=1))
    st.apply("truco")
    assert TURN_ORDER.search(st.why_illegal("play 1e", seat=0))
    assert not TURN_ORDER.search(st.why_illegal("play 3e", seat=1))      # must first answer: a rule


# -- cases that score finish their hand ---------------------------------------------------------

def _settles(st) -> bool:
    """Whether the last hand played in `st` scored or settled a contest (accepted or refused)."""
    deals = [i for i, e in enumerate(st.events) if e["type"] == "deal"]
    hand = st.events[deals[-1] if deals else 0:]
    return any(e["type"] == "score" or (e["type"] in ("accepted", "declined") and e["call"] in st.game.contest_of_call)
               for e in hand)


def _case(path: Path, name: str) -> dict:
    """The case of that name as written ({} when there is none)."""
    return next((case for case in cases(path) if case.get("name") == name), {})


def _last_expect(path: Path, name: str) -> dict:
    steps = _case(path, name).get("actions") or []
    last = steps[-1] if steps else None
    return last["expect"] if isinstance(last, dict) and "expect" in last else {}


def _mid_hand_reason(path: Path, name: str) -> str | None:
    return _case(path, name).get("mid_hand")


def _unfinished_reason(path: Path, r: CaseResult) -> str | None:
    """Why a case that scores or settles a contest does not show its hand's end, or None."""
    st = r.final
    if st is None or not _settles(st):
        return None
    if not st.hand_over:
        return "ends before its hand does"
    last = _last_expect(path, r.name)
    if last.get("hand_over") is not True or "score" not in last:
        return "its last step must expect hand_over: true and the final score"
    return None


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_cases_that_score_finish_their_hand(path: Path) -> None:
    """A payment made twice later in the hand goes unseen by a case that stops once the envido
    is paid. So a case that scores, or accepts or refuses a contest, plays its hand to the end
    and its last step expects `hand_over: true` and the final score; or it says why not
    (`mid_hand: <why>`)."""
    wrong = []
    for r in results(path):
        if _mid_hand_reason(path, r.name):
            continue
        why = _unfinished_reason(path, r)
        if why:
            wrong.append(f"{r.name}: {why}")
    assert not wrong, "\n".join(wrong)


SETTLED_ENVIDO = """spec: teg
options: {players: 2}
cases:
  - name: an envido declined, then the hand
    hands: [[5e, 2b, 12o], [7o, 6o, 1c]]
    actions:
      - 0 envido
      - 1 decline
      - expect: {score: [1, 0]}
"""


def test_a_case_that_stops_after_a_contest_is_caught(tmp_path: Path) -> None:
    """The rule above reads the case: one that stops once the envido is paid is flagged, one
    whose last step expects the hand's end and score is not, and `mid_hand:` excuses it."""
    def reason(text: str) -> str | None:
        path = tmp_path / f"case{len(list(tmp_path.iterdir()))}.yaml"     # a new file: cases are read once
        path.write_text(text, encoding="utf-8")
        result = run_file(path)[0]
        assert result.passed, result.message
        return _unfinished_reason(path, result)

    assert reason(SETTLED_ENVIDO) == "ends before its hand does"
    played = SETTLED_ENVIDO + "      - 0 play 2b\n      - 1 play 1c\n      - 0 play 5e\n      - 1 play 6o\n"
    more = "      - 1 play 7o\n      - 0 play 12o\n"
    assert reason(played + more) == "its last step must expect hand_over: true and the final score"
    # teg, seed 002: the envido refused pays 1 to its caller; the 7 de oro takes the third baza
    assert reason(played + more + "      - expect: {hand_over: true, score: [1, 1]}\n") is None
    excused = SETTLED_ENVIDO.replace("    hands:", "    mid_hand: the case is about the envido alone\n    hands:")
    path = tmp_path / "excused.yaml"
    path.write_text(excused, encoding="utf-8")
    assert _mid_hand_reason(path, "an envido declined, then the hand") == "the case is about the envido alone"
