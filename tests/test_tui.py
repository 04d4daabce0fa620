"""The terminal board (`truco play SPEC --human SEAT`, interpreter/terminal/tui.py), driven by input
fed programmatically: own hand, numbered legal calls, tricks, score, the count dialogue, and
nothing of the other seats' hands."""
from __future__ import annotations

import io
import itertools
import re
import time
from typing import Any

import pytest
from rich.console import Console

from interpreter import Deal, load_game
from interpreter.bots import HeuristicBot
from interpreter.cli import main
from interpreter.terminal.tui import TerminalBoard


def _board(spec: str = "teg", human: int = 0, answers=None, deals=None, seed: int = 3, verbose: bool = False,
           **options):
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
    board = TerminalBoard(game, human, bots, console, ask=ask, seed=seed, deals=deals, verbose=verbose)
    return board, out, prompts


def test_a_whole_match_played_by_typing_numbers() -> None:
    # a card keeps its number for the whole hand: cycling through the numbers always finds one
    board, out, prompts = _board(answers=itertools.cycle([str(n) for n in range(1, 10)]), target=15)
    st = board.play()
    text = out.getvalue()
    assert st.match_over and prompts
    assert "Your hand" in text and "Tricks:" in text and "Score Us" in text
    assert " 1  Play " in text                     # the legal actions are numbered
    assert "win the match" in text


def test_the_board_shows_own_cards_and_points_but_never_the_others_hands() -> None:
    deal = Deal((("7c", "6c", "1e"), ("4o", "5b", "12e")))
    board, out, _ = _board(answers=["q"], deals=[deal])
    board.play()
    text = out.getvalue()
    assert re.search(r"Your hand +7c 6c 1e +Points 33", text)
    assert not any(card in text for card in ("4o", "5b", "12e"))


def test_bad_input_is_explained_and_asked_again() -> None:
    board, out, prompts = _board(answers=["99", "dance", "", "retruco", "q"])
    st = board.play()
    text = out.getvalue()
    assert "'dance' is not an action of this game" in text and "the next call is" in text and "type a number" in text
    assert len(prompts) == 5 and not st.match_over and st.hand_number == 1


def test_a_refusal_gives_the_rule_and_its_formula_only_when_verbose() -> None:
    """paulista: "Carte Couverte - Carte jouée face cachée, qui n'a aucune valeur", from the second
    trick (the spec's `cover_from`). A card covered in the first trick is refused with the failing
    fact and the rule's sentence; `--verbose` adds the rule's whole condition and its DSL text,
    which the plain board keeps out."""
    deal = Deal((("4d", "5d", "6d"), ("4s", "5s", "6s"), ("4h", "5h", "6h"), ("4c", "5c", "6c")), "7d")
    for verbose in (False, True):
        board, out, _ = _board("paulista", answers=["cover 4d", "q"], deals=[deal], verbose=verbose, players=4)
        board.play()
        text = " ".join(out.getvalue().split())
        assert "4d may not be played face down now: it is the first trick (Carte Couverte" in text
        assert ("[trick >= options.cover_from]" in text) == verbose


def test_the_count_dialogue_is_shown_and_answered() -> None:
    """Seat 0 calls envido with 33; the bot accepts; seat 0 announces; the bot concedes."""
    deal = Deal((("7c", "6c", "1e"), ("4o", "5o", "12e")))
    board, out, _ = _board(answers=["envido", "announce", "q"], deals=[deal])
    board.play()
    text = out.getvalue()
    assert "You: Envido" in text and "Seat 1: Accept" in text
    assert "Counting Envido: nobody yet; You to speak" in text
    assert "You → 33 (Envido)" in text and "Seat 1 → Yours are good" in text
    assert "Envido to Us with 33" in text and "Us +2 (Envido)" in text


def test_every_action_is_printed_in_words_never_as_an_id() -> None:
    """Issue 35: the board said `real_envido` beside `Match envido`. Every call, answer and card
    is printed in the words the board uses: the spec's display label, else the name in words."""
    deal = Deal((("7c", "6c", "1e"), ("4o", "5b", "12e")))
    board, out, _ = _board(answers=["q"], deals=[deal], spec="board")
    board.play()
    listed = [board.label(a) for a in board.choices().values()]
    assert {"Truco", "Envido", "Real envido", "Match envido", "Fold"} <= set(listed), listed
    assert "Play 7c" in listed and not any("_" in words for words in listed)
    text = out.getvalue()
    assert "Real envido" in text and "real_envido" not in text and "falta_envido" not in text


