"""Human labels in the store: keyed by content, one current value per label and person
(two people's labels of one sample are both kept, a person relabelling replaces only
their own), named migrations that older stores gain (m0018 keeps every stored label with
its annotator), and each run's annotation plan."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from ragassay.store import Store
from ragassay.store.migrations import MIGRATIONS, applied, apply_migrations
from ragassay.types import UNNAMED, AnnotationPlan, HumanLabel, RunConfig, Sample


def _store(tmp_path: Path) -> Store:
    return Store(tmp_path / "r.db")


def test_a_label_is_keyed_by_content_and_each_persons_is_kept(store: Store) -> None:
    a = Sample(id="q1", question="Q?", contexts=("C.",), answer="A.", strategy="x")
    b = Sample(id="other-id", question="Q?", contexts=("C.",), answer="A.", strategy="y",
               reference="R", metadata={"k": 1})
    assert a.content_key == b.content_key  # the same interaction, whatever its id
    assert a.content_key != a.model_copy(update={"answer": "B."}).content_key
    key = a.content_key
    store.set_labels([HumanLabel(content_key=key, name="hallucinated", value=True,
                                 annotator="ann", source="annotate:r1")])
    store.set_labels([HumanLabel(content_key=key, name="hallucinated", value=False,
                                 annotator="bob", note="on second look")])
    # two people labelling the same sample: both kept
    both = store.people_labels([b.content_key, "missing"])
    assert [(x.annotator, x.value) for x in both] == [("ann", True), ("bob", False)]
    assert store.count_labels() == 2
    bob = store.labels_for([key], "bob")[key]["hallucinated"]
    assert (bob.value, bob.note) == (False, "on second look") and bob.created
    # one person relabelling replaces only their own
    store.set_labels([HumanLabel(content_key=key, name="hallucinated", value=False,
                                 annotator="ann")])
    assert {(x.annotator, x.value) for x in store.people_labels([key])} == {
        ("ann", False), ("bob", False)}
    assert store.count_labels() == 2
    assert store.delete_label(key, "hallucinated", "ann") is True
    assert store.delete_label(key, "hallucinated", "ann") is False
    assert [x.annotator for x in store.people_labels([key])] == ["bob"]
    assert store.labels_for([key], "ann") == {}


def test_a_label_without_an_annotator_is_the_unnamed_ones(store: Store) -> None:
    store.set_labels([HumanLabel(content_key="k", name="correct", value=True)])
    store.set_labels([HumanLabel(content_key="k", name="correct", value=False)])
    (only,) = store.people_labels(["k"])
    assert (only.annotator, only.value) == (UNNAMED, False)
    assert store.delete_label("k", "correct", "") is True


def test_labels_for_many_keys_reads_them_all(tmp_path: Path) -> None:
    keys = [f"k{i:04d}" for i in range(1200)]  # more than one IN (...) chunk
    with _store(tmp_path) as store:
        store.set_labels(HumanLabel(content_key=k, name="relevance", value=float(i % 4))
                         for i, k in enumerate(keys))
        got = store.labels_for(keys, "")
        assert len(got) == 1200 and got["k0007"]["relevance"].value == 3.0
        assert len(store.people_labels(keys)) == 1200
        assert [lab.content_key for lab in store.iter_labels("relevance")][:2] == keys[:2]
        assert list(store.iter_labels("other")) == []


def test_a_runs_plan_is_kept_and_deleted_with_the_run(tmp_path: Path) -> None:
    with _store(tmp_path) as store:
        run = store.create_run(RunConfig(dataset="d.jsonl"), package_version="0",
                               dataset_hash=None, judge_model="m")
        assert store.get_plan(run) is None
        store.save_plan(AnnotationPlan(run_id=run, kind="uncertainty", seed=3,
                                       metric="judge.faithfulness", labels=("hallucinated",)))
        plan = store.get_plan(run)
        assert plan is not None and (plan.kind, plan.seed, plan.labels) == (
            "uncertainty", 3, ("hallucinated",))
        assert plan.created
        store.save_plan(plan.model_copy(update={"skipped": ("abc",)}))
        assert store.get_plan(run).skipped == ("abc",)  # type: ignore[union-attr]
        store.delete_run(run)
        assert store.get_plan(run) is None


def test_a_store_before_labels_gains_them(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    conn = sqlite3.connect(db, isolation_level=None)
    upto = [m.__name__ for m in MIGRATIONS].index("m0006_calls_cached_tokens") + 1
    apply_migrations(conn, MIGRATIONS[:upto])
    conn.close()
    with Store(db) as store:
        assert "m0007_human_labels" in applied(store.conn)
        assert store.count_labels() == 0


def test_a_read_only_store_reads_labels(tmp_path: Path) -> None:
    with _store(tmp_path) as store:
        store.set_labels([HumanLabel(content_key="k", name="correct", value=1.0)])
    with Store(tmp_path / "r.db", readonly=True) as store:
        assert store.people_labels(["k"])[0].value == 1.0
        with pytest.raises(Exception, match="cannot write"):
            store.set_labels([HumanLabel(content_key="k", name="correct", value=0.0)])


def test_the_last_of_a_repeated_label_in_one_call_wins(store: Store) -> None:
    assert store.set_labels([HumanLabel(content_key="k", name="correct", value=True),
                             HumanLabel(content_key="k", name="correct", value=False)]) == 2
    assert [x.value for x in store.people_labels(["k"])] == [False]


def _old_connection(location: str | Path) -> Any:
    """A raw connection to a new store at `location`, for an old schema's migrations."""
    if isinstance(location, Path):
        location.parent.mkdir(parents=True, exist_ok=True)
        return sqlite3.connect(location, isolation_level=None)
    from ragassay.store import dialect

    return dialect.connect(location)


def test_m0018_keeps_every_stored_label_with_its_annotator(store_location: str | Path
                                                          ) -> None:
    conn = _old_connection(store_location)
    upto = [m.__name__ for m in MIGRATIONS].index("m0015_lost_hops_one_based") + 1
    apply_migrations(conn, MIGRATIONS[:upto])
    old = [("k1", "hallucinated", "true", "ana", "annotate:r", "", "2026-01-01T00:00:00"),
           ("k1", "relevance", "2.0", "", "import:x.csv", "n", "2026-01-02T00:00:00"),
           ("k2", "hallucinated", "false", "bo", "", "", "2026-01-03T00:00:00")]
    for row in old:
        conn.execute("INSERT INTO labels (content_key, name, value, annotator, source, note,"
                     " created) VALUES (?, ?, ?, ?, ?, ?, ?)", row)
    conn.close()
    with Store(store_location) as store:
        assert "m0018_labels_per_annotator" in applied(store.conn)
        got = [(x.content_key, x.name, x.value, x.annotator, x.source, x.created)
               for x in store.iter_labels()]
        assert got == [("k1", "hallucinated", True, "ana", "annotate:r", "2026-01-01T00:00:00"),
                       ("k1", "relevance", 2.0, UNNAMED, "import:x.csv", "2026-01-02T00:00:00"),
                       ("k2", "hallucinated", False, "bo", "", "2026-01-03T00:00:00")]
        # the new key: a second person's label of k1 is kept beside ana's
        store.set_labels([HumanLabel(content_key="k1", name="hallucinated", value=False,
                                     annotator="bo")])
        assert {(x.annotator, x.value) for x in store.people_labels(["k1"])
                if x.name == "hallucinated"} == {("ana", True), ("bo", False)}
