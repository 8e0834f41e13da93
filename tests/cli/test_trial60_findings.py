"""New-user trial 60, the console's side: on a run of fewer samples than a corrected
estimate needs labelled, `eval`'s footer and `gate --corrected` asked for labels that
could not give one (`make demo`: all 24 samples labelled; a 3-row run); they now say the
run is too small, and name the label as the data and the headline's next line do."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.dataset import demo_dataset_path
from tests.support.cli import cli_output

_run = partial(cli_output, columns=None)


def test_the_demo_footer_does_not_ask_for_labels_it_cannot_use(tmp_path: Path) -> None:
    out = _run("eval", "-v", str(demo_dataset_path()), "--db", str(tmp_path / "r.db"))
    flat = " ".join(out.split())
    assert "(hallucination and correct are on all 24 samples" in flat
    # trial 70: every sample labelled says what a large run says, whatever the count
    assert "people's labels: every sample labelled, nothing corrected" in flat
    assert ("all 24 samples are labelled: people's rate is exact for this data and nothing "
            "is corrected") in flat
    assert "fewer than the 30" not in out and "no corrected estimate" not in out
    assert "label more" not in out


def test_the_gate_does_not_ask_a_small_run_for_labels(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({"id": f"s{i}", "question": f"What is fact {i}?",
                                        "contexts": [f"Fact {i} is true."],
                                        "answer": f"Fact {i} is true."}) + "\n"
                            for i in range(3)))
    db = str(tmp_path / "r.db")
    _run("eval", "-v", str(data), "--metrics", "judge", "--db", db)
    result = CliRunner().invoke(cli, ["gate", "--corrected", "--require-labels", "--db", db])
    out = " ".join(result.output.split())
    assert "label some" not in out and "ragassay annotate" not in out, out
    assert ("judge.hallucination: no corrected estimate (no 'hallucinated' or 'faithful' "
            "labels in this run, and a corrected estimate needs 30 labelled samples: the run "
            "has 3 samples in all, so labelling cannot give one): gated on the judge's own "
            "values") in out


def test_gate_and_calibrate_say_every_sample_labelled_of_a_small_run(tmp_path: Path) -> None:
    """Trial 70: a small run labelled throughout said "fewer than the 30 needed" where a
    large one said "every sample labelled, nothing corrected"; gate --corrected and
    calibrate now say the large run's words, people's figure being the estimate."""
    db = str(tmp_path / "r.db")
    _run("eval", "-v", str(demo_dataset_path()), "--db", db, "--quiet")
    gate = " ".join(CliRunner().invoke(cli, ["gate", "--corrected", "--db", db]).output.split())
    assert "(all labelled, nothing corrected)" in gate and "0.423" in gate, gate
    assert "hallucination labels" not in gate and "fewer than the 30" not in gate
    run_id = json.loads(_run("runs", "list", "--db", db, "--format", "json"))[0]["id"]
    calibrate = " ".join(_run("calibrate", run_id, "--db", db).split())
    assert "people's labels: every sample labelled, nothing corrected" in calibrate
    assert "fewer than the 30" not in calibrate
