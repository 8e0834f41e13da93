"""New-user trial 71's findings on the headline.

1. "right on 118 of 144 (82%)" counted 16 declines the judge never read (no verdict) as
   right because people did not mark them: the lead figure is the verdicts' own, the
   declines said apart with what people marked them, on every surface alike."""

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


def test_the_lead_figure_counts_the_verdicts_only(run: EvalResult) -> None:
    report = run.report()
    row = next(r for r in report.headline.rows if r.metric == "judge.hallucination")
    a = row.agreement
    assert a is not None and a.verdicts is not None and (a.n, a.abstained) == (40, 16)
    lead = re.match(r"right on (\d+) of (\d+) \((\d+)%\): ", row.agreement_text)
    assert lead is not None, row.agreement_text
    assert (int(lead[1]), int(lead[2])) == (a.verdicts.agree, 40)  # not + 14 of 56
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
    assert row.agreement_text in " ".join(out.getvalue().split())
    assert row.agreement_text in " ".join(unescape(to_html(report)).split())


def test_a_group_of_declines_alone_has_no_verdict_to_call_right(tmp_path: Path) -> None:
    import ragassay

    rows = labelled_rows(answers=0, abstaining=6, marked=1)
    run = ragassay.evaluate(rows, "judge", store=tmp_path / "d.db", progress=False)
    row = next(r for r in run.report().headline.rows if r.metric == "judge.hallucination")
    assert row.agreement_text.startswith(
        "no verdict compared; 6 declines abstained, 1 marked hallucinated by people")
    assert "right on" not in row.agreement_text
