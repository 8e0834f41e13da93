"""The dashboard's Leaderboard page shows a bench run's stored leaderboard; the Runs page
marks bench runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ragassay.bench import BenchOptions, load_config, run_bench
from ragassay.dataset import demo_dataset_path, iter_samples
from ragassay.runner import evaluate
from ragassay.store import Store
from ragassay.types import RunConfig
from ragassay.ui.highlight import md_escape
from tests.bench.conftest import TINY_DOCS, TINY_QUESTIONS, HashEmbedder
from tests.ui.conftest import APP

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MODULE = ("def answer(q):\n"
          "    if 'dress' in q:\n        raise RuntimeError('down')\n"
          "    return {'answer': 'Employees get 27 days of annual leave.',"
          " 'contexts': ['Employees get 27 days of annual leave.']}\n")


@pytest.fixture(scope="module")
def bench_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    folder = tmp_path_factory.mktemp("lb")
    (folder / "corpus").mkdir()
    for name, text in TINY_DOCS.items():
        (folder / "corpus" / name).write_text(text)
    (folder / "questions.jsonl").write_text("\n".join(TINY_QUESTIONS) + "\n")
    (folder / "lb_rag.py").write_text(MODULE)
    (folder / "bench.toml").write_text(
        '[bench]\nname = "tiny"\ncorpus = "corpus"\nquestions = "questions.jsonl"\n'
        'cache_dir = "cache"\n\n[[strategy]]\nchunker = "fixed"\nsize = 12\n'
        'retriever = "bm25"\nk = 2\n\n[[strategy]]\nname = "team app"\n'
        'pipeline = "lb_rag:answer"\n')
    db = folder / "ragassay.db"
    with Store(db) as store:
        plain = evaluate(iter_samples(demo_dataset_path()),
                         RunConfig(dataset="demo", metrics=("judge",)), store=store).run_id
        bench = run_bench(load_config(folder / "bench.toml"), store,
                          BenchOptions(embedder=HashEmbedder(64))).run_id
    assert bench is not None
    return db, bench, plain


def _app(db: Path, run_id: str | None = None) -> Any:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state["db"] = str(db)
    if run_id:
        at.session_state["run_id"] = run_id
    return at


def test_the_leaderboard_page_shows_the_stored_ranking(bench_store) -> None:
    db, bench, _ = bench_store
    at = _app(db)
    at.run()
    at.switch_page("screens/leaderboard.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert [t.value for t in at.title] == ["Leaderboard"]
    frame = at.dataframe[0].value
    with Store(db, readonly=True) as store:
        record = store.get_run(bench).meta.bench
        assert record is not None
        rows = record["leaderboard"]
    assert list(frame["strategy"]) == [r["strategy"] for r in rows]
    assert set(frame["kind"]) == {"built-in", "pipeline"}
    assert frame.set_index("strategy").loc["team app", "failed"] == 1
    assert any(md_escape("team app: 1 failed question") in w.value for w in at.warning)
    assert at.selectbox(key="leaderboard_run").value == bench


def test_no_bench_run_explains_and_runs_page_marks_bench(bench_store, tmp_path) -> None:
    db, bench, plain = bench_store
    at = _app(db)
    at.run()
    frame = at.dataframe[0].value
    kinds = dict(zip(frame["run"], frame["kind"], strict=True))
    assert kinds == {bench: "bench", plain: "eval"}
    empty = tmp_path / "empty.db"
    with Store(empty) as store:
        evaluate(iter_samples(demo_dataset_path()), RunConfig(dataset="demo", metrics=(
            "judge",)), store=store)
    at = _app(empty)
    at.run()
    at.switch_page("screens/leaderboard.py").run()
    assert not at.exception
    assert "No bench run" in at.info[0].value


def test_the_page_shows_the_columns_the_console_and_the_html_show(bench_store) -> None:
    """Trial finding: the console's leaderboard had 15 columns, the HTML report's 13 and
    this page 16, each a different set. All three show `report.LEADERBOARD_COLUMNS`."""
    import re
    from html import unescape

    from ragassay.bench.leaderboard import leaderboard_table
    from ragassay.report import (
        LEADERBOARD_COLUMNS,
        LEADERBOARD_HEADERS,
        VERSUS_HEADERS,
        build_report,
        to_html,
    )

    db, bench, _ = bench_store
    at = _app(db, bench)
    at.run()
    at.switch_page("screens/leaderboard.py").run()
    assert not at.exception, [e.value for e in at.exception]
    frame = at.dataframe[0].value
    with Store(db, readonly=True) as store:
        report = build_report(store, bench, include_details=False)
    assert report.leaderboard is not None
    section = to_html(report).split('<section id="leaderboard">')[1]
    html = [unescape(h) for h in re.findall(r"<th(?: [^>]*)?>(.*?)</th>",
                                            section.split("</thead>")[0])]
    tables = leaderboard_table(report.leaderboard).renderables
    console = [str(c.header) for c in tables[0].columns]
    assert list(frame.columns) == html == console == list(LEADERBOARD_HEADERS)
    # and each strategy against the best, in the same columns everywhere (issue #44)
    versus = at.dataframe[1].value
    html = [unescape(h) for h in re.findall(r"<th(?: [^>]*)?>(.*?)</th>",
                                            section.split("<h3>")[1].split("</thead>")[0])]
    console = [str(c.header) for c in tables[1].columns]
    assert list(versus.columns) == html == console == list(VERSUS_HEADERS)
    assert len(versus) == len(report.leaderboard) - 1
    for row, (_, shown) in zip(report.leaderboard, frame.iterrows(), strict=True):
        for c in LEADERBOARD_COLUMNS:
            want, got = c.value(row), shown[c.header]
            if want is None:  # none: None, or NaN in a column of numbers
                assert got is None or got != got, (c.header, row.strategy)
            else:
                assert got == (pytest.approx(want) if c.numeric else want), c.header
