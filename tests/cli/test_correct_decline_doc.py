"""A user asked how to label "this row should be a correct decline". No label says so: a
decline is judged by the hallucination label, a correct one labelled not hallucinated.
The README says so beside the labels it documents, with an example row; this test runs
that row through `eval` and holds the README's words to what the headline counts."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli

ROOT = Path(__file__).resolve().parents[2]


def _example() -> dict[str, object]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- correct-decline-example -->\s*```json\n(.*?)```", readme, re.S)
    assert found, "README.md has the correct-decline example row"
    row = json.loads(" ".join(found[1].split("\n")))
    assert len(found[1].strip().splitlines()) == 2  # a two-line row
    assert isinstance(row, dict)
    return row


def test_the_readme_says_a_correct_decline_is_labelled_not_hallucinated() -> None:
    flat = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "A correct decline is labelled not hallucinated" in flat
    assert _example()["labels"] == {"hallucination": False}
    cli_md = " ".join((ROOT / "docs" / "cli.md").read_text(encoding="utf-8").split())
    assert "No label marks a row as a correct decline" in cli_md


def test_the_example_row_counts_as_a_right_decline(tmp_path: Path) -> None:
    row = _example()
    answered = {"id": "q1", "question": "How do the lockers open?",
                "contexts": ["Lockers open with the blue key card."],
                "answer": "Lockers open with the blue key card.",
                "labels": {"hallucination": False}}
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in (answered, row)), encoding="utf-8")
    ran = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "judge", "--db",
                                   str(tmp_path / "r.db")], env={"COLUMNS": "250"})
    assert ran.exit_code == 0, ran.output
    said = " ".join(ran.output.split())
    assert "right on 2 of 2 (100%)" in said, said
    assert "1 of 1 answer the judge read as a decline" in said, said
