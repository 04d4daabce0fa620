"""What a key left out means (docs/spec-language.md, "What a spec may leave out"): a spec that
writes only what the schema requires is built with every documented default."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.build import wording
from rulespec.ir import Spec
from rulespec.load import load_spec

BARE = """\
name: bare
options:
  seats: {values: [2, 4], default: 4, doc: "How many sit at the table."}
deck:
  note: "Seven ranks of the Spanish deck."
  suits: [e, b, o, c]
  ranks: [1, 2, 3, 4, 5, 6, 7]
ranking: "1 > 2 > 3 > 4 > 5 > 6 > 7"
turned:
  trumps: {cycle: [1, 2, 3, 4, 5, 6, 7], suits: "e < b < o < c"}
values:
  envido: {formula: "top(1)"}
tricks:
  cover: {when: "trick > 1"}
  outcome: {"A A": A, "A B A": A, "A B B": B, "A T": A, "A B T": A, "T A": A, "T T A": A, "T T T": mano}
stakes:
  calls:
    truco: {worth: 2}
contests:
  envido:
    calls:
      envido: {worth: 2}
      real_envido: {worth: 3, after: [envido]}
  flor:
    value: envido
    calls:
      flor: {worth: 3, declare: true}
    unraised: {pays: 3}
special_hands:
  eleven: {if: "max_score == target - 1"}
annul:
  nula: {holds: "false"}
schedule:
  formats:
    - {seats: all}
signals: {verb: sena, names: [one]}
"""

NEXT_RANK = '  trumps: {cycle: [1, 2, 3, 4, 5, 6, 7], suits: "e < b < o < c"}\n'
"""BARE's trumps, which other tests replace."""


@pytest.fixture
def bare(tmp_path: Path) -> Spec:
    """Built for each test, so that every test reading it is one that runs the builder."""
    path = tmp_path / "bare.yaml"
    path.write_text(BARE, encoding="utf-8")
    return load_spec(str(path))


def test_the_top_level_and_the_deck(bare: Spec) -> None:
    assert (bare.title, bare.source, bare.language) == ("bare", None, "en")
    note = bare.deck.cited.note
    assert note is not None and note.texts == (("en", "Seven ranks of the Spanish deck."),)   # a note in English
    assert bare.deck.hand_size == 3 and bare.deck.figures == frozenset()
    assert dict(bare.deck.points) == dict.fromkeys(bare.deck.ranks, 0)
    assert bare.trumps is not None
    assert (bare.trumps.kind, bare.trumps.ranks, bare.trumps.substitute, bare.trumps.points) == ("next_rank", (), None, ())
    [option] = bare.options
    assert (option.type, option.kind) == ("int", "table")        # the type read from the values
    assert option.doc is not None and option.doc.texts == (("en", "How many sit at the table."),)


def test_the_table_the_tricks_and_the_stakes(bare: Spec) -> None:
    t = bare.table
    assert (t.players, t.teams, t.dealer, t.answer) == (2, 2, "next", "next_opponent")
    tr = bare.tricks
    assert (tr.count, tr.after_tie, tr.partners_tie, tr.cover_counts) == (3, "same_leader", "team_wins", False)
    s = bare.stakes
    assert (s.base.text, s.when.text, s.raise_by) == ("1", "true", "accepting_team")
    assert [c.declined.text for c in s.calls] == ["stake"]


def test_the_contests(bare: Spec) -> None:
    envido, flor = bare.contests
    for c in (envido, flor):
        assert (c.window.text, c.interrupt.text, c.accept.text, c.decline.text) == (
            "true", "false", "total", "if calls == 1 then 1 else total_but_last")
        assert (c.cancels, c.declaration) == ((), "optional")
        n = c.count
        assert (n.procedure, n.good.text, n.announce.text, n.tie, n.show, n.order) == (
            "announce", "true", "true", "nearer_lead", "never", "in_turn")
    assert envido.value == "envido" and envido.unraised is None       # a contest compares its own name's value
    assert flor.unraised is not None and flor.unraised.mode == "compare"
    opening, answer = envido.calls
    assert (opening.opens, answer.opens) == (True, False)               # a call opens unless it answers
    for c in (*envido.calls, *flor.calls):
        assert (c.max, c.asks, c.allowed.text, c.accept, c.decline) == (None, "", "true", None, None)
    assert [c.declare for c in (*envido.calls, *flor.calls)] == [False, False, True]


