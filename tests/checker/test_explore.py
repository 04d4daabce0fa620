"""The exhaustive pass (interpreter/designer/explore.py): its copies and merged states are faithful,
it covers the hand, and what it finds replays as a conformance case."""
from __future__ import annotations

import ast
import gc
import random
from pathlib import Path
from typing import Any

import pytest

from rulespec.load import open_spec

from interpreter.cli import main
from interpreter.designer import walkcore
from interpreter.designer.check import diagnose, write_cases
from interpreter.designer.explore import (
    FORMULA_FAILURES,
    Exploration,
    Keys,
    _first_stuck,
    _Walk,
    canonical,
    explore,
    fork,
    sample_deals,
)
from interpreter.designer.replay import replay
from interpreter.engine.game import load_game
from interpreter.engine.state import State

CORPUS = Path(__file__).resolve().parents[1] / "specs_invalid"


def _json(st: State) -> dict:
    data = st.to_json()
    data.pop("events")
    return data


def _walk(game, seed: int, steps: int) -> list[State]:
    rng = random.Random(seed)
    st = game.new_match(seed=seed)
    out = []
    for _ in range(steps):
        if st.hand_over:
            break
        out.append(st.clone())
        st.apply(rng.choice(st.legal_actions()))
    return out


@pytest.mark.parametrize("name, options", [("teg", {"players": 4, "flor": True}), ("paulista", {}),
                                           ("reglamento", {"reales": True})])
def test_fork_is_a_faithful_copy(name: str, options: dict) -> None:
    """A fork equals its state, and playing on a fork equals playing on a clone, while the
    state itself is left as it was."""
    game = load_game(name, options)
    for seed in range(6):
        for st in _walk(game, seed, 40):
            before = _json(st)
            copy = fork(st)
            assert _json(copy) == before
            for action in st.legal_actions()[:4]:
                a, b = fork(st), st.clone()
                a.apply(action)
                b.apply(action)
                assert _json(a) == _json(b)
            assert _json(st) == before


@pytest.mark.parametrize("name, options", [("teg", {"players": 4, "flor": True}), ("paulista", {}),
                                           ("reglamento", {"players": 6, "flor": True, "reales": True}),
                                           ("uruguayo", {})])
def test_play_on_forks_leaves_the_state_as_it_was(name: str, options: dict) -> None:
    """A fork shares the lists and records the engine replaces rather than changes (each seat's
    cards, the tricks done, the waiting calls): every action of a state, played on a fork and
    on to the end of the hand, leaves the state it was forked from and its other forks as
    they were."""
    game = load_game(name, options)
    for seed in range(8):
        rng = random.Random(seed)
        st = game.new_match(seed=seed)
        while not st.hand_over:                 # calls answered, counts announced: nobody folds
            before = _json(st)
            forks = [fork(st) for _ in st.legal_actions()]
            for action, child in zip(st.legal_actions(), forks, strict=True):
                assert _json(child) == before, action       # the forks played before left it alone
                child.apply(action)
                while not child.hand_over:
                    child.apply(rng.choice(child.legal_actions()))
                assert _json(st) == before, action
            st.apply(rng.choice([a for a in st.legal_actions() if a != "fold"] or ["fold"]))


def test_keys_ignore_the_log_but_not_the_play() -> None:
    game = load_game("teg")
    st = game.new_match(seed=3)
    keys = Keys(st, game.spec)
    other = fork(st)
    other.events = [{"type": "noise"}]
    assert keys(other) == keys(st)
    played = fork(st)
    played.apply([a for a in st.legal_actions() if a.startswith("play")][0])
    assert keys(played) != keys(st)


def test_card_play_is_reduced_to_the_next_card_in_dealt_order() -> None:
    game = load_game("teg")
    st = game.new_match(seed=5)
    legal = st.legal_actions()
    plays = [a for a in canonical(st, legal) if a.startswith("play")]
    first = game.cards.ids[st.dealt[st.current_player()][0]]
    assert plays == [f"play {first}"]
    assert [a for a in canonical(st, legal) if not a.startswith("play")] == \
        [a for a in legal if not a.startswith("play")]


def test_sample_deals_run_long_tie_and_hold() -> None:
    game = load_game("teg", flor=True)
    labels = [s.label for s in sample_deals(game)]
    assert labels == ["runs to the last trick", "ties a trick", "both teams hold flor"]
    holding = sample_deals(game)[2].deal
    holds = [game.values["flor"]([game.cards.index[c] for c in h], None) is not None for h in holding.hands]
    assert holds == [True, True]


def test_default_teg_hand_is_sound() -> None:
    """No dead end, no endless hand, every call legal somewhere, the match can end from
    every score; the longest hand is three tricks of two cards and more."""
    game = load_game("teg")
    ex = explore(game)
    assert ex.violations == []
    calls = {c.name for c in game.spec.stakes.calls} | {c.name for cont in game.spec.contests for c in cont.calls}
    assert calls <= ex.legal_calls
    assert ex.longest >= 2 * 3 and ex.states > 100 and ex.scores_checked == 30 * 30


