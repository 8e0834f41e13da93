"""Contexts given as one string (issue #38 item 8): a DataFrame from `pd.read_csv` with one
plain-text context per cell is evaluated as `ragassay eval` reads the same CSV, and a
JSONL row with `"contexts": "one passage"` is one passage, not a refused row."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pandas as pd
from click.testing import CliRunner

import ragassay
from ragassay.cli import cli

ROWS = [
    {"id": "p", "question": "How long do refunds take?", "contexts": "Refunds take 30 days.",
     "answer": "Refunds take 30 days."},
    {"id": "j", "question": "Is shipping free?",
     "contexts": '["Shipping is free over $50.", "Express costs $9."]',
     "answer": "Shipping is free over $50."},
    {"id": "y", "question": "Are gift cards refundable?",
     "contexts": "['Gift cards are final.', 'Refunds take 30 days.']",
     "answer": "No, gift cards are final."},
]
WANT = {"p": ["Refunds take 30 days."],
        "j": ["Shipping is free over $50.", "Express costs $9."],
        "y": ["Gift cards are final.", "Refunds take 30 days."]}


def _csv(path: Path) -> Path:
    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(ROWS[0]))
        writer.writeheader()
        writer.writerows(ROWS)
    return path


def _cli(tmp_path: Path, data: Path) -> dict[str, dict]:
    out = tmp_path / f"{data.stem}.json"
    result = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "judge", "--db",
                                      str(tmp_path / "s.db"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return {r["id"]: r for r in json.loads(out.read_text())["detailed_results"]}


def test_a_dataframe_from_read_csv_reads_as_the_cli_reads_the_csv(tmp_path: Path) -> None:
    data = _csv(tmp_path / "d.csv")
    by_cli = _cli(tmp_path, data)
    frame = pd.read_csv(data)
    result = ragassay.evaluate(frame, "judge", store=tmp_path / "api.db")
    by_api = result.to_pandas().set_index("id")
    for sid, contexts in WANT.items():
        assert by_cli[sid]["contexts"] == contexts
        assert list(by_api.loc[sid, "contexts"]) == contexts
        assert by_api.loc[sid, "judge.faithfulness"] == by_cli[sid]["metrics"][
            "judge.faithfulness"]


def test_a_jsonl_row_with_one_passage_as_a_string(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps(ROWS[0]) + "\n")
    assert _cli(tmp_path, data)["p"]["contexts"] == ["Refunds take 30 days."]


def test_an_empty_contexts_string_is_no_context_as_an_empty_csv_cell_is(tmp_path: Path) -> None:
    """Trial 51: `"contexts": ""` read as one empty passage."""
    rows = [{"id": "e", "question": "Is shipping free?", "contexts": c, "answer": "Yes."}
            for c in ("", "   ")]
    rows[1]["id"] = "b"
    data = tmp_path / "e.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    by_file = ragassay.dataset.load_samples(data)
    by_frame = ragassay.dataset.load_samples(pd.DataFrame(rows))
    assert [s.contexts for s in by_file] == [(), ()]
    assert [s.contexts for s in by_frame] == [(), ()]