def test_the_rest(bare: Spec) -> None:
    f = bare.fold
    assert (f.when.text, f.pays.text, f.pending_contest, f.count) == ("my_turn or answering", "stake", "declined",
                                                                      "conceded")
    [eleven] = bare.special_hands
    assert (eleven.base, eleven.forbid_stakes, eleven.blind) == (None, None, None)
    [nula] = bare.annulments
    assert (nula.when.text, nula.dealer) == ("true", "same")
    assert bare.schedule is not None
    assert (bare.schedule.when.text, bare.schedule.check) == ("true", "round")
    assert [(h.name, h.seats) for h in bare.schedule.formats] == [("all", "all")]
    assert bare.signals is not None and bare.signals.to == "table"
    assert (bare.match.target, bare.match.end) == (30, "immediately")


def test_same_suit_trumps_have_no_suit_order(tmp_path: Path) -> None:
    """`suits` orders next_rank trumps only (spec-language.md, "Turned card"); same_suit trumps
    are of one suit, the turned card's, and leave it out."""
    path = tmp_path / "piezas.yaml"
    path.write_text(BARE.replace(NEXT_RANK, "  trumps: {kind: same_suit, ranks: [2, 4]}\n"), encoding="utf-8")
    trumps = load_spec(str(path)).trumps
    assert trumps is not None and (trumps.kind, trumps.ranks, trumps.suit_order) == ("same_suit", ("2", "4"), ())


def test_an_outcome_table_cited_first_still_reads_every_pattern(tmp_path: Path) -> None:
    """`source:` and `note:` cite an outcome table wherever they are written among its patterns
    (spec-language.md, "Tricks"): written first, every pattern after them is still read."""
    path = tmp_path / "cited.yaml"
    path.write_text(BARE.replace('  outcome: {"A A"', '  outcome: {source: "a house table", note: "why", "A A"'),
                    encoding="utf-8")
    spec = load_spec(str(path))
    assert [" ".join(o.pattern) for o in spec.tricks.outcomes] == [
        "A A", "A B A", "A B B", "A T", "A B T", "T A", "T T A", "T T T"]
    assert spec.tricks.outcomes_cited.source == "a house table"


def test_a_contest_switched_off_before_another_leaves_the_other_on(tmp_path: Path) -> None:
    """`enabled: false` switches one contest off (its calls with it); the contests written after
    it are read as ever."""
    path = tmp_path / "sin_flor.yaml"
    path.write_text(BARE.replace("contests:\n  envido:\n", "contests:\n  nada:\n    enabled: false\n    value: envido\n"
                                 "    calls:\n      nada: {worth: 1}\n  envido:\n"), encoding="utf-8")
    spec = load_spec(str(path))
    assert [c.name for c in spec.contests] == ["envido", "flor"] and spec.disabled_calls == ("nada",)


def test_a_contest_call_without_a_worth_adds_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bare.yaml"
    path.write_text(BARE.replace("real_envido: {worth: 3, after: [envido]}", "real_envido: {after: [envido]}"),
                    encoding="utf-8")
    envido = load_spec(str(path)).contests[0]
    assert [c.worth.text for c in envido.calls] == ["2", "0"]


def test_a_text_in_several_languages_puts_the_specs_own_first() -> None:
    """spec-language.md: a note or doc may be a mapping language → text; the spec's own language
    comes first (what a rulebook in a language the text lacks quotes), the others as written."""
    texts = wording({"es": "b", "en": "a", "fr": "c"}, "fr")
    assert texts is not None and texts.texts == (("fr", "c"), ("es", "b"), ("en", "a"))
    assert str(texts) == "c"
