"""An inverted link's judge cell says the scale people's rate is on (new-user trial 56:
with `--metrics judge,trace,ragas`, trace.adherence's row read "hallucinated 0.556" in
people's column but "people 0.403 on the same 134" in the judge's cell: 0.403 was
people's rate on adherence's own scale, 1 - hallucinated, unsaid)."""

from __future__ import annotations

from pathlib import Path

from ragassay.report import SampleEntry
from tests.support.verdicts import labelled_rows


def test_people_on_an_inverted_metrics_scale_say_so(tmp_path: Path) -> None:
    import ragassay

    rows = labelled_rows(answers=40, abstaining=4)
    report = ragassay.evaluate(rows, "judge,trace", store=tmp_path / "r.db",
                               progress=False).report()
    values = {e.id: e.metrics["trace.adherence"] for e in report.entries
              if isinstance(e, SampleEntry)}
    scored = [r for r in rows if values[r["id"]] is not None]
    assert 0 < len(scored) < len(rows)  # the declines have no verdict
    kept = sum(not r["labels"]["hallucinated"] for r in scored) / len(scored)
    row = next(r for r in report.headline.rows if r.metric == "trace.adherence")
    assert row.inverted and row.label == "hallucinated"
    # in the label's direction, as the cell's figure is (k131; k130 turned the figure)
    assert (f" on the {len(scored)} it scored (people {1 - kept:.3f} on those {len(scored)}, "
            "both hallucinated rates; ") in row.judge_text
    # a link read the metric's own way says nothing of a scale
    plain = next(r for r in report.headline.rows if r.metric == "judge.hallucination")
    assert "scale" not in plain.judge_text


def test_a_scores_kappa_says_where_it_is_cut() -> None:
    """New-user trial 56: the headline gave judge.faithfulness (a 1-10 score) "kappa 0.29"
    without saying what cut-off made its yes/no; it is the middle of the range, and the
    kappa is the one of that cut (checked here on the samples' own scores)."""
    import tempfile

    import ragassay
    from ragassay.stats.agreement import cohens_kappa

    rows = labelled_rows(answers=40, abstaining=4)
    with tempfile.TemporaryDirectory() as tmp:
        report = ragassay.evaluate(rows, "judge", store=Path(tmp) / "r.db",
                                   progress=False).report()
    row = next(r for r in report.headline.rows if r.metric == "judge.faithfulness")
    text = row.in_run_text()
    assert text is not None and row.agreement is not None
    kappa = row.agreement.kappa  # type: ignore[union-attr]
    assert kappa is not None
    assert f"kappa {kappa:.2f}" in text and "(a score below 5.5 read as hallucinated)" in text
    labels = {r["id"]: r["labels"]["hallucinated"] for r in rows}
    pairs = [(v < 5.5, labels[e.id]) for e in report.entries
             if isinstance(e, SampleEntry) and (v := e.metrics["judge.faithfulness"]) is not None]
    assert cohens_kappa([p for p, _ in pairs], [t for _, t in pairs]) == kappa
    # a verdict is its own yes/no: nothing to say
    verdict = next(r for r in report.headline.rows if r.metric == "judge.hallucination")
    assert "read as hallucinated)" not in (verdict.in_run_text() or "")


def test_an_inverted_rate_is_shown_as_the_labels_rate(tmp_path: Path) -> None:
    """New-user trial 67, finding 7: trace.adherence's row put people's hallucinated rate
    beside the judge's adherence rate, opposite directions side by side; the judge's cell
    now gives the hallucination rate (1 - adherence), and an inverted score says so."""
    import ragassay

    rows = labelled_rows(answers=40, abstaining=4)
    report = ragassay.evaluate(rows, "judge,trace", store=tmp_path / "r.db",
                               progress=False).report()
    row = next(r for r in report.headline.rows if r.metric == "trace.adherence")
    j = row.judge
    assert j is not None and j.mean is not None and j.ci_low is not None
    assert j.ci_high is not None
    turned = (f"rate {1 - j.mean:.3f} [{1 - j.ci_high:.3f}, {1 - j.ci_low:.3f}] "
              f"on 0-1 (hallucinated rate: 1 - trace.adherence's {j.mean:.3f})")
    assert turned in row.judge_text
    score = next(r for r in report.headline.rows if r.metric == "judge.faithfulness")
    assert "on 1-10 (inverted: high is not hallucinated)" in score.judge_text
    plain = next(r for r in report.headline.rows if r.metric == "judge.hallucination")
    assert "inverted" not in plain.judge_text and "1 - " not in plain.judge_text


def test_a_scores_cell_gives_its_rate_at_its_line_beside_peoples_rate(tmp_path: Path) -> None:
    """Trial 72: an "(inverted)" score's row put people's hallucinated rate 0.25 beside the
    judge's mean 7.3 on 1-10 (not inverted), two scales side by side. Its cell now opens
    with the judge's own hallucinated rate at its line, on the samples it scored beside
    people's on those, both the label's rate; its mean follows, said as a mean."""
    import ragassay

    rows = labelled_rows(answers=40, abstaining=4)
    report = ragassay.evaluate(rows, "judge,trace", store=tmp_path / "r.db",
                               progress=False).report()
    labels = {r["id"]: r["labels"]["hallucinated"] for r in rows}
    for metric, line in (("judge.faithfulness", 5.5), ("trace.adherence_ratio", 0.5)):
        pairs = [(v < line, labels[e.id]) for e in report.entries
                 if isinstance(e, SampleEntry) and (v := e.metrics[metric]) is not None]
        n = len(pairs)
        judge, people = sum(p for p, _ in pairs) / n, sum(t for _, t in pairs) / n
        row = next(r for r in report.headline.rows if r.metric == metric)
        assert row.inverted and row.estimate is not None
        # people's column is of all 44 samples: said beside people's rate on the 40 (trial
        # 73: 0.625 on those 24 beside people's 0.556, with nothing saying why)
        assert n == 40 and row.estimate.n_total == len(rows) == 44
        assert row.judge_text.startswith(
            f"hallucinated rate {judge:.3f} at its line (a score below {line:g} read as "
            f"hallucinated) on the {n} it scored (people {people:.3f} on those {n}; "
            f"people's column: all {len(rows)}); mean "), row.judge_text
        assert " (inverted: high is not hallucinated)" in row.judge_text
    # a verdict's cell is as it was: its own rate, no line
    verdict = next(r for r in report.headline.rows if r.metric == "judge.hallucination")
    assert "at its line" not in verdict.judge_text
