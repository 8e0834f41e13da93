"""`ragassay gate --corrected` on a run whose samples are all labelled not hallucinated:
people's row is checked on the upper bound of the labels' exact interval (it said "no
corrected estimate (all 32 labels are False: no variation to estimate from ...)" and
gated on the judge alone). 0 of 32 does not show a rate of at most 10% (upper bound
0.109); 0 of 40 does (0.088)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli


def _run(tmp_path: Path, n: int) -> str:
    rows = []
    for i in range(n):
        ctx = f"Locker {i} on deck {i % 4 + 2} opens with the blue key card."
        rows.append({"id": f"s{i}", "question": f"How does locker {i} open?",
                     "contexts": [ctx], "answer": ctx, "labels": {"hallucinated": False}})
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    db = str(tmp_path / "r.db")
    ran = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "judge", "--db", db],
                             env={"COLUMNS": "250"})
    assert ran.exit_code == 0, ran.output
    assert "hallucinated 0.000 [0.000, " in ran.output  # the headline's people's figure
    return db


@pytest.mark.parametrize(("n", "bound", "verdict", "code"), [
    (32, "0.109 > 0.1", "FAIL", 1), (40, "0.088 <= 0.1", "PASS", 0)])
def test_labels_all_alike_are_gated_on_their_upper_bound(tmp_path: Path, n: int, bound: str,
                                                         verdict: str, code: int) -> None:
    db = _run(tmp_path, n)
    gated = CliRunner().invoke(cli, ["gate", "--corrected", "--db", db],
                               env={"COLUMNS": "250"})
    assert gated.exit_code == code, gated.output
    row = next(line for line in gated.output.splitlines() if "people's hallucinated" in line
               and "->" in line)
    assert f"{verdict} (people's hallucinated (all labelled, nothing corrected): 95% upper " \
           f"bound {bound} (estimate 0, all {n} samples labelled))" in row
    assert "no variation" not in gated.output
