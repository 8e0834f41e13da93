"""New-user trial 62 (144 labelled rows, 13 correct declines, `--metrics judge`): the
judge's cell read `judge 0.641 vs people 0.611 on the same 131` beside people's column's
`hallucinated 0.556` (of all 144), "a second 'people' rate ... two people rates in one row
look like a contradiction at first", under a note of about 10 lines. The judge's cell now
says its rate is over the samples it scored, people's on those same samples, and the base
of people's column (`judge 0.641 on the 131 it scored (people 0.611 on those 131; people's
column: all 144)`), on every surface; the note says each fact once. Under `--by kind`, a
group whose answers all abstained read "nothing to compare" where the headline counts
such declines right; a verdict's group cell now counts them as the headline does."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from ragassay.api import EvalResult
from ragassay.cli import cli
from ragassay.report import build_report, report_json, schema
from ragassay.stats.groups import group_cell
from tests.support.console_tables import headline_cell, table_cell
from tests.support.verdicts import declines_run, labelled_rows

# the six declines of `declines_run`, one of them marked hallucinated by people
# counted as the headline's `right on` counts declines (session 28, k247)
DECLINES = ("right on 5 of 6 (83%), all 6 answers the judge read as declines; 1 marked "
            "hallucinated by people")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> EvalResult:
    return declines_run(tmp_path_factory.mktemp("t62") / "r.db")


def _show(run: EvalResult, *args: str) -> str:
    out = CliRunner().invoke(cli, ["runs", "show", run.run_id, *args, "--db",
                                   str(run.store.path)], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    return out.output


def test_the_judges_cell_names_its_base_beside_peoples_column(run: EvalResult) -> None:
    rows = labelled_rows(answers=40, abstaining=6, marked=1)
    values = {e["id"]: e["metrics"]["judge.hallucination"]
              for e in report_json(run.report())["detailed_results"]}
    scored = [r for r in rows if values[r["id"]] is not None]
    assert len(scored) == 40
    judge = sum(values[r["id"]] for r in scored) / 40  # type: ignore[misc]
    people = sum(r["labels"]["hallucinated"] for r in scored) / 40
    lead = (f"judge {judge:.3f} on the 40 it scored (people {people:.3f} on those 40; "
            "people's column: all 46)")
    row = next(r for r in run.report().headline.rows if r.metric == "judge.hallucination")
    assert row.estimate is not None and row.estimate.n_total == 46
    assert row.judge_text.startswith(lead + "; ") and " vs people " not in row.judge_text
    # every surface says it in those words: the console, the HTML report, the JSON
    assert headline_cell(_show(run), "judge.hallucination", 4).startswith(lead)
    top = run.report("html").split('<section id="headline">', 1)[1].split("</section>")[0]
    cells = [unescape(c) for c in re.findall(r"<td>(.*?)</td>", top)]
    assert row.judge_text in cells
    doc = report_json(run.report())
    jsonschema.validate(doc, schema())
    entry = next(e for e in doc["headline"]["rows"] if e["metric"] == "judge.hallucination")
    assert entry["judge_text"] == row.judge_text


def test_the_note_says_each_fact_once(run: EvalResult) -> None:
    note = run.report().headline.note
    # one clause per figure shown, each opened by the words its cell or column says
    heads = [c.split(":", 1)[0] for c in note.split("; ")]
    assert heads == ["people (all labelled)", "in this run", "right on", "held apart",
                     "judge's own", "N of M scored"], note
    # the comparison on the samples the judge scored says itself in its cell now
    assert "for a verdict" not in note and "people's figure is of every sample" not in note
    assert "what they miss" not in note  # the verdict's cell says its misses and flags
    assert len(note) < 700, len(note)  # was over 1,000 characters (about 10 lines)


def test_a_group_whose_answers_all_abstained_reads_as_the_headline(
        run: EvalResult, tmp_path: Path) -> None:
    import ragassay

    decline = run.by("kind").group("decline")
    assert decline is not None
    got = decline.agreement_of("hallucinated", "judge.hallucination")
    assert got is not None and got.n == 0 and got.measured
    assert group_cell(got) == DECLINES
    # the headline of those six rows alone counts them the same way
    rows = [r for r in labelled_rows(answers=40, abstaining=6, marked=1)
            if r["id"].startswith("d")]
    alone = ragassay.evaluate(rows, "judge", store=tmp_path / "d.db", progress=False)
    head = next(r for r in alone.report().headline.rows if r.metric == "judge.hallucination")
    assert head.agreement_text.startswith(DECLINES), head.agreement_text
    # a score has nothing to rank there, as in the headline
    faith = decline.agreement_of("hallucinated", "judge.faithfulness")
    assert faith is not None and group_cell(faith).startswith("all 6 abstained: nothing")
    # every surface: the console's table, the HTML "By kind" section, the JSON
    shown = _show(run, "--by", "kind")
    assert table_cell(shown, "judge vs people by kind", "decline", 2) == DECLINES
    assert DECLINES in unescape(run.report("html", by="kind"))
    doc = report_json(build_report(run.store, run.run_id, by="kind"))
    jsonschema.validate(doc, schema())
    group = next(g for g in doc["groups"]["groups"] if g["value"] == "decline")
    cell = next(a for a in group["agreement"] if a["metric"] == "judge.hallucination")
    assert (cell["n"], cell["abstained"], cell["abstained_positives"], cell["positives"]) == (
        0, 6, 1, 0)
    assert "unmeasured" not in cell, json.dumps(cell)
