"""A bench run's HTML report at 1400 px and on paper (issue #44 item 3): a trial found the
leaderboard's last columns (`est. $`, `meas. $`) cut off. Its wide tables now scroll
inside the page on screen (the page itself never scrolls sideways) and wrap on paper,
so that every column can be read; a screenshot and the PDF go to
test-artifacts/report/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ragassay.report import to_html
from tests.report.conftest import NAMES, bench_report, handbook_rows
from tests.ui.test_ui_browser import ARGS, CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's chromium at /usr/bin/chromium "
                              "(apt-get install chromium; .ci/run installs it)"),
]
WIDTH = 1400
# where each table's last header cell ends, and the box it must fit in: the table's
# scrolling container on screen, the page on paper
EDGES = """() => [...document.querySelectorAll('#leaderboard table')].map(t => {
  const box = t.parentElement.getBoundingClientRect();
  const last = t.querySelector('thead th:last-child').getBoundingClientRect();
  return {scroll: t.parentElement.scrollWidth, client: t.parentElement.clientWidth,
          overflow: getComputedStyle(t.parentElement).overflowX,
          lastRight: last.right, boxRight: box.right, tableRight: t.getBoundingClientRect().right,
          page: document.documentElement.clientWidth,
          headers: [...t.querySelectorAll('thead th')].map(h => h.textContent)};
})"""


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    rows = handbook_rows()
    rows = [r.model_copy(update={"strategy": r.strategy.replace(" ", "_") + "-with-a-long-name"})
            if i == 2 else r for i, r in enumerate(rows)]  # a name that cannot wrap
    path = tmp_path_factory.mktemp("bench_html") / "bench.html"
    path.write_text(to_html(bench_report(rows)), encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        pg = browser.new_page(viewport={"width": WIDTH, "height": 900})
        pg.goto(path.as_uri())
        pg.wait_for_load_state("load")
        yield pg
        browser.close()


def test_wide_tables_scroll_inside_the_page_at_1400_px(page: Any, artifacts: Path) -> None:
    pg = page
    # the page itself never scrolls sideways
    assert pg.evaluate("document.documentElement.scrollWidth") <= WIDTH
    tables = pg.evaluate(EDGES)
    assert len(tables) == 2  # the leaderboard and each strategy against the best
    board = tables[0]
    assert board["headers"][-2:] == ["est. $", "meas. $"]
    for t in tables:
        assert t["boxRight"] <= t["page"] + 0.5  # the container fits the page
        if t["scroll"] > t["client"]:  # wider than the page: it scrolls, nothing is cut
            assert t["overflow"] in ("auto", "scroll")
    # scrolled to its end, the leaderboard shows its last columns whole
    pg.eval_on_selector("#leaderboard .wide", "e => { e.scrollLeft = e.scrollWidth; }")
    last = pg.evaluate(EDGES)[0]
    assert last["lastRight"] <= last["boxRight"] + 0.5
    for name in ("est. $", "meas. $", "0.0123", "0.0110"):
        cell = pg.locator("#leaderboard table").first.get_by_text(name, exact=True).first
        assert cell.is_visible(), name
    folder = artifacts / "report"
    folder.mkdir(parents=True, exist_ok=True)
    pg.locator("#leaderboard").screenshot(path=str(folder / "bench_1400.png"))
    assert (folder / "bench_1400.png").stat().st_size > 10_000
    assert NAMES[1] in pg.locator("#leaderboard").inner_text()


def test_wide_tables_wrap_on_paper(page: Any, artifacts: Path) -> None:
    pg = page
    pg.emulate_media(media="print")
    try:
        pg.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
        for t in pg.evaluate(EDGES):
            # every column on the page: the table wraps its headers and cells
            assert t["tableRight"] <= t["page"] + 0.5, t
            assert t["scroll"] <= t["client"] + 1, t
        folder = artifacts / "report"
        folder.mkdir(parents=True, exist_ok=True)
        pdf = pg.pdf(path=str(folder / "bench.pdf"), format="A4")
        assert pdf[:5] == b"%PDF-"
        pg.screenshot(path=str(folder / "bench_print.png"), full_page=True)
    finally:
        pg.emulate_media(media="screen")
        pg.set_viewport_size({"width": WIDTH, "height": 900})
