"""Corrected estimates over a run's score table: links, scales, directions, strategies,
differences, and the one-line reasons when there is no estimate."""

from __future__ import annotations

import numpy as np
import pytest

from ragassay.stats.calibration import LabelLink
from ragassay.stats.corrected import CorrectedOptions, corrected
from ragassay.stats.table import Row, ScoreTable
from ragassay.types import MetricSpec
from tests.support.specs import linked

SPECS = {
    "judge.faithfulness": MetricSpec(name="judge.faithfulness",
                                     labels=linked("judge.faithfulness"), low=1, high=10),
    "judge.hallucination": MetricSpec(name="judge.hallucination",
                                      labels=linked("judge.hallucination"), kind="bool",
                                      higher_is_better=False),
    "trace.context_relevance": MetricSpec(name="trace.context_relevance",
                                          labels=linked("trace.context_relevance")),
}


def _table(n: int = 300, labelled: int = 120, strategies: tuple[str, ...] = ("a",),
           seed: int = 0, label: str = "hallucinated") -> ScoreTable:
    """A run where people call about 30% of answers hallucinated and the judge, reading
    faithfulness 1-10 generously, flags only half of those."""
    rng = np.random.default_rng(seed)
    rows = []
    for s in strategies:
        bad = rng.random(n) < (0.3 if s == "a" else 0.15)
        faith = np.clip(np.round(8.5 - 3 * bad + rng.normal(0, 1.2, n)), 1, 10)
        flag = bad & (rng.random(n) < 0.5)
        chosen = set(rng.permutation(n)[:labelled])
        for i in range(n):
            labels = {label: bool(bad[i])} if i in chosen else {}
            rows.append(Row(id=f"q{i}", strategy=s, labels=labels,
                            values={"judge.faithfulness": float(faith[i]),
                                    "judge.hallucination": float(flag[i]),
                                    "trace.context_relevance": float(rng.random())}))
    return ScoreTable.from_rows(rows, SPECS)


def test_estimates_the_share_people_call_hallucinated_through_every_linked_metric() -> None:
    out = corrected(_table())
    by_metric = {e.metric: e for e in out.estimates if e.strategy is None}
    assert set(by_metric) == {"judge.hallucination", "judge.faithfulness"}
    for e in by_metric.values():
        assert e.label == "hallucinated" and e.scale.kind == "bool"
        assert 0.2 < e.estimate < 0.4  # people: about 30%
        assert e.ci_low < e.estimate < e.ci_high
        assert (e.n_labelled, e.n_total, e.n_unscored, e.design) == (120, 300, 0, "uniform")
    assert by_metric["judge.faithfulness"].inverted
    assert by_metric["judge.faithfulness"].judge_mean > 6  # the judge's own 1-10 mean
    assert by_metric["judge.hallucination"].judge_mean < 0.2  # the judge's own rate
    # faithfulness separates people's labels well: the interval is narrower than labels-only
    faith = by_metric["judge.faithfulness"]
    assert faith.gain is not None and faith.gain > 1.2
    assert faith.width < faith.labels_only.ci_high - faith.labels_only.ci_low
    assert out.overall("judge.faithfulness") is faith


def test_too_few_labels_and_out_of_range_each_say_why() -> None:
    few = corrected(_table(labelled=12))
    assert not few.estimates
    assert {s.reason for s in few.skipped} == {
        "12 labelled samples, fewer than the 30 a corrected estimate needs"}
    rows = [Row(id=f"q{i}", labels={"relevance": i % 5},
                values={"trace.context_relevance": 0.5}) for i in range(40)]
    bad = corrected(ScoreTable.from_rows(rows, SPECS))
    assert [s.reason for s in bad.skipped] == ["label 'relevance': 4 is outside 0-3"]


