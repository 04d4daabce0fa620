"""Every bundled spec's HTML rulebook in Debian's Chromium: numbered articles reached from the
table of contents, tables with their headers, no code in the text, no local path, and a print
stylesheet that lays it out on A4 without anything running off the page."""
from __future__ import annotations

import functools
from pathlib import Path

import pytest

from rulespec.load import bundled_names

from interpreter.designer.rulebook import render
from interpreter.engine.game import load_game

SPECS = bundled_names()
A4_TEXT_WIDTH = 680          # px at 96 dpi: 210 mm less the stylesheet's 16 mm margins


@functools.cache
def html(name: str) -> str:
    return render(load_game(name), "html")


@pytest.mark.parametrize("name", SPECS)
def test_rulebook_page_structure(name: str, page, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.html"
    path.write_text(html(name), encoding="utf-8")
    page.goto(path.as_uri())
    game = load_game(name)
    assert page.locator("html").get_attribute("lang") == game.spec.language
    assert page.locator("h1").inner_text() == game.spec.title
    articles = page.locator("h2[id^=art-]")
    count = articles.count()
    assert count >= 9
    ids = [articles.nth(i).get_attribute("id") for i in range(count)]
    assert ids == [f"art-{i}" for i in range(1, count + 1)]
    links = page.locator("nav.toc a")
    assert links.count() == count
    for i in range(count):
        target = links.nth(i).get_attribute("href")
        assert target == f"#{ids[i]}"
        assert links.nth(i).inner_text() == articles.nth(i).inner_text()
    tables = page.locator("table")
    assert tables.count() >= 4                 # card order, tricks, ladder, glossary at least
    assert page.locator("table:not(:has(thead th))").count() == 0
    assert page.locator("code, pre").count() == 0
    text = page.locator("body").inner_text()
    for local in ("/work/", "/home/", ".yaml", ".txt", "`", "=="):
        assert local not in text, local
    assert page.locator("p strong").filter(has_text=".1").count() >= 1      # worked examples


@pytest.mark.parametrize("name", SPECS)
def test_rulebook_prints_on_a4(name: str, page, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.html"
    path.write_text(html(name), encoding="utf-8")
    page.set_viewport_size({"width": A4_TEXT_WIDTH, "height": 1000})
    page.emulate_media(media="print")
    page.goto(path.as_uri())
    assert page.evaluate("getComputedStyle(document.querySelector('nav.toc')).breakAfter") == "page"
    assert page.evaluate("getComputedStyle(document.querySelector('table')).breakInside") == "avoid"
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1, f"{overflow}px run off an A4 page"
    pdf = page.pdf(format="A4", print_background=False)
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") > 3
