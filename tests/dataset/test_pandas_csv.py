"""CSVs written by pandas (`DataFrame.to_csv`) are read as pandas writes them (issue #33,
item 13): booleans as `True`/`False`, dict cells with single quotes. A flat
`labels.hallucination` column of `True`/`False` used to load as strings and be left out
of calibration; a `labels` dict cell was refused."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.dataset import load_samples
from ragassay.dataset.values import python_literal
from ragassay.types import Sample

ROWS = [
    {"id": f"r{i}", "question": f"Which plan includes feature {i}?",
     "contexts": [f"The Pro plan includes feature {i}."],
     "answer": (f"The Pro plan includes feature {i}." if i % 2 else
                f"The Free plan includes feature {i}, and it costs {i + 7} dollars."),
     "hallucination": i % 2 == 0}
    for i in range(8)
]


def _flat(path: Path) -> Path:
    df = pd.DataFrame([{**{k: v for k, v in r.items() if k != "hallucination"},
                        "labels.hallucination": r["hallucination"]} for r in ROWS])
    df.to_csv(path, index=False)
    return path


def _dict_cells(path: Path) -> Path:
    df = pd.DataFrame([{**{k: v for k, v in r.items() if k != "hallucination"},
                        "labels": {"hallucination": r["hallucination"], "grader": "ann",
                                   "score": 0.5, "tags": ["a", "b"]}} for r in ROWS])
    df.to_csv(path, index=False)
    return path


def test_pandas_booleans_and_dict_cells_load_as_values(tmp_path: Path) -> None:
    flat = _flat(tmp_path / "flat.csv")
    assert "True" in flat.read_text() and "False" in flat.read_text()
    samples = load_samples(flat)
    assert [s.labels for s in samples if isinstance(s, Sample)] == \
        [{"hallucination": r["hallucination"]} for r in ROWS]
    cells = _dict_cells(tmp_path / "cells.csv")
    assert "{'hallucination': True" in cells.read_text()
    samples = load_samples(cells)
    assert [s.labels for s in samples if isinstance(s, Sample)] == [
        {"hallucination": r["hallucination"], "grader": "ann", "score": 0.5, "tags": ["a", "b"]}
        for r in ROWS]


@pytest.mark.parametrize("write", [_flat, _dict_cells])
def test_pandas_labels_reach_calibration(write: object, tmp_path: Path) -> None:
    data = write(tmp_path / "d.csv")  # type: ignore[operator]
    out, db = tmp_path / "r.json", tmp_path / "p.db"
    result = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "judge", "--db", str(db),
                                      "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    pairs = json.loads(out.read_text()).get("calibration", {}).get("pairs", [])
    linked = [p for p in pairs if p["label"] == "hallucination"]
    assert linked and linked[0]["n"] == len(ROWS), pairs


@pytest.mark.parametrize("text", [
    "__import__('os').system('true')", "{'a': open('x')}", "{'a': f'{1}'}", "{'a': b'x'}",
    "{'a': 1j}", "[" * 5000 + "]" * 5000, "{'a': " + "9" * 5000 + "}", "{'a': lambda: 1}",
    "{**{'a': 1}}", "{'a': -'x'}"])
def test_a_cell_that_is_not_a_plain_literal_is_not_read(text: str) -> None:
    assert python_literal(text) is None


def test_calibrate_reads_a_pandas_labels_file(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "hallucination"})
                            + "\n" for r in ROWS))
    db = tmp_path / "c.db"
    assert CliRunner().invoke(cli, ["eval", str(data), "--metrics", "judge", "--db", str(db),
                                    "-q"]).exit_code == 0
    labels = tmp_path / "labels.csv"
    pd.DataFrame([{"id": r["id"], "labels": {"hallucination": r["hallucination"]}}
                  for r in ROWS]).to_csv(labels, index=False)
    from ragassay.store import Store

    with Store(db, readonly=True) as store:
        run_id = store.list_runs()[0].id
    result = CliRunner().invoke(cli, ["calibrate", run_id, "--labels", str(labels), "--json",
                                      "--db", str(db)])
    assert result.exit_code == 0, result.output
    pairs = json.loads(result.stdout)["pairs"]
    ns = [p["n"] for p in pairs if p["label"] == "hallucination"]
    assert ns and set(ns) == {len(ROWS)}, pairs
