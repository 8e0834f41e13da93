"""Sample ids: generated deterministically, de-duplicated, stable across loads and formats."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from ragassay.dataset import DatasetError, content_id, load_samples
from ragassay.types import InvalidRow, Sample


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def ids(data: object, **kw: object) -> list[str]:
    return [r.id for r in load_samples(data, **kw)]  # type: ignore[arg-type]


def test_generated_ids_are_stable_across_loads(tmp_path: Path) -> None:
    rows = [{"question": f"Q{i}", "contexts": [f"c{i}"], "answer": "A"} for i in range(5)]
    path = write_jsonl(tmp_path / "d.jsonl", rows)
    first = ids(path)
    assert first == ids(path)
    assert all(re.fullmatch(r"[0-9a-f]{12}", i) for i in first)
    assert len(set(first)) == 5
    assert first[0] == content_id("Q0", ("c0",), "A", "default")


def test_identical_rows_get_suffixes_in_file_order(tmp_path: Path) -> None:
    row = {"question": "Q", "answer": "A"}
    path = write_jsonl(tmp_path / "d.jsonl", [row, {"question": "other"}, row, row])
    base = content_id("Q", (), "A", "default")
    got = ids(path)
    assert got[0] == base and got[2:] == [f"{base}-2", f"{base}-3"]
    assert got == ids(path)


def test_same_question_in_two_strategies_gets_two_ids() -> None:
    rows = [{"question": "Q", "strategy": "bm25"}, {"question": "Q", "strategy": "dense"}]
    a, b = ids(rows)
    assert a != b and "-" not in a + b


def test_ids_do_not_change_when_annotations_are_added(tmp_path: Path) -> None:
    rows = [{"question": f"Q{i}", "answer": "A"} for i in range(3)]
    before = ids(write_jsonl(tmp_path / "a.jsonl", rows))
    annotated = [{**r, "reference": "R", "labels": {"correct": True}, "note": "x"} for r in rows]
    assert ids(write_jsonl(tmp_path / "b.jsonl", annotated)) == before


def test_ids_are_the_same_in_every_format(tmp_path: Path) -> None:
    rows = [
        {"question": "Q1", "contexts": ["a", "b"], "answer": "A1"},
        {"question": "Q2", "contexts": ["c"], "answer": "A2", "strategy": "s"},
    ]
    want = ids(rows)
    assert ids(write_jsonl(tmp_path / "d.jsonl", rows)) == want
    (tmp_path / "d.json").write_text(json.dumps(rows))
    assert ids(tmp_path / "d.json") == want
    frame = pd.DataFrame(rows)
    assert ids(frame) == want
    frame.to_parquet(tmp_path / "d.parquet")
    assert ids(tmp_path / "d.parquet") == want
    frame.assign(contexts=[json.dumps(c) for c in frame["contexts"]]).to_csv(
        tmp_path / "d.csv", index=False
    )
    assert ids(tmp_path / "d.csv") == want


def test_duplicate_explicit_ids_are_an_error(tmp_path: Path) -> None:
    rows = [
        {"id": "a", "question": "Q1"},
        {"id": "b", "question": "Q2"},
        {"id": "a", "question": "Q3"},
    ]
    path = write_jsonl(tmp_path / "data.jsonl", rows)
    with pytest.raises(DatasetError) as err:
        load_samples(path)
    assert str(err.value) == "data.jsonl:3: duplicate id 'a' (first used at data.jsonl:1)"
    assert err.value.field == "id"
    out = load_samples(path, skip_invalid=True)
    assert [type(r) for r in out] == [Sample, Sample, InvalidRow]
    assert out[2].id.startswith("invalid-") and out[2].id != "a"
    assert out[2].source == "data.jsonl:3"  # type: ignore[union-attr]


def test_an_id_may_repeat_under_another_strategy(tmp_path: Path) -> None:
    """Ids are often per question: the same id under two strategies loads (the later
    stored as STRATEGY::ID, issue #29), the same id twice under one strategy does not."""
    rows = [{"id": q, "question": f"What is {q}?", "answer": "x", "contexts": ["x"],
             "strategy": s} for s in ("bm25", "dense") for q in ("q1", "q2")]
    assert ids(rows) == ["q1", "q2", "dense::q1", "dense::q2"]
    path = write_jsonl(tmp_path / "d.jsonl", [*rows, {**rows[3], "question": "again"}])
    with pytest.raises(DatasetError, match=r"^d\.jsonl:5: duplicate id 'dense::q2' "
                                           r"\(first used at d\.jsonl:4\)"):
        load_samples(path)


def test_an_id_may_repeat_under_another_strategy_end_to_end(tmp_path: Path) -> None:
    """The CLI evaluates such a file, and the report compares the two strategies."""
    from click.testing import CliRunner

    from ragassay.cli import cli

    rows = [{"id": f"q{i}", "question": f"What is fact {i}?", "answer": f"Fact {i} is {i}.",
             "contexts": [f"Fact {i} is {i}."], "strategy": s}
            for s in ("bm25", "dense") for i in range(3)]
    data = write_jsonl(tmp_path / "d.jsonl", rows)
    done = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "judge", "-q",
                                    "--db", str(tmp_path / "r.db"),
                                    "--out", str(tmp_path / "r.json")])
    assert done.exit_code == 0, done.output
    report = json.loads((tmp_path / "r.json").read_text())
    assert sorted(report["strategies"]) == ["bm25", "dense"]


def test_integer_and_string_ids_collide() -> None:
    with pytest.raises(DatasetError, match=r"^<data>:row 2: duplicate id '1'"):
        load_samples([{"id": 1, "question": "Q"}, {"id": "1", "question": "R"}])


def test_generated_id_steps_around_an_explicit_one() -> None:
    taken = content_id("Q", (), "", "default")
    out = ids([{"id": taken, "question": "other"}, {"question": "Q"}])
    assert out == [taken, f"{taken}-2"]


def test_invalid_row_ids_are_stable_and_unique(tmp_path: Path) -> None:
    text = '{bad\n{"question": "Q", "contexts": 1}\n{bad\n'
    path = tmp_path / "d.jsonl"
    path.write_text(text)
    first = ids(path, skip_invalid=True)
    assert first == ids(path, skip_invalid=True)
    assert len(set(first)) == 3 and first[2] == f"{first[0]}-2"
