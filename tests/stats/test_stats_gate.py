"""Release gate and its TOML thresholds."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragassay.stats.describe import MetricAggregate, aggregate_metrics
from ragassay.stats.gate import ThresholdsError, default_thresholds, gate, load_thresholds
from ragassay.types import MetricSpec
from tests.stats.conftest import SPECS

DEFAULT_THRESHOLDS = default_thresholds(SPECS)


def _ragas(make_table):
    specs = {m: SPECS[m] for m in DEFAULT_THRESHOLDS}
    return make_table(
        {
            **specs,
            "judge.hallucination": MetricSpec(
                name="judge.hallucination", kind="bool", higher_is_better=False
            ),
        },
        {
            "ragas.faithfulness": [1.0, 1.0, 0.8, 1.0, 0.75],  # mean 0.91
            "ragas.answer_relevancy": [0.7, 0.7, 0.8, 0.7, 0.7],  # mean 0.72
            "ragas.context_precision": [0.6, 0.6, 0.6, 0.6, 0.6],  # exactly at threshold
            "ragas.context_recall": [0.9, 0.8, 0.9, 0.8, 0.9],
            "judge.hallucination": [0, 0, 0, 0, 0],
        },
    )


def test_default_thresholds_pass_and_fail(make_table) -> None:
    res = gate(_ragas(make_table), n_resamples=200)
    status = {c.metric: c.status for c in res.checks}
    # every metric is gated by default at the target the report shows, its declared
    # one or the generic 0.8 of its range (judge.hallucination: <= 0.2)
    assert status == {
        "ragas.faithfulness": "PASS",
        "ragas.answer_relevancy": "FAIL",
        "ragas.context_precision": "PASS",
        "ragas.context_recall": "PASS",
        "judge.hallucination": "PASS",
    }
    assert not res.ready
    faith = res.checks[0]
    assert faith.value == pytest.approx(0.91) and "mean" in faith.reason
    assert res.checks[-1].threshold == pytest.approx(0.2)


def test_a_metric_with_a_declared_target_and_no_gate_bar_is_gated_at_its_target() -> None:
    from ragassay.types import Target

    spec = MetricSpec(name="x.score", low=1, high=10, target=Target(good=9, warning=7))
    assert default_thresholds([spec]) == {"x.score": 9}
    assert default_thresholds([MetricSpec(name="x.other", low=1, high=10)]) == {"x.other": 8.2}


def test_strict_uses_ci_lower_bound(make_table) -> None:
    t = _ragas(make_table)
    lax = gate(t, {"ragas.faithfulness": 0.9}, n_resamples=300)
    strict = gate(t, {"ragas.faithfulness": 0.9}, strict=True, n_resamples=300)
    assert lax.ready and not strict.ready
    check = strict.checks[0]
    assert check.status == "FAIL" and check.value < 0.9 and "CI lower bound" in check.reason
    # constant values: the interval collapses onto the mean, so strict passes too
    assert gate(t, {"ragas.context_precision": 0.6}, strict=True, n_resamples=100).ready


def test_missing_metric_and_lower_is_better(make_table) -> None:
    t = _ragas(make_table)
    res = gate(t, {"judge.faithfulness": 8, "judge.hallucination": 0.1}, n_resamples=100)
    missing, hall = res.checks
    assert missing.status == "FAIL" and missing.reason == "metric not in run"
    assert missing.value is None
    assert hall.status == "PASS" and hall.value == 0.0 and not hall.higher_is_better
    assert res.to_dict()["ready"] is False


def test_gate_on_aggregates_section(make_table) -> None:
    agg = aggregate_metrics(_ragas(make_table), n_resamples=100)
    a = gate(agg, {"ragas.context_recall": 0.75})
    b = gate(agg.metrics, {"ragas.context_recall": 0.75})
    assert a.ready and b.ready and a.checks[0].value == pytest.approx(0.86)
    none = gate({"x.y": MetricAggregate(mean=None)}, {"x.y": 0.5})
    assert none.checks[0].reason == "no scored values"


def test_load_thresholds(tmp_path: Path) -> None:
    p = tmp_path / "ragassay.toml"
    p.write_text(
        '[thresholds]\n"ragas.faithfulness" = 0.90\n"judge.faithfulness" = 8\n'
        "trace.completeness = 0.5\n"
    )
    assert load_thresholds(p) == {
        "ragas.faithfulness": 0.9,
        "judge.faithfulness": 8.0,
        "trace.completeness": 0.5,
    }
    (tmp_path / "empty.toml").write_text("")
    assert load_thresholds(tmp_path / "empty.toml") == {}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[thresholds]\n"judge.faithfulness" = "high"\n',
            'ragassay.toml: thresholds."judge.faithfulness" must be a number',
        ),
        (
            '[thresholds]\n"judge.faithfulness" = true\n',
            'ragassay.toml: thresholds."judge.faithfulness" must be a number',
        ),
        (
            '[thresholds]\n"ragas.faithfulness" = nan\n',
            'ragassay.toml: thresholds."ragas.faithfulness" must be a finite number',
        ),
        ("gate = 1\n[thresholds]\n",
         'ragassay.toml: unknown key "gate" (expected [thresholds] or [corrected])'),
        (
            "[thresholds]\nfaithfulness = 0.9\n",
            'ragassay.toml: thresholds."faithfulness" must be a qualified metric name like '
            '"ragas.faithfulness"',
        ),
        ("thresholds = 3\n", "ragassay.toml: thresholds must be a table of metric = number"),
    ],
)
def test_load_thresholds_errors(tmp_path: Path, text: str, message: str) -> None:
    p = tmp_path / "ragassay.toml"
    p.write_text(text)
    with pytest.raises(ThresholdsError) as exc:
        load_thresholds(p)
    assert str(exc.value) == message
    assert "\n" not in str(exc.value)


def test_load_thresholds_unreadable_and_invalid(tmp_path: Path) -> None:
    with pytest.raises(ThresholdsError, match=r"^nope\.toml: cannot read"):
        load_thresholds(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[thresholds\n")
    with pytest.raises(ThresholdsError, match=r"^bad\.toml: invalid TOML"):
        load_thresholds(bad)


def test_a_bound_equal_to_its_threshold_up_to_rounding_passes() -> None:
    """A bootstrap bound computed as 0.6999999999999998 sits on a threshold of 0.7."""
    def entry(low: float, high: float, hib: bool = True) -> MetricAggregate:
        return MetricAggregate(mean=0.7, ci_low=low, ci_high=high, count=37,
                               higher_is_better=hib)

    assert gate({"x.a": entry(0.6999999999999998, 0.71)}, {"x.a": 0.7}, strict=True).ready
    assert not gate({"x.a": entry(0.6999, 0.71)}, {"x.a": 0.7}, strict=True).ready
    assert gate({"x.b": entry(0.69, 0.7000000000000002, False)}, {"x.b": 0.7},
                strict=True).ready
    assert not gate({"x.b": entry(0.69, 0.7001, False)}, {"x.b": 0.7}, strict=True).ready


def test_strict_gate_on_a_value_equal_to_its_threshold(make_table) -> None:
    """37 x 0.7 has mean 0.7; a resample's float mean is 0.6999999999999998. The value
    sits on its threshold, so strict passes it (and a real shortfall still fails)."""
    x = MetricSpec(name="x.a")
    on = make_table({"x.a": x}, {"x.a": [0.7] * 37})
    assert gate(on, {"x.a": 0.7}, strict=True, n_resamples=200).ready
    assert gate(on, {"x.a": 0.7}, n_resamples=200).ready
    below = make_table({"x.a": x}, {"x.a": [0.7] * 36 + [0.6999]})
    check = gate(below, {"x.a": 0.7}, strict=True, n_resamples=200).checks[0]
    assert check.status == "FAIL" and check.value is not None and check.value < 0.7
    low = MetricSpec(name="x.err", higher_is_better=False)
    at = make_table({"x.err": low}, {"x.err": [0.1] * 37})
    assert gate(at, {"x.err": 0.1}, strict=True, n_resamples=200).ready


def test_strict_gate_fails_a_single_value(make_table) -> None:
    """One value has no interval: strict cannot pass on it; the mean gate can."""
    t = make_table({"x.a": MetricSpec(name="x.a")}, {"x.a": [0.9, None]})
    strict = gate(t, {"x.a": 0.7}, strict=True, n_resamples=100).checks[0]
    assert strict.status == "FAIL" and strict.reason == (
        "no ci_low (too few values); 1 of 2 scored, 1 unscored: unscored")
    assert gate(t, {"x.a": 0.7}, n_resamples=100).ready


def test_a_check_says_how_many_samples_its_figure_rests_on() -> None:
    """Trial 53: `gate` said "PASS (mean 0.8253 >= 0.8)" for trace.completeness scored on
    64 of 139 samples (75 unscored: no relevant context sentences) and nowhere said so.
    The reason and the JSON now carry the count and the reasons; a check on every sample
    says nothing more; an abstained sample is neither scored nor unscored, and counted."""
    from ragassay.stats.table import Row, ScoreTable

    name = "trace.completeness"
    values: list[float | None] = [0.9, 0.85, None, None, None, None]
    why = ["", "", "no relevant context sentences", "no relevant context sentences",
           "empty answer", ""]
    rows = [Row(id=f"s{i}", strategy="default", question="q", question_id=None, labels={},
                values={name: v, "trace.adherence": 1.0},
                reasons={name: why[i]} if v is None and why[i] else {},
                abstained={name: "correct"} if i == 5 else {})
            for i, v in enumerate(values)]
    table = ScoreTable.from_rows(rows, {name: SPECS[name],
                                        "trace.adherence": SPECS["trace.adherence"]})
    res = gate(table, {name: 0.8, "trace.adherence": 0.8}, n_resamples=100)
    thin, full = res.checks
    assert thin.status == "PASS" and thin.reason == (
        "mean 0.875 >= 0.8; 2 of 6 scored, 1 abstained, 3 unscored: no relevant context "
        "sentences (2), empty answer (1)")
    assert thin.verdict == "PASS on 2 of 6"
    assert thin.mostly_unscored and not full.mostly_unscored
    assert full.reason == "rate 1 >= 0.8"  # trace.adherence: a yes/no verdict
    out = res.to_dict()["checks"]
    assert out[0]["scored"] == 2 and out[0]["unscored"] == 3 and out[0]["abstained"] == 1
    assert out[0]["unscored_reasons"] == {"no relevant context sentences": 2, "empty answer": 1}
    assert out[1]["scored"] == 6 and out[1]["unscored"] == 0 and "unscored_reasons" not in out[1]
    # from the aggregates alone: the counts, without reasons
    agg = aggregate_metrics(table, n_resamples=100)
    alone = gate(agg, {name: 0.8}).checks[0]
    assert alone.reason == "mean 0.875 >= 0.8; 2 of 6 scored, 1 abstained, 3 unscored"


def test_a_rate_over_the_answers_that_did_not_abstain_says_so() -> None:
    """Trial 62: `gate` said "judge.hallucination ... FAIL (rate 0.6412 > 0.1)" for a rate
    over 131 of 144 answers (13 abstained), where eval's tables say `131 of 144 scored`;
    the row and the JSON now say the samples its figure is of."""
    from ragassay.stats.table import Row, ScoreTable

    name = "judge.hallucination"
    values = [1.0, 1.0, 0.0, 1.0, None, None]
    rows = [Row(id=f"s{i}", values={name: v},
                abstained={name: "correct"} if v is None else {})
            for i, v in enumerate(values)]
    table = ScoreTable.from_rows(rows, {name: SPECS[name]})
    [check] = gate(table, {name: 0.1}, n_resamples=100).checks
    assert check.status == "FAIL" and check.reason == "rate 0.75 > 0.1; 4 of 6 scored, 2 abstained"
    assert (check.scored, check.unscored, check.abstained, check.samples) == (4, 0, 2, 6)
    assert not check.partial  # declines are not missing scores
    out = gate(table, {name: 0.1}, n_resamples=100).to_dict()["checks"][0]
    assert (out["scored"], out["unscored"], out["abstained"]) == (4, 0, 2)


def test_a_yes_no_verdicts_figure_is_a_rate_in_the_gate_and_the_flags(make_table) -> None:
    """Trial 55: `gate` said "FAIL (mean 0.5896 > 0.1)" for judge.hallucination and the
    eval's warning "trace.adherence mean 0.41", where the tables say rate: a yes/no verdict
    (a bool metric, or a score declared `verdict`) is a rate in both, a score a mean; the
    run's abstention rates are rates too."""
    from ragassay.stats.interpret import FlagsConfig, flag
    from ragassay.stats.table import Row, ScoreTable

    names = ("judge.hallucination", "trace.adherence", "judge.faithfulness")
    columns = {"judge.hallucination": [1.0, 1.0, 0.0, 1.0, 0.0, None],
               "trace.adherence": [0.0, 1.0, 0.0, 0.0, 1.0, None],
               "judge.faithfulness": [2.0, 9.0, 8.0, 3.0, 9.0, None]}
    rows = [Row(id=f"s{i}", values={m: columns[m][i] for m in names},
                abstained={m: "correct" for m in names} if i == 5 else {})
            for i in range(6)]
    table = ScoreTable.from_rows(rows, {m: SPECS[m] for m in names})
    res = gate(table, {**dict.fromkeys(names, 0.5), "abstentions.abstention_rate": 0.1},
               n_resamples=100)
    reasons = {c.metric: c.reason for c in res.checks}
    part = "; 5 of 6 scored, 1 abstained"
    assert reasons == {"judge.hallucination": f"rate 0.6 > 0.5{part}",
                       "trace.adherence": f"rate 0.4 < 0.5{part}",
                       "judge.faithfulness": f"mean 6.2 >= 0.5{part}",
                       "abstentions.abstention_rate": "rate 0.167 > 0.1"}
    said = flag(SPECS["trace.adherence"], 0.41, "overall", FlagsConfig()).message
    assert said.startswith("trace.adherence rate 0.41: ")
    assert flag(SPECS["judge.faithfulness"], 4.7, "overall", FlagsConfig()).message.startswith(
        "judge.faithfulness mean 4.7: ")