def _alike(labelled: int = 40, unlabelled: int = 0) -> list[Row]:
    """`labelled` samples all labelled not hallucinated, the judge flagging every other
    one, and `unlabelled` more it does not flag."""
    return ([Row(id=f"q{i}", labels={"hallucinated": False},
                 values={"judge.hallucination": float(i % 2)}) for i in range(labelled)]
            + [Row(id=f"u{i}", values={"judge.hallucination": 0.0}) for i in range(unlabelled)])


def test_yes_no_labels_all_alike_every_sample_labelled_give_the_exact_interval() -> None:
    """40 of 40 labelled not hallucinated: people's figure is 0 with Clopper-Pearson's
    interval (it said "no variation to estimate from": the normal one is zero wide)."""
    e = corrected(ScoreTable.from_rows(_alike(), SPECS)).overall("judge.hallucination")
    assert e is not None and e.all_labelled and not e.note
    assert (e.estimate, e.ci_low) == (0.0, 0.0)
    assert e.ci_high == pytest.approx(1 - 0.025 ** (1 / 40))  # 0.088
    assert (e.labels_only.ci_low, e.labels_only.ci_high) == (e.ci_low, e.ci_high)
    assert (e.gain, e.lam, e.more_labels) == (1.0, 0.0, 0)  # 0.088 wide: under 0.1
    e = corrected(ScoreTable.from_rows(_alike(30), SPECS)).overall("judge.hallucination")
    assert e is not None and e.more_labels is None  # 0.116 wide: more samples needed
    assert e.narrowing() == ("only more samples would narrow the interval to 0.1 wide "
                             "(now 0.116)")


def test_yes_no_labels_all_alike_beside_unlabelled_samples_are_not_corrected() -> None:
    """40 labels all alike, 5 samples unlabelled: PPI++ cannot weigh the judge against
    labels that do not vary (its interval would be zero wide), so the figure is the
    labels' own exact interval, and its note says nothing was corrected."""
    e = corrected(ScoreTable.from_rows(_alike(40, 5), SPECS)).overall("judge.hallucination")
    assert e is not None and not e.all_labelled and (e.n_labelled, e.n_total) == (40, 45)
    assert (e.estimate, e.ci_low, e.lam, e.gain) == (0.0, 0.0, 0.0, 1.0)
    assert e.ci_high == pytest.approx(1 - 0.025 ** (1 / 40))
    assert e.note == ("nothing corrected: all 40 labels are False, so the judge's scores "
                      "cannot be weighed against them; the figure is the labels' own, with "
                      "its exact interval")


def test_two_strategies_labelled_all_alike_differ_by_their_own_intervals() -> None:
    """Both strategies' 40 samples labelled not hallucinated: the paired differences are
    all 0, whose PPI++ interval is zero wide; the difference is the two estimates' with
    their exact intervals' variances added."""
    rows = [Row(id=r.id, strategy=s, labels=r.labels, values=r.values)
            for s in ("a", "b") for r in _alike()]
    out = corrected(ScoreTable.from_rows(rows, SPECS))
    [diff] = [d for d in out.differences if d.metric == "judge.hallucination"]
    assert not diff.paired and diff.estimate == 0.0
    half = np.hypot(*(1 - 0.025 ** (1 / 40),) * 2) / 2  # each width / (2 z), times z
    assert (diff.ci_low, diff.ci_high) == pytest.approx((-half, half))


def test_labels_all_alike_without_an_exact_interval_say_why() -> None:
    """A grade all alike, and yes/no labels all alike that a weighted plan drew, have no
    interval: they keep the reason, and what would give one."""
    rows = [Row(id=f"q{i}", labels={"relevance": 2},
                values={"trace.context_relevance": float(i % 2)}) for i in range(40)]
    grade = corrected(ScoreTable.from_rows(rows, SPECS))
    assert not grade.estimates and [s.reason for s in grade.skipped] == [
        "all 40 labels are 2: no variation to estimate from; every sample is labelled, "
        "so only a larger run can give one"]
    pis = {("default", f"q{i}"): 0.5 for i in range(40)}
    opts = CorrectedOptions(designs={"hallucinated": pis}, design_kind="uncertainty")
    planned = corrected(ScoreTable.from_rows(_alike(40, 5), SPECS), None, opts)
    assert {s.reason for s in planned.skipped if s.metric == "judge.hallucination"} == {
        "all 40 labels are False: no variation to estimate from; label more samples"}


