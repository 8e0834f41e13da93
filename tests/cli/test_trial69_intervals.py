"""Trial 69: the same samples judged twice (two runs, so two run ids, the rows in
another order) print the same intervals: a bootstrap interval is a function of the
values and the fixed seed (`stats.bootstrap.canonical_order`), not of the row order."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli

CONTEXTS = ["Solo syncs 2 devices and stores 5 TB.", "Studio syncs 8 devices and stores 40 TB.",
            "Annual plans can be refunded within 30 days.",
            "Priority chat is offered to Studio accounts only."]
QUESTIONS = ["How many devices does Solo sync?", "How much does Studio store?",
             "Can annual plans be refunded?", "Who gets priority chat?",
             "Is there a student discount?", "What does Solo store?"]
ANSWERS = ["Solo syncs 2 devices.", "Studio stores 40 TB of data.", "Yes, within 30 days.",
           "Studio accounts get priority chat.", "No idea, maybe 10 percent.",
           "Solo stores 5 TB and syncs 9 devices."]
ROWS = [{"id": f"s{i}", "question": QUESTIONS[i % 6], "contexts": CONTEXTS[:i % 4 + 1],
         "answer": ANSWERS[i * 5 % 6]} for i in range(12)]
INTERVAL = re.compile(r"\[\d+\.\d+, \d+\.\d+\]")


def _eval(path: Path, rows: list[dict[str, object]], db: Path) -> list[str]:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    result = CliRunner().invoke(cli, ["eval", "-v", str(path), "--metrics", "judge", "--db",
                                      str(db)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return INTERVAL.findall(result.output)


def test_the_same_values_in_another_order_print_the_same_intervals(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    first = _eval(tmp_path / "a.jsonl", ROWS, db)
    again = _eval(tmp_path / "b.jsonl", ROWS[::-1], db)
    assert len(first) >= 6  # the scores' bootstrap intervals are among them
    assert again == first
