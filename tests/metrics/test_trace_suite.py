"""TraceSuite.evaluate with a scripted in-process judge, and the offline mapping."""

from types import SimpleNamespace

import pytest

from ragassay.judge import Verdict
from ragassay.metrics.base import SuiteOptions
from ragassay.metrics.trace import PROMPT, TraceSuite, TraceVerdict, offline_verdict
from ragassay.text import key_answer, key_contexts, key_sample
from ragassay.types import Sample, Usage
from tests.support.suites import score


class FakeJudge:
    """Answers every prompt with `reply(values)`; records what it was asked."""

    spec, kind, model = "fake", "llm", "fake"

    def __init__(self, reply):
        self.reply = reply
        self.asked = []

    async def ask(self, prompt, values):
        self.asked.append((prompt.name, dict(values)))
        out = self.reply(values)
        if isinstance(out, str):
            return Verdict(prompt.name, prompt.version, None, unscored_reason=out, raw="{bad",
                           messages=prompt.render(values), usage=Usage(calls=2))
        return Verdict(prompt.name, prompt.version, prompt.output_model.model_validate(out),
                       usage=Usage(calls=1, input_tokens=100, output_tokens=20))


def _sample(**kw):
    base = {"id": "s1", "question": "When was the tower completed?",
            "contexts": ("The tower was completed in 1889. It is in Paris.",
                         "Paris is large."),
            "answer": "It was completed in 1889. It is 330 metres tall."}
    base.update(kw)
    return Sample(**base)


LABELS = {"relevant_keys": ["0a"], "utilized_keys": ["0a"], "overall_supported": False,
          "sentences": [{"key": "a", "supported": True, "supporting_keys": ["0a"]},
                        {"key": "b", "supported": False}]}


def _run(sample, judge, **opts):
    return score(TraceSuite(), sample, judge, **opts)


def _by_name(out):
    return {r.name.split(".", 1)[1]: r for r in out.result.results}


def test_one_call_per_sample_with_keyed_sentences_in_the_prompt():
    judge = FakeJudge(lambda v: LABELS)
    out = _run(_sample(), judge)
    assert len(judge.asked) == 1
    name, values = judge.asked[0]
    assert name == "trace.labels"
    assert values["contexts"] == ("0a: The tower was completed in 1889.\n0b: It is in Paris."
                                  "\n\n1a: Paris is large.")
    assert values["answer"] == "a: It was completed in 1889.\nb: It is 330 metres tall."
    res = _by_name(out)
    total = len("The tower was completed in 1889.") + len("It is in Paris.") + len(
        "Paris is large.")
    assert res["context_relevance"].value == pytest.approx(32 / total)
    assert res["completeness"].value == 1.0
    assert res["adherence"].value == 0.0
    assert res["adherence_ratio"].value == 0.5
    assert res["adherence_ratio"].marks.unsupported == ("b",)
    assert out.result.usage.calls == 1 and out.result.usage.input_tokens == 100


def test_fenced_rendering_puts_keyed_lines_inside_the_block():
    msgs = PROMPT.render({"question": "q", "contexts": "0a: ctx", "answer": "a: ans"})
    user = msgs[-1].content
    assert "<<<CONTEXTS " in user and "\n0a: ctx\n<<<END CONTEXTS " in user
    assert "\na: ans\n<<<END ANSWER " in user
    # the few-shot example validates and is sent as an assistant turn
    assert msgs[2].role == "assistant" and '"relevant_keys": ["0a"]' in msgs[2].content


def test_no_contexts_is_unscored_without_a_call():
    judge = FakeJudge(lambda v: LABELS)
    for contexts in ((), ("  ",)):
        out = _run(_sample(contexts=contexts), judge)
        assert all(r.value is None and r.unscored_reason == "no contexts"
                   for r in out.result.results)
    assert judge.asked == []
    assert not TraceSuite().applicable(_sample(contexts=()))


def test_empty_answer_scores_context_metrics_only():
    judge = FakeJudge(lambda v: {**LABELS, "sentences": []})
    res = _by_name(_run(_sample(answer=""), judge))
    assert judge.asked[0][1]["answer"] == "(empty answer)"
    assert res["context_relevance"].value is not None
    # what an answer used of the context needs an answer (a retrieval-only set has none)
    assert res["context_utilization"].unscored_reason == "empty answer"
    assert res["completeness"].unscored_reason == "empty answer"
    assert res["adherence"].unscored_reason == "empty answer"


def test_single_sentence_answer():
    judge = FakeJudge(lambda v: {"relevant_keys": ["0a"], "utilized_keys": ["0a"],
                                 "overall_supported": True,
                                 "sentences": [{"key": "a", "supported": True}]})
    res = _by_name(_run(_sample(answer="1889"), judge))
    assert res["adherence"].value == 1.0 and res["adherence_ratio"].value == 1.0


def test_huge_context_is_cut_and_flagged():
    para = " ".join(f"Fact number {i} is about the tower." for i in range(20))
    doc = "\n\n".join([para] * 250)  # ~50k tokens
    judge = FakeJudge(lambda v: {"relevant_keys": ["0a"], "overall_supported": True,
                                 "sentences": [{"key": "a", "supported": True}]})
    out = _run(_sample(contexts=(doc,), answer="One sentence."), judge,
               max_context_tokens=2000)
    shown = judge.asked[0][1]["contexts"]
    assert len(shown) < 2000 * 4 + 500
    res = _by_name(out)
    assert "contexts" in res["context_relevance"].truncated
    assert res["context_relevance"].details["sentences_shown"] < res[
        "context_relevance"].details["sentences_total"]
    assert 0.0 < res["context_relevance"].value < 0.01


