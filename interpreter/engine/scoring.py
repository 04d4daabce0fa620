"""Points and the end of a match: what every mechanism that scores shares (tricks, stakes,
contests, folds), as functions of a `Match` and its `Rules`."""
from __future__ import annotations

from interpreter.engine.match import Match
from interpreter.engine.rules import Rules


def record_call(m: Match, name: str) -> None:
    m.called.add(name)
    m.calls_made += 1


def score(m: Match, r: Rules, team: int, points: int, reason: str) -> None:
    if points <= 0 or m.match_over:         # a formula's negative value pays nothing
        return
    m.score[team] += points
    m.events.append({"type": "score", "team": team, "points": points, "reason": reason,
                     "score": list(m.score)})
    if m.score[team] >= r.target and r.end_at_once:
        finish(m, team)


def reveal(m: Match) -> None:
    """Make public the cards the rules held back until the hand is over (`count.show`)."""
    m.events.extend(m.shows)
    m.shows = []


def finish(m: Match, team: int) -> None:
    reveal(m)                       # the hand is over too: "or at once when those points end the match"
    m.match_over = True
    m.hand_over = True
    m.winner = team
    m.pending = m.suspended = None
    m.count = None
    m.events.append({"type": "match_over", "winner": team, "score": list(m.score)})


def winner_at_hand_end(m: Match, r: Rules) -> int | None:
    """Under `match.end: end_of_hand`, the team that wins as the hand ends: the higher score at or
    past the target; at equal scores, the team whose points reached the target first. (Under
    `immediately` a team at the target has already won, in `score`, so none is found here.)"""
    best = max(m.score)
    if best < r.target:
        return None
    tied = [t for t, s in enumerate(m.score) if s == best]
    if len(tied) == 1:
        return tied[0]
    # every hand starts below the target (`State.start` refuses a score at it), so one of them
    # reached it in this hand
    deal = max(i for i, e in enumerate(m.events) if e["type"] == "deal")
    first: int = next(e["team"] for e in m.events[deal:]
                      if e["type"] == "score" and e["team"] in tied and e["score"][e["team"]] >= r.target)
    return first


def lose_match(m: Match, r: Rules, team: int) -> None:
    other = 1 - team
    m.score[other] = max(m.score[other], r.target)
    finish(m, other)
