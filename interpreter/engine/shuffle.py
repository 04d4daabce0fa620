"""Shuffling a deck the way `random.shuffle` does, without its per-call overhead."""
from __future__ import annotations

import functools
import random
from typing import Any, Final


def shuffled(rng: random.Random, n: int) -> list[int]:
    """`range(n)` in exactly the order `rng.shuffle` leaves it, drawing the same bits.

    `shuffle` draws `getrandbits(width)` at each step, which is the top `width` bits of one
    32-bit word of the generator (the top byte's, for a deck of at most 255 cards), and draws
    again when the number is out of range. Here most words come in a few calls of
    `getrandbits(32 * count)` instead of one call per draw (the calls were most of a compiled
    deal), `count` being the steps left, which need a word each at least: the generator never
    runs ahead of `shuffle`'s (a test checks the decks and the generator's state agree). When
    few steps are left, single draws cost less than another call for words."""
    deck: list[Any] = list(_deck(n))          # moved as they are: no int unboxed and boxed again
    if n > 255:
        return _shuffled_by_draws(rng, deck)
    bits = rng.getrandbits
    words = _words(rng, n - 1)
    k, end = 3, len(words)          # the top byte of each little-endian word
    for i, shift in _draws(n):
        while True:
            if k < end:
                j = words[k] >> shift
                k += 4
            elif i >= _BATCH:       # the words used up by rejected draws, many steps left
                words, k = _words(rng, i), 3
                end = len(words)
                continue
            else:
                j = bits(8 - shift)
            if j <= i:
                break
        deck[i], deck[j] = deck[j], deck[i]
    return deck


_BATCH: Final = 8
"""Steps left from which one call for their words costs less than a call per draw."""


def _words(rng: random.Random, count: int) -> bytes:
    """The generator's next `count` 32-bit words, in the order it makes them, little-endian."""
    return rng.getrandbits(32 * count).to_bytes(4 * count, "little")


def _shuffled_by_draws(rng: random.Random, deck: list[int]) -> list[int]:
    """`shuffle`'s loop as it is, for a deck too large for a byte's draws."""
    bits = rng.getrandbits
    for i in range(len(deck) - 1, 0, -1):
        width = (i + 1).bit_length()
        j = bits(width)
        while j > i:
            j = bits(width)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@functools.cache
def _deck(n: int) -> tuple[int, ...]:
    return tuple(range(n))


@functools.cache
def _draws(n: int) -> tuple[tuple[int, int], ...]:
    """Each step of a shuffle of at most 255 cards: the position it fills, and the shift that
    leaves of a word's top byte as many bits as `getrandbits` draws for it."""
    return tuple((i, 8 - (i + 1).bit_length()) for i in range(n - 1, 0, -1))
