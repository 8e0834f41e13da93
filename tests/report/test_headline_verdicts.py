"""The headline's agreement for a metric that gives a yes/no verdict (judge.hallucination,
trace.adherence against `hallucinated`): beside AUROC and kappa, how often the verdict is
people's label, what it misses and flags, and the labelled samples left out and why,
with what people marked those whose answer abstained (trial 54: "13 abstained not
counted" never said people marked none of them hallucinated), carried typed on the
report (`BooleanAgreement.verdicts`, `.abstained`, `.unscored`, `.abstained_positives`)
and said in one set of words by the headline the console, the HTML report and the
dashboard share. A 1-10 score keeps its ranking figures alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragassay.report import SampleEntry, headline, to_html
from ragassay.stats.calibration import BooleanAgreement
from ragassay.stats.verdicts import false_declines
from tests.support.verdicts import expected, labelled_rows, lead


@pytest.mark.parametrize(("suite", "metric", "inverted", "score"),
                         [("judge", "judge.hallucination", False, "judge.faithfulness"),
                          ("trace", "trace.adherence", True, "trace.adherence_ratio")])
def test_the_verdicts_counts_are_carried_and_said(tmp_path: Path, suite: str, metric: str,
                                                  inverted: bool, score: str) -> None:
    import ragassay

    rows = labelled_rows(answers=60, abstaining=4, marked=1)
    run = ragassay.evaluate(rows, suite, store=tmp_path / "r.db", progress=False)
    report = run.report()
    values = {e.id: e.metrics[metric] for e in report.entries if isinstance(e, SampleEntry)}
    want = expected(rows, values, inverted=inverted)
    assert want["left_out"] == 4 and want["left_problems"] == 1
    assert want["missed"] and want["flagged"]
    head = headline(report)
    row = next(r for r in head.rows if r.metric == metric)
    a = row.agreement
    assert isinstance(a, BooleanAgreement) and a.verdicts is not None
    assert (a.n, a.positives, a.abstained, a.unscored) == (want["n"], want["positives"], 4, 0)
    assert (a.verdicts.agree, a.verdicts.missed, a.verdicts.flagged) == (
        want["agree"], want["missed"], want["flagged"])
    n, agree = want["n"], want["agree"]
    said = (f"{lead(want)}: misses {want['missed']} of "
            f"{want['positives']} people marked hallucinated, flags {want['flagged']} of "
            f"{n - want['positives']} they did not; 4 declines abstained, 1 marked "
            "hallucinated by people; in this run: AUROC ")
    assert row.agreement_text.startswith(said), row.agreement_text
    other = next(r for r in head.rows if r.metric == score)  # a score: the same clause
    assert "right on" not in other.agreement_text and (
        "(60 labels of 64: 4 abstained not counted, people marked 1 of them hallucinated); "
        "not above the lexical baseline on the same 60 samples (") in other.agreement_text
    assert "right on: how often the judge's yes/no verdict is people's label" in head.note
    page = to_html(report)
    cell = page.split('<section id="headline">', 1)[1].split(f"<td>{metric}</td>", 1)[1]
    assert cell.split("</tr>", 1)[0].count(f"<td>{said}") == 1
    # the JSON report carries the counts in its published shape
    pair = next(p for p in report.model_dump(mode="json")["calibration"]["pairs"]
                if p["metric"] == metric)
    assert pair["verdicts"] == {"agree": agree, "missed": want["missed"],
                                "flagged": want["flagged"], "problem": True}
    assert (pair["abstained"], pair["unscored"], pair["abstained_positives"]) == (4, 0, 1)


@pytest.mark.parametrize(("suite", "metric", "inverted"),
                         [("judge", "judge.hallucination", True),
                          ("trace", "trace.adherence", False)])
def test_a_faithful_labels_verdicts_are_said_from_the_hallucinations(
        tmp_path: Path, suite: str, metric: str, inverted: bool) -> None:
    """`faithful` (True is the good value): the judge that misses hallucinations "misses"
    them, counted of the answers people marked not faithful, and "flags" the faithful
    ones it calls unfaithful (it read "misses 0 of 30 people marked faithful, flags 5 of
    10 they did not" of a judge that missed 5 of 10 hallucinations); the typed counts
    (`missed`, `flagged`) are the ones said, on the problem side (`problem` False)."""
    import ragassay

    rows = labelled_rows(answers=60, abstaining=4, label="faithful", marked=1)
    run = ragassay.evaluate(rows, suite, store=tmp_path / "r.db", progress=False)
    report = run.report()
    values = {e.id: e.metrics[metric] for e in report.entries if isinstance(e, SampleEntry)}
    want = expected(rows, values, inverted=inverted, label="faithful")
    assert want["missed"] != want["flagged"] and want["missed"] and want["flagged"]
    row = next(r for r in headline(report).rows if r.metric == metric)
    assert row.estimate is not None and row.label == "faithful"
    a = row.agreement
    assert isinstance(a, BooleanAgreement) and a.verdicts is not None
    assert (a.verdicts.agree, a.verdicts.missed, a.verdicts.flagged, a.verdicts.problem) == (
        want["agree"], want["missed"], want["flagged"], False)
    n, problems = want["n"], want["problems"]
    said = (f"{lead(want)}: misses {want['missed']} of "
            f"{problems} people marked not faithful, flags {want['flagged']} of "
            f"{n - problems} they marked faithful; 4 declines abstained, 1 marked not "
            "faithful by people; in this run: AUROC ")
    assert row.agreement_text.startswith(said), row.agreement_text


def test_peoples_figure_whose_labels_have_nothing_to_compare_says_so(tmp_path: Path) -> None:
    """32 labels, every labelled answer abstaining: people's figure counts them (the
    judge's scores of the other answers correct it). A score's agreement cell says there
    is nothing to compare rather than nothing at all of this run's labels; a verdict's
    says the abstentions as it does beside verdicts (no verdict compared, and what people
    marked the declines)."""
    import ragassay

    rows = labelled_rows(answers=20, abstaining=32)
    for i, row in enumerate(rows):
        if i < 20:
            del row["labels"]
        else:
            row["labels"] = {"hallucinated": i % 3 == 0}
    marked = sum(1 for r in rows[20:] if r["labels"]["hallucinated"])
    run = ragassay.evaluate(rows, "judge", store=tmp_path / "r.db", progress=False)
    report = run.report()
    rows_by = {r.metric: r for r in headline(report).rows}
    # the declines the run's abstention metric counted false (trial 72), said after
    false = false_declines(sum(r.false for r in (report.abstentions or {}).values()))
    score = rows_by["judge.faithfulness"]
    assert score.estimate is not None and score.agreement is None
    assert score.agreement_text.startswith(
        f"in this run: nothing to compare (32 labels: 32 abstained, people marked {marked} "
        f"of them hallucinated{false}); held apart: ")
    verdict = rows_by["judge.hallucination"]
    assert verdict.estimate is not None and verdict.agreement is None
    assert verdict.agreement_text == (  # counted as `right on` counts declines (k247)
        f"right on {32 - marked} of 32 ({(32 - marked) / 32:.0%}), all 32 answers the judge "
        f"read as declines; {marked} marked hallucinated by people" + false)
