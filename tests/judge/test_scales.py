import re
from typing import Annotated

import pytest
from pydantic import BaseModel, ValidationError

from ragassay.judge import Flag, Score10, Unit, item_number


class M(BaseModel):
    s: Score10
    u: Unit
    f: Flag


@pytest.mark.parametrize(("raw", "want"), [(7, 7.0), ("8", 8.0), (1, 1.0), (10, 10.0),
                                           ("7/10", 7.0), (7.5, 7.5)])
def test_score10_coerces(raw, want):
    assert M(s=raw, u=0.5, f=True).s == want


@pytest.mark.parametrize(("field", "raw", "said"), [
    ("s", 11, "11 is outside the scale 1-10"), ("s", 99, "99 is outside the scale 1-10"),
    ("s", 0, "0 is outside the scale 1-10"), ("s", "-3", "-3 is outside the scale 1-10"),
    ("u", 1.5, "1.5 is outside the scale 0-1"), ("u", -0.2, "-0.2 is outside the scale 0-1"),
])
def test_a_value_outside_its_scale_is_invalid_never_clamped(field, raw, said):
    from ragassay.judge.scales import OUT_OF_SCALE

    values = {"s": 5, "u": 0.5, "f": True, field: raw}
    with pytest.raises(ValidationError) as err:
        M(**values)
    (error,) = err.value.errors()
    assert error["type"] == OUT_OF_SCALE and error["msg"] == said


def test_unit_accepts_its_range():
    assert M(s=5, u="0.25", f=False).u == 0.25 and M(s=5, u=1, f=False).u == 1.0


@pytest.mark.parametrize(("raw", "want"), [("yes", True), ("False", False), (1, True),
                                           (0, False), (True, True)])
def test_flag_accepts_common_spellings(raw, want):
    assert M(s=5, u=0, f=raw).f is want


@pytest.mark.parametrize("bad", ["high", None, True, float("nan")])
def test_score10_rejects_unusable_values(bad):
    with pytest.raises(ValidationError):
        M(s=bad, u=0, f=True)


def test_flag_rejects_maybe():
    with pytest.raises(ValidationError):
        M(s=5, u=0, f="maybe")


def test_optional_score_accepts_null():
    from ragassay.metrics.judge import JudgeScores

    s = JudgeScores(context_relevance=5, answer_similarity=None, faithfulness=5,
                    hallucination=False)
    assert s.answer_similarity is None


def test_schema_asks_for_integer_ratings_and_a_capped_reason():
    from ragassay.judge.scales import REASONING_CHARS
    from ragassay.metrics.judge.suite import PROMPT, JudgeScores

    props = PROMPT.schema["properties"]
    assert props["faithfulness"] == {"maximum": 10, "minimum": 1, "title": "Faithfulness",
                                     "type": "integer"}
    assert props["reasoning"]["maxLength"] == REASONING_CHARS
    # every field is required in the schema (the grammar writes them all) ...
    assert PROMPT.schema["required"] == list(props)
    # ... while validation still accepts a reply without the optional ones, a 7.5 and a
    # reason longer than the cap
    s = JudgeScores.model_validate({"context_relevance": 7.5, "faithfulness": 5,
                                    "hallucination": False, "reasoning": "x" * 500})
    assert s.answer_similarity is None and s.context_relevance == 7.5
    assert len(s.reasoning) == 500


class Numbered(BaseModel):
    chunk: Annotated[int, item_number("chunk")]


@pytest.mark.parametrize(("raw", "want"), [(3, 3), ("3", 3), ("[3]", 3), ("#3.", 3),
                                           (" (2) ", 2)])
def test_item_number_reads_what_a_judge_writes(raw, want):
    assert Numbered(chunk=raw).chunk == want


@pytest.mark.parametrize(("raw", "said"), [(True, "a boolean"), (float("inf"), "inf"),
                                           ([1], "[1]")])
def test_item_number_refuses_what_is_no_number_and_names_the_item(raw, said):
    with pytest.raises(ValidationError, match=f"expected a chunk number, got .*{re.escape(said)}"):
        Numbered(chunk=raw)


# ---- in a reply (a validation context): whole ratings, labels that name something -----

def test_a_fractional_rating_is_invalid_in_a_reply_only():
    from ragassay.judge.scales import NOT_WHOLE, reply_context

    ctx = reply_context({})
    with pytest.raises(ValidationError) as err:
        M.model_validate({"s": 9.5, "u": 0.5, "f": True}, context=ctx)
    (error,) = err.value.errors()
    assert error["type"] == NOT_WHOLE
    assert error["msg"] == "9.5 is not a whole number (the scale 1-10 takes integers)"
    assert M.model_validate({"s": "9.0", "u": 0.25, "f": True}, context=ctx).s == 9.0
    assert M.model_validate({"s": 9.5, "u": 0.5, "f": True}).s == 9.5  # built in code


def test_labels_that_name_nothing_shown_are_invalid_in_a_reply():
    from ragassay.judge.scales import EXPECT, NAMES_NOTHING, reply_context
    from ragassay.metrics.ragas import ContextLabels
    from ragassay.metrics.trace.suite import TraceLabels

    ctx = reply_context({EXPECT: {"chunks": 2, "reference_keys": ["a"],
                                  "context_keys": ["0a", "1a"], "answer_keys": ["a"]}})
    bad_chunks = {"chunks": [{"index": 2, "useful": True}],
                  "reference_sentences": [{"key": "a", "attributed": True}]}
    bad_refs = {"chunks": [{"index": 0, "useful": True}], "reference_sentences": []}
    bad_keys = {"relevant_keys": ["9z"], "overall_supported": True,
                "sentences": [{"key": "a", "supported": True}]}
    no_sentences = {"relevant_keys": [], "overall_supported": True, "sentences": []}
    for model, data in ((ContextLabels, bad_chunks), (ContextLabels, bad_refs),
                        (TraceLabels, bad_keys), (TraceLabels, no_sentences)):
        with pytest.raises(ValidationError) as err:
            model.model_validate(data, context=ctx)
        assert [e["type"] for e in err.value.errors()] == [NAMES_NOTHING], data
        model.model_validate(data)  # outside a reply (no context): nothing to check
    # an empty key list is a judgment; some known keys are enough
    TraceLabels.model_validate({**bad_keys, "relevant_keys": []}, context=ctx)
    TraceLabels.model_validate({**bad_keys, "relevant_keys": ["0a", "9z"]}, context=ctx)
    ContextLabels.model_validate({**bad_chunks, "chunks": [{"index": 0, "useful": True},
                                                           {"index": 9, "useful": True}]},
                                 context=ctx)
