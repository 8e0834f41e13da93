"""Trial 72, finding 1: people's labels are stored by a sample's content, so labels
imported for one run are read by every run of the same interactions. A fully labelled
run's rule line said `hallucinated: 10 samples` (only the store's) beside `30/30`
labelled; it now counts the data's own labels too, and the import says the labels are
shared."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from ragassay.cli import cli

PLACES = ["bakery", "library", "pool", "museum", "market", "cinema"]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env={"COLUMNS": "250"})
    return result.exit_code, result.output


def _data(path: Path) -> list[dict[str, Any]]:
    rows = []
    for i in range(30):
        place, hour = PLACES[i % 6], 7 + i % 5
        wrong = i % 4 == 0
        rows.append({"id": f"s{i:02d}", "question": f"When does the {place} open? ({i})",
                     "contexts": [f"The {place} opens at {hour} am every day."],
                     "answer": f"The {place} opens at {hour + 3 if wrong else hour} am.",
                     "labels": {"hallucinated": wrong}})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return rows


def test_labels_imported_for_another_run_are_counted_with_the_datas(tmp_path: Path) -> None:
    rows = _data(tmp_path / "d.jsonl")
    db = str(tmp_path / "s.db")
    ids = []
    for _ in range(2):  # two runs of one fully labelled file
        code, said = run("eval", str(tmp_path / "d.jsonl"), "--metrics", "judge", "--db", db)
        assert code == 0, said
        ids.append(re.search(r"run (\S+) stored", said).group(1))  # type: ignore[union-attr]
    labels = tmp_path / "l.jsonl"
    labels.write_text("".join(json.dumps({"id": r["id"], **r["labels"]}) + "\n"
                              for r in rows[:10]), encoding="utf-8")
    code, said = run("labels", "import", str(labels), "--run", ids[1], "--db", db)
    assert code == 0 and "imported 10 labels" in said, said
    assert "every run of the same interactions reads them" in " ".join(said.split())
    for run_id in ids:  # the first run reads them too, and every count says 30
        code, said = run("calibrate", run_id, "--db", db)
        text = " ".join(said.split())
        assert code == 0 and "30/30" in text, said
        assert ("hallucinated: 30 samples: 10 from 1 label, 20 from the data's labels"
                in text), said
