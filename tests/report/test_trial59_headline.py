"""New-user trial 59 (144 rows, every one labelled `hallucinated`, `--metrics
judge,trace,ragas`): the headline's most useful figure was hard to find. How often the
verdict is right ended a cell that wrapped to 14 lines, under a 1-10 score's AUROC-only
row; trace.adherence repeated that cell word for word; and the corrected estimates
showed one identical "people" row per metric, gain x1.00, under a title about a random
sample, with nothing corrected. The typed headline, the JSON report and the HTML report;
the console's tables are tests/cli/test_trial59.py's."""

from __future__ import annotations

import html
from pathlib import Path

import jsonschema
import pytest

from ragassay.api import EvalResult
from ragassay.report import REPORT_VERSION, Report, SampleEntry, report_json, schema, to_html
from tests.support.verdicts import expected, labelled_rows, lead

ROWS = labelled_rows(answers=60, abstaining=4, marked=1)  # 64 samples, all labelled


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> EvalResult:
    import ragassay

    return ragassay.evaluate(ROWS, "judge,trace", store=tmp_path_factory.mktemp("t59") / "r.db",
                             progress=False)


@pytest.fixture(scope="module")
def report(run: EvalResult) -> Report:
    return run.report()


def _values(report: Report, metric: str) -> dict[str, float | None]:
    return {e.id: None if (v := e.metrics[metric]) is None else float(v)
            for e in report.entries if isinstance(e, SampleEntry)}


def test_a_verdicts_cell_says_how_often_it_is_right_first(report: Report) -> None:
    """Counts worked out here from the rows: the verdicts' agreements, plus the 3 of the
    4 declines people did not mark hallucinated, of all 64."""
    want = expected(ROWS, _values(report, "judge.hallucination"))
    n = want["n"]
    assert (n, want["left_out"], want["left_problems"]) == (60, 4, 1)
    row = next(r for r in report.headline.rows if r.metric == "judge.hallucination")
    assert row.agreement_text.startswith(
        f"{lead(want)}: misses "
        f"{want['missed']} of {want['positives']} people marked hallucinated, flags "
        f"{want['flagged']} of {60 - want['positives']} they did not; 4 declines abstained, "
        "1 marked hallucinated by people; in this run: AUROC "), row.agreement_text
    assert "not counted" not in row.agreement_text  # the abstentions are said, not dropped


def test_a_verdicts_row_comes_before_a_scores(report: Report) -> None:
    """By the kind of agreement a row has (verdicts counted, or a score's ranking), not
    by the metric's name: the run's metric order puts judge.faithfulness first."""
    metrics = report.metrics
    assert metrics.index("judge.faithfulness") < metrics.index("judge.hallucination")
    rows = [r for r in report.headline.rows if r.estimate is not None]
    kinds = [r.shows_verdicts() for r in rows]
    assert kinds == sorted(kinds, reverse=True) and kinds[0] and not kinds[-1]
    assert [r.metric for r in rows][:3] == ["judge.hallucination", "trace.adherence",
                                           "judge.faithfulness"]


