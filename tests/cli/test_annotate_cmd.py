"""`ragassay annotate RUN`, driven through its standard input: labels land in the store
by their vocabulary names with the annotator, source and note; skip, undo, note and quit
work; the judge's values appear only once a sample is labelled; setup mistakes are one
line each."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ragassay.cli import cli
from ragassay.store import Store
from ragassay.types import MetricSpec
from tests.support.annotated_run import AnnotatedRun, make_run, no_reference_run


@pytest.fixture
def run(tmp_path: Path) -> tuple[Path, AnnotatedRun]:
    db = tmp_path / "a.db"
    with Store(db) as store:
        return db, make_run(store, 40)


def annotate(db: Path, *args: str, text: str = "") -> Result:
    return CliRunner().invoke(cli, ["annotate", *args, "--db", str(db)], input=text)


def _labels(db: Path) -> list:  # type: ignore[type-arg]
    with Store(db, readonly=True) as store:
        return list(store.iter_labels())


def test_labels_skip_undo_and_notes_from_stdin(run: tuple[Path, AnnotatedRun]) -> None:
    db, r = run
    # sample 1: hallucinated no, relevance 2 | sample 2: yes with a note, then a kept note
    # for relevance 1 | sample 3: skipped, the skip undone, then no, relevance 0 via its name
    text = "n\n2\ny the price is invented\nc unsure\n1\ns\nu\nno\nirrelevant\nq\n"
    result = annotate(db, r.run_id, "--annotator", "ana", text=text)
    assert result.exit_code == 0, result.output
    got = _labels(db)
    assert [(x.name, x.value) for x in got] == [
        ("hallucinated", False), ("relevance", 2.0), ("hallucinated", True),
        ("relevance", 1.0), ("hallucinated", False), ("relevance", 0.0)]
    assert {x.annotator for x in got} == {"ana"}
    assert {x.source for x in got} == {f"annotate:{r.run_id}"}
    assert [x.note for x in got] == ["", "", "the price is invented", "unsure", "", ""]
    with Store(db, readonly=True) as store:
        plan = store.get_plan(r.run_id)
    assert plan is not None and plan.kind == "uniform" and plan.skipped == ()
    out = result.output
    assert "skipped default/" in out and "undid the skip of default/" in out
    # 1, 2, 3 (skipped), 4, 3 again after the undo, then 4 before quitting
    assert [line.split(":")[0] for line in out.splitlines() if line.startswith("-- sample ")] \
        == [f"-- sample {i} of 40" for i in (1, 2, 3, 4, 3, 4)]
    # the judge's values are shown after the person's labels, never before the first
    assert out.index("the judge: Hallucination (judge)") > out.index("-- sample 1 of 40")
    assert "you: hallucinated no, relevance 2 highly relevant | the judge:" in out
    assert "3 of 40 samples labelled by ana (hallucinated 3, relevance 3)" in out
    assert "3 labels: 27 more before a corrected interval (30 minimum)" in out


def test_undo_of_a_label_and_end_of_input(run: tuple[Path, AnnotatedRun]) -> None:
    db, r = run
    result = annotate(db, r.run_id, "--label", "hallucinated", text="y\nu\nnope\nn\n")
    assert result.exit_code == 0, result.output
    assert "undid hallucinated of default/" in result.output
    assert "'nope' is not an answer; answer y/n" in result.output
    assert [(x.name, x.value) for x in _labels(db)] == [("hallucinated", False)]
    assert "1 of 40 samples labelled by " in result.output
    assert "(hallucinated 1)" in result.output


def test_a_weighted_plan_is_stored_and_kept(run: tuple[Path, AnnotatedRun]) -> None:
    db, r = run
    result = annotate(db, r.run_id, "--plan", "uncertainty", "--metric", "judge.faithfulness",
                      text="q\n")
    assert result.exit_code == 0, result.output
    assert "with an uncertainty plan (seed 0, by judge.faithfulness; labels hallucinated)" \
        in result.output
    again = annotate(db, r.run_id, "--plan", "uniform", text="q\n")
    assert again.exit_code == 2
    assert again.output.strip().splitlines() == [
        f"error: run {r.run_id} is annotated with an uncertainty plan (seed 0, by "
        "judge.faithfulness; labels hallucinated): resume it as it is, or replace it (the "
        "labels given so far stay): resume it without --plan/--seed/--metric, or replace it "
        "with --new-plan"]
    replaced = annotate(db, r.run_id, "--plan", "stratified", "--new-plan", text="q\n")
    assert replaced.exit_code == 0 and "with a stratified plan" in replaced.output


@pytest.mark.parametrize(("args", "message"), [
    (("--label", "truthy"), "error: 'truthy' is not a label the annotation asks"),
    (("--metric", "judge.nope"), "error: run RUN has no metric 'judge.nope'"),
    (("--plan", "uncertainty", "--metric", "judge.hallucination"),
     "error: metric judge.hallucination is a yes/no verdict"),
])
def test_setup_mistakes_are_one_line(run: tuple[Path, AnnotatedRun], args: tuple[str, ...],
                                     message: str) -> None:
    db, r = run
    result = annotate(db, r.run_id, *args)
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    assert result.output.startswith(message.replace("RUN", r.run_id))


def test_no_store_no_run_and_no_linked_metric(tmp_path: Path) -> None:
    missing = annotate(tmp_path / "none.db", "r1")
    assert missing.exit_code == 2 and missing.output.startswith("error: no run store at ")
    db = tmp_path / "a.db"
    with Store(db) as store:
        r = make_run(store, 5, specs=(MetricSpec(name="ragas.context_precision"),))
    unknown = annotate(db, "nope")
    assert unknown.exit_code == 2 and unknown.output.startswith("error: no run 'nope'")
    unlinked = annotate(db, r.run_id)
    assert unlinked.exit_code == 2
    assert unlinked.output.startswith(f"error: no metric of run {r.run_id} is compared with "
                                      "a human label")


def test_without_a_run_it_annotates_the_latest(run: tuple[Path, AnnotatedRun]) -> None:
    db, r = run
    result = annotate(db, "--annotator", "ana", text="n\nq\n")
    assert result.exit_code == 0, result.output
    assert f"annotating run {r.run_id}" in result.output
    assert [lab.name for lab in _labels(db)] == ["hallucinated"]


def test_a_label_whose_metric_is_unscored_everywhere_is_left_out(tmp_path: Path) -> None:
    """Trial finding: on a run without references `correct` was asked, though its metric
    (answer_similarity) is unscored on every sample: its labels could correct nothing.
    Now it is left out, said in one line; named with --label, it is asked with a warning."""
    db, run_id = no_reference_run(tmp_path)
    result = annotate(db, text="q\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].endswith("asking hallucinated, relevance")
    why = (f"judge.answer_similarity (no reference answer), which it is compared with, is "
           f"unscored on every sample of run {run_id}")
    assert result.stderr.splitlines() == [
        f"not asking correct: {why}, so its labels would feed no corrected estimate"]
    named = annotate(db, "--label", "correct", text="q\n")
    assert named.exit_code == 0, named.output
    assert named.stdout.splitlines()[0].endswith("asking correct")
    assert named.stderr.splitlines() == [
        f"warning: asking correct as named, although {why}: its labels will feed no "
        "corrected estimate"]
    assert "correct: Is the answer correct" in named.output  # its question is asked
    resumed = annotate(db, text="q\n")  # the plan now holds correct: asked, and warned
    assert resumed.stdout.splitlines()[0].endswith("asking hallucinated, relevance, correct")
    assert resumed.stderr.splitlines()[0].startswith("warning: asking correct as named")


def test_the_progress_block_is_said_once_by_metric_ids(run: tuple[Path, AnnotatedRun]) -> None:
    """New-user trial 56: `ragassay annotate RUN < /dev/null` said its progress block twice
    (at the start, and again unchanged when input ended) and named metrics by display name
    ("hallucinated via Hallucination (judge)") where every other output uses ids."""
    db, r = run
    result = annotate(db, r.run_id)  # input ends at once: nothing labelled
    assert result.exit_code == 0, result.output
    assert result.output.count("0 of 40 samples labelled by ") == 1
    assert result.output.count("  hallucinated via judge.hallucination: ") == 1
    assert "via Hallucination" not in result.output
    # once something was labelled, the closing block says where it got to
    labelled = annotate(db, r.run_id, "--label", "hallucinated", text="y\n")
    assert labelled.exit_code == 0, labelled.output
    assert labelled.output.count("samples labelled by ") == 2
    assert "1 of 40 samples labelled by " in labelled.output
