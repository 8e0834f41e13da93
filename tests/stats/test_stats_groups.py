"""A run by one metadata value (`stats.group_by`): per group its samples, each metric's
mean (a yes/no verdict's rate) with an interval only where the group has the values for
one, the judge's agreement with people's labels in it, missing values as their own
group, and many groups capped with a pooled row. Every figure is checked against the
rows worked out by hand."""

from __future__ import annotations

from collections.abc import Container
from typing import Any

import pytest

from ragassay.stats import NONE_GROUP, Scale, group_by
from ragassay.stats.groups import MIN_INTERVAL, OTHER_GROUP, group_cell, group_name
from ragassay.stats.table import Row, ScoreTable
from ragassay.types import LinkedLabel, MetricSpec

FLAG = MetricSpec(name="toy.flag", kind="bool", higher_is_better=False,
                  labels=(LinkedLabel(label="hallucinated"),))
GRADE = MetricSpec(name="toy.grade", low=1, high=10,
                   labels=(LinkedLabel(label="hallucinated", inverted=True),))
SPECS = {s.name: s for s in (FLAG, GRADE)}


def _rows(flags: list[bool | None], grades: list[float | None],
          labels: list[bool | None]) -> ScoreTable:
    rows = [Row(id=f"s{i}", values={"toy.flag": None if f is None else float(f),
                                    "toy.grade": g},
                labels={} if lab is None else {"hallucinated": lab})
            for i, (f, g, lab) in enumerate(zip(flags, grades, labels, strict=True))]
    return ScoreTable.from_rows(rows, SPECS)


def _declines(flags: list[float | None], abstained: Container[int],
              unscored: Container[int]) -> ScoreTable:
    """A toy.flag column whose `abstained` rows declined and `unscored` rows have no
    contexts (no toy.grade either); toy.grade 5.0 elsewhere."""
    rows = [Row(id=f"s{i}", values={"toy.flag": f, "toy.grade": None if i in unscored else 5.0},
                reasons={"toy.grade": "no contexts", "toy.flag": "no contexts"}
                if i in unscored else {},
                abstained={"toy.flag": "correct"} if i in abstained else {})
            for i, f in enumerate(flags)]
    return ScoreTable.from_rows(rows, SPECS)


def _values(kinds: list[Any]) -> dict[tuple[str, str], Any]:
    """Row key -> metadata value; `...` stands for a sample without the key."""
    return {("default", f"s{i}"): k for i, k in enumerate(kinds) if k is not ...}


KINDS = ["faq"] * 6 + ["howto"] * 3 + [None, "", ...]
FLAGS = [True, False, False, True, False, None, True, True, False, True, False, False]
GRADES = [3, 9, 8, 2, 9, 7, 1, 2, 8, None, 9, 9]
LABELS = [True, False, True, True, False, False, True, False, None, True, None, False]


def test_each_group_holds_its_own_figures() -> None:
    table = _rows(FLAGS, GRADES, LABELS)
    groups = group_by(table, _values(KINDS), "kind", n_resamples=200)
    assert [(g.value, g.n) for g in groups.groups] == [("faq", 6), ("howto", 3),
                                                       (NONE_GROUP, 3)]
    faq = groups.group("faq")
    assert faq is not None
    flag, grade = faq.metrics["toy.flag"], faq.metrics["toy.grade"]
    assert flag.mean == pytest.approx(2 / 5) and flag.count == 5 and flag.missing == 1
    assert flag.ci_low is not None and flag.ci_high is not None  # 5 values: an interval
    assert flag.ci_low <= flag.mean <= flag.ci_high
    # the group's n is 6, the rate rests on 5: the figure says so (trial 54); all 6: not
    assert flag.value_text() == (f"{flag.mean:.2f} [{flag.ci_low:.2f}, {flag.ci_high:.2f}] "
                                 "(5 scored, 1 unscored)")
    assert not grade.value_text().endswith(")")
    assert grade.mean == pytest.approx((3 + 9 + 8 + 2 + 9 + 7) / 6)
    howto = groups.group("howto")
    assert howto is not None and howto.metrics["toy.flag"].count == 3 < MIN_INTERVAL
    assert howto.metrics["toy.flag"].ci_low is None  # too few for an interval
    assert howto.metrics["toy.flag"].value_text() == "0.67 (n=3)"
    # the missing key, null and "" are one group: "(none)"
    none = groups.group(NONE_GROUP)
    assert none is not None and none.metrics["toy.grade"].mean == pytest.approx(9.0)
    assert groups.scales == {"toy.flag": Scale(figure="rate", low=0, high=1),
                             "toy.grade": Scale(figure="mean", low=1, high=10)}


