"""What a seat may see: its observation and the events as shown to it.

Another seat's unplayed cards and the faces of covered cards never leave the state through
these functions; the server and the web board are built on them.
"""
from __future__ import annotations

from typing import Any

from interpreter.engine import legal
from interpreter.engine.match import Match
from interpreter.engine.rules import Rules
from interpreter.engine.tables import TIE


def visible_events(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Events `seat` may see (None: a spectator, who sees only public events)."""
    out = []
    for e in events:
        if "only" in e and e["only"] != seat:
            continue
        if "seats" in e and seat not in e["seats"]:
            continue
        if "except" in e and e["except"] == seat:
            continue
        out.append({k: v for k, v in e.items() if k not in ("only", "except", "seats")})
    return out


def observation(st: Match, g: Rules, seat: int) -> dict[str, Any]:
    """The match as `seat` sees it: JSON-ready, with nothing that seat may not know."""
    ids = g.cards.ids

    def shown(s: int, c: int, covered: bool) -> dict[str, Any]:
        return {"seat": s, "card": ids[c] if not covered or s == seat else None, "covered": covered}

    own = None if st.blind else [ids[c] for c in st.dealt[seat] if c in st.hands[seat]]
    to_act = st.current_player()
    p = st.pending
    values = {}
    if not st.blind and seat in st.seats:
        for name, table in g.values.items():
            values[name] = table(st.dealt[seat], st.turned)
    return {
        "spec": g.name,
        "options": dict(g.options),
        "seat": seat,
        "team": g.team_of[seat],
        "players": g.num_players,
        "hand_number": st.hand_number,
        "dealer": st.dealer,
        "mano": st.mano,
        "playing": list(st.seats),
        "score": list(st.score),
        "target": g.target,
        "hand": own,
        "hand_size": len(st.hands[seat]),
        "hand_sizes": [len(h) for h in st.hands],
        "values": values,
        "turned": ids[st.turned] if st.turned is not None else None,
        "special": list(st.special),
        "blind": st.blind,
        "trick": st.trick_no + 1,
        "tricks": ["tie" if r == TIE else r for r in st.results],
        "table": [[shown(s, c, cov) for s, c, cov in t] for t in st.history + ([st.trick] if st.trick else [])],
        "hand_worth": st.worth,
        "pending": None if p is None else {"call": p.call, "by": p.caller, "answerer": p.answerer},
        "count": None if st.count is None else {
            "contest": g.contests[st.count.contest].name,
            "announced": [{"seat": s, "value": v} for s, v in st.count.announced],
            "next": st.count.seat,
        },
        "to_act": to_act,
        "legal": list(legal.texts(st, g, seat)),
        "hand_over": st.hand_over,
        "match_over": st.match_over,
        "winner": st.winner,
    }
