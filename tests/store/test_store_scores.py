"""The store's reads for statistics and the dashboard (`store/scores.py`): every
sample's values without parsing a document, SQL aggregates, and pages of samples
filtered and sorted by SQLite (issue 33 item 9: a dashboard on a 50,000-sample store)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from ragassay.report import build_report, run_table
from ragassay.stats import ScoreTable, report_sections
from ragassay.store import SampleQuery, Store
from ragassay.types import InvalidRow, MetricResult, RunConfig, Sample, SampleResult, Usage
from ragassay.ui.samples import Filters, apply_filters, sample_frame
from tests.store.store_helpers import new_run

REASONS = ("timeout", "no contexts")


def _value(i: int, k: int) -> float | None:
    return None if (i + k) % 7 == 0 else round(((i * 37 + k * 11) % 100) / 100, 2)


def _fill(store: Store) -> str:
    """40 samples over two strategies, an invalid row, unscored values with reasons,
    labels, question ids, a sample without results, and an undeclared boolean metric."""
    run = new_run(store, RunConfig(dataset="d.jsonl", metrics=("judge",)))
    items: list[Sample | InvalidRow] = []
    for i in range(40):
        items.append(Sample(id=f"s{i:02d}", question=f"Question {i} about plan {i % 5}?",
                            contexts=[f"Context of {i}."], answer=f"Answer {i}.",
                            strategy=f"k{i % 2}", labels={"ok": i % 3 == 0},
                            metadata={"question_id": f"q{i // 2}"}))
        if i == 17:
            items.append(InvalidRow(id="bad", source="d.jsonl:18", reason="not JSON"))
    store.add_samples(run, items)
    for i in range(39):  # s39 has no result
        values = [MetricResult(name="judge.faithfulness", value=_value(i, 0),
                               unscored_reason=None if _value(i, 0) is not None
                               else REASONS[i % 2]),
                  MetricResult(name="judge.overall", value=(_value(i, 1) or 0) * 10),
                  MetricResult(name="custom.flagged", value=i % 4 == 0)]
        store.save_result(run, SampleResult(sample_id=f"s{i:02d}", strategy=f"k{i % 2}",
                                            suite="judge", results=tuple(values),
                                            usage=Usage(calls=1, input_tokens=10 + i,
                                                        latency_s=0.1 * i,
                                                        cost_usd=0.001 if i % 2 else None)))
    store.finish_run(run, "complete")
    return run


@pytest.fixture
def filled(tmp_path: Path) -> tuple[Store, str]:
    store = Store(tmp_path / "s.db")
    return store, _fill(store)


def test_the_score_table_from_stored_values_equals_the_one_from_documents(filled) -> None:
    store, run = filled
    got = run_table(store, run)
    specs = store.get_run(run).spec_map()
    expected = ScoreTable.from_results(store.iter_results(run),
                                       (s for s in store.iter_samples(run)
                                        if isinstance(s, Sample)), specs)
    assert got.table.rows == expected.rows
    assert got.table.specs == expected.specs
    assert got.table.specs["custom.flagged"].kind == "bool"  # undeclared, read from JSON
    assert [i.id for i in got.invalid] == ["bad"] and got.total == 41
    usage = {}
    for r in store.iter_results(run):
        usage[r.strategy] = usage.get(r.strategy, Usage()) + r.usage
    assert got.usage_by_strategy == usage


def test_usage_summed_by_sqlite_equals_the_python_sum(filled) -> None:
    store, run = filled
    per_suite: dict[str, Usage] = {}
    for r in store.iter_results(run):
        per_suite[r.suite] = per_suite.get(r.suite, Usage()) + r.usage
    usage = store.usage(run)
    assert usage["judge"] == per_suite["judge"] and usage["total"] == per_suite["judge"]
    assert usage["judge"].cost_usd == pytest.approx(0.019)


def test_metric_summary_is_the_table_s_means_and_counts(filled) -> None:
    store, run = filled
    table = run_table(store, run).table
    summary = {m.metric: m for m in store.metric_summary(run)}
    assert list(summary) == ["judge.faithfulness", "judge.overall", "custom.flagged"]
    for name, m in summary.items():
        scored = table.values(name)
        assert m.scored == len(scored) and m.mean == pytest.approx(sum(scored) / len(scored))
        assert m.low == min(scored) and m.high == max(scored)
        assert m.unscored == table.unscored(name) - 1  # s39 has no stored value at all
    assert store.unscored_reason_names(run) == sorted(REASONS)


def _frame(store: Store, run: str) -> pd.DataFrame:
    table = run_table(store, run).table
    return sample_frame(table, list(table.specs), table.specs)


QUERIES: list[tuple[SampleQuery, Filters, Any]] = [
    (SampleQuery(), Filters(), None),
    (SampleQuery(strategies=("k1",)), Filters(strategies=("k1",)), None),
    (SampleQuery(sort_metric="judge.faithfulness", ascending=False),
     Filters(sort_metric="judge.faithfulness", ascending=False), None),
    (SampleQuery(sort_metric="judge.overall", value_range=(2.0, 6.0)),
     Filters(sort_metric="judge.overall", value_range=(2.0, 6.0)), None),
    (SampleQuery(reason="timeout"), Filters(reason="timeout"), None),
    (SampleQuery(scored=True), Filters(reason="(scored on every metric)"), None),
    (SampleQuery(scored=False, strategies=("k0",)),
     Filters(reason="(unscored on some metric)", strategies=("k0",)), None),
    (SampleQuery(text="PLAN 3"), Filters(text="plan 3"), "plan 3"),
]


@pytest.mark.parametrize("query, filters, text", QUERIES)
def test_a_page_of_samples_is_the_explorer_s_filtered_frame(filled, query, filters,
                                                           text) -> None:
    """SQL selects and orders the same samples as the in-memory explorer does."""
    store, run = filled
    frame = _frame(store, run)
    found = store.matching_samples(run, text) if text else None
    expected = list(apply_filters(frame, filters, found)["id"])
    page = store.sample_page(run, query)
    assert page.total == len(expected)
    assert [r.sample_id for r in page.rows] == expected[:200]
    tail = store.sample_page(run, SampleQuery(**{**query.__dict__, "offset": 5, "limit": 3}))
    assert [r.sample_id for r in tail.rows] == expected[5:8]


def test_a_page_row_carries_values_reasons_and_a_cut_question(tmp_path: Path) -> None:
    store = Store(tmp_path / "q.db")
    run = new_run(store)
    store.add_samples(run, [Sample(id="a", question="Why? " * 100, contexts=["c"],
                                   answer="x")])
    store.save_result(run, SampleResult(sample_id="a", suite="judge", results=(
        MetricResult(name="judge.overall", value=None, unscored_reason="timeout"),
        MetricResult(name="judge.faithfulness", value=True))))
    (row,) = store.sample_page(run, SampleQuery()).rows
    assert len(row.question) == 200 and row.question.startswith("Why? Why?")
    assert row.values == {"judge.overall": None, "judge.faithfulness": 1.0}
    assert row.reasons == {"judge.overall": "timeout"}


def test_the_report_of_a_run_is_unchanged_by_the_faster_table(filled) -> None:
    """Every statistics section comes out as from the documents' table."""
    store, run = filled
    report = build_report(store, run, include_details=False)
    specs = store.get_run(run).spec_map()
    table = ScoreTable.from_results(store.iter_results(run),
                                    (s for s in store.iter_samples(run)
                                     if isinstance(s, Sample)), specs)
    sections = report_sections(table, seed=0).model_dump(mode="json")
    built = report.model_dump(mode="json")
    for entry in built["strategies"].values():
        entry.pop("usage")  # added by the report, from the results' usage
    assert sections and {k: built[k] for k in sections} == sections


