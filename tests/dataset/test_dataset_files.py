"""File formats: JSONL, JSON, CSV, Parquet, gzip; file-level and row-level errors."""

from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ragassay.dataset import DatasetError, iter_samples, load_samples
from ragassay.types import InvalidRow, Sample

ROWS = [
    {"id": "a", "question": "Q1?", "contexts": ["c1", "c2"], "answer": "A1", "reference": "R1"},
    {"user_input": "Q2?", "retrieved_contexts": ["c3"], "response": "A2", "strategy": "dense"},
]


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return path


def jsonl(rows: Sequence[object]) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def samples(path: Path) -> list[Sample]:
    out = load_samples(path)
    assert all(isinstance(s, Sample) for s in out)
    return out  # type: ignore[return-value]


def check_rows(loaded: list[Sample]) -> None:
    assert [s.question for s in loaded] == ["Q1?", "Q2?"]
    assert loaded[0].id == "a" and loaded[0].contexts == ("c1", "c2")
    assert loaded[0].reference == "R1"
    assert loaded[1].contexts == ("c3",) and loaded[1].answer == "A2"
    assert loaded[1].strategy == "dense" and loaded[1].reference is None


# --- formats ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["data.jsonl", "data.ndjson", "DATA.JSONL"])
def test_jsonl(tmp_path: Path, name: str) -> None:
    check_rows(samples(write(tmp_path / name, jsonl(ROWS))))


def test_jsonl_blank_lines_bom_and_crlf(tmp_path: Path) -> None:
    text = "\ufeff" + json.dumps(ROWS[0]) + "\r\n\r\n   \n" + json.dumps(ROWS[1]) + "\r\n"
    check_rows(samples(write(tmp_path / "data.jsonl", text)))


