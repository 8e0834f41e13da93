"""RAGAS formulas and verdict scoring on hand-worked examples (no judge involved)."""

import numpy as np
import pytest

from ragassay.judge import Verdict
from ragassay.metrics.formulas import share
from ragassay.metrics.ragas import (
    CLAIMS,
    CONTEXTS,
    QUESTIONS,
    Claims,
    ContextVerdict,
    Label,
    RelevancyVerdict,
    average_precision,
    mean_cosine,
    score_answer_relevancy,
    score_contexts,
    score_faithfulness,
)
from ragassay.metrics.ragas.suite import (
    claims_verdict,
    context_verdict,
    failed,
    failed_contexts,
    relevancy_verdict,
)
from ragassay.text import key_answer

_TYPED = {"ragas.claims": claims_verdict, "ragas.questions": relevancy_verdict,
          "ragas.contexts": context_verdict}


def _ok(prompt, data):
    """The prompt's validated reply, as the verdict type the formulas take."""
    return _TYPED[prompt.name](prompt.output_model.model_validate(data))


def _failed(prompt, reason="invalid reply: x"):
    return Verdict(prompt.name, prompt.version, None, unscored_reason=reason, raw="nope",
                   messages=prompt.render(_VALUES[prompt.name]))


_VALUES = {
    "ragas.claims": {"question": "q", "contexts": "[0] c", "answer": "a"},
    "ragas.questions": {"n": "3", "answer": "a"},
    "ragas.contexts": {"question": "q", "contexts": "[0] c", "target_kind": "EXPECTED answer",
                       "target": "a: r"},
}


# -- faithfulness -----------------------------------------------------------------------

def test_two_of_three_claims_supported_is_0_67():
    verdict = _ok(CLAIMS, {"claims": [
        {"claim": "The tower was completed in 1889.", "supported": True, "reason": "chunk 0"},
        {"claim": "Gustave Eiffel's firm designed it.", "supported": "yes"},
        {"claim": "It is 330 metres tall.", "supported": False, "reason": "no height given"},
    ]})
    r = score_faithfulness(verdict)
    assert r.value == pytest.approx(0.6667, abs=1e-4)
    assert round(r.value, 2) == 0.67
    assert [c["supported"] for c in r.details["claims"]] == [True, True, False]
    assert r.details["claims"][2]["reason"] == "no height given"
    assert "soft" not in r.details


def test_share_uses_probabilities_only_when_all_are_present():
    assert share([True, False, True]) == pytest.approx(2 / 3)
    assert share([True, False], [0.8, 0.4]) == pytest.approx(0.6)
    assert share([True, False], [0.8, None]) == 0.5
    assert share([]) is None


def test_no_claims_is_unscored_not_zero():
    r = score_faithfulness(_ok(CLAIMS, {"claims": []}))
    assert r.value is None and r.unscored_reason == "no claims in the answer"


def test_failed_claims_verdict_keeps_reason_and_raw_reply():
    r = failed("ragas.faithfulness", _failed(CLAIMS))
    assert r.value is None and r.unscored_reason == "invalid reply: x"
    assert r.failure.raw_reply == "nope" and r.failure.prompt


# -- context precision ------------------------------------------------------------------

@pytest.mark.parametrize("useful, expected", [
    ([1, 1, 0], 1.0),                       # (1/1 + 2/2) / 2
    ([1, 0, 1], (1.0 + 2 / 3) / 2),         # 0.8333
    ([0, 1], 0.5),                          # (1/2) / 1
    ([0, 0, 1], 1 / 3),
    ([0, 1, 1, 0, 1], (1 / 2 + 2 / 3 + 3 / 5) / 3),
    ([0, 0, 0], 0.0),
    ([], 0.0),
])
def test_average_precision_hand_worked(useful, expected):
    assert average_precision(useful) == pytest.approx(expected)


def test_average_precision_is_rank_aware():
    assert average_precision([1, 0]) > average_precision([0, 1])


def test_soft_average_precision():
    # hits 0.5 -> 0.5/1 * 0.5 = 0.25; hits 1.0 -> 1.0/2 * 0.5 = 0.25; / 1.0
    assert average_precision([0.5, 0.5]) == pytest.approx(0.5)
    assert average_precision([1.0, 0.0]) == average_precision([1, 0])


def _contexts(data, n_chunks=3, n_shown=3, reference="It was built in 1889. It is tall."):
    ref = key_answer(reference) if reference else None
    return {r.name.split(".")[1]: r for r in score_contexts(
        _ok(CONTEXTS, data), n_chunks, n_shown, ref, "reference" if ref else "answer")}


def test_context_precision_and_recall_from_one_verdict():
    out = _contexts({"chunks": [{"index": 0, "useful": True}, {"index": "[1]", "useful": False},
                                {"index": 2, "useful": True}],
                     "reference_sentences": [{"key": "a", "attributed": True},
                                             {"key": "b", "attributed": False}]})
    assert out["context_precision"].value == pytest.approx((1 + 2 / 3) / 2)
    assert out["context_precision"].details["useful_chunks"] == [0, 2]
    assert out["context_precision"].details["judged_against"] == "reference"
    assert out["context_recall"].value == 0.5
    assert out["context_recall"].details["unattributed"] == [{"key": "b", "text": "It is tall."}]


