"""Review 10 of session 10: the headline's words for one labelled sample (a plural said of
one), and a known limit that was there before the session (every answer abstained): the
linked rows stay, a verdict's agreement counts the abstentions, and the prompt does not
say the labels are missing; with its neighbours (unlabelled samples beside them, a
judge that scored nothing, one labelled sample)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragassay.report import Report
from ragassay.stats.verdicts import false_declines

# --- L1 headline: "all 1 labelled samples", "on all 1 samples" (new)


def test_one_labelled_sample_is_said_singular(tmp_path: Path) -> None:
    import ragassay
    from tests.support.verdicts import labelled_rows

    report = ragassay.evaluate(labelled_rows(answers=1, abstaining=0), "judge,trace",
                               store=tmp_path / "r.db", progress=False).report()
    head = report.headline
    texts = [r.agreement_text for r in head.rows] + [head.prompt or ""]
    assert not any("all 1 labelled samples" in t or "all 1 samples" in t for t in texts), texts


# --- L2 headline (pre-existing): every sample labelled, every answer abstained


def test_labels_on_abstaining_answers_are_not_said_missing(tmp_path: Path) -> None:
    """32 samples labelled hallucinated whose answers all decline: the hallucination rows
    vanish and the prompt says there are no human labels yet."""
    import ragassay
    from tests.support.verdicts import labelled_rows

    report = ragassay.evaluate(labelled_rows(answers=0, abstaining=32), "judge,trace",
                               store=tmp_path / "r.db", progress=False).report()
    assert "no human labels yet" not in (report.headline.prompt or "")


def _report(tmp_path: Path, rows: list[dict[str, object]], suites: str = "judge,trace"
            ) -> Report:
    import ragassay

    return ragassay.evaluate(rows, suites, store=tmp_path / "r.db", progress=False).report()


def _rows(report: Report) -> dict[str, object]:
    return {r.metric: r for r in report.headline.rows}


def test_a_verdicts_abstentions_are_its_agreement_on_every_surface(tmp_path: Path) -> None:
    """The 32 declines above, every one labelled not hallucinated: the verdicts' rows
    stay and say how often the judge is right, counting the correct declines as the
    headline does beside verdicts; a score's row says there is nothing to compare.
    People's cell gives the labels' own figure, 0 of 32 with its exact interval (k118: it
    said "all 32 labels are False: no variation to estimate from", no figure at all). The
    console, the HTML report and the JSON section say the same words."""
    import io

    from rich.console import Console

    from ragassay.cli.corrected_view import print_headline
    from ragassay.report import report_json, to_html
    from tests.support.verdicts import labelled_rows

    report = _report(tmp_path, labelled_rows(answers=0, abstaining=32))
    rows = _rows(report)
    false = false_declines(sum(r.false for r in (report.abstentions or {}).values()))
    # counted right as `right on` counts declines beside verdicts (session 28, k247)
    declines = ("right on 32 of 32 (100%), all 32 answers the judge read as declines"
                f"{false}")  # what the run's abstention metric counted false after
    for metric in ("judge.hallucination", "trace.adherence"):
        row = rows[metric]
        assert row.agreement_text == declines, metric  # beside people's figure: this run's
        assert row.people_text == "hallucinated 0.000 [0.000, 0.109]"
        assert row.estimate is not None and row.estimate.all_labelled
        assert row.judge_text == "-"
    assert rows["judge.faithfulness"].people_text == "hallucinated 0.000 [0.000, 0.109]"
    assert rows["judge.faithfulness"].agreement_text.startswith(
        "in this run: nothing to compare (32 labels: 32 abstained, people marked 0 of them "
        f"hallucinated{false}); held apart: ")
    prompt = report.headline.prompt or ""
    assert "label more samples" not in prompt and "no human labels yet" not in prompt
    section = report_json(report)["headline"]
    out = io.StringIO()
    print_headline(report, Console(file=out, width=600))
    html = to_html(report)
    for entry in section["rows"]:
        assert entry["agreement_text"] == rows[entry["metric"]].agreement_text
        assert entry["agreement_text"] in out.getvalue()
        assert entry["people_text"] in out.getvalue() and entry["people_text"] in html
    assert section["prompt"] == report.headline.prompt


def test_declines_beside_unlabelled_answers_are_counted(tmp_path: Path) -> None:
    """Every labelled answer abstained, beside 10 unlabelled answers the judge scored:
    the agreement cell said only the held-apart figure, nothing of this run's 32 labels.
    The labels all alike give people's figure uncorrected (the labels' own exact
    interval, k118), and its notes say so and that these labels look picked."""
    from tests.support.verdicts import labelled_rows

    rows = labelled_rows(answers=10, abstaining=32)
    for row in rows[:10]:
        del row["labels"]
    report = _report(tmp_path, rows, "judge")
    got = _rows(report)
    false = false_declines(sum(r.false for r in (report.abstentions or {}).values()))
    assert got["judge.hallucination"].agreement_text == (
        "right on 32 of 32 (100%), all 32 answers the judge read as declines" + false)
    assert got["judge.hallucination"].people_text == "hallucinated 0.000 [0.000, 0.109]"
    assert report.corrected is not None
    note = report.corrected.estimates[0].note or ""
    assert note.startswith("nothing corrected: all 32 labels are False") and (
        "the 32 labelled samples look unlike the run" in note)
    assert got["judge.faithfulness"].agreement_text.startswith(
        "in this run: nothing to compare (32 labels: 32 abstained, people marked 0 of them "
        f"hallucinated{false}); held apart: ")


def _correct(rows: list[dict[str, object]], labelled: int) -> list[dict[str, object]]:
    """The rows labelled `correct` (every other one true) on the first `labelled`: without
    a reference, judge.answer_similarity, which `correct` is compared with, scores none."""
    for i, row in enumerate(rows):
        row["labels"] = {"correct": i % 2 == 0}
        if i >= labelled:
            del row["labels"]
    return rows


def test_labels_of_a_metric_the_judge_scored_nothing_of_keep_their_row(tmp_path: Path
                                                                     ) -> None:
    """32 samples labelled `correct`, no reference: the judge scored none, so the row
    left the headline and the prompt said "no human labels yet". People's figure is the
    labels' own (every sample labelled) and leads; nothing more to label for it."""
    from tests.support.verdicts import labelled_rows

    report = _report(tmp_path, _correct(labelled_rows(answers=32, abstaining=0), 32), "judge")
    row = _rows(report)["judge.answer_similarity"]
    assert row.estimate is not None and row.estimate.all_labelled
    assert row.people_text.startswith("correct 0.500 [") and row.judge_text == "-"
    assert row.agreement_text.startswith("in this run: nothing to compare (32 labels: 32 "
                                         "unscored); held apart: ")
    assert report.headline.rows[0].metric == row.metric  # people's figure first
    prompt = report.headline.prompt or ""
    assert prompt.startswith("nothing more to label for judge.answer_similarity (correct is "
                             "on all 32 samples)"), prompt


