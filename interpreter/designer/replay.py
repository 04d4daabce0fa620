"""`truco replay`: run conformance case files (the format of docs/conformance.md) against specs.

A file is first checked as a whole (spec, options, cards, actions, expectation keys); an
invalid file is reported with file:line and skipped, the others still run. A case fails at
its first mismatch, reported with the step, what was expected and what happened.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulespec.errors import IllegalAction, OptionError, SpecError, SpecNotFound, TrucoError
from rulespec.yamlload import Located, load_yaml, load_yaml_file

from interpreter.engine.game import Deal, Game, load_game
from interpreter.engine.state import State

EXPECT_KEYS = ("score", "to_act", "legal", "legal_includes", "legal_excludes", "hand_over", "match_over",
               "winner", "hand_worth", "tricks")
CASE_KEYS = ("name", "options", "score", "dealer", "hands", "vira", "deals", "actions", "beats", "ties",
             "source", "note", "mid_hand")
FILE_KEYS = ("spec", "source", "options", "cases", "note")
REJECT_KEYS = ("reject", "because")


class InvalidCase(TrucoError):
    """A case file that cannot be run: what is wrong and where."""

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}")


class Mismatch(Exception):
    """The first expectation a case failed."""

    def __init__(self, step: int, message: str) -> None:
        self.step = step
        self.message = message
        super().__init__(message)


@dataclass
class Refusal:
    """One `reject:` step as it ran: the action, the seat that was to act, the reason given."""

    step: int
    seat: int
    action: str
    to_act: int | None
    reason: str
    because: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"step": self.step, "seat": self.seat, "action": self.action, "to_act": self.to_act,
                "reason": self.reason, "because": self.because}


@dataclass
class CaseResult:
    file: str
    name: str
    passed: bool
    step: int | None = None
    message: str | None = None
    refusals: list[Refusal] = field(default_factory=list)
    final: State | None = field(default=None, repr=False, compare=False)   # the state after the last step

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "name": self.name, "passed": self.passed, "step": self.step,
                "message": self.message, "refusals": [r.as_dict() for r in self.refusals]}


@dataclass
class Report:
    cases: list[CaseResult] = field(default_factory=list)
    invalid: list[InvalidCase] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(c.passed for c in self.cases)

    @property
    def failed(self) -> int:
        return sum(not c.passed for c in self.cases)

    @property
    def exit_code(self) -> int:
        if self.invalid:
            return 2
        return 1 if self.failed else 0

    def as_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "failed": self.failed, "cases": [c.as_dict() for c in self.cases],
                "invalid": [{"file": e.where, "message": e.message} for e in self.invalid]}


def case_files(paths: Iterable[str | Path]) -> list[Path]:
    """The files named, and every *.yaml under the folders named, in a stable order."""
    out: list[Path] = []
    for p in map(Path, paths):
        out.extend(sorted(p.rglob("*.yaml")) if p.is_dir() else [p])
    return out


def deal_case(deal: Deal) -> dict[str, Any]:
    """A deal as a case file writes it: the hands, and the turned card under its key."""
    out: dict[str, Any] = {"hands": [list(h) for h in deal.hands]}
    if deal.turned is not None:
        out["vira"] = deal.turned
    return out


def replay(paths: Iterable[str | Path]) -> Report:
    report = Report()
    for path in case_files(paths):
        try:
            report.cases.extend(run_file(path))
        except InvalidCase as err:
            report.invalid.append(err)
    return report


# -- validation ---------------------------------------------------------------------------


class CaseFile:
    """A parsed case file with positions, so every complaint names file:line."""

    def __init__(self, path: Path, text: str | None = None) -> None:
        """`text`, when given, is the file's content (an editor's unsaved buffer)."""
        self.path = path
        try:
            self.tree: Located = load_yaml_file(path) if text is None else load_yaml(text, str(path))
        except SpecError as err:
            d = err.diagnostics[0]
            raise InvalidCase(str(d.loc or path), d.message) from None
        except SpecNotFound as err:
            raise InvalidCase(str(path), str(err)) from None
        except (TrucoError, OSError) as err:
            raise InvalidCase(str(path), f"cannot read the file: {err}") from None
        self.data = self.tree.data

    def where(self, *path: str | int) -> str:
        loc = self.tree.loc(tuple(path))
        return f"{self.path}:{loc.line}" if loc else str(self.path)

    def fail(self, path: tuple[str | int, ...], message: str) -> InvalidCase:
        return InvalidCase(self.where(*path), message)


def _game_for(cf: CaseFile, options: dict[str, Any], path: tuple[str | int, ...]) -> Game:
    spec = cf.data.get("spec")
    if not isinstance(spec, str):
        raise cf.fail(("spec",), "a case file needs 'spec:' (a spec name or a path)")
    relative = cf.path.parent / spec
    name: str | Path = relative if relative.suffix in (".yaml", ".yml") and relative.is_file() else spec
    try:
        return load_game(str(name), options)
    except (SpecNotFound, OptionError) as err:
        raise cf.fail(path, str(err)) from None
    except SpecError as err:
        raise cf.fail(("spec",), f"the spec does not load: {err.diagnostics[0]}") from None


def _check_keys(cf: CaseFile, node: Any, allowed: tuple[str, ...], path: tuple[str | int, ...], what: str) -> None:
    if not isinstance(node, dict):
        raise cf.fail(path, f"{what} must be a mapping")
    for key in node:
        if key not in allowed:
            raise cf.fail(path + (key,), f"unknown key {key!r} in {what}; allowed: {', '.join(allowed)}")


def _cards(cf: CaseFile, game: Game, cards: Any, path: tuple[str | int, ...]) -> list[str]:
    if not isinstance(cards, list):
        raise cf.fail(path, "expected a list of cards")
    out = []
    for i, c in enumerate(cards):
        c = str(c)
        if c not in game.cards.index:
            raise cf.fail(path + (i,), f"{c!r} is not a card of {game.name}'s deck")
        out.append(c)
    return out


def _deal(cf: CaseFile, game: Game, node: dict[str, Any], path: tuple[str | int, ...], vira: Any) -> Deal:
    if not isinstance(node, dict):
        raise cf.fail(path, "a deal is a mapping {hands: ..., vira: ...}")
    hands = node.get("hands")
    if not isinstance(hands, list) or len(hands) != game.num_players:
        raise cf.fail(path + ("hands",), f"give one hand per seat: {game.num_players} hands")
    parsed = [tuple(_cards(cf, game, h, path + ("hands", i))) for i, h in enumerate(hands)]
    seen: set[str] = set()
    for i, h in enumerate(parsed):
        if len(h) not in (game.hand_size, 0):
            raise cf.fail(path + ("hands", i), f"a hand holds {game.hand_size} cards (none for a seat that "
                                               f"does not play the hand), not {len(h)}")
        for c in h:
            if c in seen:
                raise cf.fail(path + ("hands", i), f"card {c} is dealt twice")
            seen.add(c)
    turned = node.get("vira", vira)
    if turned is not None:
        turned = _cards(cf, game, [turned], path + ("vira",))[0]
        if not game.turns_card:
            turned = None        # the spec turns no card: a vira is only a remark
        elif turned in seen:
            raise cf.fail(path + ("vira",), f"the vira {turned} is also dealt to a seat")
    return Deal(tuple(parsed), turned)


# -- running ------------------------------------------------------------------------------


def run_file(path: Path, text: str | None = None) -> list[CaseResult]:
    cf = CaseFile(path, text)
    _check_keys(cf, cf.data, FILE_KEYS, (), "a case file")
    cases = cf.data.get("cases")
    if not isinstance(cases, list) or not cases:
        raise cf.fail(("cases",), "a case file needs a non-empty list 'cases:'")
    file_options = cf.data.get("options") or {}
    prepared = []
    for i, case in enumerate(cases):
        p: tuple[str | int, ...] = ("cases", i)
        _check_keys(cf, case, CASE_KEYS + FACTS, p, "a case")
        options = {**file_options, **(case.get("options") or {})}
        game = _game_for(cf, options, p + ("options",) if case.get("options") else ("options",))
        prepared.append((case, game, p, _prepare(cf, game, case, p)))
    results = []
    for case, _game, p, plan in prepared:
        name = str(case.get("name", f"case {int(p[1]) + 1}"))
        refusals: list[Refusal] = []
        try:
            final = plan(refusals)
            results.append(CaseResult(str(path), name, True, refusals=refusals, final=final))
        except Mismatch as m:
            results.append(CaseResult(str(path), name, False, m.step, m.message, refusals))
    return results


FACTS = ("envido_of", "flor_of", "value_of")


def _prepare(cf: CaseFile, game: Game, case: dict[str, Any], p: tuple[str | int, ...]):
    """Validate one case completely and return a thunk that runs it."""
    vira = case.get("vira")
    turned = None
    if vira is not None:
        card = game.cards.index[_cards(cf, game, [vira], p + ("vira",))[0]]
        turned = card if game.turns_card else None      # a vira is only a remark where none is turned
    checks = []
    for key in FACTS:
        if key in case:
            checks.append(_fact_value(cf, game, case[key], p + (key,), key, turned))
    for key in ("beats", "ties"):
        if key in case:
            checks.append(_fact_order(cf, game, case[key], p + (key,), key, turned))
    play = _play_plan(cf, game, case, p) if "actions" in case or "hands" in case or "deals" in case else None
    if not checks and play is None:
        raise cf.fail(p, "a case needs actions (with hands or deals) or facts (beats, ties, envido_of, flor_of)")

    def run(refusals: list[Refusal]) -> State | None:
        for check in checks:
            check()
        return play(refusals) if play is not None else None
    return run


def _fact_value(cf: CaseFile, game: Game, node: Any, p: tuple[str | int, ...], key: str, turned: int | None):
    _check_keys(cf, node, ("hand", "value", "name"), p, key)
    name = node.get("name") if key == "value_of" else key[: -len("_of")]
    if name not in game.values:
        raise cf.fail(p, f"spec {game.name} has no hand value {name!r}; it has {', '.join(game.values)}")
    hand = [game.cards.index[c] for c in _cards(cf, game, node.get("hand"), p + ("hand",))]
    if len(set(hand)) != len(hand):
        raise cf.fail(p + ("hand",), "a card appears twice in the hand")
    expected = node.get("value")

    def check() -> None:
        got = game.values[name](hand, turned)
        if got != expected:
            cards = " ".join(game.cards.ids[c] for c in hand)
            raise Mismatch(0, f"{name} of {cards}: expected {expected}, got {got}")
    return check


def _fact_order(cf: CaseFile, game: Game, node: Any, p: tuple[str | int, ...], key: str, turned: int | None):
    if not isinstance(node, list):
        raise cf.fail(p, f"{key} is a list of card pairs")
    pairs = []
    for i, pair in enumerate(node):
        cards = _cards(cf, game, pair, p + (i,))
        if len(cards) != 2 or cards[0] == cards[1]:
            raise cf.fail(p + (i,), "each pair names two different cards")
        pairs.append((game.cards.index[cards[0]], game.cards.index[cards[1]]))
    if game.turns_card and turned is None:
        raise cf.fail(p, f"spec {game.name} turns a card: give the case a vira")
    row = game.strength[turned]

    def check() -> None:
        for a, b in pairs:
            ids = game.cards.ids
            if key == "beats" and not row[a] > row[b]:
                raise Mismatch(0, f"{ids[a]} should beat {ids[b]}")
            if key == "ties" and row[a] != row[b]:
                raise Mismatch(0, f"{ids[a]} and {ids[b]} should tie")
    return check


def _play_plan(cf: CaseFile, game: Game, case: dict[str, Any], p: tuple[str | int, ...]):
    if "deals" in case:
        if not isinstance(case["deals"], list) or not case["deals"]:
            raise cf.fail(p + ("deals",), "deals is a non-empty list of {hands, vira}")
        deals = [_deal(cf, game, d, p + ("deals", i), case.get("vira")) for i, d in enumerate(case["deals"])]
    elif "hands" in case:
        deals = [_deal(cf, game, case, p, None)]
    else:
        raise cf.fail(p, "a case with actions needs hands: or deals:")
    dealer = case.get("dealer")
    if dealer is not None and (not isinstance(dealer, int) or not 0 <= dealer < game.num_players):
        raise cf.fail(p + ("dealer",), f"dealer must be a seat 0..{game.num_players - 1}")
    score = case.get("score")
    problem = None if score is None else game.score_problem(score)
    if problem is not None:
        raise cf.fail(p + ("score",), problem)
    steps = [_step(cf, game, s, p + ("actions", i)) for i, s in enumerate(case.get("actions") or [])]

    def run(refusals: list[Refusal]) -> State:
        st = game.new_match(seed=0, dealer=dealer, deals=deals, score=score)
        for number, step in enumerate(steps, start=1):
            refused = step(st, number)
            if isinstance(refused, Refusal):
                refusals.append(refused)
        return st
    return run


def _parse_action(cf: CaseFile, game: Game, text: Any, p: tuple[str | int, ...]) -> tuple[int, str]:
    words = str(text).split(maxsplit=1)
    if len(words) != 2 or not words[0].lstrip("-").isdigit():
        raise cf.fail(p, f"an action is '<seat> <verb> [<argument>]', not {text!r}")
    seat = int(words[0])
    if not 0 <= seat < game.num_players:
        raise cf.fail(p, f"there is no seat {seat} at a table of {game.num_players}")
    verb = words[1].split()[0]
    verb = game.aliases.get(verb, verb)
    if verb not in game.verbs:
        raise cf.fail(p, f"spec {game.name} has no verb {verb!r}")
    return seat, words[1]


def _step(cf: CaseFile, game: Game, node: Any, p: tuple[str | int, ...]):
    if isinstance(node, dict) and "expect" in node:
        _check_keys(cf, node["expect"], EXPECT_KEYS, p + ("expect",), "expect")
        expect = node["expect"]
        return lambda st, n: _expect(st, n, expect)
    if isinstance(node, dict) and "reject" in node:
        _check_keys(cf, node, REJECT_KEYS, p, "a reject step")
        seat, action = _parse_action(cf, game, node["reject"], p + ("reject",))
        because = node.get("because")
        if "because" in node and (not isinstance(because, str) or not because.strip()):
            raise cf.fail(p + ("because",), "because: is the text the refusal's reason must contain")
        return lambda st, n: _reject(st, n, seat, action, because)
    if isinstance(node, dict):
        raise cf.fail(p, "a step is an action string, {expect: ...} or {reject: ..., because: ...}")
    seat, action = _parse_action(cf, game, node, p)
    return lambda st, n: _act(st, n, seat, action)


def _ready(st: State) -> None:
    """Between deals of a multi-deal case, deal the next hand when play goes on."""
    if st.hand_over and not st.match_over and st.script:
        st.next_hand()


def _act(st: State, n: int, seat: int, action: str) -> None:
    _ready(st)
    try:
        st.apply(action, seat=seat)
    except IllegalAction as err:
        raise Mismatch(n, f"action '{seat} {action}' was refused: {err.reason}") from None


def _reject(st: State, n: int, seat: int, action: str, because: str | None = None) -> Refusal:
    _ready(st)
    before = st.to_json()
    to_act = st.current_player()
    try:
        st.apply(action, seat=seat)
    except IllegalAction as err:
        if not err.reason:
            raise Mismatch(n, f"'{seat} {action}' was refused without a reason") from None
        if st.to_json() != before:
            raise Mismatch(n, f"refusing '{seat} {action}' changed the state") from None
        if because is not None and because.casefold() not in err.reason.casefold():
            raise Mismatch(n, f"reject: '{seat} {action}' was refused, but not because {because!r}; "
                              f"the reason given: {err.reason!r}") from None
        return Refusal(n, seat, action, to_act, err.reason, because)
    raise Mismatch(n, f"reject: expected '{seat} {action}' to be refused, but it was accepted")


def _canonical(st: State, actions: Iterable[str]) -> set[str]:
    out = set()
    for a in actions:
        words = str(a).split()
        if words:
            words[0] = st.game.aliases.get(words[0], words[0])
        out.add(" ".join(words))
    return out


def _expect(st: State, n: int, expect: dict[str, Any]) -> None:
    got: dict[str, Any] = {
        "score": lambda: list(st.score),
        "to_act": st.current_player,
        "hand_over": lambda: st.hand_over,
        "match_over": lambda: st.match_over,
        "winner": lambda: st.winner,
        "hand_worth": lambda: st.hand_worth,
        "tricks": lambda: st.tricks,
    }
    for key, want in expect.items():
        if key in got:
            have = got[key]()
            if have != want:
                raise Mismatch(n, f"{key}: expected {_show(want)}, got {_show(have)}")
            continue
        legal = set(st.legal_actions())
        wanted = _canonical(st, want or [])
        if key == "legal" and wanted != legal:
            extra, missing = sorted(legal - wanted), sorted(wanted - legal)
            raise Mismatch(n, f"legal: expected {sorted(wanted)}, got {sorted(legal)} "
                              f"(unexpected {extra}, missing {missing})")
        if key == "legal_includes" and not wanted <= legal:
            raise Mismatch(n, f"legal_includes: {sorted(wanted - legal)} not legal; legal: {sorted(legal)}")
        if key == "legal_excludes" and wanted & legal:
            raise Mismatch(n, f"legal_excludes: {sorted(wanted & legal)} legal; legal: {sorted(legal)}")


def _show(value: Any) -> str:
    return "null" if value is None else str(value).replace("'", "")