def test_the_judges_agreement_is_counted_per_group() -> None:
    """"agrees on k of n" per group: the yes/no verdict against people's label, over the
    group's samples with both, counted by hand here; a score gets its AUROC."""
    table = _rows(FLAGS, GRADES, LABELS)
    groups = group_by(table, _values(KINDS), "kind", n_resamples=200)
    assert groups.links == [("hallucinated", "toy.flag"), ("hallucinated", "toy.grade")]
    for g in groups.groups:
        members = [i for i, k in enumerate(KINDS) if group_name(None if k is ... else k)
                   == g.value]
        both = [i for i in members if FLAGS[i] is not None and LABELS[i] is not None]
        right = sum(FLAGS[i] == LABELS[i] for i in both)
        missed = sum(LABELS[i] and not FLAGS[i] for i in both)
        flagged = sum(FLAGS[i] and not LABELS[i] for i in both)
        a = g.agreement_of("hallucinated", "toy.flag")
        assert a is not None and a.n == len(both) and a.verdicts is not None
        assert (a.verdicts.agree, a.verdicts.missed, a.verdicts.flagged) == (right, missed,
                                                                              flagged)
        assert group_cell(a).startswith(f"right on {right} of {len(both)}")
    faq = groups.group("faq")
    assert faq is not None
    score = faq.agreement_of("hallucinated", "toy.grade")
    # faq: labels T F T T F F, grades 3 9 8 2 9 7 (inverted: low grade = hallucinated);
    # of 3 x 3 pairs the hallucinated one ranks lower in 8, one tie-free miss (8 vs 7)
    assert score is not None and score.verdicts is None and score.auroc == pytest.approx(8 / 9)
    assert group_cell(score) == "AUROC 0.89 on 6"


def test_many_groups_are_capped_with_a_pooled_row_and_a_note() -> None:
    kinds = [f"k{i % 7}" for i in range(30)] + [None]
    n = len(kinds)
    table = _rows([i % 2 == 0 for i in range(n)], [5.0] * n, [None] * n)
    groups = group_by(table, _values(kinds), "kind", most=3, n_resamples=50)
    # the largest (k0, k1: 5 samples; k2-k6: 4, ties: the first seen) in the data's
    # order, then (none), then the rest pooled
    assert [(g.value, g.n) for g in groups.groups] == [
        ("k0", 5), ("k1", 5), ("k2", 4), (NONE_GROUP, 1), (OTHER_GROUP, 16)]
    other = groups.group(OTHER_GROUP)
    assert other is not None and other.pooled == 4 and sum(g.n for g in groups.groups) == n
    assert other.metrics["toy.flag"].mean == pytest.approx(
        sum(i % 2 == 0 for i in range(n) if kinds[i] in ("k3", "k4", "k5", "k6")) / 16)
    assert groups.values == 8 and groups.links == []
    assert groups.note == (f"kind has 8 values: the smallest 4 ({other.n} samples) are "
                           f"pooled in the {OTHER_GROUP} row")


@pytest.mark.parametrize("value, name", [("faq", "faq"), (3, "3"), (2.5, "2.5"),
                                         (True, "true"), (None, NONE_GROUP), ("", NONE_GROUP),
                                         (["a", 1], '["a", 1]')])
def test_a_value_names_its_group(value: Any, name: str) -> None:
    assert group_name(value) == name


def test_a_figure_says_the_samples_it_rests_on_when_some_abstained() -> None:
    """Trial 55: the decline group read "n 16 ... hallucination rate 1.00 [1.00, 1.00]",
    a rate over the 7 answers that did not decline; 9 abstained and nothing said so. A
    figure resting on fewer samples than its group's n says how many, and why the others
    have no value (abstained, unscored); the JSON counts the abstained among `missing`."""
    table = _declines([1.0] * 7 + [None] * 9 + [0.0] * 4 + [None], range(7, 16), (20,))
    kinds = ["decline"] * 16 + ["other"] * 5
    groups = group_by(table, _values(kinds), "kind", n_resamples=200)
    decline, other = groups.group("decline"), groups.group("other")
    assert decline is not None and other is not None
    flag = decline.metrics["toy.flag"]
    assert (decline.n, flag.count, flag.missing, flag.abstained, flag.unscored) == (16, 7, 9,
                                                                                    9, 0)
    # (7 of 7: an exact interval, trial 65; a bootstrap said [1.00, 1.00])
    assert flag.value_text() == "9 abstained; 7 scored: 1.00 [0.59, 1.00]"  # most abstained
    assert decline.metrics["toy.grade"].value_text() == "5.00 [5.00, 5.00]"  # all 16
    # an unscored sample is said apart from the abstained; below 5 values, no interval
    assert other.metrics["toy.flag"].value_text() == "0.00 (4 scored, 1 unscored)"
    only = group_by(table, _values(["decline"] * 7 + ["gone"] * 9 + ["other"] * 5), "kind",
                    n_resamples=200).group("gone")
    assert only is not None and only.metrics["toy.flag"].value_text() == (
        "9 abstained; none scored")
    dumped = decline.model_dump()["metrics"]["toy.flag"]
    assert dumped["missing"] == 9 and dumped["abstained"] == 9


