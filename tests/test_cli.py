"""The `truco` command's messages to a new user (issue 35): a missing file is called missing, a
file that is not a spec is called that, numbers out of range are refused with the range, a bad
value names the values allowed as they are typed, the transcript tells each announcement once
and a final score winner first, `--help` says what a reader needs (the default port, the exit
status of `truco diff`), `truco serve` prints its address only once it holds the port, and a
command left with Ctrl-C exits 130."""
from __future__ import annotations

import re
import socket

import pytest

from interpreter.cli import INTERRUPTED, main


def _run(capsys, *argv: str) -> tuple[int, str]:
    """The exit status and everything printed, out and err, of `truco ARGV`; argparse's own
    refusals (SystemExit) included."""
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    captured = capsys.readouterr()
    return status, captured.out + captured.err


# -- specs named by path ------------------------------------------------------------------

def test_a_missing_spec_file_is_called_missing(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    status, text = _run(capsys, "play", "missing.yaml")
    assert status == 2 and "the spec file 'missing.yaml' does not exist" in text and "no spec named" not in text
    status, text = _run(capsys, "check", "rules/missing")
    assert status == 2 and "the spec file 'rules/missing' does not exist" in text


def test_a_file_or_folder_that_is_not_a_spec_is_called_so(capsys, tmp_path) -> None:
    notes = tmp_path / "hostname"
    notes.write_text("box\n")
    status, text = _run(capsys, "check", str(notes))
    assert status == 2 and f"{str(notes)!r} is not a spec: a spec is a YAML file whose name ends in .yaml" in text
    status, text = _run(capsys, "play", str(tmp_path))
    assert status == 2 and f"{str(tmp_path)!r} is a folder, not a spec" in text


def test_a_bundled_name_with_yaml_added_points_at_the_bundled_spec(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    status, text = _run(capsys, "play", "teg.yaml")
    assert status == 2 and "the bundled spec 'teg' is named without .yaml" in text


def test_an_unknown_name_still_suggests_the_close_bundled_one(capsys) -> None:
    status, text = _run(capsys, "play", "tego")
    assert status == 2 and "no spec named 'tego' (did you mean 'teg'?)" in text


# -- numbers and values -------------------------------------------------------------------

@pytest.mark.parametrize("hands", ["0", "-1", "two"])
def test_hands_must_be_one_or_more(capsys, hands) -> None:
    status, text = _run(capsys, "play", "teg", "--hands", hands)
    assert status == 2 and f"expected a whole number of at least 1, got {hands!r}" in text
    assert "holds" not in text                                  # no hand was played


def test_a_bad_option_value_lists_the_values_as_they_are_typed(capsys) -> None:
    status, text = _run(capsys, "play", "teg", "-o", "flor=maybe")
    assert status == 2 and "option 'flor' cannot be 'maybe'; allowed: false, true" in text
    assert "False" not in text


def test_truco_specs_writes_option_values_as_they_are_typed(capsys) -> None:
    status, text = _run(capsys, "specs")
    assert status == 0 and "flor=false|true" in text and "False" not in text


@pytest.mark.parametrize("limit,words", [("max_body=abc", "--limit max_body takes a whole number above 0, not 'abc'"),
                                         ("max_body=1.5", "--limit max_body takes a whole number above 0"),
                                         ("requests_per_second=-2", "--limit requests_per_second takes a number above 0"),
                                         ("requests_per_second=nan", "takes a number above 0, not 'nan'"),
                                         ("hello_seconds=inf", "takes a number above 0, not 'inf'")])
def test_a_bad_limit_value_is_named_not_a_python_error(capsys, limit, words) -> None:
    status, text = _run(capsys, "serve", "--db", ":memory:", "--limit", limit)
    assert status == 2 and words in text and "invalid literal" not in text and "board at" not in text


# -- help -----------------------------------------------------------------------------------

def test_serve_help_shows_the_default_port_and_host(capsys) -> None:
    status, text = _run(capsys, "serve", "--help")
    assert status == 0
    assert re.search(r"--port PORT .*\(default:\s+8000\)", " ".join(text.split()))
    assert "(default: 127.0.0.1" in " ".join(text.split())


def test_diff_help_says_what_its_exit_status_means(capsys) -> None:
    status, text = _run(capsys, "diff", "--help")
    flat = " ".join(text.split())
    assert status == 0 and "Exits 0 when the specs play alike, 1 when they differ" in flat
    status, _ = _run(capsys, "diff", "teg", "teg")
    assert status == 0
    status, text = _run(capsys, "diff", "teg", "board")
    assert status == 1 and text.strip()


# -- the transcript ---------------------------------------------------------------------------

def test_the_transcript_tells_each_announcement_once_and_the_winner_first(capsys) -> None:
    """teg, seed 3: seat 0 announces 29 and seat 1 21 in the first hand; team 0 wins the match to 15."""
    status, text = _run(capsys, "play", "teg", "--seed", "3", "-o", "target=15")
    assert status == 0
    assert text.count("announces 29") == 1 and "seat 0: announce" not in text and "seat 1: good" not in text
    assert "team 0 scores 15 (envido) → team 0 15, team 1 0" in text
    final = re.search(r"team (\d) wins the match (\d+)–(\d+)", text)
    assert final and int(final[2]) == 15 and int(final[2]) > int(final[3])


# -- truco serve's address --------------------------------------------------------------------

@pytest.mark.parametrize("port", ["99999", "65536", "-5", "http"])
def test_serve_refuses_a_port_out_of_range(capsys, port) -> None:
    status, text = _run(capsys, "serve", "--db", ":memory:", "--port", port)
    assert status == 2 and f"a port is a whole number from 1 to 65535 (or 0 for any free one), not {port!r}" in text
    assert "board at" not in text


def test_serve_on_a_port_in_use_says_so_and_prints_no_address(capsys) -> None:
    pytest.importorskip("uvicorn")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, text = _run(capsys, "serve", "--db", ":memory:", "--port", str(port))
    assert status == 2 and f"cannot listen on 127.0.0.1 port {port}: address already in use" in text
    assert "board at" not in text


def test_serve_prints_the_address_it_holds_once_bound(capsys, monkeypatch) -> None:
    """Port 0 asks the system for a free port: the address printed is the one bound, and the
    socket listens before the line is printed and before the server runs on it."""
    uvicorn = pytest.importorskip("uvicorn")
    seen: dict[str, object] = {}

    def run(server, sockets=None) -> None:
        (sock,) = sockets
        seen["port"] = sock.getsockname()[1]
        seen["printed"] = capsys.readouterr().out
        with socket.create_connection(("127.0.0.1", seen["port"]), timeout=5):
            pass                                                  # it listens: a client connects
    monkeypatch.setattr(uvicorn.Server, "run", run)
    assert main(["serve", "--db", ":memory:", "--port", "0"]) == 0
    assert seen["port"] != 0
    assert f"board at http://127.0.0.1:{seen['port']}/ · API at /api/" in str(seen["printed"])


# -- Ctrl-C -------------------------------------------------------------------------------------

def test_a_command_left_with_ctrl_c_exits_130(capsys, monkeypatch) -> None:
    """The convention of shells: 128 + SIGINT. (The terminal board's own Ctrl-C is tested in a
    pseudo-terminal, tests/test_tui.py.)"""
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr("interpreter.terminal.transcript.play_match", interrupted)
    assert INTERRUPTED == 130
    status, text = _run(capsys, "play", "teg")
    assert status == 130 and "interrupted" in text and "Traceback" not in text
