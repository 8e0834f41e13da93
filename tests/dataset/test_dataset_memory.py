"""In-memory inputs: lists and generators of dicts, pandas DataFrames, HF datasets."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ragassay.dataset import DatasetError, iter_records, load_samples
from ragassay.types import InvalidRow, Sample

ROWS = [
    {"id": "a", "question": "Q1?", "contexts": ["c1", "c2"], "answer": "A1", "reference": "R1"},
    {"user_input": "Q2?", "retrieved_contexts": ["c3"], "response": "A2", "strategy": "dense"},
]


def check_rows(loaded: list) -> None:
    assert all(isinstance(s, Sample) for s in loaded)
    assert [s.question for s in loaded] == ["Q1?", "Q2?"]
    assert loaded[0].id == "a" and loaded[0].contexts == ("c1", "c2")
    assert loaded[0].reference == "R1"
    assert loaded[1].contexts == ("c3",) and loaded[1].answer == "A2"
    assert loaded[1].strategy == "dense" and loaded[1].reference is None


def questions(rows: list[Sample | InvalidRow]) -> list[str]:
    return [r.question if isinstance(r, Sample) else "<invalid>" for r in rows]


def test_list_of_dicts() -> None:
    check_rows(load_samples(ROWS))


def test_path_inputs_go_to_the_file_readers(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text('{"question": "Q"}\n')
    assert questions(load_samples(path)) == ["Q"]
    assert questions(load_samples(str(path))) == ["Q"]


def test_generator_input_is_streamed() -> None:
    def endless() -> Iterator[dict[str, str]]:
        for i in itertools.count():
            yield {"question": f"Q{i}"}

    got = list(itertools.islice(iter_records(endless()), 3))
    assert questions(got) == ["Q0", "Q1", "Q2"]


def test_bad_rows_are_named_by_row_number() -> None:
    rows = [{"question": "ok"}, {"question": "Q", "contexts": 7}, "not a row"]
    with pytest.raises(DatasetError) as err:
        load_samples(rows, name="mydata")
    assert str(err.value) == "mydata:row 2: 'contexts' must be a list of strings, got int"
    out = load_samples(rows, skip_invalid=True)
    assert [type(r) for r in out] == [Sample, InvalidRow, InvalidRow]
    assert [(r.source, r.reason) for r in out[1:]] == [  # type: ignore[union-attr]
        ("<data>:row 2", "'contexts' must be a list of strings, got int"),
        ("<data>:row 3", "row must be an object, got string"),
    ]


def test_empty_input_is_an_error() -> None:
    with pytest.raises(DatasetError, match=r"^<data>: no samples"):
        load_samples([], skip_invalid=True)


@pytest.mark.parametrize("data", [{"question": "Q"}, 5, b"data.jsonl", None])
def test_wrong_kinds_of_data(data: object) -> None:
    with pytest.raises(TypeError):
        load_samples(data)


def test_dataframe() -> None:
    check_rows(load_samples(pd.DataFrame(ROWS)))


def test_dataframe_missing_cells_numpy_values_and_extras() -> None:
    df = pd.DataFrame(
        {
            "id": [1, 2],
            "question": ["Q1", "Q2"],
            "contexts": [np.array(["a", "b"], dtype=object), None],
            "answer": [np.nan, "A2"],
            "labels": [{"hallucination": np.bool_(True)}, None],
            "score": [np.float64(0.5), np.nan],
            "when": [pd.Timestamp("2024-01-02"), pd.NaT],
        }
    )
    s1, s2 = load_samples(df)
    assert isinstance(s1, Sample) and isinstance(s2, Sample)
    assert (s1.id, s1.contexts, s1.answer) == ("1", ("a", "b"), "")
    assert s1.labels == {"hallucination": True} and type(s1.labels["hallucination"]) is bool
    assert s1.metadata == {"score": 0.5, "when": "2024-01-02T00:00:00"}
    assert (s2.contexts, s2.answer, s2.labels, s2.metadata) == ((), "A2", {}, {})


def test_dataframe_from_parquet_roundtrip(tmp_path: Path) -> None:
    path = tmp_path / "d.parquet"
    pd.DataFrame(ROWS).to_parquet(path)
    from_file = load_samples(path)
    from_df = load_samples(pd.read_parquet(path))  # list columns come back as ndarrays
    check_rows(from_df)
    assert from_file == from_df


def test_dataframe_errors_and_chunks() -> None:
    questions: list[object] = [f"Q{i}" for i in range(1200)]
    questions[1100] = 7
    df = pd.DataFrame({"question": questions}, dtype=object)
    out = load_samples(df, skip_invalid=True, name="frame")
    assert len(out) == 1200
    (bad,) = [r for r in out if isinstance(r, InvalidRow)]
    assert (bad.source, bad.reason) == ("frame:row 1101", "'question' must be a string, got int")
    dup = pd.DataFrame([[1, 2]], columns=["question", "question"])
    with pytest.raises(DatasetError, match=r"^<data>: duplicate column 'question'$"):
        load_samples(dup)


def test_hf_dataset() -> None:
    datasets = pytest.importorskip("datasets")
    ds = datasets.Dataset.from_list(
        [
            {
                "user_input": "Q1?",
                "retrieved_contexts": ["c1", "c2"],
                "response": "A1",
                "reference": "R1",
            },
            {
                "user_input": "Q2?",
                "retrieved_contexts": ["c3"],
                "response": "A2",
                "reference": None,
            },
        ]
    )
    out = load_samples(ds)
    assert all(isinstance(s, Sample) for s in out)
    assert [(s.question, s.contexts, s.answer, s.reference) for s in out] == [  # type: ignore[union-attr]
        ("Q1?", ("c1", "c2"), "A1", "R1"),
        ("Q2?", ("c3",), "A2", None),
    ]
    with pytest.raises(TypeError, match="pick a split"):
        load_samples(datasets.DatasetDict({"test": ds}))


def test_import_stays_light() -> None:
    code = (
        "import sys, ragassay.dataset\n"
        "print(sorted(m for m in ('pandas', 'datasets', 'pyarrow', 'numpy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