def test_a_group_without_an_agreement_figure_says_why() -> None:
    """New-user trial 56: under `--by kind` a score's cell read "16 labels, too few or one
    class", not saying which."""
    kinds = ["kept"] * 4 + ["invented"] * 4
    table = _rows([False] * 4 + [True] * 4, [9, 8, 9, 7, 2, 3, 1, 2],
                  [False] * 4 + [True] * 4)
    groups = group_by(table, _values(kinds), "kind", n_resamples=50)
    for value, which in (("kept", "none"), ("invented", "all")):
        g = groups.group(value)
        assert g is not None
        score = g.agreement_of("hallucinated", "toy.grade")
        assert score is not None and score.auroc is None
        assert group_cell(score) == f"4 labels, all one class ({which} hallucinated)"
    # a grade with too few pairs for Spearman says how many it needs
    grade = MetricSpec(name="toy.score", low=0, high=1,
                       labels=(LinkedLabel(label="relevance"),))
    rows = [Row(id=f"r{i}", values={"toy.score": v}, labels={"relevance": lab})
            for i, (v, lab) in enumerate([(0.2, 1), (0.9, 3), (0.5, 2), (0.4, 2),
                                          (0.1, 0), (0.3, 1)])]
    few = group_by(ScoreTable.from_rows(rows, {grade.name: grade}),
                   {("default", f"r{i}"): k for i, k in enumerate("aabbbb")}, "kind",
                   n_resamples=50)
    pair = few.group("a")
    assert pair is not None
    got = pair.agreement_of("relevance", "toy.score")
    assert got is not None and group_cell(got) == "2 labels, too few (need 3)"


def test_a_group_whose_labelled_answers_all_abstained_says_why() -> None:
    """New-user trial 57: the `decline` group, every row labelled and every answer a
    correct decline, read "no labels" in the agreement table and its JSON had `n` 0 with
    no reason; a score says there is nothing to compare, a verdict counts the declines as
    the headline does (trial 62), and a group without labels still says "no labels"."""
    rows = [Row(id=f"s{i}", values={"toy.flag": None if i < 9 else float(i % 2),
                                    "toy.grade": None if i < 9 else 9.0 - i % 2 * 7},
                labels={"hallucinated": bool(i % 2)} if i < 15 else {},
                abstained={"toy.flag": "correct", "toy.grade": "correct"} if i < 9 else {})
            for i in range(18)]
    table = ScoreTable.from_rows(rows, SPECS)
    kinds = ["decline"] * 9 + ["answer"] * 6 + ["bare"] * 3
    groups = group_by(table, _values(kinds), "kind", n_resamples=50)
    decline, bare = groups.group("decline"), groups.group("bare")
    assert decline is not None and bare is not None
    flag = decline.agreement_of("hallucinated", "toy.flag")  # a verdict
    assert flag is not None and flag.n == 0 and flag.unmeasured is None
    assert group_cell(flag) == ("right on 5 of 9 (56%), all 9 answers the judge read as "
                                "declines; 4 marked hallucinated by people")
    got = decline.agreement_of("hallucinated", "toy.grade")  # a score
    assert got is not None and got.n == 0
    assert got.unmeasured == "all 9 abstained: nothing to compare"
    assert group_cell(got) == ("all 9 abstained: nothing to compare, people marked 4 "
                               "of them hallucinated")
    assert got.model_dump()["unmeasured"] == "all 9 abstained: nothing to compare"
    for metric in ("toy.flag", "toy.grade"):
        none = bare.agreement_of("hallucinated", metric)
        assert none is not None and none.unmeasured is None and group_cell(none) == "no labels"


