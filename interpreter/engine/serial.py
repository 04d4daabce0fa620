"""Copies and JSON round trips of a match: every field `match.py` declares, the random generator
included, so a restored match continues exactly as the original would."""
from __future__ import annotations

import array
import base64
import random
from collections.abc import Mapping
from typing import Any

from interpreter.engine.match import Event, Match, names
from interpreter.engine.records import ContestState, Count, Deal, Pending
from interpreter.engine.rules import Rules

_PLAIN = names(plain=True)                      # stored in JSON as they are
# the rest, stored by the code below: every field of Match is either plain or named here
_STORED = {"plan", "rng", "script", "events", "dealt", "hands", "trick", "history", "pending", "suspended", "contests",
           "count", "called", "accepted"}
_DERIVED = {"strength", "_legal", "facts", "rng_shared"}   # from the turned card; a memo; the checker's; a copy's
assert set(names()) == set(_PLAIN) | _STORED | _DERIVED and not set(_PLAIN) & (_STORED | _DERIVED), \
    "serial.py must store every field declared in match.py"


def copy_into(st: Match, new: Match, within_hand: bool = False) -> None:
    """Make `new` an independent copy of `st`, field by field (a test ties this list to the
    declarations): what is never changed in place (card codes, tuples, logged events, the
    rules' tables) is shared, the rest is copied one level at a time, which is several times
    faster than a deep copy for search and bots. The generator is shared until either copy
    deals (`Match.generator`). `within_hand` copies for a search that never deals, at every
    step of the checker's walk: the log starts empty, the memo of legal actions is shared, and
    so are the lists only a deal replaces (the seats, the cards dealt, the special hands, the
    script and the plan) and what the engine replaces rather than changes in place: each
    seat's cards held (`State._play`), the tricks done and the waiting calls; and the checker's
    abstract deal, which the engine only asks (the checker answers and forgets on a copy)."""
    new.seed = st.seed
    new.rng = st.rng
    new.rng_shared = st.rng_shared = True
    new.script = st.script if within_hand else list(st.script)
    new.score = list(st.score)
    new.dealer = st.dealer
    new.hand_number = st.hand_number
    new.match_over = st.match_over
    new.winner = st.winner
    new.plan = st.plan if within_hand else list(st.plan)
    new.hand_over = st.hand_over
    new.hand_format = st.hand_format
    new.mano = st.mano
    new.turn = st.turn
    new.leader = st.leader
    new.trick_no = st.trick_no
    new.played = list(st.played)
    new.stake_level = st.stake_level
    new.worth = st.worth
    new.base_worth = st.base_worth
    new.stake_owner = st.stake_owner
    new.stake_calls = st.stake_calls
    new.turned = st.turned
    new.blind = st.blind
    new.forbid = st.forbid
    new.results = list(st.results)
    new.calls_made = st.calls_made
    new.redeal_same = st.redeal_same
    new.shows = list(st.shows)
    new.events = [] if within_hand else list(st.events)
    new.seats = st.seats if within_hand else list(st.seats)
    new.special = st.special if within_hand else list(st.special)
    new.dealt = st.dealt if within_hand else list(st.dealt)
    new._legal = st._legal if within_hand else None
    new.hands = list(st.hands) if within_hand else [list(h) for h in st.hands]
    new.trick = list(st.trick)
    new.history = list(st.history) if within_hand else [list(t) for t in st.history]
    new.pending = st.pending if within_hand else _copy_pending(st.pending)
    new.suspended = st.suspended if within_hand else _copy_pending(st.suspended)
    new.contests = [ContestState(c.status, list(c.chain), list(c.declared)) for c in st.contests]
    c = st.count
    new.count = None if c is None else Count(c.contest, list(c.order), c.index, c.best_seat, c.best_value,
                                             list(c.announced))
    new.called = set(st.called)
    new.accepted = set(st.accepted)
    new.strength = st.strength
    new.facts = st.facts if within_hand or st.facts is None else st.facts.copy()


def _copy_pending(p: Pending | None) -> Pending | None:
    return None if p is None else Pending(p.call, p.caller, p.answerer, p.answer_team, p.contest, p.step)


