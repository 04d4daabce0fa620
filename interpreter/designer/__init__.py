"""The designer's tools, built on the engine: `truco check` (check, explore, payoffs), `truco
rules` (rulebook), `truco diff` and `truco replay`.

The checker's walk core (`walkcore`, and `abstract`, the abstract deal it asks at every state)
may be compiled with mypyc (setup.py), and is imported from its source when stale, as the
engine is (`interpreter.engine.guard`).
"""
from __future__ import annotations

from pathlib import Path

from interpreter.engine import build_of, guard

STALE = guard(__name__, Path(__file__).resolve().parent, "walk core")


def build() -> str:
    """Which walk core runs: "compiled (mypyc)" or "pure Python", and why not compiled; and so
    if its abstract deal, built with it, does not run as it does."""
    from interpreter.designer import abstract, walkcore
    core, deal = build_of(walkcore, STALE), build_of(abstract, STALE)
    return core if deal == core else f"{core}, its abstract deal {deal}"