def test_a_grade_is_estimated_on_its_own_scale() -> None:
    rng = np.random.default_rng(3)
    rel = rng.random(200)
    rows = [Row(id=f"q{i}", labels={"relevance": int(round(3 * rel[i]))} if i < 80 else {},
                values={"trace.context_relevance": float(rel[i])}) for i in range(200)]
    e = corrected(ScoreTable.from_rows(rows, SPECS)).estimates[0]
    assert e.scale.kind == "grade" and (e.scale.low, e.scale.high) == (0, 3)
    assert 1.2 < e.estimate < 1.8 and e.target_width == pytest.approx(0.3)


def test_unscored_samples_stay_in_the_population() -> None:
    table = _table()
    rows = [Row(r.id, r.strategy, labels=r.labels,
                values={**r.values, "judge.faithfulness": None} if i % 10 == 0 else r.values)
            for i, r in enumerate(table.rows)]
    e = corrected(ScoreTable.from_rows(rows, SPECS)).overall("judge.faithfulness")
    assert e is not None and e.n_total == 300 and e.n_unscored == 30


def test_strategies_get_their_own_estimates_and_paired_differences() -> None:
    out = corrected(_table(labelled=200, strategies=("a", "b")),
                    [LabelLink("hallucinated", "judge.faithfulness", inverted=True)])
    per = {e.strategy: e for e in out.estimates}
    assert set(per) == {None, "a", "b"}
    assert per["a"].estimate > per["b"].estimate
    (diff,) = out.differences
    assert (diff.a, diff.b) == ("a", "b")
    assert diff.paired and diff.n_pairs >= 30  # the same ids labelled under both
    assert diff.estimate == pytest.approx(0.15, abs=0.1)
    assert diff.ci_low < diff.estimate < diff.ci_high


def test_few_shared_labels_give_an_unpaired_difference() -> None:
    out = corrected(_table(labelled=60, strategies=("a", "b"), seed=5),
                    [LabelLink("hallucinated", "judge.hallucination")])
    (diff,) = out.differences
    a, b = (out.estimates[i] for i in (1, 2))
    assert not diff.paired
    assert diff.estimate == pytest.approx(a.estimate - b.estimate)


def test_weighted_designs_use_their_inclusion_probabilities() -> None:
    table = _table()
    pis = {r.key: 0.4 for r in table.rows if r.labels}
    opts = CorrectedOptions(designs={"hallucinated": pis}, design_kind="uncertainty")
    e = corrected(table, [LabelLink("hallucinated", "judge.faithfulness", True)], opts)
    assert e.estimates[0].design == "uncertainty"
    missing = CorrectedOptions(designs={"hallucinated": {("a", "q0"): 0.4}})
    out = corrected(table, [LabelLink("hallucinated", "judge.faithfulness", True)], missing)
    assert out.skipped[0].reason == ("a labelled sample has no inclusion probability in the "
                                     "annotation plan")


def test_the_section_is_plain_json() -> None:
    import json

    data = corrected(_table()).to_dict()
    text = json.dumps(data, allow_nan=False)
    assert '"estimates"' in text and data["min_labels"] == 30
    assert set(data["estimates"][0]) >= {"estimate", "ci_low", "ci_high", "n_labelled",
                                         "n_total", "judge_mean", "labels_only", "gain"}


