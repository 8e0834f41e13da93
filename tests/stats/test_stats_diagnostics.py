"""Diagnostics rules fire on constructed tables and name the worst samples."""

from __future__ import annotations

import pytest

from ragassay.stats.diagnostics import at_least, below, diagnose, rules_of
from tests.stats.conftest import SPECS

RAGAS = {m: SPECS[m] for m in ("ragas.faithfulness", "ragas.context_precision")}


def _find(findings: list[dict], rule: str) -> dict:
    (f,) = [f for f in findings if f.rule == rule]
    return f


def _ragas_table(make_table):
    return make_table(
        RAGAS,
        {
            # s1: excess 0.5 + 0.2; s2: 0.1 + 0.1; s3: 0.2 + 0; s4: faithful; s5: low precision
            "ragas.faithfulness": [0.2, 0.6, 0.5, 0.9, 0.1, None],
            "ragas.context_precision": [0.9, 0.8, 0.7, 0.9, 0.3, 0.9],
        },
    )


def test_ignores_context_rule(make_table) -> None:
    findings = diagnose(_ragas_table(make_table))
    # only rules whose metrics are all present
    assert {f.rule for f in findings} == {"ignores_context", "relevant_chunks_ranked_low"}
    f = _find(findings, "ignores_context")
    assert f.evaluated == 5  # s6 has no faithfulness score
    assert f.count == 3 and f.share_of_samples == pytest.approx(0.6)
    assert f.worst_samples == ["s1", "s2", "s3"]
    # means: faithfulness 0.46 < 0.7, precision 4.5/6 = 0.75 >= 0.7
    assert f.fires_on_aggregate is True and f.fired is True
    assert "ignores the context" in f.message and "only from" in f.fix
    ranked = _find(findings, "relevant_chunks_ranked_low")
    assert ranked.worst_samples == ["s5"] and ranked.fires_on_aggregate is False
    assert findings[0].rule == "ignores_context"  # larger share first


def test_worst_samples_capped_at_five_and_custom_threshold(make_table) -> None:
    t = make_table(
        RAGAS,
        {
            "ragas.faithfulness": [0.1 * i for i in range(7)],  # 0.0 .. 0.6
            "ragas.context_precision": [1.0] * 7,
        },
    )
    f = _find(diagnose(t), "ignores_context")
    assert f.count == 7 and f.worst_samples == ["s1", "s2", "s3", "s4", "s5"]
    (rule,) = [r for r in rules_of(RAGAS) if r.name == "ignores_context"]
    stricter = [rule.model_copy(update={"conditions": (
        below("ragas.faithfulness", 0.25), at_least("ragas.context_precision", 0.7))})]
    assert diagnose(t, stricter)[0].count == 3  # 0.0, 0.1, 0.2


def test_judge_rules_on_one_to_ten(make_table, judge_specs) -> None:
    t = make_table(
        judge_specs,
        {
            # normalised (v-1)/9: 10 -> 1.0, 8 -> 0.78, 3 -> 0.22
            "judge.context_relevance": [10, 8, 3, 9],
            "judge.hallucination": [1, 1, 1, 0],
            "judge.faithfulness": [9, 9, 2, 10],
            "judge.answer_similarity": [2, 9, 2, 3],
        },
        strategies=["a", "a", "b", "b"],
    )
    findings = diagnose(t)
    h = _find(findings, "hallucination_despite_good_context")
    assert h.count == 2 and h.worst_samples == ["a/s1", "a/s2"]
    r = _find(findings, "retrieval_problem")
    assert r.worst_samples == ["b/s3"] and r.share_of_samples == pytest.approx(0.25)
    m = _find(findings, "reference_mismatch")
    # low similarity (< 5.5) with faithfulness >= 7.3: s1 and s4 (s3 is unfaithful)
    assert m.count == 2 and set(m.worst_samples) == {"a/s1", "b/s4"}


def test_trace_rules(make_table) -> None:
    names = (
        "trace.context_relevance",
        "trace.context_utilization",
        "trace.completeness",
        "trace.adherence_ratio",
    )
    t = make_table(
        {n: SPECS[n] for n in names},
        {
            "trace.context_relevance": [0.1, 0.9, 0.8],
            "trace.context_utilization": [0.1, 0.1, 0.9],
            "trace.completeness": [0.1, 0.2, 0.9],
            "trace.adherence_ratio": [1.0, 0.5, 0.85],
        },
    )
    f = {x.rule: x for x in diagnose(t)}
    assert f["retrieval_noise"].worst_samples == ["s1"]
    assert f["evidence_underused"].worst_samples == ["s2"]
    assert f["incomplete_answer"].worst_samples == ["s2"]
    assert f["unsupported_sentences"].worst_samples == ["s2"]
    assert "answer_not_adherent" not in f  # trace.adherence not in the table


