"""New-user trial 60, the console's side: on a run of fewer samples than a corrected
estimate needs labelled, `eval`'s footer and `gate --corrected` asked for labels that
could not give one (`make demo`: all 24 samples labelled; a 3-row run); they now say the
run is too small, and name the label as the data and the headline's next line do."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.dataset import demo_dataset_path


def _run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_the_demo_footer_does_not_ask_for_labels_it_cannot_use(tmp_path: Path) -> None:
    out = _run("eval", str(demo_dataset_path()), "--db", str(tmp_path / "r.db"))
    flat = " ".join(out.split())
    assert "(hallucination and correct are on all 24 samples" in flat
    for label in ("hallucination", "correct"):
        assert (f"no corrected estimate of {label}: 24 labelled samples, fewer than the 30 a "
                "corrected estimate needs (the run has 24 samples in all, so labelling "
                "cannot give one)") in out
    assert "label more" not in out


def test_the_gate_does_not_ask_a_small_run_for_labels(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({"id": f"s{i}", "question": f"What is fact {i}?",
                                        "contexts": [f"Fact {i} is true."],
                                        "answer": f"Fact {i} is true."}) + "\n"
                            for i in range(3)))
    db = str(tmp_path / "r.db")
    _run("eval", str(data), "--metrics", "judge", "--db", db)
    result = CliRunner().invoke(cli, ["gate", "--corrected", "--require-labels", "--db", db])
    out = " ".join(result.output.split())
    assert "label some" not in out and "ragassay annotate" not in out, out
    assert ("judge.hallucination: no corrected estimate (no 'hallucinated' or 'faithful' "
            "labels in this run, and a corrected estimate needs 30 labelled samples: the run "
            "has 3 samples in all, so labelling cannot give one): gated on the judge's own "
            "values") in out
