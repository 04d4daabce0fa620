"""A compiled game: one spec under one choice of table options, ready to start matches."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from rulespec.blame import relocate_all
from rulespec.errors import Diagnostic, OptionError, SpecError
from rulespec.formula import compile_expr
from rulespec.ir import CARD_VERBS, COMMON_VERBS, Contest, ContestCall, Formula, Spec
from rulespec.load import open_spec

from interpreter.engine.context import Ctx, play_env
from interpreter.engine.tables import Cards, HandValues, hand_formula, hand_values, outcome_table, turned_tables

if TYPE_CHECKING:
    from interpreter.engine.state import State

Fn = Callable[[Ctx], Any]



@dataclass(frozen=True)
class Deal:
    """A scripted deal: one hand per seat (seat 0 first) and the turned card, as card ids."""

    hands: tuple[tuple[str, ...], ...]
    turned: str | None = None


class CompiledContest:
    """A contest with its formulas compiled and its calls indexed by name."""

    def __init__(self, ir: Contest, compile_: Callable[[Formula], Fn], index: int) -> None:
        self.ir = ir
        self.index = index
        self.name = ir.name
        self.value = ir.value
        self.window = compile_(ir.window)
        self.interrupt = compile_(ir.interrupt)
        self.accept = compile_(ir.accept)
        self.decline = compile_(ir.decline)
        self.calls: dict[str, ContestCall] = {c.name: c for c in ir.calls}
        self.worth = {c.name: compile_(c.worth) for c in ir.calls}
        self.allowed = {c.name: compile_(c.allowed) for c in ir.calls}
        self.call_accept = {c.name: compile_(c.accept) for c in ir.calls if c.accept is not None}
        self.call_decline = {c.name: compile_(c.decline) for c in ir.calls if c.decline is not None}
        self.unraised_pays = compile_(ir.unraised.pays) if ir.unraised else None
        self.unraised_mode = ir.unraised.mode if ir.unraised else "compare"
        self.good = compile_(ir.count.good)
        self.announce = compile_(ir.count.announce)
        self.procedure = ir.count.procedure
        self.tie = ir.count.tie
        self.declares = ir.declares
        self.openers = tuple(c.name for c in ir.calls if c.opens)


class Game:
    """Compiled tables and closures for one spec + options; `new_match` starts a State."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.name = spec.name
        self.options = dict(spec.chosen)
        self.num_players = spec.table.players
        self.teams = spec.table.teams
        self.team_of = tuple(s % self.teams for s in range(self.num_players))
        self.target = spec.match.target
        self.hand_size = spec.deck.hand_size
        self.cards = Cards(spec.deck)
        self.views = turned_tables(self.cards, spec.ranking, spec.trumps)
        self.strength = {turned: view.strength for turned, view in self.views.items()}
        self.turns_card = spec.trumps is not None
        self.values: dict[str, HandValues] = hand_values(spec, self.cards, self.views)
        self.outcomes = outcome_table(spec)
        self.trick_count = spec.tricks.count
        self.after_tie = spec.tricks.after_tie
        self.partners_tie = spec.tricks.partners_tie
        self.answer_any = spec.table.answer == "any_opponent"

        stake_names = [c.name for c in spec.stakes.calls]
        contest_names = [c.name for cont in spec.contests for c in cont.calls]
        annul_names = [a.name for a in spec.annulments]
        signal_verb = [spec.signals.verb] if spec.signals else []
        self.call_names = set(stake_names) | set(contest_names)
        self._check_unique(stake_names + contest_names + annul_names + signal_verb)
        env = play_env(self.options, self.call_names, {c.name: i for i, c in enumerate(spec.contests)})

        def compile_(f: Formula) -> Fn:
            return compile_expr(f.expr, env, f.locate, f.span.path).fn

        self.cover = compile_(spec.tricks.cover) if spec.tricks.cover else None
        self.cover_counts = spec.tricks.cover_counts
        self.stake_names = tuple(stake_names)
        self.stake_base = compile_(spec.stakes.base)
        self.stake_worth = tuple(compile_(c.worth) for c in spec.stakes.calls)
        self.stake_declined = tuple(compile_(c.declined) for c in spec.stakes.calls)
        self.stake_when = compile_(spec.stakes.when)
        self.raise_any = spec.stakes.raise_by == "any"
        self.contests = tuple(CompiledContest(c, compile_, i) for i, c in enumerate(spec.contests))
        self.contest_of_call = {c: cont for cont in self.contests for c in cont.calls}
        self.compulsory = tuple(c for c in self.contests if c.declares and c.ir.declaration == "compulsory")
        self.fold_when = compile_(spec.fold.when)
        self.fold_pays = compile_(spec.fold.pays)
        self.fold_declines = spec.fold.pending_contest == "declined"
        self.special = tuple(
            (h, compile_(h.when), compile_(h.base) if h.base else None, compile_(h.blind) if h.blind else None)
            for h in spec.special_hands)
        self.annulments = tuple((a.name, hand_formula(spec, self.cards, self.views, a.holds), compile_(a.when),
                                 a.dealer)
                                for a in spec.annulments)
        self.signals = spec.signals
        self.aliases = dict(spec.verbs)
        self.verbs = frozenset(self.call_names | set(annul_names) | set(signal_verb) | set(COMMON_VERBS)
                               | set(CARD_VERBS) | set(spec.disabled_calls))
        vocabulary = self._vocabulary()
        self.actions = tuple(text for _, text in vocabulary)
        self.action_index = {a: i for i, a in enumerate(self.actions)}
        self.action_text = dict(vocabulary)
        self.parsed = {text: act for act, text in vocabulary if text.split()[0] not in self.aliases}

    def _check_unique(self, names: Sequence[str]) -> None:
        """Verbs name actions, so two mechanisms may not share one."""
        seen: set[str] = set()
        for n in names:
            if n in seen or n in COMMON_VERBS or n in CARD_VERBS:
                raise SpecError([Diagnostic("error", self.spec.stakes.span.loc, "$",
                                            f"the verb {n!r} is defined twice or clashes with a common verb")])
            seen.add(n)

    def _vocabulary(self) -> list[tuple[tuple[str, Any], str]]:
        """Every action as the engine's (verb, argument) and its text, in a fixed order: the
        stable integer ids bots use, and lookups so the hot path neither formats nor parses."""
        ids = self.cards.ids
        acts: list[tuple[tuple[str, Any], str]] = [(("play", c), f"play {card}") for c, card in enumerate(ids)]
        acts += [(("play_pos", i), f"play @{i + 1}") for i in range(self.hand_size)]
        if self.cover is not None:
            acts += [(("cover", c), f"cover {card}") for c, card in enumerate(ids)]
        calls = list(self.stake_names) + [c for cont in self.contests for c in cont.calls]
        acts += [(("call", name), name) for name in calls]
        acts += [(("annul", name), name) for name, *_ in self.annulments]
        acts += [((verb, None), verb) for verb in COMMON_VERBS]
        return acts

    # -- seats ------------------------------------------------------------------------

    def is_pie(self, mano: int, seat: int) -> bool:
        """The last seat of its team to play, in order from the mano."""
        n = self.num_players
        order = [(mano + k) % n for k in range(n)]
        last = [s for s in order if self.team_of[s] == self.team_of[seat]][-1]
        return last == seat

    def next_opponent(self, seat: int) -> int:
        n = self.num_players
        for k in range(1, n):
            s = (seat + k) % n
            if self.team_of[s] != self.team_of[seat]:
                return s
        raise AssertionError("a table always has an opponent")

    # -- matches ----------------------------------------------------------------------

    def new_match(self, seed: int | None = None, dealer: int | None = None,
                  deals: Sequence[Deal] | None = None, score: Sequence[int] | None = None) -> "State":
        """Start a match: the first hand is dealt at once (scripted deals come first)."""
        from interpreter.engine.state import State
        return State.start(self, seed, dealer, deals, score)

    def state_from_json(self, data: Mapping[str, Any]) -> "State":
        from interpreter.engine.state import State
        return State.from_json(self, data)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"Game({self.name!r}, {opts})"


_GAMES: dict[tuple, Game] = {}


def load_game(name_or_path: str, options: Mapping[str, object] | None = None, **more: object) -> Game:
    """A compiled game for a bundled spec name or a spec path; compiled once per options."""
    source = open_spec(name_or_path)
    chosen = source.resolve({**(options or {}), **more})
    key = (str(source.path), tuple(sorted(chosen.items())), id(source))
    game = _GAMES.get(key)
    if game is None:
        try:
            game = _GAMES[key] = Game(source.build(chosen))
        except SpecError as err:
            raise SpecError(relocate_all(err.diagnostics, source.tree, str(source.path))) from None
    return game


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """`NAME=VALUE` pairs from a command line, as load_game takes them."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise OptionError(f"an option is NAME=VALUE, not {pair!r}")
        out[key] = value
    return out
