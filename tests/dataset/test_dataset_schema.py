"""sample_from_mapping: aliases, defaults, extras and every per-row validation message."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from ragassay.dataset import DatasetError, content_id, sample_from_mapping
from ragassay.types import Sample

W = "data.jsonl:3"


def test_minimal_row_gets_defaults_and_content_id() -> None:
    s = sample_from_mapping({"question": "What is X?"}, where=W)
    assert s == Sample(id=content_id("What is X?", (), "", "default"), question="What is X?")
    assert len(s.id) == 12 and all(c in "0123456789abcdef" for c in s.id)


def test_full_row() -> None:
    row = {
        "id": "s1",
        "question": "Q?",
        "contexts": ["c1", "c2"],
        "answer": "A.",
        "reference": ["r1", "r2"],
        "strategy": "bm25",
        "labels": {"hallucination": False},
        "metadata": {"k": 1},
    }
    s = sample_from_mapping(row, where=W)
    assert s.id == "s1"
    assert s.contexts == ("c1", "c2")
    assert s.reference == ("r1", "r2")
    assert (s.answer, s.strategy) == ("A.", "bm25")
    assert s.labels == {"hallucination": False}
    assert s.metadata == {"k": 1}


@pytest.mark.parametrize(
    ("key", "value", "attr", "expected"),
    [
        ("user_input", "Q?", "question", "Q?"),
        ("response", "A.", "answer", "A."),
        ("retrieved_contexts", ["c"], "contexts", ("c",)),
        ("reference", "R", "reference", "R"),
        ("ground_truth", "R", "reference", "R"),
        ("ground_truths", ["R1", "R2"], "reference", ("R1", "R2")),
        ("expected_answer", "R", "reference", "R"),
        ("golden_answer", "R", "reference", "R"),
        ("contexts", ["c"], "contexts", ("c",)),
        ("answer", "A.", "answer", "A."),
    ],
)
def test_aliases(key: str, value: object, attr: str, expected: object) -> None:
    row = {key: value} if key == "user_input" else {"question": "Q?", key: value}
    assert getattr(sample_from_mapping(row, where=W), attr) == expected


def test_ragas_row() -> None:
    row = {
        "user_input": "Q?",
        "retrieved_contexts": ["c"],
        "response": "A.",
        "reference": "R",
    }
    s = sample_from_mapping(row, where=W)
    assert (s.question, s.contexts, s.answer, s.reference) == ("Q?", ("c",), "A.", "R")
    assert s.metadata == {}


def test_two_aliases_with_same_value_are_fine() -> None:
    row = {"question": "Q?", "user_input": "Q?", "ground_truth": "R", "reference": ["R"]}
    s = sample_from_mapping(row, where=W)
    assert s.question == "Q?" and s.reference == "R"


def test_two_aliases_with_different_values_name_both() -> None:
    with pytest.raises(DatasetError) as err:
        sample_from_mapping({"question": "Q1", "user_input": "Q2"}, where=W)
    assert str(err.value) == (
        "data.jsonl:3: 'question' and 'user_input' both give the question with different values"
    )
    assert err.value.field == "question"
    with pytest.raises(DatasetError, match=r"'answer' and 'response'"):
        sample_from_mapping({"question": "Q", "answer": "a", "response": "b"}, where=W)
    with pytest.raises(DatasetError, match=r"'reference' and 'golden_answer'"):
        sample_from_mapping({"question": "Q", "reference": "a", "golden_answer": "b"}, where=W)


def test_null_means_absent() -> None:
    row = {"question": "Q", "answer": None, "contexts": None, "strategy": None, "x": None}
    s = sample_from_mapping(row, where=W)
    assert (s.answer, s.contexts, s.strategy, s.metadata) == ("", (), "default", {})
    s2 = sample_from_mapping({"question": "Q", "user_input": None}, where=W)
    assert s2.question == "Q"


def test_extra_fields_go_to_metadata() -> None:
    row = {"question": "Q", "latency_ms": 120, "retriever": "bm25", "metadata": {"a": 1}}
    s = sample_from_mapping(row, where=W)
    assert s.metadata == {"a": 1, "latency_ms": 120, "retriever": "bm25"}


def test_extra_field_conflicting_with_metadata_key() -> None:
    with pytest.raises(DatasetError) as err:
        sample_from_mapping({"question": "Q", "a": 2, "metadata": {"a": 1}}, where=W)
    assert str(err.value) == "data.jsonl:3: 'metadata' key 'a' is given twice with different values"


def test_flattened_labels_and_metadata() -> None:
    row = {"question": "Q", "labels.hallucination": True, "metadata.source": "wiki"}
    s = sample_from_mapping(row, where=W)
    assert s.labels == {"hallucination": True}
    assert s.metadata == {"source": "wiki"}
    both = {"question": "Q", "labels": {"correct": True}, "labels.hallucination": False}
    assert sample_from_mapping(both, where=W).labels == {"correct": True, "hallucination": False}


def test_integer_id_becomes_string() -> None:
    assert sample_from_mapping({"id": 7, "question": "Q"}, where=W).id == "7"


def test_labels_and_metadata_become_plain_json() -> None:
    row = {
        "question": "Q",
        "labels": {"score": np.float64(0.5), "flags": np.array([1, 2])},
        "when": dt.datetime(2024, 5, 1, 12, 0),
        "pair": (1, 2),
    }
    s = sample_from_mapping(row, where=W)
    assert s.labels == {"score": 0.5, "flags": [1, 2]}
    assert type(s.labels["score"]) is float
    assert s.metadata == {"when": "2024-05-01T12:00:00", "pair": [1, 2]}


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({}, "'question' is required (accepted names: 'question', 'user_input')"),
        ({"answer": "A"}, "'question' is required (accepted names: 'question', 'user_input')"),
        ({"question": 5}, "'question' must be a string, got int"),
        ({"question": "  "}, "'question' must not be empty"),
        ({"question": "Q", "contexts": 7}, "'contexts' must be a list of strings, got int"),
        (
            {"question": "Q", "contexts": {"a": 1}},
            "'contexts' must be a list of strings, got object",
        ),
        (
            {"question": "Q", "contexts": ["a", 3]},
            "'contexts' must be a list of strings (item 2 is int)",
        ),
        ({"question": "Q", "answer": 1.5}, "'answer' must be a string, got float"),
        ({"question": "Q", "answer": ["a"]}, "'answer' must be a string, got list"),
        (
            {"question": "Q", "reference": 5},
            "'reference' must be a string or a list of strings, got int",
        ),
        (
            {"question": "Q", "ground_truths": ["a", {"b": 1}]},
            "'reference' must be a string or a list of strings (item 2 is object)",
        ),
        ({"question": "Q", "labels": [1]}, "'labels' must be an object, got list"),
        ({"question": "Q", "labels": "yes"}, "'labels' must be an object, got string"),
        ({"question": "Q", "metadata": 3}, "'metadata' must be an object, got int"),
        ({"question": "Q", "strategy": 3}, "'strategy' must be a string, got int"),
        ({"question": "Q", "strategy": ""}, "'strategy' must not be empty"),
        ({"question": "Q", "id": True}, "'id' must be a string or an integer, got bool"),
        ({"question": "Q", "id": " "}, "'id' must not be empty"),
        ({"question": "Q\x00"}, "'question' contains a NUL byte"),
        ({"question": "Q", "answer": "a\x00"}, "'answer' contains a NUL byte"),
        ({"question": "Q", "contexts": ["ok", "b\x00"]}, "'contexts' contains a NUL byte (item 2)"),
        ({"question": "Q", "reference": "r\x00"}, "'reference' contains a NUL byte"),
        ({"question": "Q", "id": "a\x00"}, "'id' contains a NUL byte"),
    ],
)
def test_bad_rows(row: dict[str, object], message: str) -> None:
    with pytest.raises(DatasetError) as err:
        sample_from_mapping(row, where=W)
    assert str(err.value) == f"{W}: {message}"
    assert err.value.where == W and err.value.reason == message
    assert isinstance(err.value, ValueError)


def test_error_field_is_canonical() -> None:
    with pytest.raises(DatasetError) as err:
        sample_from_mapping({"user_input": "Q", "retrieved_contexts": 7}, where=W)
    assert err.value.field == "contexts"
    assert "'contexts'" in str(err.value)


@pytest.mark.parametrize("row", [[1, 2], "text", 5, None])
def test_row_must_be_an_object(row: object) -> None:
    with pytest.raises(DatasetError, match=r"^data\.jsonl:3: row must be an object, got \w+$"):
        sample_from_mapping(row, where=W)  # type: ignore[arg-type]


def test_error_messages_stay_on_one_line() -> None:
    err = DatasetError("bad\nthing", where="f.csv:2")
    assert str(err) == "f.csv:2: bad thing"


def test_content_id_depends_on_interaction_only() -> None:
    base = {"question": "Q", "contexts": ["c"], "answer": "A", "strategy": "s"}
    ids = {sample_from_mapping(base, where=W).id}
    annotated = {**base, "reference": "R", "labels": {"x": 1}, "metadata": {"m": 2}, "k": 3}
    assert sample_from_mapping(annotated, where=W).id in ids
    for field, value in [
        ("question", "Q2"),
        ("contexts", ["d"]),
        ("answer", "B"),
        ("strategy", "t"),
    ]:
        changed = sample_from_mapping({**base, field: value}, where=W).id
        assert changed not in ids
        ids.add(changed)
    assert content_id("Q", ("c",), "A", "s") == content_id("Q", ("c",), "A", "s")


def test_numpy_values_are_accepted() -> None:
    row = {"question": np.str_("Q"), "contexts": np.array(["a", "b"]), "id": np.int64(3)}
    s = sample_from_mapping(row, where=W)
    assert (s.id, s.question, s.contexts) == ("3", "Q", ("a", "b"))
    assert type(s.question) is str


@pytest.mark.parametrize(("given", "contexts"), [
    ("Refunds take 30 days.", ("Refunds take 30 days.",)),  # one plain-text passage
    ('["a", "b"]', ("a", "b")),  # a JSON list in a cell
    ("['a', 'b']", ("a", "b")),  # a Python list as pandas writes it
    ("[Updated] Refunds take 30 days.", ("[Updated] Refunds take 30 days.",)),
])
def test_contexts_given_as_one_string_read_as_a_csv_cell(given, contexts) -> None:
    assert sample_from_mapping({"question": "Q", "contexts": given}, where=W).contexts == contexts