def test_abstentions_read_from_the_values_table_apart_from_unscored(tmp_path: Path) -> None:
    """An abstained value (no number, no reason, its outcome `MetricResult.abstention`) is
    an abstention in the score table, the page rows and the summary counts, not unscored;
    a store written before the values said so gets it from the results (m0008, which
    read the outcome from the details it was kept in then)."""
    from ragassay.store.migrations import backfill_abstentions

    store = Store(tmp_path / "a.db")
    run = new_run(store)
    store.add_samples(run, [Sample(id=i, question="q?", contexts=["c"], answer="x")
                            for i in ("a", "b")])
    for sid, outcome in (("a", "false"), ("b", None)):
        store.save_result(run, SampleResult(sample_id=sid, suite="judge", results=(
            MetricResult(name="judge.faithfulness", value=None,
                         unscored_reason=None if outcome else "timeout",
                         abstention=outcome),)))
    for _ in range(2):  # as saved, then as a store from before the column was filled
        (a, b) = run_table(store, run).table.rows
        assert a.abstained == {"judge.faithfulness": "false"} and a.reasons == {}
        assert b.abstained == {} and b.reasons == {"judge.faithfulness": "timeout"}
        rows = {r.sample_id: r for r in store.sample_page(run, SampleQuery()).rows}
        assert rows["a"].abstained == {"judge.faithfulness": "false"}
        (summary,) = store.metric_summary(run)
        assert (summary.scored, summary.unscored) == (0, 1)
        with store._write() as conn:
            conn.execute("UPDATE metric_values SET abstention = NULL")
            conn.execute("UPDATE results SET results = ? WHERE sample_id = 'a'", (
                '[{"name": "judge.faithfulness", "value": null, "unscored_reason": null,'
                ' "details": {"abstention": "false"}}]',))
            backfill_abstentions(conn)