def test_some_labels_of_a_metric_the_judge_scored_nothing_of(tmp_path: Path) -> None:
    """12 of 32 samples labelled `correct`, none scored: the row stays, and the prompt
    says why no figure comes rather than asking for 18 more labels, which would give
    none while the judge scores nothing."""
    from tests.support.verdicts import labelled_rows

    report = _report(tmp_path, _correct(labelled_rows(answers=32, abstaining=0), 12), "judge")
    row = _rows(report)["judge.answer_similarity"]
    assert row.people_text == "no sample has a judge score"
    assert row.agreement_text.startswith("in this run: nothing to compare (12 labels: 12 "
                                         "unscored); held apart: ")
    prompt = report.headline.prompt or ""
    assert prompt.startswith("no corrected figure of correct via judge.answer_similarity: "
                             "no sample has a judge score"), prompt
    assert "for correct" not in prompt and "no human labels yet" not in prompt


@pytest.mark.parametrize("others", [0, 10])
def test_one_labelled_abstaining_sample(tmp_path: Path, others: int) -> None:
    """One labelled sample, its answer declining: alone in its run the rows left the
    headline and the prompt said "no human labels yet"; beside 10 unlabelled answers
    people's cell said "1 labels" and the agreement nothing of it."""
    from tests.support.verdicts import labelled_rows

    rows = labelled_rows(answers=others, abstaining=1)
    for row in rows[:others]:
        del row["labels"]
    report = _report(tmp_path, rows, "judge")
    got = _rows(report)
    # the one sample labelled alone in its run: people's own figure (trial 70)
    assert got["judge.hallucination"].people_text == (
        "1 label, 30 needed" if others else "hallucinated 0.000 [0.000, 0.975]")
    assert got["judge.hallucination"].agreement_text.startswith(
        "right on 1 of 1 (100%), the one answer the judge read as a decline")
    assert got["judge.faithfulness"].people_text == (
        "1 label, 30 needed (1 abstained: nothing to compare)" if others
        else "hallucinated 0.000 [0.000, 0.975]")
    prompt = report.headline.prompt or ""
    assert "no human labels yet" not in prompt
    if not others:
        assert prompt.startswith("nothing more to label for judge.hallucination, "
                                 "judge.faithfulness (hallucinated is on the one sample")
