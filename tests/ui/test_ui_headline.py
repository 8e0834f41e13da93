"""The dashboard says what each figure is (trial 50): a card of people's figure is titled
by what its number is, the held-apart line spares what the run's labels measure, and a
hop of one document is said in the singular. AppTest over real offline runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ragassay.ui.highlight import md_escape
from tests.ui.test_ui_pages import open_page

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LABELS = Path(__file__).resolve().parents[2] / "examples" / "labels"


def _labelled_overview(app_test: Any, tmp_path: Path, metric: str) -> tuple[Any, Any]:
    """The example's run with its labels: people's estimate via `metric`, and the
    dashboard's overview of it."""
    import ragassay

    db = tmp_path / "r.db"
    run = ragassay.evaluate(str(LABELS / "data.jsonl"), "judge", store=db, progress=False)
    run.import_labels(LABELS / "labels.jsonl")
    est = run.corrected().overall(metric)
    assert est is not None
    return est, open_page(app_test(db=db, run_id=run.run_id), "overview")


def test_peoples_cards_are_titled_by_what_their_number_is(app_test: Any,
                                                          tmp_path: Path) -> None:
    """The card titled "Faithfulness (judge)" held people's hallucination RATE 0.590 (via
    faithfulness inverted); it is now titled "People's hallucinated rate, via
    judge.faithfulness". The held-apart line no longer says judge.hallucination has no
    agreement measured while the headline shows its AUROC in this run: it says its
    held-apart balanced accuracy (trial 72)."""
    est, at = _labelled_overview(app_test, tmp_path, "judge.faithfulness")
    cards = {m.label: m.value for m in at.metric}
    title = md_escape("People's hallucinated rate, via judge.faithfulness")
    assert title in cards, list(cards)
    assert cards[title] == f"{est.estimate:.3f}"
    assert md_escape("People's hallucinated rate, via judge.hallucination") in cards
    assert not any("people (" in label for label in cards), list(cards)
    captions = [c.value.replace("\\", "") for c in at.caption]  # Markdown escapes undone
    assert not any("no measured agreement" in c for c in captions), captions
    assert any("offline judge, judge.hallucination: balanced accuracy" in c
               for c in captions), captions
    assert any("in this run: how well the judge's scores rank" in c for c in captions)


def test_a_hop_of_one_document_is_said_in_the_singular(app_test: Any, tmp_path: Path) -> None:
    import ragassay
    from tests.support.traces import LOUVRE, docs, openinference_trace, span, write_otlp

    spans = openinference_trace()
    one = span("a000000000000003", "retrieve-2", {
        "openinference.span.kind": "RETRIEVER", "input.value": "Paris museum",
        **docs("retrieval.documents", [LOUVRE])},
        parent="a000000000000001", start=11, end=20)
    spans[2] = one
    data = write_otlp(tmp_path / "traces.jsonl", [spans])
    run = ragassay.evaluate(data, "trace", store=tmp_path / "t.db", progress=False)
    at = open_page(app_test(db=tmp_path / "t.db", run_id=run.run_id), "samples")
    hops = [e.label for e in at.expander if e.label.startswith("Hop ")]
    assert "Hop 2: retriever, 1 document" in hops, hops
    assert "Hop 1: retriever, 2 documents" in hops, hops


def test_a_label_linked_to_no_metric_is_said_without_a_metric(app_test: Any,
                                                              tmp_path: Path) -> None:
    """A typo'd label name (`halucinated`) is a skipped entry with no metric: the
    dashboard and the HTML report name the label alone, never "via None"."""
    import json

    import ragassay
    from ragassay.report import to_html

    rows = [{**json.loads(line), "labels": {"halucinated": i % 2 == 0}} for i, line in
            enumerate((LABELS / "data.jsonl").read_text().splitlines()[:4])]
    db = tmp_path / "r.db"
    with pytest.warns(UserWarning, match="did you mean 'hallucinated'"):
        run = ragassay.evaluate(rows, "judge", store=db, progress=False)
    said = "No corrected estimate of halucinated: no label ragassay knows: did you mean"
    at = open_page(app_test(db=db, run_id=run.run_id), "overview")
    captions = [c.value.replace("\\", "") for c in at.caption]  # Markdown escapes undone
    assert any(c.startswith(said) for c in captions), captions
    assert not any("via None" in c for c in captions), captions
    html = to_html(run.report())
    assert said.replace("'", "&#x27;") in html and "via None" not in html