def test_the_walk_leaves_nothing_for_the_garbage_collector() -> None:
    """The walk pauses the cyclic collector (`_uncollected`), which is sound only while it makes
    no reference cycles: none is left for the collector once it is done, the abstract deal's
    questions (raised and caught at every step) included."""
    for name in ("teg", "vanikar"):
        game = load_game(name)
        gc.collect()
        explore(game)
        assert gc.collect() == 0, name
    assert gc.isenabled()


def test_the_keys_of_a_walk_share_their_parts() -> None:
    """A walk's keys hold each value of their fields' part once (`walkcore.StateKey.shared`):
    a million states' keys have a few thousand such values, and a copy of each in every key
    tripled the memory of reglamento's largest walk."""
    walk = _Walk(load_game("teg", players=4, flor=True), Exploration(), None, 100_000)
    walk.run()
    keys = list(walk.graph.index)[1:]                # the root's key is made before the walk
    parts = {k[2] for k in keys}
    assert len(parts) * 2 < len(keys), "a part is met again and again"
    assert len({id(k[2]) for k in keys}) == len(parts)


def test_a_step_catches_the_failures_the_walk_reports_as_crashes() -> None:
    """`walkcore.step` names the engine's failures in its own `except` (compiled code reads them
    there): the same classes as `explore.FORMULA_FAILURES`, which the rest of the checker uses."""
    source = Path(walkcore.__file__).with_name("walkcore.py").read_text(encoding="utf-8")   # compiled or not
    caught = [sorted(e.id for e in h.type.elts if isinstance(e, ast.Name))
              for h in ast.walk(ast.parse(source))
              if isinstance(h, ast.ExceptHandler) and isinstance(h.type, ast.Tuple)]
    assert sorted(e.__name__ for e in FORMULA_FAILURES) in caught


def test_uncapped_calls_are_bounded_and_reported() -> None:
    """reglamento lets an envido be raised again 'autant qu'on veut': the pass bounds the
    repetition and says which calls it bounded."""
    ex = explore(load_game("reglamento"))
    assert ex.violations == []
    assert {"envido", "real_envido"} <= ex.uncapped


def test_a_finding_replays_as_a_conformance_case(tmp_path: Path) -> None:
    """'A concrete action sequence for each violation, replayable as a conformance case.'"""
    spec = CORPUS / "dead_state.yaml"
    defaults = {o.name: o.default for o in open_spec(spec).options}
    report = diagnose(str(spec), fixed=defaults)
    (finding,) = report.findings
    assert finding.witness is not None and finding.witness.actions
    (path,) = write_cases(report, tmp_path)
    result = replay([path])
    assert (result.passed, result.failed, result.invalid) == (1, 0, [])


def _figures(r: Any) -> tuple[Any, ...]:
    return ([str(f.diagnostic) for f in r.findings], r.explored, r.covered, r.states, r.transitions,
            r.choices, r.longest, r.sampled, r.stopped)


def test_combinations_walked_side_by_side_give_the_same_report(tmp_path: Path) -> None:
    """`truco check --jobs 2` walks option combinations in forked processes: the report is the
    one a single process gives, figures, findings and coverage alike."""
    fixed = {"target": 30, "flor": False}
    assert _figures(diagnose("teg", fixed=fixed, jobs=2)) == _figures(diagnose("teg", fixed=fixed, jobs=1))


def test_a_finding_stops_the_walks_after_it_whatever_the_jobs(tmp_path: Path) -> None:
    """A spec with an error is fixed first, then explored: after the first combination that
    finds one, no later one is walked, however many processes walk them."""
    spec = tmp_path / "choke.yaml"
    spec.write_text("extends: teg\ncontests:\n  envido:\n    count:\n      good: \"not can_beat\"\n"
                    "      announce: \"not opponent_announced\"\n      source: \"a house rule\"\n"
                    "fold:\n  when: \"not counting\"\n")
    one, two = (diagnose(str(spec), fixed={"flor": False, "target": 30}, jobs=jobs) for jobs in (1, 2))
    assert one.stopped and one.explored == 1
    assert _figures(two) == _figures(one)
    assert one.stop_note().startswith("the exhaustive pass stopped at its first finding, having walked 1 of the "
                                      f"{one.walkable} option combinations it walks")
    assert one.walkable == 6, "3 table sizes × teg's 2 readings of the falta, the other options fixed"


