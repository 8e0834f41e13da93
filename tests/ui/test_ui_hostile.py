"""The dashboard over hostile data, in headless Chromium (issue 43, items 10, 11, 2, 15).

10: on 4f8feb9 a strategy or id like `![b](http://host/beacon.png)` on the Annotate page,
and a judge's error text in the sample explorer's expander label, were rendered as
Markdown: the browser fetched the remote images, links were live; every page fetched a
Material icon (the favicon) from fonts.gstatic.com. Now every page is visited with every
request the browser makes recorded: none leaves 127.0.0.1, no image or link points at
the data's hosts, and the hostile strings read as text.
11: a trace with a self-parented duplicate span id and a 3,000-deep chain of spans made
the span tree hit RecursionError and the page stop drawing.
2: an uploaded Parquet bomb is refused by the loader the CLI uses.
15: contexts are numbered from 1, as citation markers are.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.metrics.base import RELEVANT, SUPPORTED, UNSUPPORTED
from ragassay.store import Store
from ragassay.types import (
    HumanLabel,
    JudgeFailure,
    Message,
    MetricResult,
    MetricSpec,
    RunConfig,
    Sample,
    SampleResult,
)
from tests.support.traces import request, span
from tests.ui.test_ui_browser import ARGS, BUSY, CHROMIUM, _free_port, open_page, screenshot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's chromium at /usr/bin/chromium"),
]

HOST = "203.0.113.9"  # TEST-NET-3: never answers; a request to it is recorded, not served
IMG = f"![b](http://{HOST}/beacon.png)"
LINK = f"[click](http://{HOST}/link)"
BARE = f"http://{HOST}/bare www.example.com :material/home: :red[red]"
STRATEGIES = (f"{IMG} s1", f"{LINK} s2")
REASON = (f"judge call failed: HTTP 500: ![e](http://{HOST}/error.png) "
          f"[more](http://{HOST}/more) <img src='http://{HOST}/tag.png'>")
SPECS = (  # with the judge suite's label links (issue #37): what annotate offers
    MetricSpec(name="judge.hallucination", kind="bool", higher_is_better=False,
               labels=UNSUPPORTED),
    MetricSpec(name="judge.faithfulness", low=1, high=10, labels=SUPPORTED),
    MetricSpec(name="judge.context_relevance", low=1, high=10, labels=RELEVANT),
)
CHAIN = 3000


@dataclass(frozen=True)
class Hostile:
    db: Path
    run: str  # hostile strings everywhere
    traced: str  # one sample whose trace has a self-parented span and a 3,000-deep chain
    first: Sample


def _hostile_run(store: Store) -> tuple[str, Sample]:
    run_id = store.create_run(RunConfig(dataset=f"{IMG}.jsonl", metrics=("judge",)),
                              package_version="0", dataset_hash=None, judge_model="m",
                              specs=list(SPECS))
    samples = [Sample(id=f"{IMG} {i}" if i % 2 else f"{LINK} {i}",
                      question=f"{IMG} What is item {i}? {BARE}",
                      contexts=(f"Item {i} is a widget. {LINK}", f"{IMG} Second context."),
                      answer=f"Item {i} is a widget. {IMG} {BARE}",
                      strategy=STRATEGIES[i % 2]) for i in range(40)]
    store.add_samples(run_id, samples)
    for i, s in enumerate(samples):
        faithful = MetricResult(name="judge.faithfulness", value=None, unscored_reason=REASON,
                                failure=JudgeFailure(raw_reply=f"{IMG} reply", prompt=(
                                    Message(role="user", content=LINK),))) \
            if i == 0 else MetricResult(name="judge.faithfulness", value=float(3 + i % 7))
        store.save_result(run_id, SampleResult(
            sample_id=s.id, strategy=s.strategy, suite="judge", reasoning=f"{IMG} {BARE}",
            results=(MetricResult(name="judge.hallucination", value=i % 3 == 0), faithful,
                     MetricResult(name="judge.context_relevance", value=float(1 + i % 10)))))
    store.finish_run(run_id, "complete")
    store.set_labels([HumanLabel(content_key=s.content_key, name="hallucinated",
                                 value=i % 3 == 0, annotator=IMG, note=f"{LINK} {BARE}")
                      for i, s in enumerate(samples[:5])])
    return run_id, samples[0]


def _tangled_trace(path: Path) -> Path:
    """A trace whose span tree has a span that is its own parent (sharing the root's id)
    and a chain of CHAIN spans, each the child of the one before."""
    root = "a000000000000001"
    spans = [span(root, "rag", {"openinference.span.kind": "CHAIN",
                                "input.value": "When was the tower built?"}, end=100),
             span(root, "again", {}, parent=root, start=1, end=2),  # its own parent
             span("a000000000000002", "retrieve", {
                 "openinference.span.kind": "RETRIEVER",
                 "retrieval.documents.0.document.content": "The tower was built in 1889."},
                 parent=root, start=3, end=4),
             span("a000000000000003", "generate", {"openinference.span.kind": "LLM",
                                                   "output.value": "In 1889."},
                  parent=root, start=5, end=90)]
    parent = root
    for i in range(CHAIN):
        sid = f"c{i:015x}"
        spans.append(span(sid, f"step {i}", {}, parent=parent, start=6, end=7))
        parent = sid
    path.write_text(json.dumps(request(spans)) + "\n")
    return path


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Hostile:
    folder = tmp_path_factory.mktemp("hostile-ui")
    db = folder / "h.db"
    traced = CliRunner().invoke(cli, ["eval", str(_tangled_trace(folder / "t.jsonl")),
                                      "--metrics", "trace", "--db", str(db), "-q"])
    assert traced.exit_code == 0, traced.output
    with Store(db) as store:
        traced_run = store.latest_run().id  # type: ignore[union-attr]
        run, first = _hostile_run(store)
    return Hostile(db, run, traced_run, first)


@pytest.fixture(scope="module")
def pictures(artifacts: Path) -> Path:
    folder = artifacts / "ui"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@dataclass(frozen=True)
class Server:
    url: str
    db: Path


@pytest.fixture(scope="module")
def server(hostile: Hostile, tmp_path_factory: pytest.TempPathFactory,
           pictures: Path) -> Iterator[Server]:
    """The dashboard over a copy of the hostile store, on a free loopback port."""
    folder = tmp_path_factory.mktemp("hostile-browser")
    db = folder / "h.db"
    with sqlite3.connect(hostile.db) as src, sqlite3.connect(db) as dst:
        src.backup(dst)
    port = _free_port()
    log = (pictures / "hostile-server.log").open("w")
    code = f"import sys; from ragassay.ui import launch; sys.exit(launch({str(db)!r}, {port}))"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True, cwd=folder,
                            env={**os.environ, "HOME": str(folder)})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                    if r.read() == b"ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("dashboard did not start: "
                            f"{(pictures / 'hostile-server.log').read_text()}")
            time.sleep(0.25)
        yield Server(base, db)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=10)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        log.close()


@pytest.fixture
def watched(chromium: Any, server: Server) -> Iterator[tuple[Any, list[str]]]:
    """A page, with every URL it requests (outside requests are aborted, not sent)."""
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    seen: list[str] = []

    def route(r: Any) -> None:
        seen.append(r.request.url)
        if r.request.url.startswith((server.url, "data:", "blob:")):
            r.continue_()
        else:
            r.abort()

    context.route("**/*", route)
    yield tab, seen
    context.close()


def _outside(seen: list[str], server: Server) -> list[str]:
    return [u for u in seen if not u.startswith((server.url, "data:", "blob:"))]


def _no_live_data(tab: Any) -> None:
    """No image, link or frame of the page points at the data's host."""
    found = tab.evaluate(f"""() => [...document.querySelectorAll('img, a, iframe, source')]
        .map(e => e.getAttribute('src') || e.getAttribute('href') || '')
        .filter(u => u.includes('{HOST}') || u.includes('example.com'))""")
    assert found == []
    assert tab.locator('[data-testid="stException"]').count() == 0


def _sample_url(server: Server, run: str, sample: Sample) -> str:
    label = urllib.parse.quote(f"{sample.strategy}/{sample.id}", safe="")
    return f"{server.url}/sample_explorer?run={run}&sample={label}"


PAGES = [("runs", "text=Compare runs"), ("run_overview", "text=Usage and cost"),
         ("charts", ".js-plotly-plot"), ("compare", "text=Significance level"),
         ("downloads", "text=Build the CSV"), ("evaluate", "text=Record bad rows"),
         ("leaderboard", "h1")]


@pytest.mark.parametrize(("path", "ready"), PAGES, ids=[p for p, _ in PAGES])
def test_no_page_requests_anything_outside_or_renders_data_as_markdown(
        watched: tuple[Any, list[str]], server: Server, hostile: Hostile, path: str,
        ready: str, pictures: Path) -> None:
    tab, seen = watched
    open_page(tab, f"{server.url}/{path}?run={hostile.run}", ready)
    tab.wait_for_timeout(1000)  # a favicon or an image is fetched after the render
    _no_live_data(tab)
    assert _outside(seen, server) == []
    screenshot(tab, pictures / f"hostile-{path}.png")


def test_the_sample_explorer_shows_the_judges_error_as_text(
        watched: tuple[Any, list[str]], server: Server, hostile: Hostile, pictures: Path
        ) -> None:
    tab, seen = watched
    open_page(tab, _sample_url(server, hostile.run, hostile.first), "text=Judge's reasoning")
    tab.wait_for_timeout(1000)
    expander = tab.locator('[data-testid="stExpander"] summary').filter(
        has_text="judge call failed").first
    # the label as written (an invisible word joiner breaks what Markdown would link)
    assert REASON[:80] in expander.inner_text().replace("\u2060", "")
    expander.click()
    tab.wait_for_timeout(500)
    _no_live_data(tab)
    assert _outside(seen, server) == []
    texts = tab.locator('[data-testid="stCaptionContainer"]').all_inner_texts()
    assert "Context 1" in texts and "Context 2" in texts and "Context 0" not in texts
    screenshot(tab, pictures / "hostile-sample.png")


def test_the_annotate_page_shows_the_sample_name_as_text(
        watched: tuple[Any, list[str]], server: Server, hostile: Hostile, pictures: Path
        ) -> None:
    tab, seen = watched
    open_page(tab, f"{server.url}/annotate?run={hostile.run}", "text=Start annotating")
    tab.get_by_role("button", name="Start annotating").click()
    tab.get_by_role("heading", name="Sample 1 of 40").wait_for()
    tab.wait_for_function(BUSY)
    tab.wait_for_timeout(1000)
    names = [n.replace("\u2060", "") for n in
             tab.locator('[data-testid="stCaptionContainer"]').all_inner_texts()]
    assert any(n.startswith(STRATEGIES[0]) or n.startswith(STRATEGIES[1]) for n in names), names
    assert "Context 1" in names and "Context 0" not in names
    _no_live_data(tab)
    assert _outside(seen, server) == []
    screenshot(tab, pictures / "hostile-annotate.png")


def test_a_tangled_span_tree_is_drawn(watched: tuple[Any, list[str]], server: Server,
                                      hostile: Hostile, pictures: Path) -> None:
    tab, _ = watched
    with Store(server.db, readonly=True) as store:
        traced = next(s for s in store.iter_samples(hostile.traced) if isinstance(s, Sample))
    open_page(tab, _sample_url(server, hostile.traced, traced), "text=Judge's reasoning")
    tab.wait_for_function(BUSY, timeout=120_000)
    assert tab.locator('[data-testid="stException"]').count() == 0
    # drawn past the span tree: the hops' expanders come after it
    tab.locator('[data-testid="stExpander"] summary').filter(
        has_text="Hop 1: retriever").first.wait_for(timeout=60_000)
    assert tab.locator('[data-testid="stException"]').count() == 0
    screenshot(tab, pictures / "hostile-trace.png")
    from ragassay.report import sample_entry
    from ragassay.ui.samples import span_tree

    with Store(server.db, readonly=True) as store:
        entry = sample_entry(store, hostile.traced, traced.id)
    assert entry is not None and entry.trace is not None
    rows = span_tree(entry.trace)  # what the page drew
    assert len(rows) == len(entry.trace.spans) == CHAIN + 4
    assert [r["span"] for r in rows[:2]] == ["rag", "\u2003\u2514 retrieve"]
    assert rows[-1]["span"] == "again (its own parent)"
    assert rows[-2]["span"].endswith(f"\u2514 [{CHAIN}] step {CHAIN - 1}")


def test_an_uploaded_parquet_bomb_is_refused(watched: tuple[Any, list[str]], server: Server,
                                             tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    tab, _ = watched
    big = "a" * (8 << 20)
    bomb = tmp_path / "bomb.parquet"
    pq.write_table(pa.table({"question": ["q"] * 40, "contexts": [["c"]] * 40,
                             "answer": [big] * 40}), bomb, compression="zstd",
                   use_dictionary=True, dictionary_pagesize_limit=64 << 20)
    open_page(tab, f"{server.url}/evaluate", "text=Record bad rows")
    tab.locator('[data-testid="stFileUploader"] input[type=file]').set_input_files(str(bomb))
    tab.get_by_text("The dataset cannot be evaluated:").wait_for()
    message = tab.locator('[data-testid="stCode"]').last.inner_text()
    assert message.startswith("bomb.parquet: decodes to more than 64 MB"), message