def test_failed_verdict_keeps_reason_and_raw_reply():
    judge = FakeJudge(lambda v: "invalid reply: sentences.0.supported: bad")
    out = _run(_sample(), judge)
    assert all(r.unscored_reason == "invalid reply: sentences.0.supported: bad"
               for r in out.result.results)
    assert out.result.results[0].failure.raw_reply == "{bad"
    assert out.result.results[0].failure.prompt[0].role == "system"
    assert out.result.usage.calls == 2


def _evidence(sample, relevance, used, support):
    ctx = key_contexts(sample.contexts)
    ans = key_answer(sample.answer)
    return SimpleNamespace(context_sentences=ctx, answer_sentences=ans, relevance=relevance,
                           used=used, support=support, support_keys=[["0a"]] * len(ans),
                           abstention=lambda: None, abstention_basis="")


def test_offline_mapping_gives_soft_scores_and_thresholded_labels():
    s = _sample()
    ev = _evidence(s, relevance=[0.9, 0.2, 0.1], used=[0.8, 0.1, 0.0], support=[0.9, 0.3])
    item = key_sample(s)
    labels = offline_verdict(item, ev)
    assert isinstance(labels, TraceVerdict)
    assert labels.relevant_keys == ["0a"] and labels.used_keys == ["0a"]
    assert [x.supported for x in labels.judged] == [True, False]
    assert labels.overall_supported is False

    res = _by_name(TraceSuite().evaluate_offline(item, ev, SuiteOptions()))
    lens = [len(x.text) for x in ev.context_sentences]
    assert res["context_relevance"].value == pytest.approx(
        (0.9 * lens[0] + 0.2 * lens[1] + 0.1 * lens[2]) / sum(lens))
    assert res["context_relevance"].details["soft"] is True
    assert res["adherence_ratio"].value == pytest.approx(0.6)  # mean of 0.9 and 0.3
    assert res["adherence"].value == 0.0
    assert res["adherence_ratio"].marks.unsupported[0] == "b"


def test_offline_mapping_rejects_misaligned_evidence():
    s = _sample()
    ev = _evidence(s, relevance=[0.9], used=[0.8, 0.1, 0.0], support=[0.9, 0.3])
    with pytest.raises(ValueError):
        offline_verdict(key_sample(s), ev)


def test_with_the_real_offline_judge():
    from ragassay.judge.offline_judge import OfflineJudge

    s = _sample(contexts=("The tower was completed in March 1889 for the World's Fair.",
                          "Paris hosts many tourists."),
                answer="The tower was completed in 1889. It is 330 metres tall.")
    out = score(TraceSuite(), s, OfflineJudge())
    res = _by_name(out)
    assert all(r.value is not None and 0.0 <= r.value <= 1.0 for r in res.values())
    assert res["adherence"].value == 0.0
    assert list(res["adherence_ratio"].marks.unsupported) == ["b"]
    assert res["context_relevance"].details["soft"] is True


def test_the_best_sentence_under_the_cut_counts_when_it_clears_the_lower_bar():
    """New-user trial 63: completeness unscored ("no relevant context sentences") on 15 of
    144 rows whose short passages answer the question, their best sentence at 0.37-0.49.
    A sentence's relevance is its passage's x sqrt(its own), so a passage at the balanced
    cut gives its best sentence 0.354: when no sentence reaches 0.5, the best one counts
    if it reaches that; no other sentence is let in, and below it nothing is."""
    s = _sample()
    for relevance, want in (([0.9, 0.2, 0.1], ["0a"]), ([0.6, 0.45, 0.4], ["0a"]),
                            ([0.37, 0.46, 0.1], ["0b"]), ([0.3, 0.34, 0.2], [])):
        ev = _evidence(s, relevance=relevance, used=[0.8, 0.6, 0.0], support=[0.9, 0.9])
        item = key_sample(s)
        assert offline_verdict(item, ev).relevant_keys == want, relevance
        res = _by_name(TraceSuite().evaluate_offline(item, ev, SuiteOptions()))
        if want:
            assert res["completeness"].value is not None
            assert res["completeness"].marks.relevant == tuple(want)
        else:
            assert res["completeness"].unscored_reason == "no relevant context sentences"


# short support-bot passages that answer the question in other words (trial 63's kind of
# row, written for this test); the offline judge reads their best sentence at 0.46-0.49
ANSWERED = [
    ("What payment methods do you accept?",
     "We take Visa, Mastercard and American Express. Invoices can be paid by bank transfer.",
     "Visa, Mastercard and Amex cards, and bank transfer for invoices."),
    ("How many users fit on the Team plan?",
     "The Team plan covers up to 10 seats. Extra seats are sold in packs of five.",
     "Up to ten people, and you can add seats five at a time."),
    ("Can I bring my dog to the hotel?",
     "Guests may stay with one small pet per room for a fee of 20 euros a night. Pets are "
     "not allowed in the restaurant.",
     "Yes, one small pet per room is allowed for 20 euros a night."),
]  # fmt: skip


@pytest.mark.parametrize(("question", "context", "answer"), ANSWERED)
def test_completeness_is_scored_where_a_short_passage_answers_in_other_words(
        question, context, answer):
    from ragassay.judge.offline_judge import OfflineJudge

    s = _sample(question=question, contexts=(context,), answer=answer)
    res = _by_name(score(TraceSuite(), s, OfflineJudge()))
    assert res["completeness"].value is not None, res["completeness"].unscored_reason
    assert res["completeness"].marks.relevant  # the sentence it rests on, marked