def test_jsonl_gz(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl.gz"
    path.write_bytes(gzip.compress(jsonl(ROWS).encode()))
    check_rows(samples(path))


def test_json_list(tmp_path: Path) -> None:
    check_rows(samples(write(tmp_path / "data.json", json.dumps(ROWS, indent=2))))


def test_json_gz(tmp_path: Path) -> None:
    path = tmp_path / "data.json.gz"
    path.write_bytes(gzip.compress(json.dumps(ROWS).encode()))
    check_rows(samples(path))


def test_csv(tmp_path: Path) -> None:
    text = (
        "id,question,contexts,answer,reference,strategy\n"
        'a,Q1?,"[""c1"", ""c2""]",A1,R1,\n'
        ",Q2?,c3,A2,,dense\n"
    )
    check_rows(samples(write(tmp_path / "data.csv", text)))


def test_csv_ragas_columns_json_cells_and_flattened_labels(tmp_path: Path) -> None:
    text = (
        "user_input,retrieved_contexts,response,ground_truths,labels,labels.correct,"
        "metadata.score,source\n"
        'Q?,"[""x""]",A,"[""r1"",""r2""]","{""hallucination"": true}",false,0.5,wiki\n'
        "Q2?,[1] cited text,,[not json,,yes,n/a,\n"
    )
    path = write(tmp_path / "data.csv", text)
    out = load_samples(path, skip_invalid=True)
    first = out[0]
    assert isinstance(first, Sample)
    assert first.contexts == ("x",) and first.answer == "A"
    assert first.reference == ("r1", "r2")
    assert first.labels == {"hallucination": True, "correct": False}
    assert first.metadata == {"score": 0.5, "source": "wiki"}
    # a contexts cell that starts with '[' must be a JSON list
    assert out[1] == InvalidRow(
        id=out[1].id,
        source="data.csv:3",
        reason="'retrieved_contexts' cell starts with '[' but is neither a JSON list nor a "
        "Python list of strings (Extra data at char 5)",
    )


def test_csv_plain_reference_starting_with_bracket_stays_a_string(tmp_path: Path) -> None:
    path = write(tmp_path / "data.csv", "question,reference,labels.note\nQ,[1] see docs,plain\n")
    (s,) = samples(path)
    assert s.reference == "[1] see docs"
    assert s.labels == {"note": "plain"}


def test_csv_multiline_cells_report_the_starting_line(tmp_path: Path) -> None:
    text = 'question,answer\n"Q1\nspans\nlines",A\nQ2,A\n,no question\n'
    path = write(tmp_path / "data.csv", text)
    out = load_samples(path, skip_invalid=True)
    assert isinstance(out[0], Sample) and out[0].question == "Q1\nspans\nlines"
    assert isinstance(out[1], Sample) and out[1].question == "Q2"
    assert isinstance(out[2], InvalidRow) and out[2].source == "data.csv:6"
    with pytest.raises(DatasetError, match=r"^data\.csv:6: 'question' is required"):
        load_samples(path)


def test_csv_bom_and_empty_rows(tmp_path: Path) -> None:
    path = write(tmp_path / "data.csv", "\ufeffquestion,answer\n\n,\nQ,\n")
    (s,) = samples(path)
    assert (s.question, s.answer, s.metadata) == ("Q", "", {})


def test_parquet(tmp_path: Path) -> None:
    table = pa.table(
        {
            "id": ["a", None],
            "question": ["Q1?", None],
            "user_input": [None, "Q2?"],
            "contexts": [["c1", "c2"], ["c3"]],
            "answer": ["A1", "A2"],
            "reference": ["R1", None],
            "strategy": [None, "dense"],
            "labels": [{"hallucination": True}, {"hallucination": False}],
            "latency": [1.5, None],
        }
    )
    path = tmp_path / "data.parquet"
    pq.write_table(table, path)
    loaded = samples(path)
    check_rows(loaded)
    assert [s.labels for s in loaded] == [{"hallucination": True}, {"hallucination": False}]
    assert loaded[0].metadata == {"latency": 1.5} and loaded[1].metadata == {}


def test_parquet_rows_are_numbered_across_batches(tmp_path: Path) -> None:
    questions = [f"Q{i}" for i in range(2500)]
    questions[1500] = ""
    path = tmp_path / "big.pq"
    pq.write_table(pa.table({"question": questions}), path, row_group_size=700)
    out = load_samples(path, skip_invalid=True)
    assert len(out) == 2500
    bad = [r for r in out if isinstance(r, InvalidRow)]
    assert [(r.source, r.reason) for r in bad] == [
        ("big.pq:row 1501", "'question' must not be empty")
    ]
    with pytest.raises(DatasetError, match=r"^big\.pq:row 1501: 'question' must not be empty$"):
        load_samples(path)


# --- file-level problems ------------------------------------------------------------


def test_file_not_found(tmp_path: Path) -> None:
    missing = tmp_path / "missing.jsonl"
    with pytest.raises(DatasetError) as err:
        iter_samples(missing)  # raises at call time, not on first next()
    assert str(err.value) == f"{missing}: file not found"
    with pytest.raises(DatasetError, match="file not found"):
        load_samples(str(missing), skip_invalid=True)


def test_directory(tmp_path: Path) -> None:
    (tmp_path / "dir.jsonl").mkdir()
    with pytest.raises(DatasetError, match="is a directory"):
        iter_samples(tmp_path / "dir.jsonl")


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("data.txt", "unknown dataset format '.txt'"),
        ("data", "no file extension"),
        ("data.parquet.gz", "unknown dataset format '.parquet.gz'"),
        ("data.gz", "unknown dataset format '.gz'"),
    ],
)
def test_unknown_extension(tmp_path: Path, name: str, what: str) -> None:
    path = write(tmp_path / name, jsonl(ROWS))
    with pytest.raises(DatasetError) as err:
        iter_samples(path, skip_invalid=True)
    assert str(err.value) == (
        f"{name}: {what} (expected one of .jsonl, .ndjson, .json, .csv, .parquet, .pq; "
        ".gz is accepted for jsonl, json and csv)"
    )


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("data.jsonl", ""),
        ("data.jsonl", "\n  \n\n"),
        ("data.json", ""),
        ("data.json", " [ ] "),
        ("data.csv", ""),
        ("data.csv", "question,answer\n"),
    ],
)
def test_empty_dataset(tmp_path: Path, name: str, text: str) -> None:
    path = write(tmp_path / name, text)
    it = iter_samples(path, skip_invalid=True)
    with pytest.raises(DatasetError) as err:
        next(it)
    assert str(err.value) == f"{name}: no samples (the dataset is empty)"


def test_empty_parquet(tmp_path: Path) -> None:
    path = tmp_path / "data.parquet"
    pq.write_table(pa.table({"question": pa.array([], pa.string())}), path)
    with pytest.raises(DatasetError, match=r"^data\.parquet: no samples"):
        load_samples(path)


def test_not_a_parquet_file(tmp_path: Path) -> None:
    path = write(tmp_path / "data.parquet", "question\nQ\n")
    with pytest.raises(DatasetError, match=r"^data\.parquet: not a readable Parquet file"):
        load_samples(path, skip_invalid=True)


