"""What some tests need from outside PyPI: Debian's Chromium (the web board's browser tests),
PostgreSQL's server binaries (the server's tests on its second store) and Neovim (the editor
configuration of docs/editor.md). `.ci/run` installs the three and sets `CI=true`.

Where one is missing, its tests skip on a developer's machine, each saying how to install it;
under CI (`CI` set to anything but empty, `0` or `false`) they fail instead: a missing tool is
never a silent pass there."""
from __future__ import annotations

import os

import pytest


def under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false")


def need(what: str, found: bool, install: str) -> None:
    """Go on when `found`; else skip, or under CI fail, saying what is missing and how to install it."""
    if found:
        return
    if under_ci():
        pytest.fail(f"{what} is missing and CI runs every test: {install} (.ci/run installs it)")
    pytest.skip(f"{what} is not installed: {install}")
