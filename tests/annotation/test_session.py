"""An annotation session over a real store: the plan's queue in order, labels recorded by
their vocabulary name and checked, skips kept as non-response, undo that restores what
was there, and the labels feeding the run's corrected estimates."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragassay.annotation import (
    AnnotationError,
    Item,
    SessionOptions,
    answer,
    choices,
    progress,
    start,
    value_text,
)
from ragassay.annotation.progress import labelled_table
from ragassay.report import corrected_for, plan_queue, run_table
from ragassay.store import Store
from ragassay.types import AnnotationPlan, HumanLabel
from tests.support.annotated_run import make_run


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "a.db") as s:
        yield s


def test_the_queue_is_the_plans_order_and_labels_are_stored_by_content(store: Store) -> None:
    run = make_run(store, 40)
    session = start(store, run.run_id, SessionOptions(labels=("hallucination",)),
                    annotator="ana")
    assert session.queue.asked == ("hallucinated",)  # the vocabulary's name for an alias
    plan = store.get_plan(run.run_id)
    assert plan is not None and plan.kind == "uniform" and plan.labels == ("hallucinated",)
    order = [key for _, key in plan_queue(run_table(store, run.run_id), plan)]
    seen = []
    for _ in range(5):
        item = session.current()
        assert item is not None and item.label == "hallucinated"
        seen.append(item.entry.content_key)
        stored = session.record(item, bool(run.bad[run.index(item.entry.content_key)]),
                                note="checked twice" if not seen[1:] else "")
        assert stored.name == "hallucinated"
    assert seen == order[:5]
    first = store.labels_for([seen[0]], "ana")[seen[0]]["hallucinated"]
    assert (first.annotator, first.source, first.note) == ("ana", f"annotate:{run.run_id}",
                                                           "checked twice")
    assert first.value is bool(run.bad[run.index(seen[0])]) and first.created


def test_a_value_outside_the_vocabulary_is_refused_in_one_line(store: Store) -> None:
    run = make_run(store, 10)
    session = start(store, run.run_id, SessionOptions(labels=("relevance",)))
    item = session.current()
    assert item is not None
    with pytest.raises(AnnotationError, match=r"^relevance: 5 is outside 0-3$"):
        session.record(item, 5)
    with pytest.raises(AnnotationError, match="'faithful' is not a label this session asks"):
        session.record(item, True, label="faithful")
    assert store.count_labels() == 0
    assert [c.key for c in choices("relevance")] == ["0", "1", "2", "3"]
    assert [(c.text, c.value, c.key) for c in choices("hallucinated")] == [
        ("Yes", True, "y"), ("No", False, "n")]


def test_every_asked_label_is_asked_before_the_next_sample(store: Store) -> None:
    run = make_run(store, 10)
    session = start(store, run.run_id)
    assert session.queue.asked == ("hallucinated", "relevance")
    item = session.current()
    assert item is not None and item.missing == ("hallucinated", "relevance")
    session.record(item, False)
    again = session.current()
    assert again is not None and again.entry == item.entry and again.label == "relevance"
    session.record(again, 2)
    after = session.current()
    assert after is not None and after.entry != item.entry and after.position == 1


def test_samples_the_data_labels_are_not_offered_and_a_label_joins_the_datas(
        store: Store) -> None:
    run = make_run(store, 12, data_labels={i: {"hallucination": False} for i in range(10)})
    session = start(store, run.run_id, SessionOptions(labels=("hallucinated",)))
    item = session.current()
    assert item is not None and run.index(item.entry.content_key) >= 10
    session.record(item, True)
    rt = run_table(store, run.run_id)
    assert rt.table.label_names == ("hallucination",)  # the data's spelling, one label
    row = next(r for r in rt.table.rows if rt.content_keys[r.key] == item.entry.content_key)
    assert row.labels["hallucination"] is True
    last = session.current()
    assert last is not None
    session.record(last, False)
    assert session.current() is None  # every sample has the label
    # a person relabels a sample the data labels, then undoes it: progress reads the
    # stored labels on top of the data's own, as a fresh read of the run does
    data_item = Item(0, next(e for e in session.queue.entries
                             if e.content_key == run.key(0)), ("hallucinated",))
    session.record(data_item, True)
    fresh = run_table(store, run.run_id).table.rows
    assert labelled_table(store, session.queue).table.rows == fresh
    assert next(r for r in fresh if r.id == "s000").labels == {"hallucination": True}
    session.undo()
    fresh = run_table(store, run.run_id).table.rows
    assert labelled_table(store, session.queue).table.rows == fresh
    assert next(r for r in fresh if r.id == "s000").labels == {"hallucination": False}


def test_skip_and_undo(store: Store) -> None:
    run = make_run(store, 10)
    session = start(store, run.run_id, SessionOptions(labels=("hallucinated",)))
    a = session.current()
    assert a is not None
    session.skip(a)
    plan = store.get_plan(run.run_id)
    assert plan is not None and plan.skipped == (a.entry.content_key,)
    b = session.current()
    assert b is not None and b.position == 1
    session.record(b, True)
    assert session.undo() is not None  # the label goes ...
    assert store.count_labels() == 0 and session.current() == b
    session.undo()  # ... then the skip
    plan = store.get_plan(run.run_id)
    assert plan is not None and plan.skipped == () and session.current() == a
    assert session.undo() is None  # nothing left to undo


def test_undo_takes_back_only_this_persons_label_and_restores_a_lifted_skip(
        store: Store) -> None:
    run = make_run(store, 10)
    session = start(store, run.run_id, SessionOptions(labels=("hallucinated",)),
                    annotator="bo")
    item = session.current()
    assert item is not None
    key = item.entry.content_key
    imported = HumanLabel(content_key=key, name="hallucinated", value=True, annotator="ana",
                          source="import:l.jsonl", note="from the file",
                          created="2026-01-01T00:00:00+00:00")
    session.skip(item)
    store.set_labels([imported])
    # bo labels the skipped sample: kept beside ana's import, the skip lifts
    again = Item(item.position, item.entry, ("hallucinated",))
    session.record(again, False)
    plan = store.get_plan(run.run_id)
    assert plan is not None and plan.skipped == ()
    assert {(x.annotator, x.value) for x in store.people_labels([key])} == {
        ("ana", True), ("bo", False)}
    session.record(again, True)  # bo changes their mind: their own label replaced
    session.undo()  # ... and back
    assert store.labels_for([key], "bo")[key]["hallucinated"].value is False
    session.undo()
    assert store.people_labels([key]) == [imported]
    plan = store.get_plan(run.run_id)
    assert plan is not None and plan.skipped == (key,)


def test_a_plan_replaced_by_another_session_stops_this_one(store: Store) -> None:
    run = make_run(store, 10)
    session = start(store, run.run_id)
    store.save_plan(AnnotationPlan(run_id=run.run_id, kind="stratified", seed=1))
    item = session.current  # reading the queue reads the plan
    with pytest.raises(AnnotationError, match="was replaced since this session started"):
        item()


def test_the_verdict_is_the_linked_metrics_of_the_sample(store: Store) -> None:
    run = make_run(store, 10)
    session = start(store, run.run_id, SessionOptions(labels=("relevance",)))
    item = session.current()
    assert item is not None
    entry = session.entry(item.entry)
    assert entry is not None and entry.answer.startswith("Item ")
    verdict = session.verdict(entry)
    assert [v.metric for v in verdict] == ["judge.context_relevance"]
    assert verdict[0].title == "Context relevance (judge)"
    value = entry.metrics["judge.context_relevance"]
    assert verdict[0].value == value and verdict[0].text == f"{value:.3f} (1-10)"
    hallucination = start(store, run.run_id, SessionOptions(labels=("hallucinated",)))
    first = hallucination.verdict(entry)[0]
    assert first.metric == "judge.hallucination" and first.text in ("yes", "no")
    both = start(store, run.run_id, SessionOptions(labels=("hallucinated", "relevance")))
    assert len(both.verdict(entry)) == 3  # the labels given pick the metrics shown
    assert [v.metric for v in both.verdict(entry, ["relevance"])] == [
        "judge.context_relevance"]
    assert value_text("relevance", 2.0) == "2 highly relevant"
    assert value_text("hallucinated", False) == "no"
    assert [answer("hallucinated", w).value for w in ("y", "YES", "1", "n", "false")] == [
        True, True, True, False, False]
    assert answer("hallucinated", "2") is None and answer("relevance", "4") is None
    assert answer("relevance", "related").value == answer("relevance", "1").value == 1.0


def _label_all(session, run, n: int) -> None:  # type: ignore[no-untyped-def]
    for _ in range(n):
        item = session.current()
        i = run.index(item.entry.content_key)
        session.record(item, bool(run.bad[i]) if item.label == "hallucinated"
                       else int(run.grade[i]))


def test_progress_counts_labels_and_says_what_is_missing_then_the_width(store: Store) -> None:
    run = make_run(store, 120)
    session = start(store, run.run_id, SessionOptions(labels=("hallucinated",)))
    _label_all(session, run, 12)
    session.skip(session.current())
    p = progress(store, session.queue)
    assert (p.total, p.complete, p.skipped, dict(p.labelled)) == (
        120, 12, 1, {"hallucinated": 12})
    assert p.summary() == "12 of 120 samples labelled (hallucinated 12); 1 skipped"
    assert [m.metric for m in p.metrics] == ["judge.hallucination", "judge.faithfulness"]
    assert p.metrics[0].missing == 18 and p.metrics[0].estimate is None
    assert p.metrics[0].text(p.min_labels) == ("12 labels: 18 more before a corrected "
                                               "interval (30 minimum)")
    _label_all(session, run, 28)
    p = progress(store, session.queue)
    est = p.metrics[1].estimate
    assert est is not None and est.n_labelled == 40 and p.metrics[1].missing == 0
    assert est == corrected_for(store, run.run_id).overall("judge.faithfulness")
    assert est.more_labels is not None and est.more_labels > 0
    text = p.metrics[1].text(p.min_labels)
    assert f"width {est.width:.3f}" in text and f"about {est.more_labels} labels more" in text


def test_a_small_run_says_it_cannot_reach_the_minimum(store: Store) -> None:
    run = make_run(store, 20)
    session = start(store, run.run_id, SessionOptions(labels=("hallucinated",)))
    _label_all(session, run, 3)
    line = progress(store, session.queue).metrics[0].text(30)
    assert line == ("3 labels; the run has 20 samples, fewer than the 30 labels a corrected "
                    "interval needs")


def test_an_uncertainty_plan_gives_a_weighted_corrected_estimate(store: Store) -> None:
    run = make_run(store, 120)
    session = start(store, run.run_id, SessionOptions(kind="uncertainty",
                                                      labels=("hallucinated",)))
    plan = store.get_plan(run.run_id)
    assert plan is not None and plan.metric == "judge.faithfulness"
    order = [key for _, key in plan_queue(run_table(store, run.run_id), plan)]
    assert [e.content_key for e in session.queue.entries] == order
    _label_all(session, run, 40)
    est = corrected_for(store, run.run_id).overall("judge.faithfulness")
    assert est is not None and est.design == "uncertainty" and est.n_labelled == 40


def test_a_stratified_plan_shares_the_labels_among_strategies(store: Store) -> None:
    # 3 strategies of 10, 10 and 40 samples (ids repeat the pattern a, b, c, c, c, c)
    run = make_run(store, 60, strategies=("a", "b", "c", "c", "c", "c"))
    session = start(store, run.run_id, SessionOptions(kind="stratified",
                                                      labels=("hallucinated",)))
    firsts = [e.strategy for e in session.queue.entries[:15]]
    # uniform would give about 10 of 15 to c; an equal share gives it about 5
    assert firsts.count("c") < 10 and {"a", "b", "c"} <= set(firsts)
