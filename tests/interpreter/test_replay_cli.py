"""`truco replay` as docs/conformance.md states it, through `interpreter.cli.main`.

"truco replay PATH [PATH ...]  # files or folders; folders are searched for *.yaml
which prints one line per case (pass/fail with the first mismatch: the step, what was
expected, what happened) and exits 0 only if every case passed, 1 if any failed, 2 if a
file is not a valid case file (with file:line and what is wrong; the other files still run
and are reported)."
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from interpreter.cli import main

# seat 0 (mano) holds tanto 5, seat 1 tanto 33 (the project's teg/envido.yaml deal)
HANDS = "hands: [[5e, 2b, 12o], [7o, 6o, 1c]]"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def cases_file(folder: Path, name: str, cases: str, options: str = "{players: 2}") -> Path:
    """A teg case file; `cases` is the YAML of the list under `cases:` (indented 2)."""
    body = f"spec: teg\noptions: {options}\ncases:\n" + textwrap.indent(textwrap.dedent(cases).strip("\n"), "  ")
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body + "\n", encoding="utf-8")
    return path


GOOD_CASES = f"""
- name: envido accepted goes to the higher tanto
  {HANDS}
  actions:
    - 0 envido
    - expect: {{to_act: 1}}
    - 1 accept
    - 0 announce
    - 1 announce
    - expect: {{score: [0, 2], hand_over: false, to_act: 0}}
- name: envido declined pays one to the caller
  {HANDS}
  actions:
    - 0 envido
    - 1 decline
    - expect: {{score: [1, 0], hand_over: false, to_act: 0}}
    - reject: 1 accept
"""

FAILING_CASE = f"""
- name: a wrong expectation
  {HANDS}
  actions:
    - 0 envido
    - 1 accept
    - 0 announce
    - 1 announce
    - expect: {{score: [2, 0]}}
"""


@pytest.fixture(autouse=True)
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wide console by default; the narrow-console test at the end sets its own width."""
    monkeypatch.setenv("COLUMNS", "1000")


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, list[str]]:
    code = main(["replay", *map(str, argv)])
    return code, capsys.readouterr().out.splitlines()


def run_json(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, dict]:
    code = main(["replay", "--json", *map(str, argv)])
    return code, json.loads(capsys.readouterr().out)


def test_all_pass_exit_0_one_line_per_case(tmp_path, capsys) -> None:
    """"exits 0 only if every case passed"; "prints one line per case"."""
    path = cases_file(tmp_path, "good.yaml", GOOD_CASES)
    code, lines = run(capsys, path)
    assert code == 0
    names = ["envido accepted goes to the higher tanto", "envido declined pays one to the caller"]
    for name in names:
        assert [ln for ln in lines if name in ln] == [f"pass {path} :: {name}"]
    assert lines[-1] == "2 passed, 0 failed"
    assert len(lines) == 3


def test_failing_case_exit_1_names_step_expected_and_got(tmp_path, capsys) -> None:
    """"exits ... 1 if any failed"; the line gives "the first mismatch: the step, what was
    expected, what happened", e.g. `"step": 4, "message": "score: expected [0, 2], got [2, 0]"`."""
    path = cases_file(tmp_path, "mixed.yaml", GOOD_CASES + FAILING_CASE)
    code, lines = run(capsys, path)
    assert code == 1
    (line,) = [ln for ln in lines if "a wrong expectation" in ln]
    assert line == f"FAIL {path} :: a wrong expectation: step 5: score: expected [2, 0], got [0, 2]"
    assert lines[-1] == "2 passed, 1 failed"


def test_failing_refused_action_says_why(tmp_path, capsys) -> None:
    """A refused action is a failed case at that step, and the line says why it was refused
    (teg: envido "se canta en la primera baza")."""
    path = cases_file(tmp_path, "refused.yaml", f"""
        - name: envido after the first trick
          {HANDS}
          actions:
            - 0 play 5e
            - 1 play 7o
            - 1 envido
        """)
    code, lines = run(capsys, path)
    assert code == 1
    (line,) = [ln for ln in lines if ln.startswith("FAIL")]
    head = f"FAIL {path} :: envido after the first trick: step 3: action '1 envido' was refused: "
    assert line.startswith(head)
    assert len(line) > len(head)