def to_json(st: Match, game: Rules) -> dict[str, Any]:
    data: dict[str, Any] = {k: _plain(getattr(st, k)) for k in _PLAIN}
    data["spec"] = game.name
    data["options"] = dict(game.options)
    data["rng"] = _rng_state(st.rng)
    data["plan"] = [[name, list(seats)] for name, seats in st.plan]
    data["script"] = [{"hands": [list(h) for h in d.hands], "turned": d.turned} for d in st.script]
    data["events"] = [_event(e) for e in st.events]
    data["dealt"] = [list(h) for h in st.dealt]
    data["hands"] = [list(h) for h in st.hands]
    data["trick"] = [list(t) for t in st.trick]
    data["history"] = [[list(t) for t in trick] for trick in st.history]
    data["pending"] = _pending(st.pending)
    data["suspended"] = _pending(st.suspended)
    data["contests"] = [{"status": c.status, "chain": [list(x) for x in c.chain], "declared": list(c.declared)}
                        for c in st.contests]
    data["count"] = None if st.count is None else {
        "contest": st.count.contest, "order": list(st.count.order), "index": st.count.index,
        "best_seat": st.count.best_seat, "best_value": st.count.best_value,
        "announced": [list(a) for a in st.count.announced]}
    data["called"] = sorted(st.called)
    data["accepted"] = sorted(st.accepted)
    return data


def fill(st: Match, game: Rules, data: Mapping[str, Any]) -> None:
    """Set every field of `st` but the generator (`rng_from_json`) from `to_json`'s output."""
    for k in _PLAIN:
        setattr(st, k, _plain(data[k]))
    st.plan = [(name, list(seats)) for name, seats in data.get("plan", [])]
    st.script = [Deal(tuple(tuple(h) for h in d["hands"]), d["turned"]) for d in data["script"]]
    st.events = [_event(e) for e in data["events"]]
    st.dealt = [tuple(h) for h in data["dealt"]]
    st.hands = [list(h) for h in data["hands"]]
    st.trick = [(t[0], t[1], t[2]) for t in data["trick"]]
    st.history = [[(t[0], t[1], t[2]) for t in trick] for trick in data["history"]]
    st.pending = _unpending(data["pending"])
    st.suspended = _unpending(data["suspended"])
    st.contests = [ContestState(c["status"], [(x[0], x[1]) for x in c["chain"]], list(c["declared"]))
                   for c in data["contests"]]
    c = data["count"]
    st.count = None if c is None else Count(c["contest"], list(c["order"]), c["index"], c["best_seat"],
                                            c["best_value"], [(a[0], a[1]) for a in c["announced"]])
    st.called = set(data["called"])
    st.accepted = set(data["accepted"])
    st.strength = game.strength[st.turned]
    st._legal = None


def _plain(value: Any) -> Any:
    """A copy of a field stored as it is: a number, text, None, or lists and events of them."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return _event(value)
    return value


def _event(e: Mapping[str, Any]) -> Event:
    """A logged event's copy: its values are numbers, text, None or flat lists."""
    return {k: list(v) if isinstance(v, list) else v for k, v in e.items()}


def _pending(p: Pending | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {"call": p.call, "caller": p.caller, "answerer": p.answerer, "answer_team": p.answer_team,
            "contest": p.contest, "step": p.step}


def _unpending(d: dict[str, Any] | None) -> Pending | None:
    if d is None:
        return None
    return Pending(d["call"], d["caller"], d["answerer"], d["answer_team"], d["contest"], d["step"])


def _rng_state(rng: random.Random) -> list[Any]:
    """The generator's 625 words as one base64 string: most of a state's JSON otherwise."""
    version, internal, gauss = rng.getstate()
    return [version, base64.b64encode(array.array("L", internal).tobytes()).decode("ascii"), gauss]


def rng_from_json(data: list[Any]) -> random.Random:
    """The generator `_rng_state` stored."""
    words = array.array("L")
    words.frombytes(base64.b64decode(data[1]))
    rng = random.Random(0)          # any seed: its state is replaced at once
    rng.setstate((data[0], tuple(words), data[2]))
    return rng
