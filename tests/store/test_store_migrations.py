"""Named migrations: fresh databases, upgrades of old ones, nothing applied twice."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from ragassay.store import Store, StoreError
from ragassay.store.migrations import MIGRATIONS, applied, apply_migrations, pending


def _raw(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    return sqlite3.connect(path, isolation_level=None)


def test_fresh_database_has_every_migration_and_table(db_path: Path) -> None:
    with Store(db_path) as store:
        assert applied(store.conn) == [m.__name__ for m in MIGRATIONS]
        tables = {
            r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
    assert {"migrations", "runs", "samples", "results", "metric_values", "calls", "cache"} <= tables


def test_pragmas_wal_and_foreign_keys(sqlite_store: Store) -> None:
    store = sqlite_store
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert store.conn.execute("PRAGMA busy_timeout").fetchone()[0] > 0


def test_old_database_is_upgraded_and_backfilled(db_path: Path) -> None:
    conn = _raw(db_path)
    assert apply_migrations(conn, MIGRATIONS[:1]) == ["m0001_initial"]
    conn.execute(
        "INSERT INTO runs (id, created, status, config, package_version, dataset, judge,"
        " judge_model) VALUES ('r1', '2026-01-01T00:00:00+00:00', 'complete',"
        " '{\"dataset\": \"d.jsonl\"}', '0.0.1', 'd.jsonl', 'offline', 'none')"
    )
    conn.execute(
        "INSERT INTO results VALUES ('r1', 's1', 'judge', 'default', NULL, '{}',"
        ' \'[{"name": "judge.x", "value": true},'
        ' {"name": "judge.y", "value": null, "unscored_reason": "no context"}]\','
        " '2026-01-01T00:00:00+00:00')"
    )
    assert [m.__name__ for m in pending(conn)] == [m.__name__ for m in MIGRATIONS[1:]]
    conn.close()

    with Store(db_path) as store:
        assert applied(store.conn) == [m.__name__ for m in MIGRATIONS]
        assert store.metric_values("r1", "judge.x") == [("s1", "default", 1.0, None)]
        assert store.metric_values("r1", "judge.y") == [("s1", "default", None, "no context")]
        assert store.get_run("r1").config.dataset == "d.jsonl"


def test_store_of_m0005_gains_cached_tokens_and_keeps_its_calls(db_path: Path) -> None:
    conn = _raw(db_path)
    upto = [m.__name__ for m in MIGRATIONS].index("m0005_run_leases") + 1
    apply_migrations(conn, MIGRATIONS[:upto])
    conn.execute(
        "INSERT INTO runs (id, created, status, config, package_version, dataset, judge,"
        " judge_model) VALUES ('r1', '2026-01-01T00:00:00+00:00', 'complete',"
        " '{\"dataset\": \"d.jsonl\"}', '0.0.1', 'd.jsonl', 'openai:m', 'm')"
    )
    conn.execute(
        "INSERT INTO calls (run_id, sample_id, suite, prompt, cache_key, model, input_tokens,"
        " output_tokens, latency_s, cached, status, error, created) VALUES ('r1', 's1',"
        " 'judge', 'judge.scores', 'k1', 'm', 100, 10, 0.5, 0, 'ok', NULL,"
        " '2026-01-01T00:00:00+00:00')"
    )
    assert [m.__name__ for m in pending(conn)][0] == "m0006_calls_cached_tokens"
    conn.close()

    with Store(db_path) as store:
        assert "m0006_calls_cached_tokens" in applied(store.conn)
        old = list(store.iter_calls("r1"))
        assert [(c.input_tokens, c.cached_tokens) for c in old] == [(100, 0)]
        store.add_calls([old[0].model_copy(update={"id": None, "sample_id": "s2",
                                                   "cached_tokens": 60})])
        total = store.usage("r1", source="calls")["total"]
    assert (total.calls, total.input_tokens, total.cached_tokens) == (2, 200, 60)


OLD_RESULTS = json.dumps([
    {"name": "judge.faithfulness", "value": 7.5, "unscored_reason": None, "details": {
        "rating_mode": "expected", "stated": 8, "distribution": {"7": 0.5, "8": 0.5},
        "mass": 0.99, "suspicious_reply": "a verdict copied", "truncated": ["answer"],
        "context_truncated": True}},
    {"name": "judge.hallucination", "value": None, "unscored_reason": None, "details": {
        "abstention": "false", "abstention_basis": "judge: abstains"}},
    {"name": "trace.context_relevance", "value": 0.5, "unscored_reason": None, "details": {
        "relevant_keys": ["0a", "1b"], "soft": True}},
    {"name": "trace.adherence", "value": 0.0, "unscored_reason": None, "details": {
        "unsupported": [{"key": "b", "text": "B."}], "unjudged": []}},
    {"name": "ragas.faithfulness", "value": None, "unscored_reason": "HTTP 400", "details": {
        "prompt": [{"role": "user", "content": "judge this"}], "raw_reply": "no"}},
    {"name": "ragas.answer_relevancy", "value": 0.2, "unscored_reason": None, "details": {
        "claims": [{"claim": "Paris is big.", "supported": False, "reason": "-"}]}},
])


def _old_run(db_path: Path, before: str, judge: str) -> sqlite3.Connection:
    """A database migrated up to the migration `before` (not it), holding run r1 of
    `judge`: open, for the old rows a test writes."""
    conn = _raw(db_path)
    apply_migrations(conn, MIGRATIONS[:[m.__name__ for m in MIGRATIONS].index(before)])
    conn.execute(
        "INSERT INTO runs (id, created, status, config, package_version, dataset, judge,"
        " judge_model) VALUES ('r1', '2026-01-01T00:00:00+00:00', 'complete',"
        " '{\"dataset\": \"d.jsonl\"}', '0.0.1', 'd.jsonl', ?, ?)", (judge, judge))
    return conn


def test_m0009_moves_what_readers_used_out_of_the_details(db_path: Path) -> None:
    """m0009_typed_results: a result stored with its readings in its details gets them on
    typed fields (the details keep the suite's own keys), and the suspicious reply is
    counted from the result's column."""
    conn = _old_run(db_path, "m0009_typed_results", "openai:m")
    conn.execute("INSERT INTO results VALUES ('r1', 's1', 'judge', 'default', NULL, '{}', ?,"
                 " '2026-01-01T00:00:00+00:00')", (OLD_RESULTS,))
    conn.close()
    with Store(db_path) as store:
        (result,) = store.results_of("r1", "s1")
        by = {m.name: m for m in result.results}
        assert store.suspicious_replies("r1") == 1
    faith = by["judge.faithfulness"]
    assert faith.details == {} and faith.suspicious == "a verdict copied"
    assert faith.truncated == ("answer", "contexts")
    assert faith.rating is not None and (faith.rating.mode, faith.rating.stated,
                                         faith.rating.mass) == ("expected", 8, 0.99)
    hall = by["judge.hallucination"]
    assert hall.abstention == "false" and hall.status == "abstained"
    assert hall.details == {} and hall.abstention_basis == "judge: abstains"  # m0022
    relevance = by["trace.context_relevance"]
    assert relevance.marks is not None and relevance.marks.relevant == ("0a", "1b")
    assert relevance.details == {"soft": True}
    adherence = by["trace.adherence"]
    assert adherence.marks is not None and adherence.marks.unsupported == ("b",)
    assert adherence.details == {"unjudged": []}
    failed = by["ragas.faithfulness"]
    assert failed.failure is not None and failed.failure.raw_reply == "no"
    assert [(p.role, p.content) for p in failed.failure.prompt] == [("user", "judge this")]
    relevancy = by["ragas.answer_relevancy"]
    assert relevancy.marks is not None
    assert relevancy.marks.unsupported_claims == ("Paris is big.",)
    assert "claims" in relevancy.details  # the suite's own record stays


def test_m0022_types_an_abstentions_basis_and_old_runs_read_theirs(db_path: Path) -> None:
    """m0022_abstention_basis_typed: a result stored with its abstention's basis in its
    details (as runs before it were) gets it on `MetricResult.abstention_basis`, which
    `Store.abstention_bases` reads; the details keep the suite's own keys."""
    conn = _old_run(db_path, "m0022_abstention_basis_typed", "offline")
    for sample, strategy, basis in (("s1", "a", "offline: context relevance"),
                                    ("s2", "b", "judge: abstains")):
        stored = json.dumps([
            {"name": "judge.hallucination", "value": None, "abstention": "false",
             "details": {"abstention_basis": basis, "own": 1}},
            {"name": "judge.faithfulness", "value": 7.0, "details": {}}])
        conn.execute("INSERT INTO results (run_id, sample_id, suite, strategy, usage, results,"
                     " created) VALUES ('r1', ?, 'judge', ?, '{}', ?, "
                     "'2026-01-01T00:00:00+00:00')", (sample, strategy, stored))
    conn.close()
    with Store(db_path) as store:
        assert "m0022_abstention_basis_typed" in applied(store.conn)
        assert store.abstention_bases("r1") == {"a": ["offline: context relevance"],
                                               "b": ["judge: abstains"]}
        (result,) = store.results_of("r1", "s1")
    hall = next(m for m in result.results if m.name == "judge.hallucination")
    assert hall.abstention_basis == "offline: context relevance"
    assert hall.details == {"own": 1}


def test_a_new_abstention_writes_its_basis_on_the_typed_field() -> None:
    from ragassay.metrics.base import abstain
    from ragassay.types import MetricResult

    (done,) = abstain([MetricResult(name="m", value=0.5)], ["m"], "false", "judge: abstains")
    assert (done.abstention, done.abstention_basis, done.details) == (
        "false", "judge: abstains", {})


def test_reopening_applies_nothing_twice(db_path: Path) -> None:
    Store(db_path).close()
    with Store(db_path) as store:
        assert apply_migrations(store.conn) == []
        rows = store.conn.execute("SELECT name, COUNT(*) FROM migrations GROUP BY name").fetchall()
    assert {name: n for name, n in rows} == {m.__name__: 1 for m in MIGRATIONS}


def test_failed_migration_rolls_back_and_is_not_recorded(db_path: Path) -> None:
    def m9999_broken(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE half (x)")
        raise RuntimeError("boom")

    conn = _raw(db_path)
    with pytest.raises(RuntimeError):
        apply_migrations(conn, (*MIGRATIONS, m9999_broken))
    assert applied(conn) == [m.__name__ for m in MIGRATIONS]
    assert conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'half'").fetchone() is None
    conn.close()


def test_database_from_a_newer_version_is_refused(db_path: Path) -> None:
    Store(db_path).close()
    conn = _raw(db_path)
    conn.execute("INSERT INTO migrations VALUES ('m9000_future', '2030-01-01')")
    conn.close()
    with pytest.raises(StoreError, match="newer than this ragassay.*m9000_future"):
        Store(db_path)


def test_readonly_refuses_a_database_that_needs_upgrading(db_path: Path) -> None:
    conn = _raw(db_path)
    apply_migrations(conn, MIGRATIONS[:1])
    conn.close()
    with pytest.raises(StoreError, match="needs a schema upgrade"):
        Store(db_path, readonly=True)
    Store(db_path).close()
    with Store(db_path, readonly=True) as ro:
        assert ro.list_runs() == []


def test_m0015_counts_the_lost_documents_hops_from_one(db_path: Path) -> None:
    """A traced sample stored when `trace.lost[].hop` counted from 0 reads from 1, as the
    console and the report's `hops.lost` always said it."""
    import json

    from ragassay.dataset.traces import SampleTrace
    from ragassay.types import Sample

    conn = _raw(db_path)
    upto = [m.__name__ for m in MIGRATIONS].index("m0015_lost_hops_one_based")
    apply_migrations(conn, MIGRATIONS[:upto])
    conn.execute(
        "INSERT INTO runs (id, created, status, config, package_version, dataset, judge,"
        " judge_model) VALUES ('r1', '2026-01-01T00:00:00+00:00', 'complete',"
        " '{\"dataset\": \"t.jsonl\"}', '0.0.1', 't.jsonl', 'offline', 'none')")
    trace = {"trace_id": "t", "span_id": "s", "judged": True,
             "lost": [{"hop": 0, "span_id": "h1", "document": "eiffel", "relevance": 0.9}]}
    rows = [("s1", {"id": "s1", "question": "Q", "metadata": {"trace": trace}}),
            ("s2", {"id": "s2", "question": "Q"})]
    for i, (sid, sample) in enumerate(rows):
        conn.execute("INSERT INTO samples (run_id, sample_id, ordinal, strategy, sample) "
                     "VALUES ('r1', ?, ?, 'default', ?)", (sid, i, json.dumps(sample)))
    conn.close()
    with Store(db_path) as store:
        samples = {s.id: s for s in store.iter_samples("r1") if isinstance(s, Sample)}
        lost = SampleTrace.of(samples["s1"])
        assert lost is not None and [d.hop for d in lost.lost] == [1]
        assert samples["s2"].metadata == {}
