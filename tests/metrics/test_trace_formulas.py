"""TRACe formulas and label cleaning on hand-worked examples (no judge involved)."""

import asyncio

import pytest

from ragassay.judge import Verdict
from ragassay.metrics import SuiteOptions
from ragassay.metrics.formulas import share as adherence_ratio
from ragassay.metrics.trace import (
    PROMPT,
    SentenceVerdict,
    TraceLabels,
    TraceSuite,
    TraceVerdict,
    adherence,
    clean_labels,
    completeness,
    length_share,
    render_keyed,
    score_trace,
)
from ragassay.text import KeyedSample, KeyedSentence, fit_sentences
from ragassay.types import Sample

# lengths: 0a = 10, 0b = 30, 1a = 60 characters (total 100)
CTX = [KeyedSentence("0a", "x" * 10, 0), KeyedSentence("0b", "y" * 30, 0),
       KeyedSentence("1a", "z" * 60, 1)]
ANS = [KeyedSentence("a", "First answer sentence.", -1),
       KeyedSentence("b", "Second answer sentence.", -1),
       KeyedSentence("c", "Third.", -1)]
SHOWN = {"0a", "0b", "1a"}


def _item(ctx, shown, ans) -> KeyedSample:
    return KeyedSample(sample=Sample(id="t", question="q"), question="q", documents=(),
                       contexts=tuple(c for c in ctx if c.key in shown), all_contexts=tuple(ctx),
                       answer_text=" ".join(a.text for a in ans), answer=tuple(ans),
                       reference=())


def _score(ctx, shown, ans, labels):
    """The LLM path: labels cleaned against the keys shown, then the formulas."""
    item = _item(ctx, shown, ans)
    return score_trace(item, clean_labels(labels, item))


def test_length_share_weights_by_sentence_length():
    assert length_share(CTX, {"0a": 1.0}) == pytest.approx(0.10)
    assert length_share(CTX, {"0b": 1.0, "1a": 1.0}) == pytest.approx(0.90)
    assert length_share(CTX, {}) == 0.0
    assert length_share(CTX, {"0a": 1, "0b": 1, "1a": 1}) == pytest.approx(1.0)
    # the same count of sentences, different lengths, different scores
    assert length_share(CTX, {"1a": 1.0}) > length_share(CTX, {"0a": 1.0})
    assert length_share([], {"0a": 1.0}) is None


def test_length_share_with_probabilities():
    # (10*0.5 + 30*1.0 + 60*0.25) / 100
    assert length_share(CTX, {"0a": 0.5, "0b": 1.0, "1a": 0.25}) == pytest.approx(0.50)


def test_completeness_is_used_share_of_relevant_length():
    # relevant 0a (10) + 0b (30); used 0b and 1a -> 30 / 40
    assert completeness(CTX, {"0a": 1, "0b": 1}, {"0b": 1, "1a": 1}) == pytest.approx(0.75)
    assert completeness(CTX, {"0a": 1, "0b": 1}, {}) == 0.0
    assert completeness(CTX, {"1a": 1}, {"1a": 1}) == 1.0
    assert completeness(CTX, {}, {"1a": 1}) is None


def test_soft_completeness_uses_the_product_of_probabilities():
    # num = 10*1*0.5 + 30*0.5*1 = 20; den = 10*1 + 30*0.5 = 25
    value = completeness(CTX, {"0a": 1.0, "0b": 0.5}, {"0a": 0.5, "0b": 1.0})
    assert value == pytest.approx(0.8)


def test_adherence_and_ratio():
    assert adherence([True, True], True, overall_supported=False) == 1.0
    assert adherence([True, False], True, overall_supported=True) == 0.0
    # a sentence was not judged: the judge's overall label decides
    assert adherence([True], False, overall_supported=False) == 0.0
    assert adherence([True], False, overall_supported=True) == 1.0
    assert adherence_ratio([True, False, True]) == pytest.approx(2 / 3)
    assert adherence_ratio([]) is None
    assert adherence_ratio([True, False], [0.9, 0.2]) == pytest.approx(0.55)
    # probabilities only count when every sentence has one
    assert adherence_ratio([True, False], [0.9, None]) == pytest.approx(0.5)


def _labels(**kw):
    base = {"relevant_keys": ["0a", "0b"], "utilized_keys": ["0b"], "overall_supported": False,
            "sentences": [{"key": "a", "supported": True, "supporting_keys": ["0b"]},
                          {"key": "b", "supported": False},
                          {"key": "c", "supported": True}]}
    base.update(kw)
    return TraceLabels.model_validate(base)


def _by_name(results):
    return {r.name.split(".", 1)[1]: r for r in results}


def test_score_trace_end_to_end_on_labels():
    out = _by_name(_score(CTX, SHOWN, ANS, _labels()))
    assert out["context_relevance"].value == pytest.approx(0.40)
    assert out["context_utilization"].value == pytest.approx(0.30)
    assert out["completeness"].value == pytest.approx(0.75)
    assert out["adherence"].value == 0.0
    assert out["adherence_ratio"].value == pytest.approx(2 / 3)
    assert out["adherence_ratio"].marks.unsupported == ("b",)
    assert out["context_relevance"].marks.relevant == ("0a", "0b")
    assert out["context_utilization"].marks.used == ("0b",)
    assert out["adherence_ratio"].details["supporting_keys"]["a"] == ["0b"]
    assert all(0.0 <= r.value <= 1.0 for r in out.values())