def test_the_overview_says_how_often_a_verdict_matches_people(app_test: Any,
                                                               tmp_path: Path) -> None:
    """The overview's headline table says the hallucination verdict's agreement in the
    console's words: how often it is people's label, what it misses and flags, and the
    answers that abstain left out (counts worked out here from the run's rows)."""
    import ragassay
    from ragassay.report import SampleEntry
    from tests.support.verdicts import expected, labelled_rows, lead

    rows = labelled_rows(answers=45, abstaining=3)
    db = tmp_path / "r.db"
    run = ragassay.evaluate(rows, "judge", store=db, progress=False)
    values = {e.id: e.metrics["judge.hallucination"] for e in run.report().entries
              if isinstance(e, SampleEntry)}
    want = expected(rows, values)
    n = want["n"]
    said = (f"{lead(want)}: misses {want['missed']} of "
            f"{want['positives']} people marked hallucinated, flags {want['flagged']} of "
            f"{n - want['positives']} they did not; 3 declines abstained, none marked "
            "hallucinated by people; in this run: AUROC ")
    at = open_page(app_test(db=db, run_id=run.run_id), "overview")
    table = next(d.value for d in at.dataframe
                 if "judge's agreement with people" in d.value.columns)
    cells = dict(zip(table["metric"], table["judge's agreement with people"], strict=True))
    (hallucination,) = [c for m, c in cells.items() if "hallucination" in m.lower()]
    assert hallucination.startswith(said), cells
    assert not any("right on" in c for m, c in cells.items() if "faithfulness" in m.lower())


def test_a_run_labelled_throughout_shows_each_labels_figure_once(app_test: Any,
                                                                 tmp_path: Path) -> None:
    """Trial 59: every sample labelled, nothing corrected, yet the overview's section
    read "People's figures, corrected from human labels", a card and a table row per
    linked metric, all the same figure. It says every sample is labelled, once, with one
    card and one row per label; a verdict's headline row says how often it is right."""
    import ragassay
    from tests.support.verdicts import labelled_rows

    db = tmp_path / "r.db"
    run = ragassay.evaluate(labelled_rows(answers=45, abstaining=3), "judge", store=db,
                            progress=False)
    est = run.corrected().overall("judge.hallucination")
    assert est is not None and est.all_labelled
    at = open_page(app_test(db=db, run_id=run.run_id), "overview")
    headers = [h.value for h in at.header]
    assert "People's labels: every sample labelled, nothing corrected" in headers, headers
    assert "People's figures, corrected from human labels" not in headers
    people = [m for m in at.metric if m.label == md_escape("hallucinated (people)")]
    assert [m.value for m in people] == [f"{est.estimate:.3f}"]
    tables = [d.value for d in at.dataframe if "people" in d.value.columns]
    assert len(tables) == 1 and list(tables[0]["label"]) == ["hallucinated"]
    captions = [c.value.replace("\\", "") for c in at.caption]
    assert sum(c.startswith("all 48 samples are labelled: people's rate is exact")
               for c in captions) == 1, captions
    head = next(d.value for d in at.dataframe
                if "judge's agreement with people" in d.value.columns)
    assert str(head["judge's agreement with people"].iloc[0]).startswith("right on ")


def test_the_demos_people_column_is_titled_for_what_it_holds(app_test: Any,
                                                             ui_store: Any) -> None:
    """Trial 59: the demo's column read `people (corrected) (95% CI)` over cells that all
    say "24 labels, 30 needed" or "no labels"; its next step asked for 6 more
    hallucination labels of a run labelled throughout."""
    at = open_page(app_test(run_id=ui_store.run_a), "overview")
    head = next(d.value for d in at.dataframe
                if "judge's agreement with people" in d.value.columns)
    # every sample labelled: people's own figure, nothing corrected (trial 70)
    column = "people (all labelled) (95% CI)"
    assert column in head.columns, list(head.columns)
    assert not any("corrected" in c for c in head.columns[:2])
    assert {c.split(" ", 1)[0] for c in head[column]} == {"hallucination", "correct", "no"}
    infos = [i.value.replace("\\", "") for i in at.info]  # Markdown escapes undone
    said = [i for i in infos if i.startswith("Next:")]
    assert len(said) == 1 and said[0].startswith("Next: nothing more to label for "), said
    assert "more sample" not in said[0]


def test_the_flags_say_peoples_figure_beside_the_judges(app_test: Any, tmp_path: Path) -> None:
    """Trial 64: a warning said the judge's hallucination rate alone under a headline of
    people's; the dashboard's flags say people's figure beside it, as the console does,
    and count the warnings true of a rate above its line."""
    est, at = _labelled_overview(app_test, tmp_path, "judge.hallucination")
    flags = next(d.value for d in at.dataframe if "level" in d.value.columns)
    said = [m for m, scope in zip(flags["message"], flags["scope"], strict=True)
            if scope == "overall" and m.startswith("judge.hallucination ")]
    assert said and all(
        f"(judge; people {est.estimate:.3f} [{est.ci_low:.3f}, {est.ci_high:.3f}], past the "
        "warning line by people's labels too): above the warning line" in m for m in said), said
    assert any("on the wrong side of" in w.value for w in at.warning), [w.value for w in at.warning]
