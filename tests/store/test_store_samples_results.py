"""Samples in order, results saved atomically, resume keys, metric values, usage."""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import ragassay.store.store as store_module
from ragassay.store import CallRecord, Store, StoreError
from ragassay.types import InvalidRow, MetricResult, Sample, SampleResult, Usage
from tests.store.store_helpers import make_result, new_run

SAMPLES: list[Sample | InvalidRow] = [
    Sample(
        id="z",
        question="Who?",
        contexts=("ctx one", "ctx two"),
        answer="Ada",
        reference=("Ada", "Ada Lovelace"),
        strategy="bm25",
        labels={"faithful": True},
        metadata={"source": "é ünïcode"},
    ),
    InvalidRow(id="row-2", source="data.jsonl:2", reason="'contexts' must be a list of strings"),
    Sample(id="a", question="What?", reference="x"),
    Sample(id="m", question="When?", strategy="dense"),
]


def test_samples_roundtrip_in_input_order(store: Store) -> None:
    run_id = new_run(store)
    assert store.add_samples(run_id, iter(SAMPLES)) == 4
    assert list(store.iter_samples(run_id)) == SAMPLES
    assert store.count_samples(run_id) == 4
    assert store.count_samples(run_id, valid_only=True) == 3
    row = store.conn.execute("SELECT invalid FROM samples WHERE sample_id = 'row-2'").fetchone()
    assert row[0] == 1


def test_metadata_keys_in_the_order_they_first_appear(store: Store) -> None:
    """By sample, then by their place in the first sample that has them (not by name);
    invalid rows and samples without metadata add none."""
    run_id = new_run(store)
    assert store.sample_metadata_keys(run_id) == []
    store.add_samples(run_id, [
        Sample(id="a", question="?"),
        InvalidRow(id="bad", source="d.jsonl:2", reason="no question"),
        Sample(id="b", question="?", metadata={"kind": "paraphrase", "domain": "pool"}),
        Sample(id="c", question="?", metadata={"zeta": 1, "domain": "gym", "alpha": [1]}),
        Sample(id="d", question="?", metadata={"alpha": {"x": 1}, "kind": "direct"}),
    ])
    assert store.sample_metadata_keys(run_id) == ["kind", "domain", "zeta", "alpha"]


def test_metadata_keys_past_most_and_a_trace(store: Store) -> None:
    """None past `most` (the per-sample tables then have one `metadata` column, review 6);
    an object under `trace` is the sample's trace, not its metadata (nor a column), while
    a string there, a user's trace id stored before the loader refused it, is metadata
    and no trace (the hops section crashed on it)."""
    run_id = new_run(store)
    store.add_samples(run_id, [
        Sample(id="a", question="?", metadata={"trace": {"trace_id": "t", "span_id": "s"},
                                               "k": 1}),
        Sample(id="b", question="?", metadata={"x": 1, "trace": "t-123"}),
    ])
    assert store.sample_metadata_keys(run_id) == ["k", "x", "trace"]
    assert store.sample_metadata_keys(run_id, most=3) == ["k", "x", "trace"]
    assert store.sample_metadata_keys(run_id, most=2) is None
    assert [sample_id for sample_id, _ in store.iter_traces(run_id)] == ["a"]


def test_add_samples_upserts_keeping_position_and_appends_new(store: Store) -> None:
    run_id = new_run(store)
    store.add_samples(run_id, SAMPLES[:3])
    changed = Sample(id="z", question="Who, really?")
    store.add_samples(run_id, [Sample(id="new", question="?"), changed])
    ids = [s.id for s in store.iter_samples(run_id)]
    assert ids == ["z", "row-2", "a", "new"]
    assert next(iter(store.iter_samples(run_id))) == changed


def test_add_samples_is_one_transaction(store: Store) -> None:
    run_id = new_run(store)

    def items() -> Iterator[Sample]:
        yield Sample(id="ok", question="q")
        raise RuntimeError("reader failed")

    with pytest.raises(RuntimeError):
        store.add_samples(run_id, items())
    assert store.count_samples(run_id) == 0


def test_unknown_run_is_refused_for_writes(store: Store) -> None:
    with pytest.raises(StoreError, match="no run 'ghost'"):
        store.add_samples("ghost", SAMPLES)
    with pytest.raises(StoreError, match="no run 'ghost'"):
        store.save_result("ghost", make_result("a"))


def test_result_roundtrip_order_and_suite_filter(store: Store) -> None:
    run_id = new_run(store)
    store.add_samples(run_id, SAMPLES)
    saved = [
        make_result("m", "ragas", strategy="dense"),
        make_result("a", "judge", value=True),
        make_result("z", "judge", value=None, strategy="bm25"),
        make_result("a", "ragas"),
    ]
    for r in saved:
        store.save_result(run_id, r)
    got = list(store.iter_results(run_id))
    assert [(r.sample_id, r.suite) for r in got] == [
        ("z", "judge"),
        ("a", "judge"),
        ("a", "ragas"),
        ("m", "ragas"),
    ]
    assert got[0] == saved[2]
    assert got[1] == saved[1] and got[1].results[0].value is True
    assert got[3].results[1].details == {"n": 3}
    assert [r.sample_id for r in store.iter_results(run_id, "ragas")] == ["a", "m"]
    assert store.count_results(run_id) == 4
    assert store.count_results(run_id, "judge") == 2
    assert store.done_keys(run_id) == {
        ("m", "ragas"),
        ("a", "judge"),
        ("z", "judge"),
        ("a", "ragas"),
    }