def test_corrupt_gzip(tmp_path: Path) -> None:
    path = write(tmp_path / "data.jsonl.gz", b"not gzip at all")
    with pytest.raises(DatasetError, match=r"^data\.jsonl\.gz: cannot read file"):
        load_samples(path, skip_invalid=True)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"question": "Q"}', "data.json:1: a .json dataset must be a list of objects"),
        ('[{"question": "Q"},\n {"question": }]', "data.json:2: invalid JSON: Expecting value"),
        ('[{"question": "Q"}\n {"question": "R"}]', "data.json:2: invalid JSON: expected ','"),
        ('[{"question": "Q"},\n{"question": "R"', "data.json:2: invalid JSON: Expecting ','"),
        ('[{"question": "Q"}', "data.json:1: invalid JSON: unexpected end of file"),
        ('[{"question": "Q"}]\n[]', "data.json:2: invalid JSON: extra data after the list"),
        ('[{"question": "Q"},\n{"question": "\xff"}]', "data.json:2: invalid UTF-8 (byte 0xff)"),
    ],
)
def test_json_whole_file_errors(tmp_path: Path, text: str, message: str) -> None:
    data = text.encode("latin-1") if "\xff" in text else text.encode()
    path = write(tmp_path / "data.json", data)
    with pytest.raises(DatasetError) as err:
        load_samples(path, skip_invalid=True)  # cannot resynchronise: always raised
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


def test_csv_header_problems(tmp_path: Path) -> None:
    dup = write(tmp_path / "dup.csv", "question,question\nQ,Q\n")
    with pytest.raises(DatasetError, match=r"^dup\.csv:1: duplicate column 'question'$"):
        load_samples(dup, skip_invalid=True)
    empty = write(tmp_path / "empty.csv", "question,,answer\nQ,x,A\n")
    with pytest.raises(DatasetError, match=r"^empty\.csv:1: empty column name \(column 2\)$"):
        load_samples(empty)
    bad = write(tmp_path / "bad.csv", b"questi\xffon\nQ\n")
    with pytest.raises(DatasetError, match=r"^bad\.csv:1: invalid UTF-8 in the header$"):
        load_samples(bad, skip_invalid=True)


# --- row-level problems in files ------------------------------------------------------


def test_jsonl_row_errors_name_file_line_and_field(tmp_path: Path) -> None:
    lines = [
        b'{"question": "ok"}',
        b'{"question": "Q", "contexts": 7}',
        b"{not json",
        b"[1, 2]",
        b'{"answer": "A"}',
        b'{"question": "caf\xe9"}',
        b'{"question": "Q", "labels": ["x"]}',
        b'{"question": "Q", "answer": "nul\\u0000"}',
        b'{"question": 42}',
        b'{"question": "Q", "reference": 3}',
    ]
    path = write(tmp_path / "data.jsonl", b"\n".join(lines) + b"\n")
    expected = [
        None,
        "data.jsonl:2: 'contexts' must be a list of strings, got int",
        "data.jsonl:3: invalid JSON: Expecting property name enclosed in double quotes (column 2)",
        "data.jsonl:4: row must be an object, got list",
        "data.jsonl:5: 'question' is required (accepted names: 'question', 'user_input')",
        "data.jsonl:6: invalid UTF-8 (byte 0xe9 at column 18)",
        "data.jsonl:7: 'labels' must be an object, got list",
        "data.jsonl:8: 'answer' contains a NUL byte",
        "data.jsonl:9: 'question' must be a string, got int",
        "data.jsonl:10: 'reference' must be a string or a list of strings, got int",
    ]
    out = load_samples(path, skip_invalid=True)
    assert len(out) == len(lines)  # nothing dropped silently
    assert isinstance(out[0], Sample)
    for row, message in zip(out[1:], expected[1:], strict=True):
        assert isinstance(row, InvalidRow)
        assert message == f"{row.source}: {row.reason}"
    # without skip_invalid the first bad row raises, after the good one was yielded
    it = iter_samples(path)
    assert isinstance(next(it), Sample)
    with pytest.raises(DatasetError) as err:
        next(it)
    assert str(err.value) == expected[1]


def test_csv_row_errors(tmp_path: Path) -> None:
    text = (
        b"id,question,contexts,labels\n"
        b'1,ok,"[""a""]",\n'
        b'2,Q,"[""a"", 3]",\n'
        b'3,Q,"[""a""",\n'
        b"4,Q,,not json\n"
        b"5,Q,,,extra\n"
        b"6,caf\xe9,,\n"
        b"7,Q\x00,,\n"
    )
    path = write(tmp_path / "data.csv", text)
    out = load_samples(path, skip_invalid=True)
    assert isinstance(out[0], Sample) and out[0].contexts == ("a",)
    got = [f"{r.source}: {r.reason}" for r in out[1:] if isinstance(r, InvalidRow)]
    assert got == [
        "data.csv:3: 'contexts' must be a list of strings (item 2 is int)",
        "data.csv:4: 'contexts' cell starts with '[' but is neither a JSON list nor a Python "
        "list of strings (Expecting ',' delimiter at char 5)",
        "data.csv:5: 'labels' cell is neither a JSON object nor a Python dict (Expecting value "
        "at char 1)",
        "data.csv:6: row has 5 cells but the header has 4",
        "data.csv:7: invalid UTF-8",
        "data.csv:8: 'question' contains a NUL byte",
    ]
    assert [r.id for r in out] == ["1", "2", "3", "4", "5", "6", "7"]  # ids kept when readable


