"""Agreement with human labels: default links, orientation, hand-computed statistics."""

from __future__ import annotations

import math
from typing import Any

import pytest

from ragassay.stats.calibration import Calibration, LabelLink, calibration, default_links
from ragassay.stats.table import Row, ScoreTable
from ragassay.stats.verdicts import measurements_lines, repeat_text
from ragassay.types import MetricSpec
from tests.support.specs import declared, linked


def _pair(result: Calibration, label: str, metric: str) -> Any:
    (entry,) = [p for p in result.pairs if p.label == label and p.metric == metric]
    return entry


def test_default_links_by_name() -> None:
    metrics = declared(
        "judge.hallucination",
        "judge.faithfulness",
        "ragas.faithfulness",
        "trace.adherence_ratio",
        "judge.answer_similarity",
        "judge.context_relevance",
        "trace.context_relevance",
        "trace.completeness",
    )
    links = default_links(
        ["labels.hallucination", "faithful", "correct", "relevance", "completeness", "other"],
        metrics,
    )
    got = {(lk.label, lk.metric, lk.inverted) for lk in links}
    assert got == {
        ("hallucination", "judge.hallucination", False),
        ("hallucination", "judge.faithfulness", True),
        ("hallucination", "ragas.faithfulness", True),
        ("hallucination", "trace.adherence_ratio", True),
        ("faithful", "judge.faithfulness", False),
        ("faithful", "ragas.faithfulness", False),
        ("faithful", "trace.adherence_ratio", False),
        ("faithful", "judge.hallucination", True),
        ("correct", "judge.answer_similarity", False),
        ("relevance", "judge.context_relevance", False),
        ("relevance", "trace.context_relevance", False),
        ("completeness", "trace.completeness", False),
    }


def test_boolean_label_inverted_and_same_direction(make_table, judge_specs) -> None:
    t = make_table(
        judge_specs,
        {
            # normalised (v-1)/9: 1, 2/3, 2/3, 0.2 -> inverted 0, 1/3, 1/3, 0.8
            "judge.faithfulness": [10, 7, 7, 2.8],
            "judge.hallucination": [0, 1, 1, 1],
            "judge.context_relevance": [5, 5, 5, 5],
            "judge.answer_similarity": [5, 5, 5, 5],
        },
        labels=[{"hallucination": v} for v in (False, False, True, True)],
    )
    cal = calibration(t, n_resamples=200)
    f = _pair(cal, "hallucination", "judge.faithfulness")
    assert f.inverted and f.kind == "boolean" and f.n == 4 and f.positives == 2
    assert f.auroc == pytest.approx(0.875)  # one tie at 1/3
    # decisions (inverted >= 0.5): F F F T vs truth F F T T -> TPR 1/2, TNR 1
    assert f.balanced_accuracy == pytest.approx(0.75)
    assert f.kappa == pytest.approx(0.5)  # po 3/4, pe 1/2
    lo, hi = f.auroc_ci
    assert 0.0 <= lo <= hi <= 1.0

    h = _pair(cal, "hallucination", "judge.hallucination")
    assert not h.inverted
    assert h.auroc == pytest.approx(0.75)
    assert h.balanced_accuracy == pytest.approx(0.75)  # TPR 1, TNR 1/2
    assert h.kappa == pytest.approx(0.5)


def test_numeric_label_rmse_bias_correlations(make_table, judge_specs) -> None:
    t = make_table(
        {"judge.context_relevance": judge_specs["judge.context_relevance"]},
        {"judge.context_relevance": [1, 10, 5.5]},  # normalised 0, 1, 0.5
        labels=[{"relevance": v} for v in (0.0, 0.5, 0.5)],
    )
    e = _pair(calibration(t, n_resamples=100), "relevance", "judge.context_relevance")
    assert e.kind == "numeric" and e.label_range == (0.0, 1.0)
    assert e.rmse == pytest.approx(math.sqrt(0.25 / 3))
    assert e.bias == pytest.approx(0.5 - 1 / 3)
    assert e.pearson == pytest.approx(math.sqrt(3) / 2)
    assert e.spearman == pytest.approx(1.5 / math.sqrt(3))
    assert e.kendall == pytest.approx(2 / math.sqrt(6))


