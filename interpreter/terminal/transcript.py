"""A readable transcript of a bots' match, printed with rich as the events happen."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.rule import Rule

from interpreter.bots import BOTS
from interpreter.engine.game import Game
from interpreter.engine.state import State, turns
from interpreter.terminal.words import Words, standing, winner_first


def describe(event: dict[str, Any], game: Game, words: Words | None = None) -> str | None:
    """One line for one event (the full, omniscient view: a transcript shows every hand), cards
    as the spec's English labels print them."""
    words = words or Words(game)
    kind = event["type"]
    seat = event.get("seat")
    if kind == "hand":
        cards = " ".join(words.card(c) for c in event["cards"])
        return f"  seat {seat} (team {game.team_of[event['seat']]}) holds [bold]{cards}[/]"
    if kind == "action":
        if event["action"] in ("announce", "good"):
            return None                                 # the count's own event says it, once
        if event["action"] == "cover":
            return f"  seat {seat}: cover {words.card(event['card'])} (face down)" if "card" in event else None
        shown = f" ({words.card(event['card'])})" if "card" in event else ""
        verb, _, arg = event["action"].partition(" ")
        action = f"{verb} {words.card(arg)}" if verb == "play" and arg in game.cards.index else event["action"]
        return f"  seat {seat}: [cyan]{action}[/]{shown}"
    if kind == "accepted" and "worth" in event:
        return f"    → {event['call']} accepted: the hand is worth {event['worth']}"
    if kind == "announce":
        return f"    → seat {seat} announces {event['value']} for {event['contest']}"
    if kind == "good":
        return f"    → seat {seat}: {words.call('good').lower()}"
    if kind == "contest_won":
        return f"    → {event['contest']} goes to seat {seat} (team {event['team']}) with {event['value']}"
    if kind == "revealed":
        whole = " (the whole hand)" if event["whole_hand"] else ""
        return (f"    → seat {seat} shows the {event['contest']} {event['value']}: "
                f"[bold]{' '.join(words.card(c) for c in event['cards'])}[/]{whole}")
    if kind == "annulled":
        return f"    → seat {seat} annuls the deal ({event['by']})"
    if kind == "wiped":
        return f"    → {event['contest']} is wiped by {event['by']}"
    if kind == "contest_conceded":
        return f"    → {event['contest']} is conceded to team {event['team']} by the team that left"
    if kind == "forbidden":
        return f"    → seat {seat} called {event['call']}, forbidden in this hand: the team loses the match"
    if kind == "trick":
        won = "tied" if event["winner"] is None else f"won by seat {seat} (team {event['winner']})"
        return f"  [yellow]trick {event['number']} {won}[/]"
    if kind == "score":
        return (f"  [green]team {event['team']} scores {event['points']} ({event['reason']})[/] → "
                f"{standing(event['score'], event['team'])}")
    if kind == "hand_over":
        taken = "nobody scores" if event["winner"] is None else f"team {event['winner']} takes it"
        return f"  hand over: {taken}"
    if kind == "match_over":
        return f"[bold green]team {event['winner']} wins the match {winner_first(event['score'], event['winner'])}[/]"
    return None


def revealed(state: State) -> list[str]:
    """At the end of a hand, the cards of every seat that never saw its own hand (a hand
    played blind), now shown: the transcript sees every hand once it may be shown."""
    ids, words, out = state.game.cards.ids, Words(state.game), []
    deals = [i for i, e in enumerate(state.events) if e["type"] == "deal"]
    hand = state.events[deals[-1] if deals else 0:]
    shown = {e["seat"] for e in hand if e["type"] == "hand"}
    for seat, cards in enumerate(state.dealt):
        if seat not in shown and cards:
            held = " ".join(words.card(ids[c]) for c in cards)
            out.append(f"  seat {seat} (team {state.game.team_of[seat]}) held [bold]{held}[/], played blind")
    return out


def play_match(game: Game, seed: int | None, console: Console, max_hands: int | None = None,
               bot: str = "random", watch: Callable[[State], None] | None = None) -> State:
    """Bots play a match (or `max_hands` hands), printed as it goes; `watch(state)` is called
    after every step and once a hand is dealt (a recorder follows the match with it)."""
    state = game.new_match(seed=seed)
    bots = [BOTS[bot](None if seed is None else seed * 1000 + s) for s in range(game.num_players)]
    opts = ", ".join(f"{k}={v}" for k, v in game.options.items())
    console.print(Rule(f"{game.spec.title} — {opts}"))
    shown = 0
    words = Words(game)

    def flush() -> None:
        nonlocal shown
        for event in state.events[shown:]:
            if event["type"] == "deal":
                turned = f", turned card {words.card(event['turned'])}" if event["turned"] else ""
                special = f" [{', '.join(event['special'])}]" if event["special"] else ""
                playing = event.get("playing")
                fmt = f" — {event['format']}: seats {', '.join(map(str, playing))}" if playing else ""
                console.print(Rule(f"hand {event['hand']}: dealer seat {event['dealer']}, "
                                   f"mano seat {event['mano']}{turned}{special}{fmt}", style="dim"))
                continue
            if "except" in event:
                continue
            if event["type"] == "hand_over":
                for shown_line in revealed(state):
                    console.print(shown_line, highlight=False)
            line = describe(event, game, words)
            if line:
                console.print(line, highlight=False)
        shown = len(state.events)
        if watch is not None:
            watch(state)

    for seat in turns(state, max_hands):
        flush()
        state.apply(bots[seat].choose(state, seat), seat=seat)
    flush()
    return state
