"""The judge-cost dataset builder: shape, determinism, and the gold passage's place."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benches.build_dataset import build_samples, main, read_begin
from ragassay.dataset import iter_samples
from ragassay.types import Sample

HEADER = "model_name\tdata_source\tknowledge\tmessage\tresponse\tbegin_label\n"


def _tsv(path: Path, rows: int = 12) -> Path:
    lines = [HEADER]
    for i in range(rows):
        label = "Generic" if i == 3 else ("Fully attributable" if i % 2 else
                                          "Not fully attributable")
        lines.append(f"m\twow\tPassage number {i} about topic {i}.\tQuestion {i}?\t"
                     f"Answer {i}.\t{label}\n")
    lines.append(lines[1])  # an exact duplicate
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_read_begin_skips_generic_and_duplicates(tmp_path: Path) -> None:
    rows = read_begin(_tsv(tmp_path / "b.tsv"))
    assert len(rows) == 11
    assert all(r["begin_label"] != "Generic" for r in rows)


def test_samples_have_the_gold_passage_among_distractors(tmp_path: Path) -> None:
    rows = read_begin(_tsv(tmp_path / "b.tsv"))
    samples = build_samples(rows, n=8, n_contexts=5, seed=1)
    assert len(samples) == 8 and len({s["id"] for s in samples}) == 8
    for s in samples:
        assert len(s["contexts"]) == 5 and len(set(s["contexts"])) == 5
        assert s["contexts"].count(s["reference"]) == 1
        assert s["contexts"].index(s["reference"]) == s["metadata"]["gold_rank"]
        number = s["question"].split()[1].rstrip("?")
        assert s["answer"] == f"Answer {number}." and s["reference"].startswith(
            f"Passage number {number} ")
    assert build_samples(rows, 8, 5, seed=1) == samples
    assert build_samples(rows, 8, 5, seed=2) != samples
    assert len({s["metadata"]["gold_rank"] for s in build_samples(rows, 11, 5, 0)}) > 1


def test_too_few_rows_is_an_error(tmp_path: Path) -> None:
    rows = read_begin(_tsv(tmp_path / "b.tsv", rows=4))
    with pytest.raises(ValueError, match="asked for 10"):
        build_samples(rows, n=10, n_contexts=3)
    with pytest.raises(ValueError, match="distinct passages"):
        build_samples(rows, n=2, n_contexts=5)


def test_cli_writes_jsonl_that_ragassay_loads(tmp_path: Path) -> None:
    out = tmp_path / "d.jsonl"
    assert main(["--source", str(_tsv(tmp_path / "b.tsv")), "--out", str(out), "--n", "6"]) == 0
    assert len([json.loads(x) for x in out.read_text().splitlines()]) == 6
    samples = list(iter_samples(out))
    assert len(samples) == 6 and all(isinstance(s, Sample) for s in samples)
    assert all(len(s.contexts) == 5 and s.references for s in samples)  # type: ignore[union-attr]
