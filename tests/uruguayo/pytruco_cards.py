"""The bridge between the project's card ids (`1e`, `12c`, CONFORMANCE.md) and pytruco's Carta."""
from __future__ import annotations

from pytruco.pdt.carta import Carta

SUITS = {"e": "espada", "b": "basto", "o": "oro", "c": "copa"}


def carta(card: str) -> Carta:
    """pytruco's card for a project card id: `7o` is Carta(7, 'oro')."""
    return Carta(int(card[:-1]), SUITS[card[-1]])


def pytruco_name(card: str) -> str:
    """How pytruco's text commands name a card: `7 oro`."""
    return f"{card[:-1]} {SUITS[card[-1]]}"