def test_explicit_mapping_with_label_range_and_threshold(make_table) -> None:
    spec = MetricSpec(name="ragas.faithfulness", labels=linked("ragas.faithfulness"))
    t = make_table(
        {"ragas.faithfulness": spec},
        {"ragas.faithfulness": [0.9, 0.6, 0.2, None]},
        labels=[{"stars": 5}, {"stars": 3}, {"stars": 1}, {"stars": 4}],
    )
    links = [LabelLink("labels.stars", "ragas.faithfulness", label_range=(1, 5))]
    e = calibration(t, links, n_resamples=100).pairs[0]
    assert e.n == 3 and e.label_range == (1, 5) and e.label_range_source == "given"
    # labels normalised: 1, 0.5, 0 -> diffs -0.1, 0.1, 0.2
    assert e.rmse == pytest.approx(math.sqrt((0.01 + 0.01 + 0.04) / 3))
    assert e.bias == pytest.approx((0.9 + 0.6 + 0.2) / 3 - 0.5)
    assert e.spearman == pytest.approx(1.0)


def test_skips_are_reported(make_table) -> None:
    spec = MetricSpec(name="ragas.faithfulness", labels=linked("ragas.faithfulness"))
    t = make_table(
        {"ragas.faithfulness": spec},
        {"ragas.faithfulness": [0.9, 0.1]},
        labels=[{"faithful": "yes"}, {"faithful": True}],
    )
    out = calibration(t, [*default_links(t.label_names, t.specs.values()),
                          LabelLink("x", "judge.y")])
    assert out.pairs == []
    reasons = {(s.label, s.reason) for s in out.skipped}
    assert reasons == {
        ("faithful", "label values are mixed or non-numeric"),
        ("x", "metric not in run"),
    }


def test_zero_one_integers_count_as_boolean_for_boolean_names(make_table) -> None:
    spec = MetricSpec(name="ragas.faithfulness", labels=linked("ragas.faithfulness"))
    t = make_table(
        {"ragas.faithfulness": spec},
        {"ragas.faithfulness": [0.9, 0.1, 0.8]},
        labels=[{"faithful": 1}, {"faithful": 0}, {"faithful": 1}],
    )
    e = calibration(t, n_resamples=50).pairs[0]
    assert e.kind == "boolean" and e.auroc == 1.0 and e.balanced_accuracy == 1.0


def _verdict_rows() -> list[Row]:
    """40 labelled samples: a yes/no verdict (judge.hallucination), a 0/1 score that is
    one too (trace.adherence, inverted against `hallucinated`) and a 1-10 score
    (judge.faithfulness); 3 answers abstain and 2 are unscored (no value of any)."""
    metrics = ("judge.hallucination", "trace.adherence", "judge.faithfulness")
    rows = []
    for i in range(40):
        label = i % 3 == 0
        says = label != (i % 5 == 0)  # the verdict is wrong on every fifth
        values: dict[str, float | None] = {
            "judge.hallucination": float(says), "trace.adherence": float(not says),
            "judge.faithfulness": 2.0 + (i % 7) if says else 9.0 - (i % 4)}
        abstained: dict[str, str] = {}
        reasons: dict[str, str] = {}
        if i in (4, 11, 23):
            values = dict.fromkeys(metrics)
            abstained = dict.fromkeys(metrics, "correct")
        elif i in (7, 30):
            values = dict.fromkeys(metrics)
            reasons = dict.fromkeys(metrics, "judge timed out")
        rows.append(Row(id=f"s{i}", labels={"hallucinated": label}, values=values,
                        reasons=reasons, abstained=abstained))
    rows.append(Row(id="u", values={m: 1.0 for m in metrics}))  # no label: not counted
    return rows


def test_a_verdicts_agreement_counts_agreements_misses_and_flags() -> None:
    """A metric that gives a yes/no verdict (every value its scale's low or high) counts
    how often the verdict is people's label, the people's True labels it calls False and
    their False labels it calls True; a labelled sample without a value is left out and
    counted by why. A 1-10 score (thresholded by us, not a verdict) has no counts."""
    rows = _verdict_rows()
    specs = {s.name: s for s in declared("judge.hallucination", "trace.adherence",
                                         "judge.faithfulness")}
    out = calibration(ScoreTable.from_rows(rows, specs), n_resamples=50)
    for metric, inverted in (("judge.hallucination", False), ("trace.adherence", True)):
        compared = [(bool(r.labels["hallucinated"]), (v < 0.5) if inverted else (v >= 0.5))
                    for r in rows if "hallucinated" in r.labels
                    and (v := r.value(metric)) is not None]
        pair = _pair(out, "hallucinated", metric)
        assert pair.inverted is inverted and pair.n == len(compared) == 35
        assert pair.verdicts is not None, metric
        assert pair.verdicts.agree == sum(t == p for t, p in compared)
        assert pair.verdicts.missed == sum(t and not p for t, p in compared) > 0
        assert pair.verdicts.flagged == sum(p and not t for t, p in compared) > 0
        assert (pair.abstained, pair.unscored, pair.labelled) == (3, 2, 40)
    faith = _pair(out, "hallucinated", "judge.faithfulness")
    assert faith.verdicts is None and faith.auroc is not None
    assert (faith.abstained, faith.unscored) == (3, 2)