def test_skip_invalid_keeps_id_and_strategy(tmp_path: Path) -> None:
    rows = [
        {"id": "x1", "question": "Q", "contexts": [1], "strategy": "bm25"},
        {"question": "Q", "contexts": [1], "strategy": 7},
    ]
    out = load_samples(write(tmp_path / "d.jsonl", jsonl(rows)), skip_invalid=True)
    assert out[0] == InvalidRow(
        id="x1",
        source="d.jsonl:1",
        reason="'contexts' must be a list of strings (item 1 is int)",
        strategy="bm25",
    )
    assert isinstance(out[1], InvalidRow) and out[1].strategy == "default"
    assert out[1].id.startswith("invalid-")


# --- streaming ----------------------------------------------------------------------


def test_iter_samples_is_lazy(tmp_path: Path) -> None:
    """The first sample comes out before a later broken line is read."""
    cases = {
        "a.jsonl": jsonl(ROWS[:1]) + "{broken\n",
        "a.csv": "question,contexts\nQ1?,\nQ2?,[bad\n",
        "a.json": '[{"question": "Q1?"}, {"question": oops}]',
    }
    for name, text in cases.items():
        it = iter_samples(write(tmp_path / name, text))
        first = next(it)
        assert isinstance(first, Sample) and first.question == "Q1?", name
        with pytest.raises(DatasetError):
            next(it)


def _track_open(monkeypatch: pytest.MonkeyPatch) -> list:
    from ragassay.dataset import limits  # where the readers open files (bounded)

    handles: list = []

    def tracking_open(*args: Any, **kwargs: Any) -> Any:
        fh = open(*args, **kwargs)  # noqa: SIM115
        handles.append(fh)
        return fh

    monkeypatch.setattr(limits, "open", tracking_open, raising=False)
    return handles


@pytest.mark.parametrize("name", ["big.jsonl", "big.csv", "big.json"])
def test_large_file_is_read_incrementally(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    n = 20_000
    rows = [{"question": f"Question {i}?", "answer": "x" * 40} for i in range(n)]
    if name.endswith(".jsonl"):
        text = jsonl(rows)
    elif name.endswith(".json"):
        text = json.dumps(rows)
    else:
        text = "question,answer\n" + "".join(f"{r['question']},{r['answer']}\n" for r in rows)
    path = write(tmp_path / name, text)
    size = path.stat().st_size
    handles = _track_open(monkeypatch)
    it = iter_samples(path)
    first = next(it)
    assert isinstance(first, Sample) and first.question == "Question 0?"
    (fh,) = handles
    assert fh.tell() < size / 10  # only a small prefix has been read
    assert sum(1 for _ in it) == n - 1
    assert fh.closed


def test_json_stream_handles_any_chunk_boundary(tmp_path: Path) -> None:
    from ragassay.dataset.readers import _JsonListStream

    rows = [
        {"question": 'Q\u00e9\u4e2d\U0001f600 "quoted" \\ back', "contexts": ["a", "b" * 50]},
        {"question": "2", "metadata": {"n": 12345.5e3, "t": True, "z": None, "l": [[], {}]}},
        {"question": "3\n", "answer": "line\nbreak"},
    ]
    data = "\ufeff[\n" + ",\n  ".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n]\n"
    path = write(tmp_path / "x.json", data)
    for chunk in [1, 2, 3, 5, 7, 64, 1 << 16]:
        with path.open("rb") as fh:
            got = list(_JsonListStream(fh, "x.json", chunk=chunk).elements())
        assert [obj for _, obj in got] == rows, chunk
        assert [where for where, _ in got] == ["x.json:2", "x.json:3", "x.json:4"], chunk


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('question,answer\nQ,A\n"Q2"x,A\n', "data.csv:3: malformed CSV: ',' expected after '\"'"),
        (
            'question,answer\nQ,A\n"Q2,A\nQ3,A\n',
            "data.csv:3: malformed CSV: unexpected end of data",
        ),
    ],
)
def test_csv_broken_quoting_is_not_swallowed(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path / "data.csv", text)
    with pytest.raises(DatasetError) as err:
        load_samples(path, skip_invalid=True)
    assert str(err.value) == message
