"""The HTML report in headless Chromium (issue #29 item 3): the demo run's page, opened
from disk with every network request recorded, laid out as a team lead reads it (text
left, numbers right, the charts drawn, the unsupported sentences highlighted), printable
(the print media hides the navigation; a PDF is written), with a screenshot and the PDF
in test-artifacts/report/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.report.conftest import demo_report_html
from tests.ui.test_ui_browser import ARGS, CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's chromium at /usr/bin/chromium "
                              "(apt-get install chromium; .ci/run installs it)"),
]


@pytest.fixture(scope="module")
def report_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("html_browser")
    page = demo_report_html(folder)[1]
    path = folder / "report.html"
    path.write_text(page, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def page(report_file: Path) -> Iterator[tuple[Any, list[str]]]:
    from playwright.sync_api import sync_playwright

    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        pg = browser.new_page(viewport={"width": 1300, "height": 1000})
        pg.on("request", lambda r: requests.append(r.url))
        pg.goto(report_file.as_uri())
        pg.wait_for_load_state("load")
        yield pg, requests
        browser.close()


def _align(pg: Any, selector: str) -> str:
    return str(pg.eval_on_selector(selector, "e => getComputedStyle(e).textAlign"))


def test_the_report_renders_offline_as_a_team_lead_reads_it(page, report_file: Path,
                                                             artifacts: Path) -> None:
    pg, requests = page
    assert requests == [report_file.as_uri()]  # the file itself; nothing else fetched
    assert pg.locator("h1").inner_text() == "RAG evaluation: demo.jsonl"
    headings = pg.locator("h2").all_inner_texts()
    for h in ("Summary", "Strategies", "Distributions", "Diagnostics",
              "Worst samples by judge.overall", "All samples", "Judge usage and cost"):
        assert h in headings, h
    # the summary: a metric name (text) left, its mean right, a verdict badge per metric
    assert _align(pg, "#summary tbody tr:first-child td:nth-child(1)") == "left"
    assert _align(pg, "#summary tbody tr:first-child td:nth-child(2)") == "right"
    assert _align(pg, "#samples tbody tr:first-child td:nth-child(3)") == "left"
    rows = pg.locator("#summary tbody tr").count()
    assert rows == 14 and pg.locator("#summary .badge").count() == rows
    # charts drawn: bars with a size, one interval chart and one histogram per metric
    assert pg.locator("#strategies svg").count() == 14
    assert pg.locator("#distributions svg").count() == 14
    box = pg.locator("#distributions svg rect").first.bounding_box()
    assert box is not None and box["width"] > 5
    # the worst samples: ten cards, the unsupported answer sentences visibly marked
    assert pg.locator("#worst article.card").count() == 10
    marked = pg.locator("#worst .ra-unsupported").first
    assert marked.is_visible()
    colour = marked.evaluate("e => getComputedStyle(e).backgroundColor")
    assert colour not in ("rgba(0, 0, 0, 0)", "transparent")
    # a diagnostic's worst sample link lands on an element of the page
    href = pg.locator("#diagnostics a").first.get_attribute("href")
    assert href and pg.locator(f'[id="{href[1:]}"]').count() == 1
    folder = artifacts / "report"
    folder.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(folder / "report.png"), full_page=True)
    assert (folder / "report.png").stat().st_size > 50_000


def test_the_report_prints(page, artifacts: Path) -> None:
    pg, _ = page
    pg.emulate_media(media="print")
    try:
        assert not pg.locator("nav").is_visible()  # the section links are not printed
        inside = pg.locator("#worst article.card").first.evaluate(
            "e => getComputedStyle(e).breakInside")
        assert inside == "avoid"  # a sample's card is not cut across pages
        folder = artifacts / "report"
        folder.mkdir(parents=True, exist_ok=True)
        pdf = pg.pdf(path=str(folder / "report.pdf"), format="A4")
        assert pdf[:5] == b"%PDF-" and len(pdf) > 50_000
    finally:
        pg.emulate_media(media="screen")