def test_a_score_whose_values_happen_to_be_zero_or_one_gives_no_verdict() -> None:
    """Whether a metric gives a yes/no verdict is its declaration's (a "bool" metric, or
    a 0/1 score declared `verdict`: trace.adherence), not the values a run happens to
    have: a fraction (ragas.faithfulness, trace.adherence_ratio) or a 1-10 score at its
    ends, all 0 or 1 here, is a score a threshold of ours would make a verdict of, and
    has no counts (it had, and switched from run to run)."""
    metrics = ("ragas.faithfulness", "trace.adherence_ratio", "judge.faithfulness",
               "trace.adherence")
    rows = [Row(id=f"s{i}", labels={"hallucinated": i % 6 == 0},
                values={"ragas.faithfulness": float(i % 6 != 0 or i % 4 == 0),
                        "trace.adherence_ratio": float(i % 6 != 0),
                        "judge.faithfulness": 10.0 if i % 6 else 1.0,
                        "trace.adherence": float(i % 6 != 0)})
            for i in range(36)]
    out = calibration(ScoreTable.from_rows(rows, {s.name: s for s in declared(*metrics)}),
                      n_resamples=50)
    for metric in metrics[:3]:
        pair = _pair(out, "hallucinated", metric)
        assert pair.kind == "boolean" and pair.auroc is not None, metric
        assert pair.verdicts is None, metric
    declared_one = _pair(out, "hallucinated", "trace.adherence").verdicts
    assert declared_one is not None and (declared_one.agree, declared_one.missed) == (36, 0)


def test_labels_none_of_which_has_a_value_are_counted_on_the_skipped_link() -> None:
    """Every labelled sample abstains or is unscored: the link is skipped (nothing to
    compare) with the labels counted by why, so that no reader says there are none."""
    rows = [Row(id=f"s{i}", labels={"hallucinated": i % 2 == 0},
                values={"judge.hallucination": None},
                abstained={"judge.hallucination": "correct"} if i < 4 else {},
                reasons={} if i < 4 else {"judge.hallucination": "judge timed out"})
            for i in range(6)]
    rows.append(Row(id="u", values={"judge.hallucination": 1.0}))  # scored, no label
    out = calibration(ScoreTable.from_rows(rows, {s.name: s for s in
                                                  declared("judge.hallucination")}),
                      n_resamples=50)
    assert out.pairs == []
    (skip,) = [s for s in out.skipped if s.metric == "judge.hallucination"]
    assert (skip.label, skip.abstained, skip.unscored) == ("hallucinated", 4, 2)


def test_verdicts_the_same_on_every_labelled_sample_name_the_first_metric() -> None:
    """Trial 59: trace.adherence's headline cell repeated judge.hallucination's word for
    word. Two verdicts of one label that say the same of every labelled sample (oriented
    to the label; the same samples without a value, for the same reason) are marked:
    the later names the earlier (`Verdicts.same_as`). One differing verdict, or a sample
    one abstains on and the other leaves unscored, and neither is marked."""
    specs = {s.name: s for s in declared("judge.hallucination", "trace.adherence",
                                         "judge.faithfulness")}
    rows = _verdict_rows()
    out = calibration(ScoreTable.from_rows(rows, specs), n_resamples=50)
    hallucination = _pair(out, "hallucinated", "judge.hallucination").verdicts
    adherence = _pair(out, "hallucinated", "trace.adherence").verdicts
    assert hallucination is not None and hallucination.same_as is None
    assert adherence is not None and adherence.same_as == "judge.hallucination"
    assert _pair(out, "hallucinated", "judge.faithfulness").verdicts is None  # a score

    def changed(i: int, **values: float | None) -> list[Row]:
        row = rows[i]
        given = {**row.values, **values}
        unscored = {m: "judge timed out" for m, v in values.items() if v is None}
        return [*rows[:i], Row(id=row.id, labels=row.labels, values=given,
                               reasons={**row.reasons, **unscored},
                               abstained={m: a for m, a in row.abstained.items()
                                          if m not in unscored}), *rows[i + 1:]]

    flipped = changed(1, **{"trace.adherence": 1.0 - (rows[1].value("trace.adherence") or 0)})
    why = changed(4, **{"trace.adherence": None})  # abstained for one, unscored for the other
    for other in (flipped, why):
        out = calibration(ScoreTable.from_rows(other, specs), n_resamples=50)
        adherence = _pair(out, "hallucinated", "trace.adherence").verdicts
        assert adherence is not None and adherence.same_as is None


