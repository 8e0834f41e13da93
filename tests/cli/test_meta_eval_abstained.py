"""`ragassay meta-eval` says which labelled samples it left out because their answer
abstained (new-user trial 57: every figure was over 128 of 144 labelled probes, with no
line saying that 16 correct declines were not in it), and keeps the line in `--out`."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli
from tests.support.verdicts import labelled_rows


def test_meta_eval_says_how_many_labelled_samples_abstained(tmp_path: Path) -> None:
    data, out = tmp_path / "probes.jsonl", tmp_path / "m.json"
    rows = labelled_rows(answers=30, abstaining=5, marked=2)
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    done = CliRunner().invoke(cli, ["meta-eval", str(data), "--metrics", "judge", "--db",
                                    str(tmp_path / "m.db"), "--out", str(out),
                                    "--n-resamples", "200", "-q"])
    assert done.exit_code == 0, done.output
    stored = json.loads(out.read_text())
    pairs = {p["metric"]: p for p in stored["calibration"]["pairs"]}
    assert pairs["judge.hallucination"]["n"] == 30  # the 5 declines are not compared
    [gone] = stored["left_out"]
    assert (gone["label"], gone["abstained"], gone["abstained_positives"]) == (
        "hallucinated", 5, 2)
    assert {"judge.hallucination", "judge.faithfulness"} <= set(gone["metrics"])
    assert gone["text"].startswith("of hallucinated's labelled samples 5 abstained (no value "
                                   "to compare), left out of the agreement with ")
    assert gone["text"].endswith("; people marked 2 of them hallucinated")
    assert f"note: {gone['text']}" in " ".join(done.output.split())