def test_a_groups_cell_counts_its_abstentions_as_the_headline_does() -> None:
    """New-user trial 58: the `decline` group's cell read "agrees on 0 of 3 (0%): misses
    0, flags 3" while 13 of its 16 labelled answers abstained correctly; nothing said so.
    The cell says the abstained ones and what people marked them, apart from how often
    the verdicts are right (trial 71: a decline is no verdict), in the headline's words;
    the JSON counts them."""
    flags: list[float | None] = [1.0] * 3 + [None] * 13 + [1.0, 0.0, 0.0, 1.0]
    rows = [Row(id=f"s{i}", values={"toy.flag": f, "toy.grade": None if f is None else 2.0},
                labels={"hallucinated": i in (3, 16, 19)},
                abstained={"toy.flag": "correct", "toy.grade": "correct"} if 3 <= i < 16
                else {})
            for i, f in enumerate(flags)]
    # the 13 abstained: people marked one of them (s3) hallucinated
    groups = group_by(ScoreTable.from_rows(rows, SPECS),
                      _values(["decline"] * 16 + ["answer"] * 4), "kind", n_resamples=50)
    decline, answer = groups.group("decline"), groups.group("answer")
    assert decline is not None and answer is not None
    flag = decline.agreement_of("hallucinated", "toy.flag")
    assert flag is not None
    assert (flag.n, flag.positives, flag.abstained, flag.abstained_positives,
            flag.unscored) == (3, 0, 13, 1, 0)
    assert group_cell(flag) == (
        "right on 12 of 16 (75%): 13 read as declines (12 right, 1 marked hallucinated by "
        "people); of 3 scored as answers, 0 right (flags 3 of 3 people did not mark "
        "hallucinated)")  # (trial 89: each part in plain words)
    grade = decline.agreement_of("hallucinated", "toy.grade")
    assert grade is not None and group_cell(grade) == (
        "all one class (none hallucinated) (3 labels of 16: 13 abstained not counted, "
        "people marked 1 of them hallucinated)")
    dumped = flag.model_dump()
    assert (dumped["abstained"], dumped["abstained_positives"]) == (13, 1)
    # a group where nothing is left out reads as before
    plain = answer.agreement_of("hallucinated", "toy.flag")
    assert plain is not None and group_cell(plain) == (
        "right on 4 of 4 (100%): misses 0 of 2 people marked hallucinated, flags 0 of 2 "
        "they did not")


def test_a_figure_over_few_of_its_groups_samples_leads_with_the_counts() -> None:
    """New-user trial: the decline kind read "hallucination rate 1.00 (1 scored, 15
    abstained)", read at a glance as "declines are 100% hallucinated". Where most of a
    group's samples have no value, the counts lead and the figure follows; while most
    are scored, the counts follow the figure. `.mean` stays the mean of the scored."""
    table = _declines([1.0] + [None] * 15 + [0.0] * 12 + [None] * 4,
                      {*range(1, 16), 30, 31}, (28, 29))
    kinds = ["decline"] * 16 + ["answer"] * 16
    groups = group_by(table, _values(kinds), "kind", n_resamples=200)
    decline, answer = groups.group("decline"), groups.group("answer")
    assert decline is not None and answer is not None
    flag = decline.metrics["toy.flag"]
    assert (flag.mean, flag.count, flag.abstained) == (1.0, 1, 15)
    assert flag.value_text() == "15 abstained; 1 scored: 1.00"
    assert str(flag) == "15 abstained; 1 scored: 1.000"
    kept = answer.metrics["toy.flag"]
    assert (kept.count, kept.abstained, kept.unscored) == (12, 2, 2)
    assert kept.value_text().startswith("0.00 [0.00, 0.26] (12 scored, 2 abstained, ")
    # printed, a group says its figures as the tables do, not a bare mean first
    assert str(decline).splitlines() == ["decline (16 samples)",
                                         "  toy.flag: 15 abstained; 1 scored: 1.000",
                                         "  toy.grade: 5.000 [5.000, 5.000]"]


def test_groups_are_listed_in_the_order_their_values_first_appear() -> None:
    """New-user trial: nine kinds of 16 samples each were listed alphabetically (ties of
    the largest-first order). The groups keep the data's order; (none) and the pooled
    row stay last, and the pooled are still the smallest."""
    kinds = ["pricing", "lookup", "decline", "pricing", None, "access", "lookup", "decline",
             "access", "zeta"]
    n = len(kinds)
    table = _rows([True] * n, [5.0] * n, [None] * n)
    groups = group_by(table, _values(kinds), "kind", n_resamples=50)
    assert [g.value for g in groups.groups] == ["pricing", "lookup", "decline", "access",
                                                "zeta", NONE_GROUP]
    capped = group_by(table, _values(kinds), "kind", most=3, n_resamples=50)
    assert [(g.value, g.n) for g in capped.groups] == [
        ("pricing", 2), ("lookup", 2), ("decline", 2), (NONE_GROUP, 1), (OTHER_GROUP, 3)]
