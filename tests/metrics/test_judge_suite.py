import pytest

from ragassay.metrics.judge import JudgeScores, overall_score, score_judge
from ragassay.types import Sample


def test_overall_formula_with_all_parts():
    value, weights = overall_score(8, 6, 9, 0.0)
    assert value == pytest.approx(0.3 * 8 + 0.4 * 6 + 0.3 * 9)
    assert weights == {"context_relevance": 0.3, "answer_similarity": 0.4, "faithfulness": 0.3}


def test_overall_is_scaled_by_hallucination_rate():
    value, _ = overall_score(8, 6, 9, 0.25)
    assert value == pytest.approx((0.3 * 8 + 0.4 * 6 + 0.3 * 9) * 0.75)
    assert overall_score(8, 6, 9, 1.0)[0] == 0.0


def test_overall_reweights_without_reference():
    value, weights = overall_score(8, None, 6, 0.0)
    assert weights == {"context_relevance": 0.5, "faithfulness": 0.5}
    assert value == pytest.approx(7.0)


def test_overall_needs_faithfulness():
    assert overall_score(8, 6, None, 0.0) == (None, {})


def _sample(**kw):
    base = {"id": "s1", "question": "q", "contexts": ("c",), "answer": "a", "reference": "r"}
    base.update(kw)
    return Sample(**base)


def test_score_judge_maps_reply_to_qualified_metrics():
    scores = JudgeScores(context_relevance=9, answer_similarity=7, faithfulness=8,
                         hallucination=True, reasoning="r")
    out = {r.name: r for r in score_judge(_sample(), scores)}
    assert out["judge.context_relevance"].value == 9
    assert out["judge.hallucination"].value is True
    assert out["judge.overall"].value == 0.0  # a hallucinating answer scores 0 overall


def test_missing_inputs_are_unscored_with_reason_not_errors():
    scores = JudgeScores(context_relevance=9, answer_similarity=7, faithfulness=8,
                         hallucination=False)
    out = {r.name: r for r in score_judge(_sample(reference=None), scores)}
    assert out["judge.answer_similarity"].value is None
    assert out["judge.answer_similarity"].unscored_reason == "no reference answer"
    assert out["judge.overall"].value == pytest.approx(0.5 * 9 + 0.5 * 8)
    out = {r.name: r for r in score_judge(_sample(contexts=()), scores)}
    assert out["judge.faithfulness"].unscored_reason == "no contexts"
    assert out["judge.overall"].value is None
    # blank contexts are no contexts, as in the trace and ragas suites (a new-user trial
    # saw judge.context_relevance 1.0 for contexts [""])
    for blank in ([""], ["  ", "\n"]):
        out = {r.name: r for r in score_judge(_sample(contexts=tuple(blank)), scores)}
        for name in ("context_relevance", "faithfulness", "hallucination"):
            assert out[f"judge.{name}"].value is None
            assert out[f"judge.{name}"].unscored_reason == "no contexts"


def test_failed_verdict_unscores_everything_and_keeps_the_raw_reply():
    out = score_judge(_sample(), None, "unparseable reply: x",
                      {"raw_reply": "oops", "prompt": []})
    assert all(r.value is None and r.unscored_reason == "unparseable reply: x" for r in out)
    assert out[0].failure.raw_reply == "oops"
    assert len(out) == 5


def test_an_empty_answer_is_the_reason_for_its_answer_metrics():
    # the offline judge has no reference match for an empty answer; the reason says why,
    # not "judge gave no value"
    scores = JudgeScores(context_relevance=9, answer_similarity=None, faithfulness=1,
                         hallucination=True)
    out = {r.name: r for r in score_judge(_sample(answer="  "), scores)}
    for name in ("answer_similarity", "faithfulness", "hallucination"):
        assert out[f"judge.{name}"].value is None
        assert out[f"judge.{name}"].unscored_reason == "empty answer"
    assert out["judge.context_relevance"].value == 9


def test_no_contexts_is_a_missing_input_not_a_failure(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Found by a new-user trial: rows without usable contexts (none, or only blank ones)
    and without a reference were counted as failed questions, because judge.overall's
    reason ("needs faithfulness and hallucination") and the judge suite's "needs contexts
    or a reference answer" were not missing-input reasons."""
    import ragassay
    from ragassay.types import MISSING_INPUT

    rows = [
        {"id": "none", "question": "When?", "contexts": [], "answer": "In 1889."},
        {"id": "blank", "question": "When?", "contexts": [""], "answer": "In 1889."},
        {"id": "ok", "question": "When was the tower completed?",
         "contexts": ["The tower was completed in 1889."], "answer": "In 1889."},
    ]
    run = ragassay.evaluate(rows, metrics="judge,trace,ragas", store=tmp_path / "r.db")
    report = run.report("json")
    assert report.strategies["default"].figure("failed_questions") == 0
    reasons = {d.id: d.unscored for d in report.entries}
    assert all(r in MISSING_INPUT for d in ("none", "blank") for r in reasons[d].values())
    # blank strings are no contexts: the two rows read the same (a trial saw "no
    # contexts" for [""] and "needs contexts or a reference answer" for [])
    assert reasons["blank"] == reasons["none"]
    assert reasons["blank"]["judge.overall"] == "needs contexts or a reference answer"
