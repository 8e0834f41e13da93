"""Label files as people and pandas write them."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragassay.labels import LabelFileError, read_label_file
from ragassay.labels.files import cell_value, python_dict
from ragassay.types import content_key


def test_cells_read_as_meant() -> None:
    assert cell_value("True") is True and cell_value("false") is False
    assert cell_value("2") == 2.0 and cell_value(" ") is None and cell_value("x") == "x"
    assert python_dict("{'hallucinated': True, 'relevance': -1}") == {
        "hallucinated": True, "relevance": -1}
    assert python_dict("{'a': __import__('os').system('true')}") is None  # never run
    assert python_dict("[1, 2]") is None and python_dict("{1: 2}") is None


def test_rows_name_their_sample_by_id_key_or_content(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    path.write_text('{"id": "q1", "labels": {"hallucinated": true}, "note": "n"}\n'
                    '{"content_key": "abc", "labels.correct": 1}\n'
                    '{"question": "Q", "contexts": ["C"], "answer": "A", "relevance": 2}\n'
                    '{"id": "q2", "label": "correct", "value": false, "source": "data"}\n')
    rows = read_label_file(path)
    assert (rows[0].id, rows[0].labels, rows[0].note) == ("q1", {"hallucinated": True}, "n")
    assert (rows[1].key, rows[1].labels) == ("abc", {"correct": 1})
    assert rows[2].key == content_key("Q", ["C"], "A") and rows[2].labels == {"relevance": 2}
    assert rows[3].labels == {"correct": False}


def test_csv_columns_and_contexts_as_pandas_writes_them(tmp_path: Path) -> None:
    path = tmp_path / "l.csv"
    path.write_text("question,contexts,answer,hallucinated\nQ,\"['C1', 'C2']\",A,False\n")
    (row,) = read_label_file(path)
    assert row.key == content_key("Q", ["C1", "C2"], "A") and row.labels == {"hallucinated": False}


@pytest.mark.parametrize("name, content, message", [
    ("l.txt", "x", "a label file is .jsonl, .json or .csv"),
    ("l.json", '{"id": 1}', "expected a JSON list of rows"),
    ("l.jsonl", '[1]\n', "l.jsonl:1: expected an object"),
    ("l.jsonl", '{"id": "q", "labels": "oops"}\n', "'labels' must be an object"),
])
def test_bad_files_say_why(tmp_path: Path, name: str, content: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(LabelFileError, match=message):
        read_label_file(path)


def test_missing_and_irregular_files(tmp_path: Path) -> None:
    with pytest.raises(LabelFileError, match="no such file"):
        read_label_file(tmp_path / "none.jsonl")
    with pytest.raises(LabelFileError, match="not a regular file"):
        read_label_file(tmp_path)


@pytest.mark.parametrize("index", ["", "Unnamed: 0"])
def test_the_index_column_pandas_writes_is_no_label(tmp_path: Path, index: str) -> None:
    path = tmp_path / "l.csv"
    path.write_text(f"{index},id,hallucinated\n0,a001,True\n1,a002,False\n")
    rows = read_label_file(path)
    assert [(r.id, r.labels) for r in rows] == [("a001", {"hallucinated": True}),
                                                ("a002", {"hallucinated": False})]


def test_yes_and_no_cells_are_booleans(tmp_path: Path) -> None:
    assert [cell_value(x) for x in ("yes", "No", " YES ")] == [True, False, True]
    path = tmp_path / "l.csv"
    path.write_text("id,hallucinated\na001,yes\na002,no\n")
    assert [r.labels for r in read_label_file(path)] == [{"hallucinated": True},
                                                        {"hallucinated": False}]