def test_reject_of_a_legal_action_fails_the_case(tmp_path, capsys) -> None:
    """"`- reject: <action>` passes when the engine refuses the action"; so rejecting a legal
    action is a failed case (exit 1), at that step."""
    path = cases_file(tmp_path, "reject.yaml", f"""
        - name: envido is refused (wrongly claimed)
          {HANDS}
          actions:
            - expect: {{to_act: 0}}
            - reject: 0 envido
        - name: answering nothing is refused
          {HANDS}
          actions:
            - reject: 0 accept
            - reject: 1 play 7o
            - expect: {{to_act: 0, score: [0, 0]}}
        """)
    code, report = run_json(capsys, path)
    assert code == 1
    by_name = {c["name"]: c for c in report["cases"]}
    wrong = by_name["envido is refused (wrongly claimed)"]
    assert wrong["passed"] is False and wrong["step"] == 2
    assert "0 envido" in wrong["message"] and "accepted" in wrong["message"]
    assert by_name["answering nothing is refused"]["passed"] is True


def test_reject_because_checks_the_reason(tmp_path, capsys) -> None:
    """"`- {reject: <action>, because: <text>}` also requires the refusal's reason to contain
    `<text>` (case-insensitive), so that a case about a rule cannot pass because the seat was
    merely out of turn"."""
    path = cases_file(tmp_path, "because.yaml", f"""
        - name: the right reason, in other case
          {HANDS}
          actions:
            - {{reject: 1 play 7o, because: "IT IS SEAT 0'S TURN"}}
            - 0 envido
            - {{reject: 1 play 7o, because: "must first answer envido"}}
        - name: a rule claimed, but refused for turn order
          {HANDS}
          actions:
            - 0 envido
            - 1 accept
            - 0 announce
            - 1 announce
            - {{reject: 1 envido, because: "the envido is over"}}
        """)
    code, report = run_json(capsys, path)
    assert code == 1
    by_name = {c["name"]: c for c in report["cases"]}
    assert by_name["the right reason, in other case"]["passed"] is True
    wrong = by_name["a rule claimed, but refused for turn order"]
    assert wrong["passed"] is False and wrong["step"] == 5
    assert "not because 'the envido is over'" in wrong["message"]
    assert "it is seat 0's turn, not seat 1's" in wrong["message"]      # the reason actually given
    assert wrong["refusals"] == []           # a failed reject is not recorded as a refusal
    refusals = by_name["the right reason, in other case"]["refusals"]
    assert [(r["seat"], r["action"], r["to_act"]) for r in refusals] == [(1, "play 7o", 0), (1, "play 7o", 1)]


def test_json_report(tmp_path, capsys) -> None:
    """"`--json` prints a machine-readable report instead, at least: {"passed", "failed",
    "cases": [{"file", "name", "passed", "step", "message"}]}"."""
    path = cases_file(tmp_path, "mixed.yaml", GOOD_CASES + FAILING_CASE)
    code, report = run_json(capsys, path)
    assert code == 1
    assert report["passed"] == 2 and report["failed"] == 1
    assert len(report["cases"]) == 3
    for case in report["cases"]:
        assert {"file", "name", "passed", "step", "message"} <= set(case)
        assert case["file"] == str(path)
    failed = [c for c in report["cases"] if not c["passed"]]
    assert failed == [{**failed[0], "file": str(path), "name": "a wrong expectation", "passed": False,
                       "step": 5, "message": "score: expected [2, 0], got [0, 2]"}]
    assert [c["name"] for c in report["cases"] if c["passed"]] == [
        "envido accepted goes to the higher tanto", "envido declined pays one to the caller"]


def test_json_all_pass_exit_0(tmp_path, capsys) -> None:
    """--json keeps the exit codes."""
    code, report = run_json(capsys, cases_file(tmp_path, "good.yaml", GOOD_CASES))
    assert code == 0
    assert (report["passed"], report["failed"]) == (2, 0)


