"""New-user trial 73: a gate config naming one metric printed notes about metrics it does
not gate (`note: against the lexical baseline ...: judge.hallucination, judge.faithfulness,
trace.adherence_ratio: ...` under a gate on judge.faithfulness alone). The notes concern
the gated metrics only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from tests.support.verdicts import labelled_rows

ENV = {"COLUMNS": "250"}
BARS = {"judge.hallucination": 0.5, "judge.faithfulness": 5, "trace.adherence_ratio": 0.5}
LINKED = tuple(BARS)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("t73gate")
    data = folder / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in labelled_rows(answers=30,
                                                                         abstaining=0)))
    out = str(folder / "r.db")
    ran = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "judge,trace",
                                   "--db", out], env=ENV)
    assert ran.exit_code == 0, ran.output
    return out


@pytest.mark.parametrize("gated", LINKED)
def test_a_gate_on_one_metric_notes_only_that_metric(db: str, tmp_path: Path,
                                                     gated: str) -> None:
    config = tmp_path / "gate.toml"
    config.write_text(f'[thresholds]\n"{gated}" = {BARS[gated]}\n', encoding="utf-8")
    for verbose in ([], ["--verbose"]):
        got = CliRunner().invoke(cli, ["gate", "--db", db, "--config", str(config), *verbose],
                                 env=ENV)
        assert got.exit_code in (0, 1), got.output
        notes = got.output[got.output.index("thresholds from"):]
        assert "lexical baseline" in notes  # the gated metric's own note stays
        for other in set(LINKED) - {gated}:
            assert other not in notes, notes
