"""`gate` says a value to the same decimals in its value column and in its reason
(new-user trial 67, finding 11: `0.307` in one column, `rate 0.3067 > 0.1` in the next);
more only where those would read as the bar the value is not."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.stats.describe import MetricAggregate
from ragassay.stats.gate import gate


def _entry(mean: float) -> MetricAggregate:
    return MetricAggregate(mean=mean, ci_low=mean - 0.01, ci_high=mean + 0.01, count=10,
                           higher_is_better=False)


def test_the_value_column_and_the_reason_say_one_figure() -> None:
    (check,) = gate({"x.a": _entry(0.30666)}, {"x.a": 0.1}).checks
    assert check.value_text == "0.307"
    assert check.reason == "mean 0.307 > 0.1"
    # a figure that would read as its bar keeps the decimals that tell them apart
    (near,) = gate({"x.a": _entry(0.10004)}, {"x.a": 0.1}).checks
    assert near.status == "FAIL"
    assert near.value_text == "0.10004" and near.reason == "mean 0.10004 > 0.1"


def test_the_cli_rows_say_it_once(tmp_path: Path) -> None:
    import ragassay

    rows = [{"id": f"s{i}", "question": f"How does locker {i} open?",
             "contexts": [f"Locker {i} on deck 2 opens with the blue key card."],
             "answer": (f"Locker {i} opens with the blue key card." if i % 3 else
                        f"Locker {i} was removed for repairs until spring.")}
            for i in range(7)]
    db = tmp_path / "r.db"
    ragassay.evaluate(rows, "judge", store=db, progress=False)
    gated = CliRunner().invoke(cli, ["gate", "--db", str(db)], env={"COLUMNS": "250"})
    row = next(line for line in gated.output.splitlines()
               if "judge.hallucination" in line and "│" in line)
    cells = [c.strip() for c in row.split("│") if c.strip()]
    bar, value, said = cells[1], cells[2], cells[3]
    assert f"rate {value} > {bar}" in said, row  # 3 of 7: `0.1`, `0.429` in both
