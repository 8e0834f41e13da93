"""`stats.disagreements`: the samples a linked verdict misses and flags are the ones its
`Verdicts` counts (trial 66: the counts named no sample), on either side of a label
(`hallucinated`: True marks the problem; `faithful`, read inverted: False does); with the
declines people marked the problem they are every sample `right on N of M` counts wrong
(review 14p, F1); the abstentions counted false are those `abstention_rates` counts."""

from __future__ import annotations

import random
import re

from ragassay.stats import BooleanAgreement, LabelLink, abstention_rates, calibration
from ragassay.stats.disagreements import (
    Disagreements,
    VerdictDisagreements,
    disagreements,
)
from ragassay.stats.table import Row, ScoreTable
from ragassay.stats.verdicts import declines_apart, right_on
from ragassay.types import MetricSpec

SPECS = {"x.flag": MetricSpec(name="x.flag", kind="bool", higher_is_better=False)}


def _table(label: str) -> ScoreTable:
    rnd = random.Random(7)
    rows = []
    for i in range(40):
        abst = {"x.flag": rnd.choice(["false", "correct"])} if i % 9 == 0 else {}
        value = None if abst else float(rnd.random() < 0.4)
        labels = {label: rnd.random() < 0.5} if i % 5 else {}
        rows.append(Row(id=f"s{i:02d}", labels=labels, values={"x.flag": value},
                        abstained=abst))
    return ScoreTable.from_rows(rows, SPECS)


SIDES_OF_A_LABEL = (("hallucinated", False), ("faithful", True))


def _listed(label: str, inverted: bool
            ) -> tuple[ScoreTable, BooleanAgreement, Disagreements, VerdictDisagreements]:
    """The table of `label`, its one pair, the disagreements, the verdict's listing."""
    table = _table(label)
    cal = calibration(table, [LabelLink(label, "x.flag", inverted=inverted)], n_resamples=50)
    (pair,) = cal.pairs
    assert isinstance(pair, BooleanAgreement) and pair.verdicts is not None
    found = disagreements(table, cal)
    assert found is not None
    (v,) = found.verdicts
    return table, pair, found, v


def test_listed_samples_are_the_counted_ones_on_either_side() -> None:
    for label, inverted in SIDES_OF_A_LABEL:
        table, pair, found, v = _listed(label, inverted)
        assert pair.verdicts is not None
        assert (len(v.missed), len(v.flagged)) == (pair.verdicts.missed, pair.verdicts.flagged)
        assert v.problem is (label == "hallucinated")
        rows = {r.id: r for r in table.rows}
        for d in v.missed:  # people marked the problem; the verdict called it fine
            said = (d.value >= 0.5) != inverted  # the verdict as the label's True / False
            assert rows[d.id].labels[label] is v.problem and said is not v.problem
        for d in v.flagged:
            said = (d.value >= 0.5) != inverted  # the verdict as the label's True / False
            assert rows[d.id].labels[label] is not v.problem and said is v.problem
        rates = abstention_rates(table)
        assert rates is not None
        assert len(found.false_abstentions) == sum(r.false for r in rates.values()) > 0


def test_nothing_to_list_without_verdicts_or_false_abstentions() -> None:
    rows = [Row(id="a", values={"x.flag": 1.0})]
    assert disagreements(ScoreTable.from_rows(rows, SPECS), None) is None


def test_listed_samples_are_every_one_the_headline_counts_wrong() -> None:
    for label, inverted in SIDES_OF_A_LABEL:
        table, pair, _, v = _listed(label, inverted)
        got = re.fullmatch(r"right on (\d+) of (\d+) \(\d+%\): \d+ of \d+ answers? the "
                           r"judge read as (?:a )?declines?, "
                           r"(\d+) of "
                           r"(\d+)( \(\d+%\))? scored answers?", right_on(pair))
        assert got is not None, right_on(pair)
        right_all, labelled, right, total = map(int, got.groups()[:4])
        assert v.declined  # the data has declines people marked the problem
        assert len(v.missed) + len(v.flagged) == total - right  # the verdicts' own
        # the declines people marked the problem: said apart (trial 71), listed too
        apart = re.search(r"(\d+) marked ", declines_apart(pair, label))
        assert apart is not None and int(apart[1]) == len(v.declined)
        assert v.wrong() == len(v.missed) + len(v.flagged) + len(v.declined)
        # with its abstentions counted (trial 74), wrong is every sample listed
        assert labelled - right_all == v.wrong()
        rows = {r.id: r for r in table.rows}
        for d in v.declined:  # no value, abstained, people marked the problem
            r = rows[d.id]
            assert r.value("x.flag") is None and "x.flag" in r.abstained
            assert r.labels[label] is v.problem is d.label


def test_false_people_counts_the_false_abstentions_people_labelled_right() -> None:
    """Trial 81: of the abstentions counted false, how many people labelled yes/no and
    how many right (no problem marked), per strategy or all: one count for every
    surface."""
    rows = [Row(id=f"d{i}", strategy="a" if i < 4 else "b", labels=labels,
                values={"x.flag": None}, abstained={"x.flag": "false"})
            for i, labels in enumerate([{"hallucinated": False}, {"hallucinated": True},
                                        {"faithful": True}, {},
                                        {"hallucinated": False, "faithful": False}])]
    found = disagreements(ScoreTable.from_rows(rows, SPECS), None)
    assert found is not None
    assert [a.people_right() for a in found.false_abstentions] == [True, False, True, None,
                                                                   False]
    assert found.false_people("a") == (3, 2)
    assert found.false_people("b") == (1, 0)
    assert found.false_people() == (4, 2)