def test_folder_is_searched_for_yaml(tmp_path, capsys) -> None:
    """"files or folders; folders are searched for *.yaml"; other files are not cases."""
    folder = tmp_path / "suite"
    a = cases_file(folder, "a.yaml", GOOD_CASES)
    b = cases_file(folder / "teg", "b.yaml", FAILING_CASE)
    write(folder, "notes.txt", "not a case file: {{{")
    write(folder, "draft.yml.bak", "spec: [")
    code, report = run_json(capsys, folder)
    assert code == 1
    assert sorted({c["file"] for c in report["cases"]}) == sorted([str(a), str(b)])
    assert (report["passed"], report["failed"]) == (2, 1)


def test_files_and_folders_together(tmp_path, capsys) -> None:
    """Several PATHs: every case of every file is reported."""
    a = cases_file(tmp_path / "one", "a.yaml", GOOD_CASES)
    b = cases_file(tmp_path, "b.yaml", GOOD_CASES)
    code, report = run_json(capsys, tmp_path / "one", b)
    assert code == 0
    assert [c["file"] for c in report["cases"]] == [str(a), str(a), str(b), str(b)]


# -- invalid case files: exit 2, with file:line; the other files still run ------------------

INVALID = {
    # "A case that names a card the spec's deck lacks, or the same card twice, or a table
    # option or option value the spec does not offer, is an invalid case file (exit 2)"
    "unknown_card": ("""
        spec: teg
        options: {players: 2}
        cases:
          - name: x
            hands: [[5e, 2b, 12o], [7o, 6o, 9c]]
            actions: [0 envido]
        """, 5, "'9c'"),
    "same_card_twice": ("""
        spec: teg
        options: {players: 2}
        cases:
          - name: x
            hands: [[5e, 2b, 12o], [7o, 6o, 5e]]
            actions: [0 envido]
        """, 5, "5e"),
    "unknown_option": ("""
        spec: teg
        options: {players: 2, flores: true}
        cases:
          - name: x
            hands: [[5e, 2b, 12o], [7o, 6o, 1c]]
            actions: [0 envido]
        """, 2, "flores"),
    "option_value_not_offered": ("""
        spec: teg
        options: {players: 2}
        cases:
          - name: x
            options: {target: 20}
            hands: [[5e, 2b, 12o], [7o, 6o, 1c]]
            actions: [0 envido]
        """, 5, "20"),
    # "One action is `<seat> <verb> [<argument>]`"
    "bad_action_syntax": ("""
        spec: teg
        options: {players: 2}
        cases:
          - name: x
            hands: [[5e, 2b, 12o], [7o, 6o, 1c]]
            actions:
              - 0 envido
              - accept
        """, 8, "accept"),
    # "Every key is optional" -- of the listed ones; any other key is a mistake
    "unknown_expect_key": ("""
        spec: teg
        options: {players: 2}
        cases:
          - name: x
            hands: [[5e, 2b, 12o], [7o, 6o, 1c]]
            actions:
              - 0 envido
              - expect: {scores: [0, 0]}
        """, 8, "scores"),
    # "`- {reject: <action>, because: <text>}`": the reason is text; no other key in the step
    "because_not_text": ("""
        spec: teg
        options: {players: 2}
        cases:
          - name: x
            hands: [[5e, 2b, 12o], [7o, 6o, 1c]]
            actions:
              - {reject: 1 play 7o, because: 3}
        """, 7, "because"),
    "unknown_reject_key": ("""
        spec: teg
        options: {players: 2}
        cases:
          - name: x
            hands: [[5e, 2b, 12o], [7o, 6o, 1c]]
            actions:
              - {reject: 1 play 7o, since: turn}
        """, 7, "since"),
    # "`score: [a, b]`": the score before the deal, each below the target (a match at it is over)
    "score_at_the_target": ("""
        spec: teg
        options: {players: 2}
        cases:
          - name: x
            score: [30, 0]
            hands: [[5e, 2b, 12o], [7o, 6o, 1c]]
            actions: [0 envido]
        """, 5, "from 0 to 29"),
    "yaml_syntax": ("""
        spec: teg
        options: {players: 2}
        cases:
          - name: x
            hands: [[5e, 2b, 12o], [7o, 6o, 1c]
        """, 6, "YAML"),
}