def test_a_warning_of_the_quick_checks_is_fixed_before_any_walk(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A broken spec is answered in seconds: a finding of the quick checks (here an option no
    rule reads, a warning) stops the walks before the first, and says so; `--keep-going`
    walks every combination all the same and finds the same."""
    spec = tmp_path / "unread.yaml"
    spec.write_text("extends: teg\noptions:\n  lights: {values: [on, off], default: on}\n")
    fixed = {"flor": False, "target": 30}
    quick = diagnose(str(spec), fixed=fixed)
    assert quick.stopped and quick.explored == 0 and quick.states == 0
    full = diagnose(str(spec), fixed=fixed, keep_going=True)
    # every triple of 3 table sizes, teg's two falta readings and the lights: all 12 combinations
    assert not full.stopped and full.explored == 12 and full.states > 0
    assert [str(f.diagnostic) for f in full.findings] == [str(f.diagnostic) for f in quick.findings]
    assert main(["check", str(spec), "-o", "flor=false", "-o", "target=30"]) == 1
    out = capsys.readouterr().out
    assert "option 'lights' is declared but no rule reads it" in out
    # what happened, not "after 0 option combinations"
    assert "note no hand was walked: the findings above came first, from the checks that play no hand" in out
    assert "--keep-going" in out


def test_jobs_must_be_a_whole_number_of_at_least_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["check", "teg", "--jobs", "0"])
    assert done.value.code == 2
    assert "expected a whole number of at least 1, got '0'" in capsys.readouterr().err


def test_a_finding_made_during_a_count_is_placed_at_the_count_rule() -> None:
    """What the pass finds in a state is placed at the rule in play there: during an envido's
    count, the contest's `count:`, which says how the seats announce and concede."""
    game = load_game("teg")
    st = game.new_match(seed=1)
    st.apply("envido")
    st.apply("accept")
    assert st.count is not None and st.legal_actions() == ["fold", "announce"]
    span = _Walk(game, Exploration(), None, 1).span_of(st)
    assert span is not None and span.path == "$.contests.envido.count"
    assert span.loc is not None and span.loc.file.endswith("teg.yaml")


def test_a_contest_an_answer_leaves_open_is_told_at_the_contest(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pass checks that accepting a contest call settles the contest, at once or after its
    count, and tells a chain that does not at the contest's rule. No bundled spec leaves one
    open, so here the pass is made to read no contest as closed: teg's envido, accepted and
    counted, is told at `$.contests.envido`."""
    monkeypatch.setattr("interpreter.designer.explore.CLOSED", "never")
    game = load_game("teg")
    st = game.new_match(seed=1)
    st.apply("envido")
    out = Exploration()
    _Walk(game, out, None, 1).check_resolves(st, fork_after(st, "accept"), "accept", lambda: None)
    [v] = out.violations
    assert (v.kind, v.message, v.detail) == ("unresolved", "accepting a chain does not settle the contest", "envido")
    assert v.span.path == "$.contests.envido" and v.span.loc is not None and v.span.loc.file.endswith("teg.yaml")


def fork_after(st: State, action: str) -> State:
    child = fork(st)
    child.apply(action)
    return child


def test_a_match_stuck_outside_any_special_hand_is_told_at_the_match(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pass checks that from every score some hand scores a point, and blames the special hand
    in force at a score where none does; with none in force, the match's rule. No bundled spec
    gets stuck, so here the pass is made to find no hand scoring: at 0-0 teg plays no special
    hand, so the finding is told at `$.match`."""
    monkeypatch.setattr("interpreter.designer.explore._scores_from", lambda game, deal, score: False)
    game = load_game("teg")
    v = _first_stuck(game, sample_deals(game)[0].deal)
    assert v is not None and (v.kind, v.detail) == ("stuck", "from 0-0")
    assert v.span.path == "$.match" and v.span.loc is not None and v.span.loc.file.endswith("teg.yaml")


@pytest.mark.parametrize("name, options", [("teg", {"players": 4, "flor": True}),
                                           ("reglamento", {"players": 4, "flor": True, "reales": True,
                                                           "maldon": True})])
def test_a_key_is_a_tuple_that_parts_states_as_their_repr_does(name: str, options: dict,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk keys states by a tuple of their fields, read field by field: two states share a
    key exactly when the `repr` of their fields, the key as first written, is the same."""
    game = load_game(name, options)
    by_key: dict = {}
    by_repr: dict = {}
    link = _Walk.link

    def both(self: _Walk, i, child, step, stack, more=(), forget: bool = True) -> None:
        if not child.hand_over:                      # every state the graph keys, as it keys it
            key = self.keys(child, forget)
            text = self.keys.repr_key(child, False)
            assert by_key.setdefault(key, text) == text and by_repr.setdefault(text, key) == key
        link(self, i, child, step, stack, more, forget)

    monkeypatch.setattr(_Walk, "link", both)
    walk = _Walk(game, Exploration(), None, 4000)
    walk.run()
    assert len(by_key) == len(by_repr) > 1000
