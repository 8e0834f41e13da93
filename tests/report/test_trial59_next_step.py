"""New-user trial 59 (144 rows, every one labelled `hallucinated`, `--metrics judge`;
then `make demo`): the headline's next step and people's column did not fit the run.

1. The only next step asked for 30 relevance labels, although the hallucination figures
   above it were complete. A label on every sample now leads the line as complete, and a
   metric still without labels is asked for as optional, saying what it would add.
2. The demo's people's column was titled `people (corrected)` over cells that all read
   "24 labels, 30 needed" or "no labels". Without a figure in it, the column is titled
   for what it holds, `people's labels`, on every surface.

The typed headline, the JSON report and the HTML report; the console is
tests/cli/test_trial59_next_step.py's, the dashboard tests/ui/test_ui_headline.py's."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragassay.api import EvalResult
from ragassay.dataset import demo_dataset_path
from ragassay.report import Report, report_json, to_html
from tests.support.verdicts import labelled_rows


def _run(tmp_path: Path, rows: list[dict] | str) -> EvalResult:
    import ragassay

    return ragassay.evaluate(rows, "judge", store=tmp_path / "r.db", progress=False)


def _headline_html(report: Report) -> str:
    return to_html(report).split('<section id="headline">', 1)[1].split("</section>", 1)[0]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> EvalResult:
    return _run(tmp_path_factory.mktemp("demo"), str(demo_dataset_path()))


def test_a_run_labelled_throughout_says_so_and_asks_for_relevance_as_optional(
        tmp_path: Path) -> None:
    run = _run(tmp_path, labelled_rows(answers=60, abstaining=4))  # 64, all labelled
    report = run.report()
    head = report.headline
    assert [r.metric for r in head.rows if r.estimate is None] == ["judge.context_relevance"]
    assert head.prompt == (
        "nothing more to label for judge.hallucination, judge.faithfulness (hallucinated "
        "is on all 64 samples); optional: label 30 samples for relevance (ragassay "
        f"annotate {run.run_id} --label relevance) to see what people would say about "
        "judge.context_relevance, now the judge's figure alone")
    assert not head.prompt.startswith("label ")  # it does not lead with asking for labels
    assert report_json(report)["headline"]["prompt"] == head.prompt
    assert f"<b>Next:</b> {head.prompt}".replace("'", "&#x27;") in _headline_html(report)


def test_every_linked_label_on_every_sample_needs_no_next_step(tmp_path: Path) -> None:
    rows = labelled_rows(answers=40, abstaining=2)
    for i, row in enumerate(rows):
        row["labels"]["relevance"] = i % 4
    head = _run(tmp_path, rows).report().headline
    assert all(r.estimate is not None for r in head.rows)
    assert head.prompt is None


def test_a_label_on_only_some_samples_is_still_asked_for_first(tmp_path: Path) -> None:
    """Not complete: the line asks for the rest, as before."""
    rows = labelled_rows(answers=40, abstaining=2)
    for row in rows[:30]:
        del row["labels"]
    run = _run(tmp_path, rows)
    assert run.report().headline.prompt == (
        f"label 18 more samples for hallucinated (ragassay annotate {run.run_id} --label "
        "hallucinated: 12 of the 30 a corrected figure needs) to see what people would say "
        "about judge.hallucination, judge.faithfulness; label 30 samples for relevance "
        f"(ragassay annotate {run.run_id} --label relevance: 0 of the 30 a corrected "
        "figure needs) to see what people would say about judge.context_relevance")


def test_the_demos_labels_are_complete_and_too_few_for_a_figure(demo: EvalResult) -> None:
    """Every demo sample is labelled `hallucination` and `correct`: "label 6 more samples
    for hallucinated" asked for what no sample is left to give."""
    head = demo.report().headline
    assert head.has_people  # every sample labelled: people's own figure (trial 70)
    assert head.prompt == (
        "nothing more to label for judge.hallucination, judge.faithfulness, "
        "judge.answer_similarity (hallucination and correct are on all 24 samples); optional: "
        f"label 24 samples for relevance (ragassay annotate {demo.run_id} --label "
        "relevance) to measure judge.context_relevance against people on this run")
    assert "more sample" not in head.prompt


def test_a_column_without_peoples_figure_is_titled_for_what_it_holds(
        demo: EvalResult) -> None:
    report = demo.report()
    head = report.headline
    cells = {r.people_text for r in head.rows}  # every sample labelled (trial 70)
    assert cells == {"hallucination 0.250 [0.077, 0.423]", "correct 0.750 [0.577, 0.923]",
                     "no labels"}
    assert head.people_column == "people (all labelled)"
    assert report_json(report)["headline"]["people_column"] == "people (all labelled)"
    top = _headline_html(report)
    assert "corrected" not in top.split("</tr>", 1)[0]  # the table's header row


def test_a_column_with_a_figure_keeps_its_interval_in_the_title(tmp_path: Path) -> None:
    head = _run(tmp_path, labelled_rows(answers=40, abstaining=2)).report().headline
    assert head.people_heading == "people (all labelled) (95% CI)"