@pytest.mark.parametrize("kind", sorted(INVALID))
def test_invalid_case_file_exit_2_with_file_line_others_still_run(tmp_path, capsys, kind: str) -> None:
    """"2 if a file is not a valid case file (with file:line and what is wrong; the other
    files still run and are reported)"."""
    text, line, mentions = INVALID[kind]
    bad = write(tmp_path, f"{kind}.yaml", text)
    good = cases_file(tmp_path, "zz_good.yaml", GOOD_CASES)
    code, lines = run(capsys, bad, good)
    assert code == 2
    (complaint,) = [ln for ln in lines if str(bad) in ln]
    assert complaint.startswith(f"INVALID {bad}:{line}") and complaint[len(f"INVALID {bad}:{line}")] == ":"
    assert mentions in complaint.split(": ", 1)[1]
    assert f"pass {good} :: envido accepted goes to the higher tanto" in lines
    assert f"pass {good} :: envido declined pays one to the caller" in lines


@pytest.mark.parametrize("kind", sorted(INVALID))
def test_invalid_case_file_json(tmp_path, capsys, kind: str) -> None:
    """With --json too: exit 2, and the valid file's cases are in the report."""
    text, line, _ = INVALID[kind]
    bad = write(tmp_path, f"{kind}.yaml", text)
    good = cases_file(tmp_path, "zz_good.yaml", GOOD_CASES)
    code, report = run_json(capsys, bad, good)
    assert code == 2
    assert [c["file"] for c in report["cases"]] == [str(good), str(good)]
    assert all(c["passed"] for c in report["cases"])
    assert str(bad) not in {c["file"] for c in report["cases"]}


def test_invalid_beats_failure_in_exit_code(tmp_path, capsys) -> None:
    """An invalid file gives 2 even when another file has a failed case (which still shows)."""
    bad = write(tmp_path, "bad.yaml", INVALID["unknown_card"][0])
    failing = cases_file(tmp_path, "failing.yaml", FAILING_CASE)
    code, lines = run(capsys, bad, failing)
    assert code == 2
    assert any(ln.startswith(f"FAIL {failing} :: a wrong expectation: step 5") for ln in lines)


def test_missing_file_does_not_stop_the_others(tmp_path, capsys) -> None:
    """"the other files still run and are reported": a path that is not a readable case file
    is reported (replay.py's CaseFile means to: "cannot read: ...") and the rest still runs."""
    good = cases_file(tmp_path, "good.yaml", GOOD_CASES)
    code, lines = run(capsys, tmp_path / "missing.yaml", good)
    assert code == 2
    assert f"pass {good} :: envido accepted goes to the higher tanto" in lines


# -- several deals, facts -------------------------------------------------------------------


def test_deals_replay_several_hands_with_the_dealer_rotating(tmp_path, capsys) -> None:
    """"A case may instead give `deals:` ... to replay several hands in a row; the dealer then
    rotates as the spec says" (teg: `dealer: next`). The mano is the seat after the dealer:
    hand 1 dealer 1 (default: the last seat), mano 0; hand 2 dealer 0, mano 1."""
    path = cases_file(tmp_path, "deals.yaml", """
        - name: two hands, the mano moves to seat 1
          deals:
            - hands: [[5e, 2b, 12o], [7o, 6o, 1c]]
            - hands: [[4e, 4b, 4o], [3e, 3b, 3o]]
          actions:
            - expect: {to_act: 0}
            - 0 play 5e
            - 1 fold
            - expect: {hand_over: true, score: [1, 0]}
            - reject: 0 play 4e
            - 1 play 3e
            - expect: {to_act: 0, hand_over: false, score: [1, 0]}
            - 0 play 4b
            - expect: {tricks: [1]}
        - name: with dealer 0 the second hand is led by seat 0
          dealer: 0
          deals:
            - hands: [[5e, 2b, 12o], [7o, 6o, 1c]]
            - hands: [[4e, 4b, 4o], [3e, 3b, 3o]]
          actions:
            - expect: {to_act: 1}
            - 1 fold
            - expect: {score: [1, 0]}
            - 0 play 4e
            - expect: {to_act: 1}
        - name: the second deal is really dealt (its cards, not the first's)
          deals:
            - hands: [[5e, 2b, 12o], [7o, 6o, 1c]]
            - hands: [[4e, 4b, 4o], [3e, 3b, 3o]]
          actions:
            - 0 fold
            - reject: 1 play 7o
            - 1 play 3b
        """)
    code, report = run_json(capsys, path)
    assert code == 0, report
    assert report["passed"] == 3