@pytest.mark.parametrize("page", [1, 2, 3, 1000])
def test_streaming_reads_page_by_page_in_the_same_order(
    store: Store, monkeypatch: pytest.MonkeyPatch, page: int
) -> None:
    """Samples and results are read a page at a time (flat memory on large runs);
    the order must not depend on the page size, and results of samples that are not
    stored (orphans) still come, last."""
    run_id = new_run(store)
    many = [Sample(id=f"s{i:02d}", question=f"q{i}") for i in range(7)]
    store.add_samples(run_id, [*SAMPLES, *many])
    for sid in ("s05", "z", "s00", "m", "a", "s06"):
        for suite in ("ragas", "judge"):
            store.save_result(run_id, make_result(sid, suite))
    store.save_result(run_id, make_result("orphan", "judge"))
    monkeypatch.setattr(store_module, "PAGE_ROWS", page)
    assert [s.id for s in store.iter_samples(run_id)] == [s.id for s in [*SAMPLES, *many]]
    got = [(r.sample_id, r.suite) for r in store.iter_results(run_id)]
    order = ["z", "a", "m", "s00", "s05", "s06"]
    assert got == [(sid, suite) for sid in order for suite in ("judge", "ragas")] + [
        ("orphan", "judge")
    ]
    assert [r.sample_id for r in store.iter_results(run_id, "ragas")] == order



@pytest.mark.parametrize("page", [1, 2, 1000])
def test_metadata_is_read_alone_page_by_page(store: Store, monkeypatch: pytest.MonkeyPatch,
                                             page: int) -> None:
    """`iter_metadata` (what `--by KEY` groups on): each valid sample's strategy, id and
    metadata in input order, whatever the page size; invalid rows have none."""
    import ragassay.store.samples as samples_module

    run_id = new_run(store)
    store.add_samples(run_id, [*SAMPLES, Sample(id="k", question="q", metadata={
        "kind": "faq", "n": 2, "tags": ["a"]})])
    monkeypatch.setattr(samples_module, "PAGE_ROWS", page)
    assert list(store.iter_metadata(run_id)) == [
        ("bm25", "z", {"source": "é ünïcode"}), ("default", "a", {}), ("dense", "m", {}),
        ("default", "k", {"kind": "faq", "n": 2, "tags": ["a"]})]

def _scored_run(store: Store) -> str:
    """A run of SAMPLES whose faithfulness is True, unscored and 0.25."""
    run_id = new_run(store)
    store.add_samples(run_id, SAMPLES)
    store.save_result(run_id, make_result("a", value=True))
    store.save_result(run_id, make_result("z", value=None, strategy="bm25"))
    store.save_result(run_id, make_result("m", value=0.25, strategy="dense"))
    return run_id


def test_metric_values_for_sql_filtering(store: Store) -> None:
    run_id = _scored_run(store)
    assert store.metric_values(run_id, "judge.faithfulness") == [
        ("z", "bm25", None, "timeout"),
        ("a", "default", 1.0, None),
        ("m", "dense", 0.25, None),
    ]
    assert store.metric_values(run_id, "judge.nothing") == []
    low = store.conn.execute(
        "SELECT sample_id FROM metric_values WHERE run_id = ? AND metric = ? AND value < 0.5",
        (run_id, "judge.faithfulness"),
    ).fetchall()
    assert [r[0] for r in low] == ["m"]


def test_metric_means_leave_unscored_values_out(store: Store) -> None:
    """The Runs page's figures: a mean of the scored values (a boolean as a rate)."""
    run_id = _scored_run(store)
    assert store.metric_means(run_id) == {"judge.faithfulness": pytest.approx(0.625),
                                          "judge.relevance": 1.0}
    assert store.metric_means(new_run(store)) == {}


def test_resaving_replaces_result_and_metric_rows(store: Store) -> None:
    run_id = new_run(store)
    store.save_result(run_id, make_result("a", value=None))
    fixed = SampleResult(
        sample_id="a", suite="judge", results=(MetricResult(name="judge.faithfulness", value=0.9),)
    )
    store.save_result(run_id, fixed)
    assert list(store.iter_results(run_id)) == [fixed]
    assert store.metric_values(run_id, "judge.faithfulness") == [("a", "default", 0.9, None)]
    assert store.metric_values(run_id, "judge.relevance") == []