def test_unsupported_sentences_agrees_with_the_sentence_verdicts(make_table) -> None:
    """Trial 65: `trace.adherence_ratio < 0.8` fired on 117 of 130 samples, 37 of them
    one-sentence answers the run's own sentence verdicts (trace.adherence) call fully
    supported: under the offline judge the ratio is a mean probability, and a supported
    sentence's is 0.5-1. A sample whose every sentence the judge calls supported is
    cleared (`exempt`); one it calls unsupported still counts; the finding says the
    exemption and words the ratio as what it measures."""
    names = ("trace.adherence", "trace.adherence_ratio")
    t = make_table(
        {n: SPECS[n] for n in names},
        {"trace.adherence": [1, 0, 0, 1, 1],
         "trace.adherence_ratio": [0.62, 0.3, 0.85, 0.95, 0.55]},
    )
    f = _find(diagnose(t), "unsupported_sentences")
    assert (f.count, f.exempt, f.worst_samples) == (1, 2, ["s2"])
    assert f.rule_text == ("trace.adherence_ratio < 0.8 (on 0-1), unless trace.adherence "
                           "= yes")
    assert "mean support" in f.message
    flagged = _find(diagnose(t), "answer_not_adherent")
    assert set(f.worst_samples) <= set(flagged.worst_samples)  # never beyond the verdicts


def test_empty_table_gives_no_nan(make_table) -> None:
    t = make_table(RAGAS, {"ragas.faithfulness": [None], "ragas.context_precision": [None]})
    f = _find(diagnose(t), "ignores_context")
    assert f.evaluated == 0 and f.share_of_samples is None
    assert f.fires_on_aggregate is None and f.fired is False


def test_a_rule_is_said_on_the_scale_its_metric_is_shown_on(make_table) -> None:
    """Trial 55: the retrieval-problem rule read `judge.context_relevance < 0.5` beside a
    metric shown on 1-10 (no sample is below 0.5 there, yet 67 of 144 fired): its rules
    are declared on 0-1 of the range, and a finding says them on the metric's own scale,
    where it fires as said: below 5.5."""
    specs = {m: SPECS[m] for m in ("judge.context_relevance", "judge.hallucination")}
    t = make_table(specs, {"judge.context_relevance": [2.0, 5.4, 5.5, 9.0, 8.0],
                           "judge.hallucination": [1.0, 0.0, 1.0, 1.0, 0.0]})
    retrieval = _find(diagnose(t), "retrieval_problem")
    (cond,) = retrieval.conditions
    assert (cond.threshold, cond.on_scale) == (0.5, 5.5)
    assert retrieval.rule_text == "judge.context_relevance < 5.5 (on 1-10)"
    assert retrieval.count == 2 and retrieval.worst_samples == ["s1", "s2"]  # 2 and 5.4
    despite = _find(diagnose(t), "hallucination_despite_good_context")
    assert despite.rule_text == ("judge.hallucination = yes and judge.context_relevance >= 7.3 "
                                 "(on 1-10)")
    assert despite.worst_samples == ["s4"]  # 9.0 and yes; s5 is 8.0 but no
    assert despite.model_dump()["conditions"][1] == {
        "metric": "judge.context_relevance", "op": ">=", "threshold": 0.7, "on_scale": 7.3,
        "text": "judge.context_relevance >= 7.3 (on 1-10)"}


def test_a_supported_answer_clears_the_retrieval_problem(make_table) -> None:
    """Issue #38: the retrieval-problem rule fired on samples whose answer the contexts
    support (59 of 128 answerable probes, the offline judge's relevance being weak). An
    answer faithful (>= 7.3) and not flagged is evidence that retrieval found what it
    needed: the sample is exempt. An abstention or a flagged answer clears nothing."""
    specs = {m: SPECS[m] for m in ("judge.context_relevance", "judge.faithfulness",
                                   "judge.hallucination")}
    t = make_table(specs, {
        # s1 supported (exempt); s2 flagged; s3 abstained (no answer values); s4 faithful
        # but only 6.0 (< 7.3); s5 relevant (the rule does not hold at all)
        "judge.context_relevance": [2.0, 3.0, 1.5, 4.0, 9.0],
        "judge.faithfulness": [9.0, 2.0, None, 6.0, 9.0],
        "judge.hallucination": [0.0, 1.0, None, 0.0, 0.0],
    })
    r = _find(diagnose(t), "retrieval_problem")
    assert r.evaluated == 5 and r.count == 3 and r.exempt == 1
    assert r.worst_samples == ["s3", "s2", "s4"]  # furthest below 5.5 first; s1 cleared
    assert r.share_of_samples == pytest.approx(3 / 5)
    assert r.rule_text == ("judge.context_relevance < 5.5 (on 1-10), unless "
                           "judge.faithfulness >= 7.3 (on 1-10) and judge.hallucination = no")
    assert r.samples_text == "3 (1 exempt)"
    assert [c.text for c in r.unless or []] == ["judge.faithfulness >= 7.3 (on 1-10)",
                                                "judge.hallucination = no"]
    # on the means too: relevance 3.9 is low, but faithfulness 9.0 and no hallucination
    clear = make_table(specs, {"judge.context_relevance": [3.0, 4.8],
                               "judge.faithfulness": [9.0, 9.0],
                               "judge.hallucination": [0.0, 0.0]})
    cleared = _find(diagnose(clear), "retrieval_problem")
    assert cleared.count == 0 and cleared.exempt == 2
    assert cleared.fires_on_aggregate is False and cleared.fired is False
    # without the exemption's metrics the rule reads as before: nothing to clear with
    alone = make_table({"judge.context_relevance": SPECS["judge.context_relevance"]},
                       {"judge.context_relevance": [3.0, 4.8]})
    bare = _find(diagnose(alone), "retrieval_problem")
    assert bare.count == 2 and bare.unless is None and bare.exempt is None
    assert "unless" not in bare.model_dump() and "exempt" not in bare.model_dump()