def test_scores_with_the_same_values_on_all_but_a_few_samples_name_the_first(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """New-user trial 63: ragas.faithfulness and trace.adherence_ratio gave the same value
    on 143 of 144 labelled rows (one mean, AUROC and kappa) and read as two measurements;
    only verdicts had `same_as`. A later score whose values are an earlier one's on at
    least SAME_SHARE of the labelled samples names it (`same_values`), with on how many;
    three differing samples of 40, or a score of its own, and it names none."""
    from ragassay.stats.calibration import SameValues

    metrics = ("trace.adherence_ratio", "ragas.faithfulness", "judge.faithfulness")
    specs = {s.name: s for s in declared(*metrics)}

    def rows(differ: tuple[int, ...]) -> list[Row]:
        out = []
        for i in range(40):
            share = (i % 7) / 6
            out.append(Row(id=f"s{i}", labels={"hallucinated": i % 7 < 3}, values={
                "trace.adherence_ratio": share,
                "ragas.faithfulness": 1 - share if i in differ else share,
                "judge.faithfulness": 1.0 + (i % 5) * 2}))
        out.append(Row(id="u", values=dict.fromkeys(metrics, 0.0)))  # no label: not counted
        return out

    links = [LabelLink("hallucinated", m, inverted=True) for m in metrics]
    out = calibration(ScoreTable.from_rows(rows((6,)), specs), links, n_resamples=50)
    ratio, ragas = (_pair(out, "hallucinated", m) for m in metrics[:2])
    assert ratio.same_values is None
    assert ragas.same_values == SameValues(metric="trace.adherence_ratio", samples=39)
    assert _pair(out, "hallucinated", "judge.faithfulness").same_values is None
    # a line per label: how many measurements its metrics are (trial 71); the repeating
    # metric's own row says on how many samples (`verdicts.repeat_text`)
    # values alike on 39 of 40 "nearly" repeat, on every surface, with how much (trial 73:
    # calibrate said "repeats" where the headline said "nearly")
    assert measurements_lines(out.pairs) == [
        "hallucinated: 3 linked metrics, 2 measurements (ragas.faithfulness nearly repeats "
        "trace.adherence_ratio's values (alike on 39 of 40 labelled samples))"]
    assert repeat_text(ragas) == (
        "same values as trace.adherence_ratio on 39 of 40 labelled samples: its agreement "
        "with people is nearly that metric's, not a second measurement")
    # calibrate's table and note say "nearly", with how much (trial 73: "repeats")
    from ragassay.cli.calibrate import print_calibration

    monkeypatch.setenv("COLUMNS", "250")
    print_calibration(out)
    shown = capsys.readouterr().out
    assert "(nearly: 39/40 values)" in shown
    assert "ragas.faithfulness nearly repeats trace.adherence_ratio's values (alike on 39 " \
           "of 40 labelled samples)" in shown
    assert "same_values" not in ratio.model_dump() and ragas.model_dump()["same_values"] == {
        "metric": "trace.adherence_ratio", "samples": 39}
    whole = calibration(ScoreTable.from_rows(rows(()), specs), links, n_resamples=50)
    assert measurements_lines(whole.pairs) == [
        "hallucinated: 3 linked metrics, 2 measurements (ragas.faithfulness repeats "
        "trace.adherence_ratio's values)"]
    assert repeat_text(_pair(whole, "hallucinated", "ragas.faithfulness")) == (
        "same values as trace.adherence_ratio on all 40 labelled samples: its agreement "
        "with people is that metric's, not a second measurement")
    apart = calibration(ScoreTable.from_rows(rows((6, 13, 20)), specs), links, n_resamples=50)
    assert _pair(apart, "hallucinated", "ragas.faithfulness").same_values is None
    assert measurements_lines(apart.pairs) == apart.note_lines() == []