def test_a_row_with_the_same_verdicts_names_the_row_that_says_them(report: Report) -> None:
    hallucination = _values(report, "judge.hallucination")
    adherence = _values(report, "trace.adherence")
    # the premise, from the samples: every labelled sample gets the same verdict (an
    # adherence below 0.5 is a hallucination), and the same samples abstain
    assert all((h is None) == (a is None) and (h is None or (h >= 0.5) == (a < 0.5))
               for h, a in ((hallucination[r["id"]], adherence[r["id"]]) for r in ROWS))
    head = report.headline
    said = next(r for r in head.rows if r.metric == "judge.hallucination")
    same = next(r for r in head.rows if r.metric == "trace.adherence")
    assert said.same_as is None and same.same_as == "judge.hallucination"
    assert same.agreement_text == ("same verdicts as judge.hallucination on all 64 labelled "
                                   "samples")
    # the JSON keeps both rows' figures and names the row the cell stands for
    doc = report_json(report)
    jsonschema.validate(doc, schema())
    assert doc["evaluation_metadata"]["report_version"] == REPORT_VERSION
    assert tuple(map(int, REPORT_VERSION.split("."))) >= (2, 14, 0)
    rows = {e["metric"]: e for e in doc["headline"]["rows"]}
    first, second = rows["judge.hallucination"], rows["trace.adherence"]
    assert (first["same_as"], second["same_as"]) == (None, "judge.hallucination")
    assert second["agreement_text"] == same.agreement_text
    assert first["agreement_text"] == said.agreement_text
    assert second["people"] == first["people"] and second["judge"] is not None
    # as its cell shows it, in the label's direction; its own rate beside (k131)
    assert abs(second["judge"] - first["judge"]) < 1e-3 and second["judge_turned"]
    assert abs(second["judge_own"] - (1 - first["judge"])) < 1e-3
    pairs = {p["metric"]: p for p in doc["calibration"]["pairs"]}
    assert pairs["trace.adherence"]["verdicts"]["same_as"] == "judge.hallucination"
    assert "same_as" not in pairs["judge.hallucination"]["verdicts"]
    # the HTML headline shows the cell once and the name in the other row
    top = to_html(report).split('<section id="headline">', 1)[1].split("</section>", 1)[0]
    assert top.count(html.escape(said.agreement_text)) == 1  # `<=` as the page writes it
    assert f"<td>{html.escape(same.agreement_text)}</td>" in top


def test_every_sample_labelled_shows_each_labels_figure_once(report: Report) -> None:
    """The HTML section of corrected estimates: no table of one identical row per linked
    metric under a heading about correcting; one row per label, under words that say
    nothing is corrected. The JSON keeps an estimate per label and metric."""
    cor = report.corrected
    assert cor is not None
    whole = [e for e in cor.estimates if e.strategy is None]
    assert len(whole) == 4 and all(e.all_labelled for e in whole)  # 4 linked metrics
    assert len({(e.estimate, e.ci_low, e.ci_high) for e in whole}) == 1
    e = whole[0]
    section = to_html(report).split('<section id="corrected">', 1)[1].split("</section>")[0]
    assert section.startswith("<h2>People&#x27;s labels: every sample labelled, nothing "
                              "corrected</h2><p>all 64 samples are labelled: people&#x27;s "
                              "rate is exact for this data and nothing is corrected")
    assert "corrected from human labels" not in section and "prediction-powered" not in section
    assert section.count(f'<td class="num">{e.estimate:.3f}</td>') == 1  # right-aligned
    assert section.count("<tr><td>hallucinated</td>") == 1
    assert section.count("only more samples would narrow the interval") == 1
    assert len(report_json(report)["corrected"]["estimates"]) == len(cor.estimates)


def test_labels_some_of_which_are_corrected_keep_their_table(tmp_path: Path) -> None:
    """Every sample labelled hallucinated, 40 of 64 with a relevance grade: the grade's
    figures are corrected (their table, its heading), the hallucination rate is said once
    apart."""
    import ragassay

    rows = labelled_rows(answers=60, abstaining=4)
    for i, row in enumerate(rows[:40]):
        row["labels"]["relevance"] = i % 4
    report = ragassay.evaluate(rows, "judge", store=tmp_path / "r.db", progress=False).report()
    section = to_html(report).split('<section id="corrected">', 1)[1].split("</section>")[0]
    assert section.startswith("<h2>People&#x27;s figures, corrected from human labels</h2>")
    corrected, exact = section.split("<h3>People&#x27;s labels: every sample labelled, "
                                     "nothing corrected</h3>")
    assert "<td>relevance</td>" in corrected and "<td>hallucinated</td>" not in corrected
    table = exact.split("<ul>", 1)[0]  # the lines under both tables follow
    assert table.count("<tr><td>hallucinated</td>") == 1 and "relevance" not in table
