"""The terminal board: one human seat against bots, drawn with rich, answered at a prompt.

It shows only what the human's seat may see (`observation` and `visible_events` of that
seat): the own hand and its values, the table, the tricks as Us/Them/Tie, the score, the
call waiting for an answer, the count dialogue, and the legal actions numbered. Input comes
from a function (the console's by default), so tests feed it programmatically.
"""
from __future__ import annotations

import difflib
import sys
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from interpreter.bots import Bot
from interpreter.engine.game import Deal, Game
from interpreter.engine.state import State, turns
from interpreter.terminal.words import Words, winner_first

QUIT = ("q", "quit", "exit")


class TerminalBoard:
    """A match seen from seat `human`; the other seats are played by `bots`."""

    def __init__(self, game: Game, human: int, bots: Sequence[Bot | None], console: Console,
                 ask: Callable[[str], str] | None = None, seed: int | None = None,
                 deals: Sequence[Deal] | None = None, verbose: bool = False) -> None:
        if not 0 <= human < game.num_players:
            raise ValueError(f"there is no seat {human}: seats run 0..{game.num_players - 1}")
        if any(bots[s] is None for s in range(game.num_players) if s != human):
            raise ValueError("every seat but the human's needs a bot")
        self.game = game
        self.human = human
        self.bots = bots
        self.console = console
        self.ask = ask or _line_editor(console)
        self.state = game.new_match(seed=seed, deals=deals)
        self._shown = 0
        self._dealt: list[str] = []             # the human's cards as dealt: their numbers stay
        self.words = Words(game)
        self.verbs = {a.split(" ", 1)[0] for a in game.actions}      # every verb the spec has
        if game.signals is not None:
            self.verbs.add(game.signals.verb)
        self.interrupted = False                # left with Ctrl-C (the command exits 130), not with q
        self.verbose = verbose                  # a refusal also shows its rule's condition and DSL text

    def label(self, action: str) -> str:
        """An action in the spec's English display words: a call's label, a card as printed."""
        return self.words.action(action)

    # -- words ---------------------------------------------------------------------------

    def who(self, seat: int) -> str:
        if seat == self.human:
            return "You"
        partner = self.game.team_of[seat] == self.game.team_of[self.human]
        return f"Seat {seat}{' (partner)' if partner else ''}"

    def side(self, team: int | None) -> str:
        if team is None:
            return "nobody"
        return "Us" if team == self.game.team_of[self.human] else "Them"

    def duel(self, format_name: str, playing: Sequence[int]) -> str:
        """A hand only some seats play (a schedule's format): who faces whom, and whether the
        human sits it out, so the bots' moves that follow are not taken for the human's turn."""
        name = format_name.replace("_", " ")
        pair = " against ".join(self.who(s) for s in playing)
        out = "" if self.human in playing else "; you sit this hand out"
        return f"  [magenta]{name}: {pair}{out}[/]"

    def narrate(self, event: dict[str, Any]) -> str | None:
        """One line for an event the human may see."""
        kind = event["type"]
        if kind == "hand" and event.get("seat", self.human) == self.human:
            self._dealt = list(event["cards"])
            return None
        if kind == "deal":
            turned = f", turned card {self.words.card(event['turned'])}" if event["turned"] else ""
            line = f"[bold]— hand {event['hand']}: {self.who(event['dealer'])} dealt{turned} —[/]"
            playing = event.get("playing")
            if playing and len(playing) < self.game.num_players:
                line += "\n" + self.duel(event.get("format", ""), playing)
            return line
        if kind == "action" and event["action"] in ("announce", "good"):
            return None                                # the count's own events say it
        if kind == "action":
            what = "a card face down" if event.get("hidden") else self.label(event["action"])
            return f"{self.who(event['seat'])}: [cyan]{what}[/]"
        if kind == "announce":
            return f"    {self.who(event['seat'])} → {event['value']} ({self.words.call(event['contest'])})"
        if kind == "good":
            return f"    {self.who(event['seat'])} → {self.words.call('good')}"
        if kind == "contest_won":
            return f"    {self.words.call(event['contest'])} to {self.side(event['team'])} with {event['value']}"
        if kind == "contest_conceded":
            return f"    {self.words.call(event['contest'])} conceded to {self.side(event['team'])}"
        if kind == "revealed":
            shows = "show" if event["seat"] == self.human else "shows"
            whole = " (the whole hand)" if event["whole_hand"] else ""
            cards = " ".join(self.words.card(c) for c in event["cards"])
            return (f"    {self.who(event['seat'])} {shows} the {self.words.call(event['contest'])} {event['value']}: "
                    f"[bold]{cards}[/]{whole}")
        if kind == "trick":
            side = self.side(event['winner']) if event['winner'] is not None else 'Tie'
            return f"  [yellow]trick {event['number']}: {side}[/]"
        if kind == "score":
            return f"  [green]{self.side(event['team'])} +{event['points']} ({self.words.call(event['reason'])})[/]"
        if kind == "hand_over":
            taken = "nobody scores" if event["winner"] is None else f"{self.side(event['winner'])} take the hand"
            return f"  hand over: {taken}"
        if kind == "match_over":
            won = event["winner"] == self.game.team_of[self.human]
            who = 'You win' if won else 'They win'
            return f"[bold green]{who} the match {winner_first(event['score'], event['winner'])}[/]"
        return None

    # -- drawing -------------------------------------------------------------------------

    def flush(self) -> None:
        """Print the events that happened since the last call, as the human's seat sees them."""
        events = self.state.visible_events(self.human)
        for event in events[self._shown:]:
            line = self.narrate(event)
            if line:
                self.console.print(line, highlight=False)
        self._shown = len(events)

    def panel(self) -> Panel:
        obs = self.state.observation(self.human)
        team = obs["team"]
        rows: list[Any] = []
        ours_first = sorted(enumerate(obs["score"]), key=lambda ts: ts[0] != team)
        score = "  ".join(f"{self.side(t)} {s}" for t, s in ours_first)
        rows.append(Text.from_markup(f"[bold]Score[/] {score}  (to {obs['target']})   hand {obs['hand_number']}, "
                                     f"worth {obs['hand_worth']}"))
        if obs["turned"]:
            rows.append(Text(f"Turned card: {self.words.card(obs['turned'])}"))
        if len(obs["playing"]) < obs["players"]:
            rows.append(Text.from_markup(self.duel(self.state.hand_format, obs["playing"]).strip()))
        strip = [("Tie" if r == "tie" else self.side(r)) for r in obs["tricks"]]
        strip += ["–"] * max(0, self.game.hand_size - len(strip))
        rows.append(Text("Tricks: " + " | ".join(strip)))
        trick = obs["table"][-1] if len(obs["table"]) == obs["trick"] else []
        if trick:
            rows.append(Text("On the table: " + ", ".join(
                f"{self.who(p['seat'])} {self.words.card(p['card'])}" for p in trick)))
        rows.append(self._hand(obs))
        if obs["count"]:
            good = self.words.call("good").lower()
            said = ", ".join(f"{self.who(a['seat'])} {a['value'] if a['value'] is not None else good}"
                             for a in obs["count"]["announced"]) or "nobody yet"
            contest = self.words.call(obs["count"]["contest"])
            rows.append(Text(f"Counting {contest}: {said}; {self.who(obs['count']['next'])} to speak"))
        elif obs["pending"]:
            p = obs["pending"]
            rows.append(Text(f"{self.who(p['by'])} called {self.words.call(p['call'])}; "
                             f"{self.who(p['answerer'])} to answer"))
        legal = Table.grid(padding=(0, 2))
        for i, action in sorted(self.choices().items()):
            legal.add_row(f"[bold]{i}[/]", self.label(action))
        rows.append(legal)
        return Panel(Group(*rows), title=f"{self.game.spec.title} — {self.who(self.human)} (seat {self.human})")

    def _hand(self, obs: dict[str, Any]) -> Any:
        """The own hand as its cards print, each card's place in the trick order under it
        (seed 004: "The board prints that number under the cards still in your own hand"), and
        its values in display words ("Your own hand prints its envido as Points")."""
        values = "  ".join(f"{self._value_name(k)} {v}" for k, v in obs["values"].items() if v is not None)
        if obs["hand"] is None:
            return Text.from_markup(f"[bold]Your hand[/] (blind: play by position)   {values}")
        places = self.words.places(obs["turned"])
        grid = Table.grid(padding=(0, 1))
        grid.add_row(Text.from_markup("[bold]Your hand[/]"), *(self.words.card(c) for c in obs["hand"]),
                     Text(f"  {values}"))
        grid.add_row(Text("trick order", style="dim"), *(str(places[c]) for c in obs["hand"]))
        return grid

    def _value_name(self, name: str) -> str:
        """A hand value's display label; the first contest's value reads "Points" where the
        spec gives it no label."""
        if name in self.words.values:
            return self.words.value(name)
        first = self.game.contests[0].value if self.game.contests else None
        return "Points" if name == first else name

    # -- playing -------------------------------------------------------------------------

    def choices(self) -> dict[int, str]:
        """The legal actions by number: a card keeps its number (its place in the hand as dealt)
        for the whole hand; the calls and answers are numbered after the cards."""
        legal = self.state.legal_actions(self.human)
        obs_hand = self.state.observation(self.human)["hand"] or []
        dealt = self._dealt if set(obs_hand) <= set(self._dealt) else list(obs_hand)
        out: dict[int, str] = {}
        rest = []
        for action in legal:
            verb, _, arg = action.partition(" ")
            if verb == "play" and arg.startswith("@") and arg[1:].isdigit():
                out[int(arg[1:]) + 1] = action
            elif verb == "play" and arg in dealt:
                out[dealt.index(arg) + 1] = action
            else:
                rest.append(action)
        start = max([self.game.hand_size, len(dealt), *out]) + 1
        for k, action in enumerate(rest):
            out[start + k] = action
        return out

    def understand(self, answer: str) -> tuple[str | None, str | None]:
        """(the action, None) or (None, why not): a number, an action in any case with spaces or
        underscores, a display label ("match envido"), or a card of the hand alone ("7C")."""
        choices = self.choices()
        text = " ".join(answer.split())
        if not text:
            return None, "type a number or an action"
        if text.isdigit():
            if int(text) in choices:
                return choices[int(text)], None
            return None, f"choose {min(choices)}–{max(choices)}" if choices else "nothing to choose"
        legal = self.state.legal_actions(self.human)
        words = {a.lower(): a for a in legal}
        words.update({a.lower().replace("_", " "): a for a in legal})
        words.update({self.label(a).lower(): a for a in legal})
        words.update({a.split(" ", 1)[1].lower(): a for a in legal if a.startswith("play ")})
        words.update({self.words.card(a.split(" ", 1)[1]).lower(): a for a in legal      # as printed
                      if a.startswith("play ") and a.split(" ", 1)[1] in self.game.cards.index})
        low = text.lower()
        if low in words:
            return words[low], None
        action = low.replace(" ", "_") if " " not in low.strip() or low.split()[0] not in ("play", "cover") else low
        refused = self.state.refusal(action, self.human)
        if refused is None:
            return action, None
        why = refused.reason + (f" — {refused.detail}" if self.verbose and refused.detail else "")
        if action.split(" ", 1)[0] not in self.verbs:           # no action of this game at all
            choices = self.choices()
            why = (f"{text!r} is not an action of this game; type a number ({min(choices)}–{max(choices)}) or "
                   f"one of: {', '.join(self.label(a) for _, a in sorted(choices.items()))}")
        close = difflib.get_close_matches(low, list(words), n=1, cutoff=0.6)
        if close:
            why += f" (did you mean '{self.label(words[close[0]])}'?)"
        return None, why

    def read(self) -> str | None:
        """The human's action, asked until it is legal; None to quit (q, end of input). Ctrl-C is
        let through: `play` leaves the table on it."""
        choices = self.choices()
        span = f"{min(choices)}–{max(choices)}" if choices else "none"
        while True:
            try:
                answer = self.ask(f"Your move [{span}, or an action; q quits]: ").strip()
            except EOFError:
                return None
            if answer.lower() in QUIT:
                return None
            action, why = self.understand(answer)
            if action is not None:
                return action
            self.console.print(f"[red]{escape(why or '')}[/]", highlight=False)   # a DSL text has brackets

    def play(self, max_hands: int | None = None, watch: Callable[[State], None] | None = None) -> State:
        """Play until the match ends, the human quits (q, end of input, or Ctrl-C, which sets
        `interrupted`), or `max_hands` hands are done; `watch(state)` is called before every
        decision and at the end (a recorder)."""
        try:
            return self._play(max_hands, watch)
        except KeyboardInterrupt:
            self.interrupted = True
            self.console.print("\nYou left the table.")
            return self.state

    def _play(self, max_hands: int | None, watch: Callable[[State], None] | None) -> State:
        st = self.state
        for seat in turns(st, max_hands):
            self.flush()
            if watch is not None:
                watch(st)
            bot = self.bots[seat]
            if seat != self.human and bot is not None:
                st.apply(bot.choose(st, seat), seat)
                continue
            self.console.print(self.panel())
            action = self.read()
            if action is None:
                self.console.print("You left the table.")
                if watch is not None:
                    watch(st)
                return st
            st.apply(action, self.human)
        self.flush()
        if watch is not None:
            watch(st)
        return st


def _line_editor(console: Console) -> Callable[[str], str]:
    """In a terminal, prompt_toolkit's line editor: arrows, Home/End, Ctrl-A/E/K/U/W, and the
    answers typed this match recalled with Up and Down. prompt_toolkit rather than readline:
    it works the same on every platform (readline is missing on Windows and is libedit on
    macOS), and it leaves the board's output alone. Elsewhere (a pipe, a file) a plain input."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory

        session: PromptSession[str] = PromptSession(history=InMemoryHistory())
        return lambda prompt: session.prompt(prompt)
    return lambda prompt: console.input(prompt)