def test_nan_and_duplicate_metrics_are_refused(store: Store) -> None:
    run_id = new_run(store)
    nan = SampleResult(
        sample_id="a", suite="judge", results=(MetricResult(name="judge.x", value=math.nan),)
    )
    with pytest.raises(ValueError, match="unscored metric must be value None"):
        store.save_result(run_id, nan)
    dup = SampleResult(
        sample_id="a",
        suite="judge",
        results=(MetricResult(name="judge.x", value=1.0), MetricResult(name="judge.x", value=0.0)),
    )
    with pytest.raises(ValueError, match="duplicate metric"):
        store.save_result(run_id, dup)
    assert store.done_keys(run_id) == set()


def test_failure_mid_transaction_leaves_nothing(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_id = new_run(store)
    store.save_result(run_id, make_result("a"), [CallRecord(sample_id="a", suite="judge")])

    def broken(*args: object) -> None:  # runs after the result and metric rows are written
        raise RuntimeError("disk gremlin")

    monkeypatch.setattr(store_module, "_insert_calls", broken)
    with pytest.raises(RuntimeError, match="gremlin"):
        store.save_result(run_id, make_result("b"), [CallRecord(sample_id="b", suite="judge")])
    monkeypatch.undo()
    assert store.done_keys(run_id) == {("a", "judge")}
    assert [v[0] for v in store.metric_values(run_id, "judge.faithfulness")] == ["a"]
    assert [c.sample_id for c in store.iter_calls(run_id)] == ["a"]
    assert not store.conn.in_transaction
    store.save_result(run_id, make_result("b"))  # the store is still usable
    assert store.done_keys(run_id) == {("a", "judge"), ("b", "judge")}


def test_killed_process_never_leaves_half_a_judgment(db_path: Path) -> None:
    with Store(db_path) as store:
        run_id = new_run(store)
        store.save_result(run_id, make_result("a"))
    script = textwrap.dedent(
        f"""
        import os
        import ragassay.store.store as mod
        from ragassay.store import CallRecord, Store
        from ragassay.types import MetricResult, SampleResult

        def die(*args):
            os._exit(9)  # no cleanup, no rollback: as if killed

        mod._insert_calls = die
        store = Store({str(db_path)!r})
        result = SampleResult(
            sample_id="b", suite="judge", results=(MetricResult(name="judge.x", value=1.0),)
        )
        store.save_result({run_id!r}, result, [CallRecord(sample_id="b")])
        """
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert proc.returncode == 9, proc.stderr.decode()
    with Store(db_path) as store:
        assert store.done_keys(run_id) == {("a", "judge")}
        assert store.conn.execute("SELECT COUNT(*) FROM metric_values").fetchone()[0] == 2
        assert list(store.iter_calls(run_id)) == []


def test_calls_ledger_roundtrip(store: Store) -> None:
    run_id = new_run(store)
    calls = [
        CallRecord(
            sample_id="a",
            suite="judge",
            prompt="faithfulness@v2",
            cache_key="k1",
            model="smollm2",
            input_tokens=120,
            output_tokens=30,
            latency_s=1.5,
        ),
        CallRecord(sample_id="a", suite="judge", status="error", error="timeout after 30s"),
    ]
    store.save_result(run_id, make_result("a"), calls)
    got = list(store.iter_calls(run_id))
    assert [c.model_dump(exclude={"id", "created", "run_id"}) for c in got] == [
        c.model_dump(exclude={"id", "created", "run_id"}) for c in calls
    ]
    assert all(c.run_id == run_id and c.id is not None and c.created for c in got)
    store.add_calls([CallRecord(sample_id="b", suite="ragas", cached=True)], run_id=run_id)
    assert [c.cached for c in store.iter_calls(run_id)] == [False, False, True]


def test_usage_from_results(store: Store) -> None:
    run_id = new_run(store)
    store.save_result(run_id, make_result("a", "judge", calls=2))
    store.save_result(run_id, make_result("b", "judge", calls=1))
    store.save_result(run_id, make_result("a", "ragas", calls=3))
    usage = store.usage(run_id)
    assert list(usage) == ["judge", "ragas", "total"]
    assert usage["judge"] == Usage(calls=3, input_tokens=300, output_tokens=30, latency_s=1.0)
    assert usage["ragas"] == Usage(calls=3, input_tokens=300, output_tokens=30, latency_s=0.5)
    assert usage["total"] == Usage(calls=6, input_tokens=600, output_tokens=60, latency_s=1.5)
    assert store.usage(new_run(store)) == {"total": Usage()}


def test_usage_from_calls_ledger(store: Store) -> None:
    run_id = new_run(store)
    store.add_calls(
        [
            CallRecord(suite="judge", input_tokens=100, output_tokens=10, latency_s=2.0),
            CallRecord(suite="judge", input_tokens=100, output_tokens=10, cached=True),
            CallRecord(suite="ragas", input_tokens=50, output_tokens=5, latency_s=1.0),
        ],
        run_id=run_id,
    )
    usage = store.usage(run_id, source="calls")
    assert usage["judge"] == Usage(
        calls=1, cache_hits=1, input_tokens=100, output_tokens=10, latency_s=2.0
    )
    assert usage["total"] == Usage(
        calls=2, cache_hits=1, input_tokens=150, output_tokens=15, latency_s=3.0
    )
