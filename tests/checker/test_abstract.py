"""The exhaustive pass walks every deal at once (interpreter/designer/abstract.py): whose card
takes each trick, who holds a value and how values compare are chosen as the engine asks, so
what only some deals reach is found, and a finding is replayed on a deal that reaches it."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from rulespec.dsl import parse_expr
from rulespec.errors import Loc
from rulespec.ir import Formula, Span

from interpreter.designer import explore as walk
from interpreter.designer import walkcore
from interpreter.designer.abstract import (
    AbstractDeal,
    Undecided,
    concretize,
    top_choices,
    trick_choices,
    value_choices,
)
from interpreter.designer.check import diagnose, write_cases
from interpreter.designer.explore import Exploration, Sample, explore
from interpreter.designer.replay import replay
from interpreter.engine.game import Deal, load_game
from interpreter.engine.state import State
from interpreter.engine.tables import TIE


@contextmanager
def watching() -> Iterator[list[State]]:
    """Every state the walk links, ends included."""
    seen: list[State] = []
    link = walk._Walk.link

    def spy(self: Any, i: int, child: State, *args: Any, **kwargs: Any) -> None:
        seen.append(child)
        link(self, i, child, *args, **kwargs)

    walk._Walk.link = spy  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        walk._Walk.link = link  # type: ignore[method-assign]


@pytest.mark.parametrize("players", [2, 4])
def test_every_sequence_of_trick_results_is_walked(players: int) -> None:
    """teg: 'La baza la gana la carta más brava, y el que la ganó sale en la siguiente' — every
    result the outcome table knows is reached, and every seat leads the second trick."""
    game = load_game("teg", players=players)
    with watching() as seen:
        ex = explore(game)
    assert ex.every_deal and ex.violations == []
    results = {tuple(st.results) for st in seen}
    assert set(game.outcomes) <= results
    assert {st.leader for st in seen if st.trick_no == 1} == set(range(players))


def test_holding_a_flor_is_chosen_every_way() -> None:
    """Each seat holds a flor or not, in every combination, on one walk."""
    game = load_game("teg", flor=True)
    with watching() as seen:
        explore(game)
    held = {(st.facts.chosen.get(("holds", "flor", 0)), st.facts.chosen.get(("holds", "flor", 1)))
            for st in seen if isinstance(st.facts, AbstractDeal)}
    assert {(True, True), (True, False), (False, True), (False, False)} <= held


def test_trick_and_value_choices() -> None:
    """A trick is taken by any seat that showed a card, or tied; where the seat that played
    the first of the best cards leads after a tie, the ties differ by that seat."""
    teg = load_game("teg", players=4)                     # after a tie the same seat leads
    assert trick_choices(teg, [0, 1, 2, 3]) == [[0], [1], [2], [3], [0, 1]]
    assert value_choices([]) == [0]
    low, high = value_choices([10])[1:]
    assert low < 10 < high
    assert value_choices([10, 20])[:2] == [10, 20] and 10 < value_choices([10, 20])[3] < 20


CHOKE = """\
extends: teg
contests:
  envido:
    count:
      good: "not can_beat"
      announce: "not opponent_announced"
      source: "a house rule written in haste: concede only when beaten, speak only first"
fold:
  when: "not counting"
