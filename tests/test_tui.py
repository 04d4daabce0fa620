"""The terminal board (`truco play SPEC --human SEAT`, interpreter/terminal/tui.py), driven by input
fed programmatically: own hand, numbered legal calls, tricks, score, the count dialogue, and
nothing of the other seats' hands."""
from __future__ import annotations

import io
import itertools

from rich.console import Console

from interpreter import Deal, load_game
from interpreter.bots import HeuristicBot
from interpreter.cli import main
from interpreter.terminal.tui import TerminalBoard


def _board(spec: str = "teg", human: int = 0, answers=None, deals=None, seed: int = 3, **options):
    game = load_game(spec, **options)
    out = io.StringIO()
    console = Console(file=out, width=110, color_system=None)
    bots = [None if s == human else HeuristicBot(s) for s in range(game.num_players)]
    prompts: list[str] = []
    feed = iter(answers)

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None
    board = TerminalBoard(game, human, bots, console, ask=ask, seed=seed, deals=deals)
    return board, out, prompts


def test_a_whole_match_played_by_typing_numbers() -> None:
    board, out, prompts = _board(answers=itertools.repeat("1"), target=15)
    st = board.play()
    text = out.getvalue()
    assert st.match_over and prompts
    assert "Your hand" in text and "Tricks:" in text and "Score Us" in text
    assert " 1  play " in text                     # the legal actions are numbered
    assert "win the match" in text


def test_the_board_shows_own_cards_and_points_but_never_the_others_hands() -> None:
    deal = Deal((("7c", "6c", "1e"), ("4o", "5b", "12e")))
    board, out, _ = _board(answers=["q"], deals=[deal])
    board.play()
    text = out.getvalue()
    assert "Your hand 7c 6c 1e" in text and "Points 33" in text
    assert not any(card in text for card in ("4o", "5b", "12e"))


def test_bad_input_is_explained_and_asked_again() -> None:
    board, out, prompts = _board(answers=["99", "dance", "", "retruco", "q"])
    st = board.play()
    text = out.getvalue()
    assert "unknown verb 'dance'" in text and "the next call is" in text and "type a number" in text
    assert len(prompts) == 5 and not st.match_over and st.hand_number == 1


def test_the_count_dialogue_is_shown_and_answered() -> None:
    """Seat 0 calls envido with 33; the bot accepts; seat 0 announces; the bot concedes."""
    deal = Deal((("7c", "6c", "1e"), ("4o", "5o", "12e")))
    board, out, _ = _board(answers=["envido", "announce", "q"], deals=[deal])
    board.play()
    text = out.getvalue()
    assert "You: envido" in text and "Seat 1: accept" in text
    assert "Counting envido: nobody yet; You to speak" in text
    assert "You → 33 (envido)" in text and "Seat 1 → yours are good" in text
    assert "envido to Us with 33" in text and "Us +2 (envido)" in text


def test_the_command_line_seats_a_human(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\nq\n"))
    assert main(["play", "teg", "--human", "1", "--seed", "4", "--bots", "random"]) == 0
    text = capsys.readouterr().out
    assert "You (seat 1)" in text and "You left the table." in text


def test_the_command_line_refuses_a_seat_that_is_not_there(capsys) -> None:
    assert main(["play", "teg", "--human", "5"]) == 2
    assert "no seat 5" in capsys.readouterr().out


def test_random_bots_still_print_the_transcript(capsys) -> None:
    assert main(["play", "teg", "--bots", "random", "--seed", "7", "--hands", "1"]) == 0
    assert "holds" in capsys.readouterr().out
