"""A real server in a thread and Debian's Chromium driven by Playwright (no browser download).

Chromium is /usr/bin/chromium, installed by .ci/run; without it the browser tests are
skipped on a developer's machine and fail under CI (tests/outside.py), so a missing browser
is never a silent pass there.
"""
from __future__ import annotations

import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.outside import need

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
SHOTS = Path(__file__).parent / "screenshots"
DOCS_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


class LiveServer:
    """uvicorn serving the app on a free loopback port, in a daemon thread, on SQLite only:
    these tests check the page; the API beneath it runs on both stores in tests/server."""

    def __init__(self) -> None:
        import uvicorn

        from interpreter.server.app import create_app
        from interpreter.server.settings import Limits, Settings
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        # Tests choose seeds, and one browser creates every match of the session.
        self.app = create_app(":memory:", settings=Settings(client_seeds=True, limits=Limits(creations_burst=1e9)))
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                                    log_level="warning", access_log=False))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.url = f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert self.server.started, "the server did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    pytest.importorskip("uvicorn")
    with LiveServer() as server:
        yield server


@pytest.fixture(scope="session")
def playwright() -> Iterator[object]:
    need("Debian's Chromium", Path(CHROMIUM).exists(), "apt-get install chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright) -> Iterator[object]:
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=ARGS,
                                                                headless=True, viewport={"width": 1000, "height": 940})
        yield context
        context.close()


@pytest.fixture
def devices(playwright) -> Iterator[object]:
    """Opens fresh browser contexts that share no storage: as many devices as a test needs."""
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    yield lambda: chromium.new_context().new_page()
    chromium.close()


@pytest.fixture
def page(browser) -> Iterator[object]:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield page
    page.close()
    assert not errors, errors


@pytest.fixture(scope="session")
def shots() -> Path:
    SHOTS.mkdir(exist_ok=True)
    return SHOTS


def docs_screenshot(page, name: str) -> None:
    """With TRUCO_DOCS_SCREENSHOTS=1, the screenshot a reader of docs/ sees, written there:
    `TRUCO_DOCS_SCREENSHOTS=1 python -m pytest tests/web/test_layout.py -k in_view` regenerates
    every one. Otherwise nothing is written outside tests/web/screenshots."""
    if os.environ.get("TRUCO_DOCS_SCREENSHOTS"):
        DOCS_SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(DOCS_SHOTS / f"{name}.png"))
