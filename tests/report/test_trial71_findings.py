"""New-user trial 71's findings on the headline.

1. "right on 118 of 144 (82%)" counted 16 declines the judge never read (no verdict) as
   right because people did not mark them: the lead figure is the verdicts' own, the
   declines said apart with what people marked them, on every surface alike.
2. five agreement rows against `hallucinated` read as five measurements where two repeat
   others' readings: each such row says so in itself, and a line counts them."""

from __future__ import annotations

import io
import re
from html import unescape
from pathlib import Path

import pytest

from ragassay.api import EvalResult
from tests.support.verdicts import labelled_rows


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> EvalResult:
    import ragassay

    rows = labelled_rows(answers=40, abstaining=16, marked=2)
    db = tmp_path_factory.mktemp("t71") / "r.db"
    return ragassay.evaluate(rows, "judge,trace,ragas", store=db, progress=False)


def test_the_lead_counts_the_declines_then_the_verdicts_alone(run: EvalResult) -> None:
    report = run.report()
    row = next(r for r in report.headline.rows if r.metric == "judge.hallucination")
    a = row.agreement
    assert a is not None and a.verdicts is not None and (a.n, a.abstained) == (40, 16)
    lead = re.match(r"right on (\d+) of (\d+) \(\d+%\): 14 of 16 answers the judge read as "
                     "declines, "
                    r"(\d+) of (\d+) "
                    r"\((\d+)%\) scored answers: ",
                    row.agreement_text)
    assert lead is not None, row.agreement_text
    assert (int(lead[3]), int(lead[4])) == (a.verdicts.agree, 40)  # not + 14 of 56
    # with the declines counted, said as such, first (trials 74, 75): + 14 of 56
    assert (int(lead[1]), int(lead[2])) == (a.verdicts.agree + 14, 56)
    assert "; 16 declines abstained, 2 marked hallucinated by people; " in row.agreement_text
    assert " abstentions (" not in row.agreement_text and " verdicts (" not in row.agreement_text


def test_every_surface_says_the_verdicts_figure(run: EvalResult) -> None:
    from rich.console import Console

    from ragassay.cli.corrected_view import print_headline
    from ragassay.report import report_json, to_html

    report = run.report()
    row = next(r for r in report.headline.rows if r.metric == "judge.hallucination")
    out = io.StringIO()
    print_headline(report, Console(file=out, width=100))  # the words under the table
    entry = next(e for e in report_json(report)["headline"]["rows"]
                 if e["metric"] == "judge.hallucination")
    assert entry["agreement_text"] == row.agreement_text
    console = " ".join(out.getvalue().split())  # a figure a line under the table (trial 78)
    assert row.agreement_lines()[0] == row.agreement_text.split("; in this run: ")[0]
    assert all(" ".join(x.split()) in console for x in row.agreement_lines())
    assert row.agreement_text in " ".join(unescape(to_html(report)).split())


def test_a_group_of_declines_alone_counts_them_as_right_on_does(tmp_path: Path) -> None:
    """Declines alone: no verdict, counted as the headline's `right on` counts declines
    beside verdicts (session 28: a decline group said "no verdict compared" while the
    headline counted the same declines right), in its words."""
    import ragassay

    rows = labelled_rows(answers=0, abstaining=6, marked=1)
    run = ragassay.evaluate(rows, "judge", store=tmp_path / "d.db", progress=False)
    row = next(r for r in run.report().headline.rows if r.metric == "judge.hallucination")
    assert row.agreement_text.startswith(
        "right on 5 of 6 (83%), all 6 answers the judge read as declines; 1 marked "
        "hallucinated by people")
    assert "no verdict compared" not in row.agreement_text


def test_a_row_that_repeats_another_says_so_itself(run: EvalResult) -> None:
    from rich.console import Console

    from ragassay.cli.corrected_view import print_headline
    from ragassay.report import report_json, to_html

    report = run.report()
    rows = {r.metric: r for r in report.headline.rows}
    adherence, ragas = rows["trace.adherence"], rows["ragas.faithfulness"]
    assert adherence.same_as == "judge.hallucination"
    assert ragas.same_as == "trace.adherence_ratio"  # was None: its full cell repeated
    assert ragas.agreement_text.startswith(
        "same values as trace.adherence_ratio on all 56 labelled samples: its agreement "
        "with people is that metric's, not a second measurement"), ragas.agreement_text
    assert "AUROC" not in ragas.agreement_text
    assert adherence.metric_text() == (
        "trace.adherence (inverted; same verdicts as judge.hallucination)")
    assert ragas.metric_text() == (
        "ragas.faithfulness (inverted; same values as trace.adherence_ratio)")
    assert rows["judge.faithfulness"].metric_text() == "judge.faithfulness (inverted)"
    count = ("hallucinated: 5 linked metrics, 3 measurements (trace.adherence repeats "
             "judge.hallucination's verdicts, ragas.faithfulness repeats trace.adherence_ratio's "
             "values)")
    assert count in report.note_lines()
    entry = next(e for e in report_json(report)["headline"]["rows"]
                 if e["metric"] == "ragas.faithfulness")
    assert entry["same_as"] == "trace.adherence_ratio"
    out = io.StringIO()
    print_headline(report, Console(file=out, width=100))
    said = " ".join(out.getvalue().split())
    assert count in said and "(same values as" in said  # under its name, in its row
    html = " ".join(unescape(to_html(report)).split())
    assert count in html and ragas.metric_text() in html