def test_few_labels_of_the_rarer_value_come_with_a_caution() -> None:
    """A yes/no label with fewer than `min_rare` (10) labels of its rarer value: the
    interval of a share from a handful of its cases may be too narrow, and it says so."""
    table = _table(labelled=40, seed=3)
    ys = [r.labels["hallucinated"] for r in table.rows if r.labels]
    rare = min(sum(ys), len(ys) - sum(ys))
    link = [LabelLink("hallucinated", "judge.faithfulness", True)]
    (caution,) = corrected(table, link, CorrectedOptions(min_rare=rare + 1)).estimates
    assert caution.note == (f"only {rare} labels of the rarer value: the interval may be too "
                            f"narrow (label more, until at least {rare + 1} of each)")
    (fine,) = corrected(table, link, CorrectedOptions(min_rare=rare)).estimates
    assert fine.note is None
    assert (fine.estimate, fine.ci_low, fine.ci_high) == (
        caution.estimate, caution.ci_low, caution.ci_high)  # a caution, not a change


@pytest.mark.parametrize(("values", "reason", "few"), [
    # a value off the vocabulary label's scale: more labels would not mend it, whatever
    # the count (12 'hallucinated: 5' said '12 labelled samples, fewer than the 30')
    ({"hallucinated": [5] * 12}, "label 'hallucinated': 5 is not true/false or 1/0", False),
    # a label of one's own with one value so far: too few, not blocked (review 6)
    ({"quality": [50] * 5}, "5 labelled samples, fewer than the 30", True),
    ({"quality": [50] * 40}, "label 'quality' has one value only (50)", False),
])
def test_why_a_link_gives_no_estimate(values: dict[str, list[float]], reason: str,
                                      few: bool) -> None:
    from tests.support.specs import declared

    (label, labs), = values.items()
    specs = {s.name: s for s in declared("judge.faithfulness")}
    rows = [Row(id=f"s{i}", labels={label: labs[i]} if i < len(labs) else {},
                values={"judge.faithfulness": float(1 + i % 9)}) for i in range(60)]
    out = corrected(ScoreTable.from_rows(rows, specs),
                    links=[LabelLink(label, "judge.faithfulness")])
    (skip,) = out.skipped
    assert skip.reason.startswith(reason) and skip.too_few_labels is few


def test_labels_of_every_sample_the_judge_scored_none_of_are_their_own_figure() -> None:
    """Every sample labelled, none scored (every answer abstained, no reference): people's
    figure is the labels' own, which needs no judge score (it said "no sample has a judge
    score"); with some samples unlabelled there is no judge to correct by, and more
    labels short of all would not mend it (it said "12 labelled samples, fewer than the
    30": label more)."""
    labels = [i % 4 == 0 for i in range(32)]
    rows = [Row(id=f"s{i}", labels={"hallucinated": y}, values={"judge.hallucination": None})
            for i, y in enumerate(labels)]
    out = corrected(ScoreTable.from_rows(rows, SPECS),
                    links=[LabelLink("hallucinated", "judge.hallucination")])
    (e,) = out.estimates
    assert e.all_labelled and e.judge_mean is None and e.judge_text() == "-"
    assert e.estimate == pytest.approx(sum(labels) / 32)
    assert e.ci_low < e.estimate < e.ci_high
    part = [r if i < 12 else Row(id=r.id, values={"judge.hallucination": None})
            for i, r in enumerate(rows)]
    out = corrected(ScoreTable.from_rows(part, SPECS),
                    links=[LabelLink("hallucinated", "judge.hallucination")])
    (skip,) = out.skipped
    assert skip.reason == "no sample has a judge score" and not skip.too_few_labels


@pytest.mark.parametrize("n", [24, 144])
def test_every_sample_labelled_gives_peoples_own_figure_whatever_the_count(n: int) -> None:
    """Trial 70: 24 of 24 labelled said "fewer than the 30 needed" where 144 of 144 said
    "every sample labelled, nothing corrected": people's figure is the answer whatever
    the count; "fewer than the 30" is said only while some samples are unlabelled."""
    whole = corrected(_table(n=n, labelled=n))
    assert not whole.skipped
    assert whole.estimates and all(e.all_labelled for e in whole.estimates)
    some = corrected(_table(n=n, labelled=min(n - 1, 12)))
    assert {s.reason for s in some.skipped} == {
        "12 labelled samples, fewer than the 30 a corrected estimate needs"}
