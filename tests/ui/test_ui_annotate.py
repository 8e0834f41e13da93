"""The Annotate page in-process (Streamlit's AppTest) over a real store: start a plan,
label, skip, undo, note; the judge's verdict hidden until the sample is labelled; setup
mistakes in one line. The keyboard shortcuts run in the real browser
(test_ui_browser.py); here their key map and script are checked."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ragassay.store import Store
from ragassay.types import MetricSpec
from ragassay.ui import annotate as logic
from ragassay.ui.highlight import md_escape
from tests.support.annotated_run import AnnotatedRun, make_run, no_reference_run

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _page(app_test: Callable[..., Any], db: Path, run_id: str) -> Any:
    at = app_test(db=db, run_id=run_id)
    at.run()
    at.switch_page("screens/annotate.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _texts(at: Any) -> str:
    """The page's Markdown and captions, with Markdown's backslash escapes removed."""
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption]
                     ).replace("\\", "")


@pytest.fixture
def run(tmp_path: Path) -> tuple[Path, AnnotatedRun]:
    db = tmp_path / "a.db"
    with Store(db) as store:
        return db, make_run(store, 40)


def test_the_shortcuts_press_the_buttons_of_the_choices() -> None:
    assert logic.shortcut_map("hallucinated") == {
        "y": "annotate_choice_0", "n": "annotate_choice_1", "s": "annotate_skip",
        "u": "annotate_undo"}
    assert list(logic.shortcut_map("relevance"))[:4] == ["0", "1", "2", "3"]
    script = logic.shortcut_script(logic.shortcut_map("hallucinated"))
    assert json.dumps(logic.shortcut_map("hallucinated")) in script
    assert "window.parent" in script and 'removeEventListener("keydown"' in script


def test_label_skip_undo_with_the_verdict_hidden_until_labelled(
        app_test: Callable[..., Any], run: tuple[Path, AnnotatedRun]) -> None:
    db, r = run
    at = _page(app_test, db, r.run_id)
    assert [i.value for i in at.info] == ["Choose the labels and the order above, then "
                                          "start annotating."]
    at.button(key="annotate_start").click().run()
    with Store(db, readonly=True) as store:
        plan = store.get_plan(r.run_id)
    assert plan is not None and plan.labels == ("hallucinated", "relevance")
    assert "Sample 1 of 40" in [h.value for h in at.subheader]
    assert "**hallucinated** (then relevance)" in _texts(at)
    # nothing of the judge's is on the page before the label: no verdict, no score
    assert "The judge:" not in _texts(at) and "Hallucination (judge)" not in _texts(at)
    at.text_input(key=logic.NOTE_KEY).input("the price is invented")
    at.button(key="annotate_choice_0").click().run()  # Yes: hallucinated
    assert "The judge:" not in _texts(at)  # relevance is still to give
    assert at.text_input(key=logic.NOTE_KEY).value == ""  # the note went with the label
    at.button(key="annotate_choice_2").click().run()  # relevance 2
    texts = _texts(at)
    assert "you said hallucinated yes, relevance 2 highly relevant" in texts
    assert "The judge: Hallucination (judge) " in texts
    assert "Sample 2 of 40" in [h.value for h in at.subheader]
    at.button(key="annotate_skip").click().run()
    assert "Sample 3 of 40" in [h.value for h in at.subheader]
    at.button(key="annotate_undo").click().run()  # the skip
    assert "Sample 2 of 40" in [h.value for h in at.subheader]
    at.button(key="annotate_undo").click().run()  # relevance of sample 1
    assert "Sample 1 of 40" in [h.value for h in at.subheader]
    assert "**relevance**: How relevant" in _texts(at)
    assert "The judge:" not in _texts(at)  # the verdict goes with the label
    with Store(db, readonly=True) as store:
        labels = list(store.iter_labels())
        plan = store.get_plan(r.run_id)
    assert [(x.name, x.value, x.note, x.source) for x in labels] == [
        ("hallucinated", True, "the price is invented", f"annotate:{r.run_id}")]
    assert plan is not None and plan.skipped == ()
    assert not at.exception


def test_progress_shows_what_is_missing(app_test: Callable[..., Any],
                                        run: tuple[Path, AnnotatedRun]) -> None:
    db, r = run
    at = _page(app_test, db, r.run_id)
    at.button(key="annotate_start").click().run()
    at.button(key="annotate_choice_1").click().run()  # hallucinated: no
    frame = at.dataframe[0].value
    assert list(frame["metric"]) == ["Hallucination (judge)", "Faithfulness (judge)",
                                     "Context relevance (judge)"]
    assert list(frame["labels"]) == [1, 1, 0]
    at.button(key="annotate_choice_0").click().run()  # relevance: 0
    frame = at.dataframe[0].value
    assert list(frame["labels"]) == [1, 1, 1]
    assert set(frame.iloc[:, 3]) == {"1 label: 29 more before a corrected interval "
                                     "(30 minimum)"}
    assert any(e.label.startswith("Corrected intervals: 0 of 3 linked metrics have one")
               for e in at.expander)


def test_a_plan_of_another_order_needs_replace(app_test: Callable[..., Any],
                                               run: tuple[Path, AnnotatedRun]) -> None:
    db, r = run
    at = _page(app_test, db, r.run_id)
    at.button(key="annotate_start").click().run()
    at.radio(key=f"annotate_kind_{r.run_id}").set_value("stratified").run()
    at.button(key="annotate_start").click().run()
    assert [e.value for e in at.error] == [md_escape(  # shown as text, never Markdown
        f"run {r.run_id} is annotated with a uniform plan (seed 0; labels hallucinated, "
        "relevance): resume it as it is, or replace it (the labels given so far stay): "
        "tick 'Replace the run's plan' to replace it.")]
    at.checkbox(key=f"annotate_replace_{r.run_id}").check().run()
    at.button(key="annotate_start").click().run()
    with Store(db, readonly=True) as store:
        plan = store.get_plan(r.run_id)
    assert plan is not None and plan.kind == "stratified"


def test_a_run_with_no_linked_metric_is_one_line(app_test: Callable[..., Any],
                                                 tmp_path: Path) -> None:
    db = tmp_path / "n.db"
    with Store(db) as store:
        r = make_run(store, 5, specs=(MetricSpec(name="ragas.context_precision"),))
    at = _page(app_test, db, r.run_id)
    assert [e.value for e in at.error] == [
        "No metric of this run is compared with a human label (hallucinated, faithful, "
        "correct, relevance): annotate a run of the judge, trace or ragas suite."]
    assert "annotate_start" not in [b.key for b in at.button]  # the page stopped there


def test_a_late_second_press_does_nothing(run: tuple[Path, AnnotatedRun]) -> None:
    """Two presses of Yes on one shown sample (a double click, a key held): one label."""
    import streamlit as st

    from ragassay.annotation import SessionOptions, start

    db, r = run
    for key in (logic.HISTORY_KEY, logic.REVEAL_KEY, logic.ERROR_KEY, logic.NOTE_KEY):
        st.session_state.pop(key, None)
    with Store(db) as store:
        session = start(store, r.run_id, SessionOptions(labels=("hallucinated",)))
        shown = session.current()
    assert shown is not None
    logic.on_choice(str(db), session.queue, shown, True)
    logic.on_choice(str(db), session.queue, shown, True)  # the page had moved on
    with Store(db, readonly=True) as store:
        labels = list(store.iter_labels())
    assert [(x.content_key, x.value) for x in labels] == [(shown.entry.content_key, True)]
    assert len(logic.history(r.run_id)) == 1
    assert st.session_state[logic.REVEAL_KEY][r.run_id] == shown.entry  # its verdict shows
    logic.on_undo(str(db), session.queue, None)
    assert r.run_id not in st.session_state[logic.REVEAL_KEY]  # undone: hidden again
    with Store(db, readonly=True) as store:
        assert store.count_labels() == 0


def test_a_label_whose_metric_is_unscored_everywhere_is_not_preselected(
        app_test: Callable[..., Any], tmp_path: Path) -> None:
    """The page applies `ragassay annotate`'s rule (annotation.asked_labels): `correct` on a
    run without references is not preselected, said in a caption; picked, it is warned of."""
    db, run_id = no_reference_run(tmp_path)
    at = _page(app_test, db, run_id)
    picker = at.multiselect(key=f"annotate_labels_{run_id}")
    assert picker.value == ["hallucinated", "relevance"]
    assert any(o.startswith("correct: ") for o in picker.options)  # offered, not preselected
    why = (f"judge.answer_similarity (no reference answer), which it is compared with, is "
           f"unscored on every sample of run {run_id}")
    assert f"not asking correct: {why}, so its labels would feed no corrected estimate" \
        in _texts(at)
    assert not at.warning
    picker.set_value(["hallucinated", "correct"]).run()
    warned = f"warning: asking correct as named, although {why}: its labels will feed no " \
             "corrected estimate"
    assert [w.value.replace("\\", "") for w in at.warning] == [warned]
    at.button(key="annotate_start").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert warned in [w.value.replace("\\", "") for w in at.warning]  # the page, once started
