"""benches/probe_batch.py: a trial's probes as a batch file benches/probes.py reads."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from benches.probe_batch import batch_toml, main

ROWS = [
    {"id": "u002", "kind": "decline", "domain": "kite shop", "question": "Do you fix kites?",
     "contexts": ["Kites cost £20.", "We open at 9 \"sharp\"."], "answer": "I don't know."},
    {"id": "u001", "kind": "paraphrase", "domain": "kite shop", "question": "Price?",
     "contexts": ["Kites cost £20."], "answer": "A kite is twenty pounds."},
]


def test_a_batch_has_one_document_per_passage_and_the_probes_in_id_order() -> None:
    data = tomllib.loads(batch_toml(ROWS, "Probe batch U (held out)", "u"))
    assert data["documents"] == {"u001": "Kites cost £20.", "u002": 'We open at 9 "sharp".'}
    assert [p["kind"] for p in data["probe"]] == ["paraphrase", "decline"]
    assert data["probe"][1]["contexts"] == ["u001", "u002"]


def test_the_command_writes_it_and_a_bad_row_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    probes, header = tmp_path / "p.jsonl", tmp_path / "h.txt"
    probes.write_text("\n".join(json.dumps(r) for r in ROWS), encoding="utf-8")
    header.write_text("# Probe batch U\n", encoding="utf-8")
    assert main([str(probes), "--header", str(header), "--prefix", "u"]) == 0
    assert capsys.readouterr().out.startswith("# Probe batch U\n\n[documents]")
    probes.write_text(json.dumps({"id": "u001", "kind": "paraphrase"}), encoding="utf-8")
    with pytest.raises(SystemExit, match=r"^probe_batch: probe 1: missing domain, question"):
        main([str(probes), "--header", str(header), "--prefix", "u"])