def test_unknown_keys_are_dropped_and_counted():
    labels = _labels(relevant_keys=["0a", "9z", "0A"], utilized_keys="0b, [7q]",
                     sentences=[{"key": "a", "supported": True},
                                {"key": "q", "supported": False}])
    out = _by_name(_score(CTX, SHOWN, ANS, labels))
    assert out["context_relevance"].value == pytest.approx(0.10)  # "0A" is 0a, not twice
    assert out["context_relevance"].details["unknown_keys"] == 3  # 9z, 7q, answer key q
    assert out["context_utilization"].marks.used == ("0b",)


def test_missing_answer_sentences_are_not_judged_not_unsupported():
    labels = _labels(sentences=[{"key": "a", "supported": True},
                                {"key": "c", "supported": True}], overall_supported=True)
    out = _by_name(_score(CTX, SHOWN, ANS, labels))
    assert out["adherence_ratio"].value == 1.0
    assert out["adherence_ratio"].details["judged"] == 2
    assert out["adherence_ratio"].details["unjudged"] == ["b"]
    assert out["adherence"].value == 1.0  # overall_supported decides for the unjudged one


def test_no_answer_sentence_judged_unscores_the_ratio_only():
    out = _by_name(_score(CTX, SHOWN, ANS, _labels(sentences=[])))
    assert out["adherence_ratio"].value is None
    assert out["adherence_ratio"].unscored_reason == "judge labelled no answer sentence"
    assert out["adherence"].value == 0.0
    assert out["adherence"].details["decided_by"] == "overall_supported"


def test_nothing_relevant_unscores_completeness():
    out = _by_name(_score(CTX, SHOWN, ANS, _labels(relevant_keys=[])))
    assert out["completeness"].value is None
    assert out["completeness"].unscored_reason == "no relevant context sentences"
    assert out["context_relevance"].value == 0.0


def test_empty_answer_unscores_what_needs_an_answer():
    # utilization and completeness measure what the answer used: with no answer (a
    # retrieval-only set, issue #33 item 12) they are unscored, not 0
    out = _by_name(_score(CTX, SHOWN, [], _labels(utilized_keys=["0a", "0b"])))
    for name in ("adherence", "adherence_ratio", "context_utilization", "completeness"):
        assert out[name].unscored_reason == "empty answer", name
    assert out["context_relevance"].value is not None


def test_keys_beyond_the_cut_count_as_not_relevant_and_not_used():
    shown = {"0a", "0b"}  # 1a was not shown to the judge
    labels = _labels(relevant_keys=["0a", "1a"], utilized_keys=["1a"])
    out = _by_name(_score(CTX, shown, ANS, labels))
    assert out["context_relevance"].value == pytest.approx(0.10)  # denominator keeps 1a
    assert out["context_utilization"].value == 0.0
    assert "unknown_keys" not in out["context_relevance"].details  # 1a exists; not unknown


def test_soft_labels_are_used_when_every_shown_sentence_has_one():
    judged = [SentenceVerdict(k, p >= 0.5, (), p) for k, p in (("a", 0.9), ("b", 0.3), ("c", 0.6))]
    verdict = TraceVerdict(relevant={"0a": 1.0, "0b": 0.5, "1a": 0.0},
                           used={"0a": 0.5, "0b": 1.0, "1a": 0.0},
                           relevant_keys=["0a", "0b"], used_keys=["0a", "0b"], judged=judged,
                           overall_supported=False, soft_context=True)
    out = _by_name(score_trace(_item(CTX, SHOWN, ANS), verdict))
    assert out["context_relevance"].value == pytest.approx((10 + 15) / 100)
    assert out["completeness"].value == pytest.approx(0.8)
    assert out["completeness"].details["soft"] is True
    assert out["adherence_ratio"].value == pytest.approx(0.6)
    assert out["adherence"].value == 0.0  # b is below the threshold


class _Failing:
    async def ask(self, prompt, values):
        return Verdict(prompt.name, prompt.version, None, unscored_reason="invalid reply: x",
                       raw="{oops", messages=prompt.render(values))


def test_failed_verdict_unscores_all_with_the_raw_reply():
    sample = Sample(id="t", question="q", contexts=("A context.",), answer="An answer.")
    from ragassay.text import key_sample

    out = asyncio.run(TraceSuite().evaluate(key_sample(sample), _Failing(), SuiteOptions()))
    out = list(out.result.results)
    assert len(out) == 5 and PROMPT.name == "trace.labels"
    assert all(r.value is None and r.unscored_reason == "invalid reply: x" for r in out)
    assert out[0].failure.raw_reply == "{oops"


def test_lenient_key_parsing():
    labels = TraceLabels.model_validate({"relevant_keys": "0A; [0b]", "overall_supported": "yes",
                                         "sentences": [{"key": "(A)", "supported": 1}]})
    assert labels.relevant_keys == ["0a", "0b"]
    assert labels.sentences[0].key == "a"
    assert labels.overall_supported is True


def test_fit_sentences_cuts_at_the_budget_and_marks_the_cut():
    ctx = [KeyedSentence(f"0{c}", "w" * 400, 0) for c in "abcdef"]  # 100 tokens each
    shown, cut = fit_sentences(ctx, 250)
    assert cut
    assert [s.key for s in shown] == ["0a", "0b"]
    shown, cut = fit_sentences(ctx, 10_000)
    assert not cut and len(shown) == 6
    big = [KeyedSentence("0a", "w" * 40_000, 0)]  # one huge sentence is shown cut
    shown, cut = fit_sentences(big, 1000)
    assert cut and shown[0].text.endswith("[...]") and len(shown[0].text) < 4100


def test_render_keyed_lines_and_document_breaks():
    text = render_keyed(CTX[:1] + [KeyedSentence("1a", "Next doc.", 1)])
    assert text == "0a: xxxxxxxxxx\n\n1a: Next doc."
    assert render_keyed(ANS[:2]) == "a: First answer sentence.\nb: Second answer sentence."