"""


def test_a_dead_end_some_deals_reach_is_found_and_replayed(tmp_path: Path) -> None:
    """The second seat may neither concede (it would win) nor announce (the first spoke): a
    dead end only where its envido beats the mano's. The walk finds it whatever the sample
    deals, and the case it writes replays on a deal where that is so."""
    spec = tmp_path / "choke.yaml"
    spec.write_text(CHOKE)
    report = diagnose(str(spec), fixed={"players": 2, "flor": False, "target": 30})
    dead = [f for f in report.findings if "nobody may act" in f.diagnostic.message]
    assert dead and dead[0].witness is not None and dead[0].witness.deal is not None
    game = load_game(str(spec), players=2)
    deal = dead[0].witness.deal
    envido = [game.values["envido"](tuple(game.cards.index[c] for c in h), None) for h in deal.hands]
    assert envido[1] > envido[0]
    (path,) = write_cases(report, tmp_path / "cases")
    result = replay([path])
    assert (result.passed, result.failed, result.invalid) == (1, 0, [])


def test_a_deal_where_the_mano_is_better_hides_that_dead_end(tmp_path: Path) -> None:
    """The control: walked on one deal where the mano's envido is higher, the same spec shows
    no dead end — which is why one chosen deal cannot stand for every deal."""
    spec = tmp_path / "choke.yaml"
    spec.write_text(CHOKE)
    game = load_game(str(spec), players=2)
    deal = Deal((("7e", "6e", "4c"), ("1o", "2b", "3c")))
    out = Exploration()
    w = walk._Walk(game, out, Sample("mano better", deal), walk.MAX_STATES)
    w.run()
    assert not [v for v in out.violations if v.kind == "dead"]


def test_a_question_not_yet_answered_stops_the_engine_and_a_deal_answers_it() -> None:
    """On an abstract deal the engine asks before it acts; `concretize` then finds cards that
    answer as the path chose (the second seat's envido the better), and none for a choice the
    replayed path never asks."""
    game = load_game("teg", flor=True)
    root = Deal((("1e", "2e", "3e"), ("4e", "5e", "6e")))
    st = game.new_match(seed=0, deals=[root])
    st.facts = AbstractDeal(game)
    with pytest.raises(Undecided) as asked:
        st.legal_actions()
    assert asked.value.fact == ("holds", "flor", 0) and asked.value.choices == (True, False)
    plain = load_game("teg")
    path = [("act", "0 envido"), ("act", "1 accept"), ("fact", (("value", "envido", 0), 0)), ("act", "0 announce"),
            ("fact", (("value", "envido", 1), 5)), ("act", "1 announce")]
    found = concretize(plain, root, path)
    assert found is not None
    deal, actions = found
    envido = [plain.values["envido"](tuple(plain.cards.index[c] for c in h), None) for h in deal.hands]
    assert envido[1] > envido[0]  # type: ignore[operator]
    assert actions == ["0 envido", "1 accept", "0 announce", "1 announce"]
    assert concretize(plain, root, [*path, ("fact", (("holds", "flor", 0), True))], tries=50) is None


def test_results_sequence_ties_are_reached() -> None:
    game = load_game("teg")
    with watching() as seen:
        explore(game)
    assert any(st.results[:1] == [TIE] for st in seen)


def _accepted_envido(game: Any) -> tuple[State, Undecided]:
    """An abstract hand where nobody holds a flor and the mano's envido is accepted: the
    question the engine then asks."""
    st = game.new_match(seed=0, deals=[walk.sample_deals(game)[0].deal])
    st.facts = AbstractDeal(game)
    for action, seat in (("envido", st.mano), ("accept", None)):
        while True:
            tried = walk.fork(st)                   # an action the cards interrupt is redone whole
            try:
                tried.apply(action, seat=seat)
                st = tried
                break
            except Undecided as q:
                if q.fact[0] != "holds":
                    return st, q
                st.facts.decide(q.fact, False)
                st._legal = None
    raise AssertionError("the envido was settled without asking the cards")


def test_a_comparison_is_one_question_whatever_the_table() -> None:
    """uruguayo at four: 'the values are said from the mano ... equal values go to the one
    nearer the mano' (procedure automatic). Accepting asks once who is best — each seat alone,
    or a tie across teams — instead of each seat's value in turn (105 orderings at four)."""
    game = load_game("uruguayo", players=4)
    st, q = _accepted_envido(game)
    assert q.fact[0] == "top" and q.fact[1] == "envido"
    assert q.choices == tuple(top_choices(game, [0, 1, 2, 3]))
    assert top_choices(game, [0, 1, 2, 3]) == [[0], [1], [2], [3], [0, 1], [0, 3], [1, 2], [2, 3]]
    for answer in q.choices:
        child = walkcore.decided(st, q, answer)
        child.apply("accept")
        won = [e for e in child.events if e["type"] == "contest_won"]
        nearest = min(answer, key=lambda s: (s - st.mano) % 4)
        assert won and won[-1]["seat"] == nearest                     # tie: nearer the mano


def test_a_comparison_answered_is_realized_by_cards() -> None:
    """The path's choice 'seat 3's envido is the best' replays on a deal where it is."""
    game = load_game("uruguayo", players=4)
    st, q = _accepted_envido(game)
    root = walk.sample_deals(game)[0].deal
    holds = [("fact", (f, a)) for f, a in st.facts.chosen.items()]
    path = [("act", f"{st.mano} envido"), *holds, ("act", f"{(st.mano + 1) % 4} accept"), ("fact", (q.fact, [3]))]
    found = concretize(game, root, path)
    assert found is not None
    deal, _ = found
    envido = [game.values["envido"](tuple(game.cards.index[c] for c in h), game.cards.index[deal.turned])
              for h in deal.hands]
    assert envido[3] == max(envido) and envido.count(envido[3]) == 1


MALDON = {"players": 2, "maldon": True, "flor": True, "reales": True, "contraflor_6": True, "target": 15}
"""Reglamento: 'Maldón — deux 4 et une figure : le joueur peut annuler la donne'; the spec opens it
`when: trick == 1 and not played and calls_made == 0` (its note: before any card and any call)."""


def test_whether_a_hand_may_annul_is_forgotten_once_its_window_closes() -> None:
    """The answer stays while the seat may still annul, and goes once it has played: the engine
    will not ask again, so states that differ only in it are one."""
    game = load_game("reglamento", **MALDON)
    st = game.new_match(seed=0)
    st.facts = deal = AbstractDeal(game)
    for seat in range(2):
        deal.decide(("annul", "maldon", seat), False)
        deal.decide(("holds", "flor", seat), False)
    deal.forget(st)
    assert {("annul", "maldon", 0), ("annul", "maldon", 1)} <= set(st.facts.chosen)
    first = st.current_player()
    assert first is not None
    st.apply(next(a for a in st.legal_actions() if a.startswith("play ")))
    st.facts.forget(st)
    assert ("annul", "maldon", first) not in st.facts.chosen
    assert ("annul", "maldon", 1 - first) in st.facts.chosen, "the other seat has not played: it still may"
    assert ("annul", "maldon", first) in deal.chosen, "forgetting replaces the deal, which forks share"


@pytest.mark.parametrize("name, options", [("reglamento", {"players": 4, "flor": True, "reales": True}),
                                           ("uruguayo", {"players": 4})])
def test_the_forks_of_a_state_share_its_deal_and_answer_on_copies(name: str, options: dict) -> None:
    """A fork shares its state's abstract deal (`serial.copy_into`); the walk answers and
    forgets on copies, so every state linked keeps the deal and the answers it had, while its
    forks are walked and answered every way."""
    game = load_game(name, options)
    linked: list[tuple[State, Any, dict]] = []
    link = walk._Walk.link

    def spy(self: Any, i: int, child: State, *args: Any, **kwargs: Any) -> None:
        link(self, i, child, *args, **kwargs)
        if isinstance(child.facts, AbstractDeal):
            linked.append((child, child.facts, dict(child.facts.chosen)))

    walk._Walk.link = spy  # type: ignore[method-assign]
    try:
        walk._Walk(game, walk.Exploration(), None, 3000).run()
    finally:
        walk._Walk.link = link  # type: ignore[method-assign]
    assert sum(1 for _, _, chosen in linked if chosen) > 500
    for child, deal, chosen in linked:
        assert child.facts is deal and deal.chosen == chosen


def test_a_hand_with_maldon_is_walked_over_every_deal_and_annulled_only_in_its_window() -> None:
    """With the answers forgotten, the walk fits over every deal, and still reaches the annulment:
    only by a seat that has played no card, before any call."""
    game = load_game("reglamento", **MALDON)
    assert walk.Keys(game.new_match(seed=0), game.spec).calls_cap == 1, "calls_made is only compared with 0"
    with watching() as seen:
        ex = explore(game)
    assert ex.every_deal and ex.violations == []
    annulled = [(st, e["seat"]) for st in seen for e in st.events if e["type"] == "annulled"]
    assert annulled
    assert all(st.played[seat] == 0 and not st.calls_made and st.trick_no == 0 for st, seat in annulled)


@pytest.mark.parametrize(("text", "bound"), [
    ("calls_made == 0", 0), ("calls_made < 2 and 3 > calls_made", 3), ("calls_made * 2 > 3", None),
    ("calls_made == 0 or stake > calls_made", None), ("trick == 1", 0),
])
def test_calls_made_is_bounded_only_when_every_use_compares_it_with_a_literal(text: str, bound: int | None) -> None:
    locate = lambda offset: Loc("spec.yaml", 1, 1 + offset)  # noqa: E731
    formula = Formula(parse_expr(text, locate), text, Span(None, "$.f"), locate)
    assert walk.comparison_bound([formula], "calls_made") == bound


def test_each_seats_maldon_is_chosen_every_way() -> None:
    """reglamento: "Maldón — deux 4 et une figure : le joueur peut annuler la donne." Whether a
    seat holds the maldón is a question of the abstract deal about that annulment and that seat,
    answered each way for each seat on one walk: the mano's before it plays, the dealer's once the
    mano has played (and the mano's answer, never asked again, is forgotten)."""
    game = load_game("reglamento", players=2, flor=False, reales=False, maldon=True)
    with watching() as seen:
        ex = explore(game)
    assert ex.every_deal
    held = {(st.facts.chosen.get(("annul", "maldon", 0)), st.facts.chosen.get(("annul", "maldon", 1)))
            for st in seen if isinstance(st.facts, AbstractDeal)}
    assert {(True, None), (False, None), (None, True), (None, False)} <= held


SIX = {"players": 6, "reales": True, "envido_callers": "anyone", "falta_mode": "replaces", "maldon": False,
       "target": 30}
"""Reglamento at six with the reales: 'Real envido ... Falta envido' raise the envido; with
`falta_mode: replaces` an accepted falta pays the falta alone, whatever came before it."""


def _counting(game: Any, calls: list[str]) -> State:
    """The envido chain `calls`, made in turn from the mano and accepted: its count is on."""
    st = game.new_match(seed=0)
    for action in [*calls, "accept"]:
        st.apply(action)
    assert st.count is not None
    return st


@pytest.mark.parametrize("flor", [True, False])
def test_a_counted_chain_is_keyed_by_what_it_pays(flor: bool) -> None:
    """'La falta envido ... vale lo que le falta' — a real envido raised to the falta and a falta
    called at once pay the same to each seat that may win the count, so their counts have one
    future and one key; an envido accepted pays 2 and keeps a key of its own. With a flor still to
    come the points are kept; with nothing left to score in the hand, only whether they end the
    match."""
    game = load_game("reglamento", flor=flor, **SIX)
    keys = walk.Keys(game.new_match(seed=0), game.spec, by_payoff=True)
    raised, falta, envido = (_counting(game, c) for c in (["real_envido", "falta_envido"], ["falta_envido"],
                                                           ["envido"]))
    assert keys(raised) == keys(falta) != keys(envido)
    pays, _ = keys.parts.chain(envido, 0)
    assert pays == ((2,) * 6 if flor else (False,) * 6)
    plain = walk.Keys(game.new_match(seed=0), game.spec)
    assert plain(raised) != plain(falta), "the payoff table's walk keeps the chains apart"


ADDS = {**SIX, "falta_mode": "adds"}
"""With `falta_mode: adds` an accepted falta pays the falta plus the calls before it."""

AT_HAND_END = """\
extends: reglamento
match:
  end: end_of_hand
  source: "a house rule: the match is won when the hand that reaches the target is over"
"""


@pytest.mark.parametrize("flor", [True, False])
def test_points_past_the_target_key_alike_when_the_match_ends_at_once(flor: bool, tmp_path: Path) -> None:
    """'Une équipe qui atteint 30 grâce à l'envido gagne immédiatement' — a real envido raised to
    the falta (3 + 30 with `falta_mode: adds`) and a falta alone (30) both end the match from
    0-0, so their counts share a key even with a flor still to come; an envido (2) does not. Where
    the match ends only with the hand, 33 and 30 points are two futures and stay apart."""
    game = load_game("reglamento", flor=flor, **ADDS)
    keys = walk.Keys(game.new_match(seed=0), game.spec, by_payoff=True)
    raised, falta, envido = (_counting(game, c) for c in (["real_envido", "falta_envido"], ["falta_envido"],
                                                           ["envido"]))
    assert keys(raised) == keys(falta) != keys(envido)
    assert keys.parts.chain(raised, 0)[0] == ((30,) * 6 if flor else (True,) * 6)
    spec = tmp_path / "at_hand_end.yaml"
    spec.write_text(AT_HAND_END)
    later = load_game(str(spec), flor=True, **ADDS)
    keys = walk.Keys(later.new_match(seed=0), later.spec, by_payoff=True)
    raised, falta = (_counting(later, c) for c in (["real_envido", "falta_envido"], ["falta_envido"]))
    assert keys(raised) != keys(falta)
    assert (keys.parts.chain(raised, 0)[0], keys.parts.chain(falta, 0)[0]) == ((33,) * 6, (30,) * 6)


SCORE_IN_COUNT = """\
extends: reglamento
contests:
  envido:
    count:
      good: "not can_beat or leader > 20"
      source: "a house rule: once a team is past 20, any envido may be conceded"
"""


def test_a_count_that_only_pays_keeps_of_the_score_whether_it_ends_the_match(tmp_path: Path) -> None:
    """Without flor, once the envido is accepted nothing else scores before the hand ends: two
    scores from which its points end the match alike are one state, and one from which they end
    it is another. A count whose own rule reads the score keeps it whole."""
    game = load_game("reglamento", flor=False, **SIX)
    keys = walk.Keys(game.new_match(seed=0), game.spec, by_payoff=True)
    five, six, twenty_eight = (_counting(game, ["envido"]) for _ in range(3))
    five.score, six.score, twenty_eight.score = [5, 0], [6, 0], [28, 0]
    assert keys(five) == keys(six) != keys(twenty_eight)
    spec = tmp_path / "score_in_count.yaml"
    spec.write_text(SCORE_IN_COUNT)
    house = load_game(str(spec), flor=False, **SIX)
    keys = walk.Keys(house.new_match(seed=0), house.spec, by_payoff=True)
    five, six = (_counting(house, ["envido"]) for _ in range(2))
    five.score, six.score = [5, 0], [6, 0]
    assert keys(five) != keys(six)


def test_a_payoff_a_count_changes_keeps_its_chain() -> None:
    """A payoff that reads what a count changes (`counting`, `idle`) is not worked out early."""
    game = load_game("reglamento", flor=False, **SIX)
    locate = lambda offset: Loc("spec.yaml", 1, 1 + offset)  # noqa: E731
    envido = game.spec.contests[0]
    assert walk._pays_alike(envido)
    for text in ("if counting then 1 else total", "if idle('flor') then total else 1"):
        accept = Formula(parse_expr(text, locate), text, Span(None, "$.f"), locate)
        assert not walk._pays_alike(replace(envido, accept=accept))


PAYOFF_CRASH = """\
extends: reglamento
contests:
  envido:
    calls:
      falta_envido:
        accept: "total // (calls - 3)"
        source: "a house rule written in haste: the falta shared among the calls but three"
"""


def test_a_payoff_that_fails_for_one_chain_is_found_at_six_over_every_deal(tmp_path: Path) -> None:
    """The falta's payoff divides by zero only for a chain of three calls: the counts of the
    other chains share keys by what they pay, this one cannot be worked out and keeps its chain,
    and the walk over every deal finds the failure when the count ends."""
    spec = tmp_path / "crash.yaml"
    spec.write_text(PAYOFF_CRASH)
    game = load_game(str(spec), flor=False, **SIX)
    ex = explore(game)
    assert ex.every_deal
    crash = [v for v in ex.violations if v.kind == "crash"]
    assert crash and "division" in crash[0].message
    calls = {c.name for c in game.spec.contests[0].calls}
    assert crash[0].witness is not None
    assert len([a for a in crash[0].witness.actions if a.split()[-1] in calls]) == 3


def test_a_count_dead_end_is_found_at_six_with_the_reales_over_every_deal(tmp_path: Path) -> None:
    """CHOKE's count (concede only when beaten, speak only first) at six with every raise: the
    counts of chains that pay alike are one state, and the dead end is still reached."""
    spec = tmp_path / "choke.yaml"
    spec.write_text(CHOKE.replace("extends: teg", "extends: reglamento"))
    game = load_game(str(spec), flor=False, **SIX)
    ex = explore(game)
    assert ex.every_deal
    assert [v for v in ex.violations if v.kind == "dead"]


def test_the_score_is_kept_while_a_live_contest_may_pay_and_end_the_match() -> None:
    """board: 'the first team to reach the target wins, at once' — once the envido is paid, a
    flor still to be sung (which reads no score) may end the match from one score and not from
    another, so the score stays in the state while it may; without flor nothing scores before the
    hand ends and the score goes."""
    for flor, kept in ((True, True), (False, False)):
        game = load_game("board", players=6, flor=flor, target=15)
        st = _counting(game, ["envido"])
        while st.count is not None:
            st.apply(st.legal_actions()[0])
        assert st.score != [0, 0] and st.contests[0].status == walk.CLOSED
        assert walk.Keys(st, game.spec).parts.score_matters(st) is kept


TRUCO_READS_THE_LEAD = """\
extends: reglamento
stakes:
  when: "leader < 25"
  source: "a house rule: no truco once a team has 25"
"""


def test_the_score_is_kept_for_a_stake_rule_that_reads_a_name_a_payoff_reads_too(tmp_path: Path) -> None:
    """A truco allowed only while the lead is under 25 reads `leader`, which the falta's payoff
    reads too: with every contest settled, the score still decides whether truco may be called,
    so it stays in the state. The schedule's `when`, read only as a hand starts, does not keep it."""
    spec = tmp_path / "truco_reads_the_lead.yaml"
    spec.write_text(TRUCO_READS_THE_LEAD)
    for game, kept in ((load_game(str(spec), flor=False, **SIX), True), (load_game("reglamento", flor=False, **SIX), False),
                       (load_game("uruguayo", players=6, pico_a_pico="until_five"), False)):
        st = game.new_match(seed=0)
        for contest in st.contests:
            contest.status = walk.CLOSED
        assert walk.Keys(st, game.spec).parts.score_matters(st) is kept
    assert walk._score_reads(load_game("uruguayo", players=6, pico_a_pico="until_five").spec.schedule)


def test_a_window_that_may_open_later_keeps_what_its_contest_reads() -> None:
    """A contest idle now whose window may hold later (`trick == 2` in the first trick) is not
    over; once past its trick it is."""
    game = load_game("reglamento", flor=False, **SIX)
    envido = game.contests[0]
    locate = lambda offset: Loc("spec.yaml", 1, 1 + offset)  # noqa: E731
    later = Formula(parse_expr("trick == 2", locate), "trick == 2", Span(None, "$.w"), locate)
    written = envido.ir
    envido.ir = replace(written, window=later)
    try:
        st = game.new_match(seed=0)
        keys = walk.Keys(st, game.spec)
        assert not keys.parts.over(st, envido)
        st.trick_no = 2
        keys.parts.shut_of = None
        assert keys.parts.over(st, envido)
    finally:
        envido.ir = written                     # the game is shared: load_game keeps it for others


def test_reglamento_at_six_with_the_reales_is_walked_over_every_deal() -> None:
    """`truco check`'s pairwise combination at six with the reales and no flor: with its counts
    keyed by what they pay (50,400 states before, 6,345 after), every deal fits the walk."""
    game = load_game("reglamento", players=6, reales=True, flor=False, maldon=False, target=30,
                     envido_callers="anyone", falta_mode="adds", falta_value="half_while_malas",
                     decline_rule="accumulated_plus_one", three_pardas="nobody", contraflor_6=False,
                     contraflor_resto="falta", any_teammate=True, falta_after_double=True, falta_half=True,
                     fold_envido_point=True, flor_figures_30=True, flor_vs_flor="best_takes_all")
    ex = explore(game)
    assert ex.every_deal and ex.samples == [] and ex.violations == []
