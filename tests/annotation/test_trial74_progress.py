"""Trial 74: `annotate` on data that carries people's labels opened with `0 of 144 samples
labelled by root (hallucinated 144, relevance 0)`, read as "nothing labelled". Where the
data gives some asked labels itself, the progress line says them first (how many) and
then what this annotator has added, apart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragassay.annotation import SessionOptions, progress, start
from ragassay.store import Store
from tests.support.annotated_run import make_run


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "a.db") as s:
        yield s


def test_the_datas_own_labels_are_said_apart_from_the_annotators(store: Store) -> None:
    run = make_run(store, 40, data_labels={i: {"hallucinated": bool(i % 2)}
                                           for i in range(40)})
    session = start(store, run.run_id,
                    SessionOptions(labels=("hallucinated", "relevance")), annotator="root")
    p = progress(store, session.queue, "root")
    assert (dict(p.data), dict(p.added), p.complete) == (
        {"hallucinated": 40, "relevance": 0}, {"hallucinated": 0, "relevance": 0}, 0)
    assert p.summary() == (
        "the data's own labels: hallucinated on 40 of 40 samples; labelled by root here: "
        "hallucinated 0, relevance 0; 0 of 40 samples have every label asked "
        "(hallucinated, relevance)")
    for _ in range(3):  # root labels relevance on three samples
        item = session.current()
        assert item.label == "relevance"
        session.record(item, 2)
    p = progress(store, session.queue, "root")
    assert p.summary().startswith(
        "the data's own labels: hallucinated on 40 of 40 samples; labelled by root here: "
        "hallucinated 0, relevance 3; 3 of 40 samples have every label asked")
    # anyone's: the labels the store adds beyond the data's
    assert "; labelled here: hallucinated 0, relevance 3; " in progress(
        store, session.queue).summary()


def test_without_labels_of_the_datas_own_the_line_reads_as_before(store: Store) -> None:
    run = make_run(store, 40)
    session = start(store, run.run_id, SessionOptions(labels=("hallucinated",)),
                    annotator="ana")
    assert progress(store, session.queue, "ana").summary() == (
        "0 of 40 samples labelled by ana (hallucinated 0)")