def test_unknown_and_missing_chunks():
    out = _contexts({"chunks": [{"index": 7, "useful": True}, {"index": 1, "useful": True}],
                     "reference_sentences": [{"key": "a", "attributed": True},
                                             {"key": "z", "attributed": False}]})
    prec = out["context_precision"]
    assert prec.value == 0.5  # chunk 1 of [0, 1, 0]
    assert prec.details["unknown_chunks"] == 1
    assert prec.details["unjudged_chunks"] == [0, 2]
    rec = out["context_recall"]
    assert rec.value == 1.0  # only "a" judged; "b" not judged, "z" unknown
    assert rec.details["unjudged"] == ["b"] and rec.details["unknown_keys"] == 1


def test_chunks_beyond_the_cut_count_as_not_useful():
    # 4 chunks retrieved, 2 shown; a judged index 3 is not trusted (the judge never saw it)
    out = _contexts({"chunks": [{"index": 0, "useful": False}, {"index": 1, "useful": True},
                                {"index": 3, "useful": True}]}, n_chunks=4, n_shown=2)
    assert out["context_precision"].value == 0.5
    assert out["context_recall"].unscored_reason == "judge labelled no reference sentence"


def test_no_reference_gives_precision_only():
    out = _contexts({"chunks": [{"index": 0, "useful": True}]}, reference=None)
    assert set(out) == {"context_precision"}
    assert out["context_precision"].details["judged_against"] == "answer"


def test_failed_contexts_verdict_unscores_both():
    ref = key_answer("It was built in 1889.")
    out = failed_contexts(_failed(CONTEXTS), ref)
    assert [r.name for r in out] == ["ragas.context_precision", "ragas.context_recall"]
    assert all(r.value is None and r.failure.raw_reply == "nope" for r in out)


def test_soft_contexts_need_every_shown_chunk():
    v = ContextVerdict([Label(0, False, 0.5), Label(1, True, 0.5)])
    (prec,) = score_contexts(v, 2, 2, None, "answer")
    assert prec.value == pytest.approx(0.5) and prec.details["soft"] is True


# -- answer relevancy -------------------------------------------------------------------

def test_mean_cosine_normalises_and_clamps():
    q = np.array([1.0, 0.0])
    value, cos = mean_cosine(q, np.array([[2.0, 0.0], [0.0, 3.0]]))
    assert value == pytest.approx(0.5) and cos == pytest.approx([1.0, 0.0])
    value, cos = mean_cosine(q, np.array([[-1.0, 0.0]]))
    assert value == 0.0 and cos == [-1.0]
    value, _ = mean_cosine(q, np.array([[0.0, 0.0]]))  # a zero row is cosine 0, not NaN
    assert value == 0.0
    with pytest.raises(ValueError):
        mean_cosine(q, np.zeros((0, 2)))


def _embed(texts):
    table = {"Q": [1.0, 0.0, 0.0], "same": [1.0, 0.0, 0.0], "half": [0.6, 0.8, 0.0],
             "off": [0.0, 0.0, 1.0]}
    return np.array([table[t] for t in texts], dtype=np.float32)


def test_answer_relevancy_is_mean_cosine_of_generated_questions():
    v = _ok(QUESTIONS, {"questions": ["same", "half", "off"], "noncommittal": False})
    r = score_answer_relevancy(v, 3, _embed, "Q")
    assert r.value == pytest.approx((1.0 + 0.6 + 0.0) / 3)
    assert r.details["cosines"] == pytest.approx([1.0, 0.6, 0.0])
    # only the first n questions are used
    assert score_answer_relevancy(v, 1, _embed, "Q").value == pytest.approx(1.0)


def test_noncommittal_answer_scores_zero_without_embedding():
    v = _ok(QUESTIONS, {"questions": ["same"], "noncommittal": "true"})
    assert score_answer_relevancy(v, 3, None, "Q").value == 0.0


def test_direct_relevance_is_used_when_present():
    v = RelevancyVerdict(noncommittal=False, direct=0.42)
    r = score_answer_relevancy(v, 3, None, "Q")
    assert r.value == 0.42 and r.details["direct"] is True


def test_questions_must_be_written():
    with pytest.raises(ValueError, match="no questions"):
        QUESTIONS.output_model.model_validate({"questions": [" "], "noncommittal": False})
    written = QUESTIONS.output_model.model_validate({"questions": "What?", "noncommittal": 0})
    assert written.questions == ["What?"]


def test_embedding_failure_unscores_relevancy_only():
    def broken(texts):
        raise RuntimeError("model missing")

    v = _ok(QUESTIONS, {"questions": ["same"], "noncommittal": False})
    r = score_answer_relevancy(v, 3, broken, "Q")
    assert r.value is None and "model missing" in r.unscored_reason
    r = failed("ragas.answer_relevancy", _failed(QUESTIONS))
    assert r.unscored_reason == "invalid reply: x"


def test_examples_and_schemas_hide_the_offline_fields():
    for prompt in (CLAIMS, QUESTIONS, CONTEXTS):
        text = str(prompt.schema)
        assert "probability" not in text and "relevance" not in text
    assert isinstance(CLAIMS.output_model.model_validate(CLAIMS.examples[0]["output"]), Claims)
