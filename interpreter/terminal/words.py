"""How the terminal frontends name things: the spec's display labels for one language (calls,
hand values, the ranks printed on the cards) and each card's place in the trick order.

The board and the transcript print a card as its printed rank and its suit letter ("10e" for
a rank the deck prints as 10), so a deck that prints other numbers than its ranks reads as the
table's cards do; without labels a card reads as its id.
"""
from __future__ import annotations

from collections.abc import Sequence

from interpreter.engine.rules import Rules
from interpreter.engine.tables import places

ANSWERS = {"accept": "Accept", "decline": "Decline", "fold": "Fold", "announce": "Announce",
           "good": "Yours are good"}


def teams_from(score: Sequence[int], first: int | None) -> list[int]:
    """The teams in the order a line tells their points: `first` (a winner, a scorer), then the others."""
    return sorted(range(len(score)), key=lambda t: t != first)


def winner_first(score: Sequence[int], winner: int | None) -> str:
    """A final score as it is said, the winner's points first: 30–12."""
    return "–".join(str(score[t]) for t in teams_from(score, winner))


def standing(score: Sequence[int], first: int | None) -> str:
    """Each team's points, `first`'s first: "team 1 17, team 0 12"."""
    return ", ".join(f"team {t} {score[t]}" for t in teams_from(score, first))


class Words:
    """The display labels of `game` in `lang` (the boards use English)."""

    def __init__(self, game: Rules, lang: str = "en") -> None:
        self.game = game
        labels = {kind: dict(words) for code, kinds in game.spec.display if code == lang for kind, words in kinds}
        self.calls = labels.get("calls", {})
        self.values = labels.get("values", {})
        self.ranks = labels.get("ranks", {})
        cards = game.cards
        self.cards = tuple(self.ranks.get(cards.rank[c], cards.rank[c]) + cards.suit[c] for c in range(len(cards)))
        self.by_label = {label: cards.ids[c] for c, label in enumerate(self.cards)}

    def card(self, card_id: str | None) -> str:
        """A card as its face prints it."""
        if card_id is None:
            return "face down"
        return self.cards[self.game.cards.index[card_id]]

    def call(self, name: str) -> str:
        """A call's, contest's or verb's name as the board says it: its display label ("Match
        envido"), an answer's words, else the name in words ("Real envido"), never an id."""
        words = self.calls.get(name) or ANSWERS.get(name) or name.replace("_", " ")
        return words[:1].upper() + words[1:]

    def action(self, action: str) -> str:
        """An action in display words: a call's label ("Match envido"), a card as printed."""
        verb, _, rest = action.partition(" ")
        if verb in ("play", "cover") and rest in self.game.cards.index:
            rest = self.card(rest)
        return f"{self.call(verb)} {rest}".strip()

    def value(self, name: str) -> str:
        return self.values.get(name, name)

    def places(self, turned: str | None) -> dict[str, int]:
        """Each card's place in the trick order under the turned card, 1 the highest: the number
        seed 004's board prints under the cards in hand ("The fourteen ranks, highest first")."""
        cards = self.game.cards
        strength = self.game.strength[None if turned is None else cards.index[turned]]
        return dict(zip(cards.ids, places(strength), strict=True))
