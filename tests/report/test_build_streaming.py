"""The report is built by streaming the store: same figures as from lists in memory."""

from __future__ import annotations

import pytest

import ragassay.store.samples as samples_module
import ragassay.store.store as store_module
from ragassay.metrics import all_specs
from ragassay.report import FailedEntry, SampleEntry, build_report, run_table
from ragassay.stats import ScoreTable
from ragassay.store import Store
from ragassay.types import Sample


@pytest.mark.parametrize("page", [1, 4, 2000])
def test_streamed_report_equals_the_in_memory_join(
    run: tuple[Store, str], monkeypatch: pytest.MonkeyPatch, page: int
) -> None:
    store, run_id = run
    monkeypatch.setattr(store_module, "PAGE_ROWS", page)  # results
    monkeypatch.setattr(samples_module, "PAGE_ROWS", page)  # samples
    report = build_report(store, run_id)
    meta = report.run
    assert (meta.total_samples, meta.scored_samples, meta.invalid_samples) == (12, 11, 1)
    # per-sample entries: in input order, each with exactly its own results
    entries = report.entries
    assert [e.id for e in entries] == ["s0", "s1", "s2", "s3", "bad", *[f"s{i}" for i in
                                                                     range(4, 11)]]
    by_id = {e.id: e for e in entries}
    assert isinstance(by_id["bad"], FailedEntry) and by_id["bad"].status == "failed"
    s7 = by_id["s7"]
    assert isinstance(s7, SampleEntry) and s7.metrics == {} and s7.usage.calls == 0
    assert by_id["s3"].metrics == {"judge.x": None, "ragas.x": pytest.approx(0.7)}
    assert by_id["s3"].unscored == {"judge.x": "judge timed out"}
    assert by_id["s5"].metrics == {"judge.x": 0.5, "ragas.x": pytest.approx(0.5)}
    assert by_id["s5"].reasoning == "judge on s5"
    # the statistics equal those of the table built from lists in memory
    results = list(store.iter_results(run_id))
    samples = [s for s in store.iter_samples(run_id) if isinstance(s, Sample)]
    table = ScoreTable.from_results(results, samples, all_specs(("judge",)))
    assert run_table(store, run_id).table == table
    usage = report.strategies["bm25"].usage
    assert usage.calls == sum(r.usage.calls for r in results if r.strategy == "bm25")


def test_run_table_merges_labels_from_a_separate_file(run: tuple[Store, str]) -> None:
    store, run_id = run
    rt = run_table(store, run_id, labels={"s1": {"human": 1}, "nope": {"human": 0}})
    rows = {r.id: r for r in rt.table.rows}
    assert rows["s1"].labels == {"good": False, "human": 1}
    assert rows["s2"].labels == {"good": False}
    assert [i.id for i in rt.invalid] == ["bad"] and rt.total == 12
