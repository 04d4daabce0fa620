"""Copies and JSON round trips of a match: every field `match.py` declares, the random generator
included, so a restored match continues exactly as the original would."""
from __future__ import annotations

import array
import base64
import copy
import random
from collections.abc import Mapping
from typing import Any

from interpreter.engine.match import LIST, LISTS, RECORD, SET, Match, names
from interpreter.engine.records import ContestState, Count, Deal, Pending
from interpreter.engine.rules import Rules

_PLAIN = names(plain=True)                      # stored in JSON as they are
_LISTS, _NESTED, _SETS, _RECORDS = names(LIST), names(LISTS), names(SET), names(RECORD)
# the rest, stored by the code below: every field of Match is either plain or named here
_STORED = {"plan", "rng", "script", "events", "dealt", "hands", "trick", "history", "pending", "suspended", "contests",
           "count", "called", "accepted"}
_DERIVED = {"strength", "_legal", "facts"}      # rebuilt from the turned card; a memo; the checker's own
assert set(names()) == set(_PLAIN) | _STORED | _DERIVED and not set(_PLAIN) & (_STORED | _DERIVED), \
    "serial.py must store every field declared in match.py"


def copy_into(st: Match, new: Match, within_hand: bool = False) -> None:
    """Make `new` an independent copy of `st`, field by field: what is never mutated in place
    (the game, card codes, tuples, logged events) is shared, the rest is copied one level at a
    time, which is several times faster than a deep copy for search and bots. `within_hand`
    copies for a search that never deals: the generator is shared and the log starts empty."""
    d = new.__dict__
    d.update(st.__dict__)                       # ints, strings, tuples, the game: shared as they are
    for k in _LISTS:
        d[k] = [] if within_hand and k == "events" else list(getattr(st, k))
    for k in _NESTED:
        d[k] = [list(x) for x in getattr(st, k)]
    for k in _SETS:
        d[k] = set(getattr(st, k))
    for k in _RECORDS:
        d[k] = copy.copy(getattr(st, k))
    d["contests"] = [ContestState(c.status, list(c.chain), list(c.declared)) for c in st.contests]
    c = st.count
    d["count"] = None if c is None else Count(c.contest, list(c.order), c.index, c.best_seat, c.best_value,
                                              list(c.announced))
    d["facts"] = None if st.facts is None else st.facts.copy()
    if not within_hand:                         # a search shares the memo of legal actions too
        d["_legal"] = None
        d["rng"] = random.Random()
        d["rng"].setstate(st.rng.getstate())


def to_json(st: Match, game: Rules) -> dict[str, Any]:
    data: dict[str, Any] = {k: copy.deepcopy(getattr(st, k)) for k in _PLAIN}
    data["spec"] = game.name
    data["options"] = dict(game.options)
    data["rng"] = _rng_state(st.rng)
    data["plan"] = [[name, list(seats)] for name, seats in st.plan]
    data["script"] = [{"hands": [list(h) for h in d.hands], "turned": d.turned} for d in st.script]
    data["events"] = [{k: list(v) if isinstance(v, list) else v for k, v in e.items()} for e in st.events]
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
    """Set every field of `st` from `to_json`'s output."""
    for k in _PLAIN:
        setattr(st, k, copy.deepcopy(data[k]))
    st.rng.setstate(_rng_restore(data["rng"]))
    st.plan = [(name, list(seats)) for name, seats in data.get("plan", [])]
    st.script = [Deal(tuple(tuple(h) for h in d["hands"]), d["turned"]) for d in data["script"]]
    st.events = [{k: list(v) if isinstance(v, list) else v for k, v in e.items()} for e in data["events"]]
    st.dealt = [tuple(h) for h in data["dealt"]]
    st.hands = [list(h) for h in data["hands"]]
    st.trick = [tuple(t) for t in data["trick"]]
    st.history = [[tuple(t) for t in trick] for trick in data["history"]]
    st.pending = _unpending(data["pending"])
    st.suspended = _unpending(data["suspended"])
    st.contests = [ContestState(c["status"], [tuple(x) for x in c["chain"]], list(c["declared"]))
                   for c in data["contests"]]
    c = data["count"]
    st.count = None if c is None else Count(c["contest"], list(c["order"]), c["index"], c["best_seat"],
                                            c["best_value"], [tuple(a) for a in c["announced"]])
    st.called = set(data["called"])
    st.accepted = set(data["accepted"])
    st.strength = game.strength[st.turned]
    st._legal = None


def _pending(p: Pending | None) -> dict[str, Any] | None:
    return None if p is None else dict(p.__dict__)


def _unpending(d: dict[str, Any] | None) -> Pending | None:
    return None if d is None else Pending(**d)


def _rng_state(rng: random.Random) -> list[Any]:
    """The generator's 625 words as one base64 string: most of a state's JSON otherwise."""
    version, internal, gauss = rng.getstate()
    return [version, base64.b64encode(array.array("L", internal).tobytes()).decode("ascii"), gauss]


def _rng_restore(data: list[Any]) -> tuple[Any, ...]:
    words = array.array("L")
    words.frombytes(base64.b64decode(data[1]))
    return (data[0], tuple(words), data[2])
