"""New-user trial 59 through the real CLI (`ragassay eval probes.jsonl --metrics judge`
on 144 rows all labelled `hallucinated`, and `make demo`): the console's next step leads
with what is complete and asks for relevance labels as optional; the demo's people's
column, which holds no figure, is titled `people's labels`, not `people (corrected)`.
The typed headline's words are tests/report/test_trial59_next_step.py's."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.dataset import demo_dataset_path
from ragassay.store import Store
from tests.support.verdicts import labelled_rows

ENV = {"COLUMNS": "250"}


def _eval(data: Path, db: Path) -> tuple[str, str]:
    result = CliRunner().invoke(cli, ["eval", "-v", str(data), "--metrics", "judge", "--db",
                                      str(db)], env=ENV)
    assert result.exit_code == 0, result.output
    return result.output, Store(db, readonly=True).list_runs()[0].id


def _next(out: str) -> str:
    said = " ".join(out.split("\nsee ", 1)[0].split())  # the line naming runs show --disagree
    return said.split(" next ", 1)[1].split(" judge suite per strategy", 1)[0]


def test_a_run_labelled_throughout_leads_with_what_is_complete(tmp_path: Path) -> None:
    data = tmp_path / "probes.jsonl"
    data.write_text("".join(json.dumps({**r, "metadata": {"kind": "k"}}) + "\n"
                            for r in labelled_rows(answers=60, abstaining=4)))
    out, run_id = _eval(data, tmp_path / "r.db")
    assert _next(out) == (
        "nothing more to label for judge.hallucination, judge.faithfulness (hallucinated "
        "is on all 64 samples); optional: label 30 samples for relevance (ragassay "
        f"annotate {run_id} --label relevance) to see what people would say about "
        "judge.context_relevance, now the judge's figure alone")


def test_the_demos_people_column_is_titled_for_what_it_holds(tmp_path: Path) -> None:
    out, run_id = _eval(demo_dataset_path(), tmp_path / "d.db")
    header = out[out.index("What people would say"):].split("\n", 3)[2]
    # every sample labelled: people's own figure (trial 70), nothing corrected
    assert "┃ people (all labelled) " in header and "corrected" not in header, header
    nxt = _next(out)
    assert nxt.startswith("nothing more to label for judge.hallucination"), nxt
    assert "more sample" not in nxt and f"annotate {run_id} --label relevance" in nxt