def test_a_word_that_is_no_action_is_answered_with_what_may_be_typed_now() -> None:
    """Issue 35: on `board`, which has no covered cards, an unknown word listed `cover`, and
    listed the calls by their ids. The board answers with the numbers and the actions legal
    now, in its own words."""
    deal = Deal((("7c", "6c", "1e"), ("4o", "5b", "12e")))
    board, _, _ = _board(answers=["q"], deals=[deal], spec="board")
    board.flush()
    action, why = board.understand("dance")
    top = max(board.choices())
    assert action is None and why == (f"'dance' is not an action of this game; type a number (1–{top}) or one of: "
                                      "Play 7c, Play 6c, Play 1e, Truco, Envido, Real envido, Match envido, Fold")


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


def test_input_is_forgiving_and_numbers_stay_with_the_cards() -> None:
    deal = Deal((("7c", "6c", "1e"), ("4o", "5b", "12e")))
    board, out, _ = _board(answers=["q"], deals=[deal], spec="board")
    board.flush()
    assert board.choices()[1] == "play 7c" and board.choices()[3] == "play 1e"
    assert board.understand("TRUCO") == ("truco", None)
    assert board.understand("Match Envido") == ("falta_envido", None)         # seed 004's English label
    assert board.understand("1E") == ("play 1e", None)
    action, why = board.understand("trucoo")
    assert action is None and "did you mean 'Truco'" in why
    top = max(board.choices())
    assert board.understand("99") == (None, f"choose 1–{top}")
    board.state.apply("play 7c", 0)
    board.state.apply(HeuristicBot(1).choose(board.state, 1), 1)
    if board.state.current_player() == 0:
        assert 1 not in board.choices() and board.choices()[3] == "play 1e"     # 1e keeps its 3


def _spawn(*args: str):
    import os
    import sys

    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "PYTHONPATH": os.getcwd(), "COLUMNS": "110", "TERM": "dumb", "PROMPT_TOOLKIT_NO_CPR": "1"}
    return pexpect.spawn(sys.executable, ["-m", "interpreter", "play", *args], env=env, encoding="utf-8",
                         timeout=30, dimensions=(40, 110))


def test_the_terminal_board_in_a_pseudo_terminal() -> None:
    """Typed in a real terminal: any case, a number out of range, a typo, then Ctrl-C leaves cleanly,
    with the exit status of an interrupted command (130)."""
    pexpect = pytest.importorskip("pexpect")
    child = _spawn("teg", "--human", "0", "--seed", "3")
    child.expect("Your move")
    child.sendline("99")
    child.expect(r"choose 1–\d+")
    child.sendline("trucco")
    child.expect("did you mean")
    child.sendline("TRUCO")
    _truco_then_leave(child, pexpect)


def _reading(child: Any) -> None:
    """Wait until the line editor reads the terminal key by key (raw mode: no ICANON). The prompt
    is printed a moment before: a Ctrl-C sent then is a signal racing the editor's start, which
    Python may swallow (a KeyboardInterrupt raised inside a weakref callback is only printed)."""
    import termios
    deadline = time.monotonic() + 60
    while termios.tcgetattr(child.child_fd)[3] & termios.ICANON:
        assert time.monotonic() < deadline, "the board never read the terminal"
        time.sleep(0.01)