def test_deals_wrong_expectation_fails(tmp_path, capsys) -> None:
    """The rotation is really checked: claiming seat 0 leads the second hand fails."""
    path = cases_file(tmp_path, "deals.yaml", """
        - name: claims the dealer does not rotate
          deals:
            - hands: [[5e, 2b, 12o], [7o, 6o, 1c]]
            - hands: [[4e, 4b, 4o], [3e, 3b, 3o]]
          actions:
            - 0 fold
            - 0 play 4e
        """)
    code, report = run_json(capsys, path)
    assert code == 1
    (case,) = report["cases"]
    assert case["step"] == 2 and "0 play 4e" in case["message"]


def test_facts(tmp_path, capsys) -> None:
    """"Facts without play": `beats` (the first card beats the second), `ties`, `envido_of`,
    `flor_of`; teg's ranking "1e > 1b > 7e > 7o > 3 > 2 > 1o = 1c > ... > 7c = 7b > ...", its
    envido "20 + the two" (figures 0) or the best single card, and flor 20 + the three."""
    path = cases_file(tmp_path, "facts.yaml", """
        - name: the top of the ranking
          beats: [[1e, 1b], [1b, 7e], [7e, 7o], [7o, 3c], [3o, 2e], [2c, 1o], [1c, 12e], [7c, 6e], [5b, 4e]]
        - name: equal cards tie
          ties: [[3o, 3c], [1o, 1c], [7c, 7b], [12e, 12b]]
        - name: two sevens of different suits do not make envido together
          envido_of: {hand: [7c, 7b, 12e], value: 7}
        - name: two of one suit
          envido_of: {hand: [7c, 6c, 1e], value: 33}
        - name: figures count zero
          envido_of: {hand: [12o, 11o, 4e], value: 20}
        - name: the best flor
          flor_of: {hand: [5o, 6o, 7o], value: 38}
        - name: no flor without three of a suit
          flor_of: {hand: [5o, 6o, 7e], value: null}
        """)
    code, report = run_json(capsys, path)
    assert code == 0, report
    assert report["passed"] == 7


@pytest.mark.parametrize("fact", [
    "beats: [[1b, 1e]]",
    "beats: [[3o, 3c]]",
    "ties: [[1e, 1b]]",
    "envido_of: {hand: [7c, 6c, 1e], value: 20}",
    "flor_of: {hand: [5o, 6o, 7o], value: 18}",
])
def test_wrong_fact_fails(tmp_path, capsys, fact: str) -> None:
    """A fact that does not hold is a failed case (exit 1), not a pass."""
    path = cases_file(tmp_path, "fact.yaml", f"- name: wrong\n  {fact}\n")
    code, report = run_json(capsys, path)
    assert code == 1
    (case,) = report["cases"]
    assert case["passed"] is False and case["message"]


# -- output fidelity ------------------------------------------------------------------------


def test_brackets_in_names_and_messages_are_printed(tmp_path, capsys) -> None:
    """The line gives "what was expected, what happened": `tricks: expected [tie]` must show
    the `[tie]`, and a case named `[draft] ...` keeps its name."""
    path = cases_file(tmp_path, "brackets.yaml", f"""
        - name: "[draft] first trick"
          {HANDS}
          actions:
            - 0 play 5e
            - 1 play 7o
            - expect: {{tricks: [tie]}}
        """)
    code, lines = run(capsys, path)
    assert code == 1
    assert f"FAIL {path} :: [draft] first trick: step 3: tricks: expected [tie], got [1]" in lines


def test_one_line_per_case_in_a_narrow_console(tmp_path, capsys, monkeypatch) -> None:
    """"prints one line per case", also into a pipe or CI log (rich assumes 80 columns)."""
    monkeypatch.setenv("COLUMNS", "80")
    path = cases_file(tmp_path, "mixed.yaml", GOOD_CASES + FAILING_CASE)
    code, lines = run(capsys, path)
    assert code == 1
    assert f"FAIL {path} :: a wrong expectation: step 5: score: expected [2, 0], got [0, 2]" in lines