def _truco_then_leave(child: Any, pexpect: Any) -> None:
    """The truco just typed is played; Ctrl-C then leaves the table cleanly, exiting 130 (128 + SIGINT)."""
    child.expect("You: Truco")
    child.expect("Your move")
    _reading(child)
    child.sendintr()
    child.expect("You left the table.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_lines_are_edited_and_recalled_in_a_pseudo_terminal() -> None:
    """Issue 15: "line editing and history". Up recalls the answer typed before, Backspace
    edits it: "trucco" comes back and becomes "truco"."""
    pexpect = pytest.importorskip("pexpect")
    child = _spawn("teg", "--human", "0", "--seed", "3")
    child.expect("Your move")
    child.sendline("trucco")
    child.expect("did you mean")
    child.expect("Your move")
    child.send("\x1b[A")                 # Up: the last answer again
    child.send("\x7f\x7f")               # Backspace twice: "truc"
    child.send("o\r")
    _truco_then_leave(child, pexpect)


# Seat 0 (the mano, dealt first) holds a sota and a rey: seed 004, "the shared deck prints sota,
# caballo, and rey as 8, 9, and 10", and "The fourteen ranks, highest first ... The board prints
# that number under the cards still in your own hand" (1e is 1st, 12 8th, 10 10th).
FACES = Deal((("1e", "12c", "10o"), ("4o", "5b", "6e")))


def test_cards_print_as_the_deck_prints_them_with_their_trick_order() -> None:
    board, out, _ = _board(answers=["q"], deals=[FACES], spec="board", seed=1)
    board.play()
    text = out.getvalue()
    hand = next(line for line in text.splitlines() if "Your hand" in line)
    order = text.splitlines()[text.splitlines().index(hand) + 1]
    assert re.search(r"Your hand +1e 10c 8o ", hand), hand
    assert re.search(r"trick order +1 +8 +10\b", order), order
    assert "Play 10c" in text and "Play 8o" in text and "12c" not in text
    assert board.understand("10c") == ("play 12c", None)           # typed as printed
    assert board.understand("8O") == ("play 10o", None)


def test_the_winning_envido_cards_are_printed_when_the_hand_is_over() -> None:
    """Seed 004: "The cards of the winning envido are shown at the end of the hand": the bot's
    33 (7c 6c) is printed after the hand, not while it is played."""
    deal = Deal((("4o", "5b", "12e"), ("7c", "1e", "6c")))
    board, out, _ = _board(answers=["envido", "fold"], deals=[deal], spec="board", seed=1)
    board.flush()
    board.state.apply("envido", 0)
    board.state.apply("accept", 1)
    board.state.apply("announce", 0)
    board.state.apply("announce", 1)
    board.flush()
    assert "shows" not in out.getvalue()
    board.state.apply("fold", 0)
    board.flush()
    assert "Seat 1 shows the Envido 33: 7c 6c" in out.getvalue()


def test_a_duel_of_the_pico_a_pico_says_who_faces_whom_and_who_sits_out() -> None:
    """uruguayo at six players: a redondilla, then each seat against the seat facing it. The board
    says which pair plays each duel and that the human sits out the others (only their moves are
    printed, and the human is asked nothing then); in the human's own duel the panel names the
    opponent facing him."""
    round_ = (("7o", "6c", "4b"), ("3o", "5c", "12b"), ("2c", "6b", "11o"), ("1c", "4o", "10b"),
              ("7c", "5b", "12o"), ("6o", "4c", "11c"))
    deals = [Deal(round_, "1e"), Deal((("4o", "5o", "1b"), (), (), ("7c", "6c", "3b"), (), ()), "1e"),
             Deal(((), ("2o", "5b", "6c"), (), (), ("7e", "3o", "4c"), ()), "1e")]
    asked_in: list[list[int]] = []
    board, out, _ = _board("uruguayo", human=1, answers=itertools.cycle([str(n) for n in range(1, 10)]),
                           deals=deals, players=6)
    ask = board.ask

    def recording(prompt: str) -> str:
        asked_in.append(list(board.state.seats))
        return ask(prompt)
    board.ask = recording
    st = board.play(max_hands=3)
    text = out.getvalue()
    assert st.hand_number == 3 and st.seats == [1, 4]
    first_duel, second_duel = text.split("— hand 2:")[1].split("— hand 3:")
    assert "pico a pico: Seat 0 against Seat 3 (partner); you sit this hand out" in first_duel
    assert "You:" not in first_duel and "Your hand" not in first_duel
    assert "pico a pico: You against Seat 4" in second_duel
    assert re.search(r"│ pico a pico: You against Seat 4 +│", second_duel)   # in the panel too
    assert asked_in and all(1 in seats for seats in asked_in)
