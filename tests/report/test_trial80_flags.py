"""Trial 80: on a set labelled bad on purpose, the faithfulness and hallucination-rate
warnings read as an alarm about the system; where people's labels measure the metric,
the warning now says what they put it at beside the judge's figure."""

from __future__ import annotations

from pathlib import Path

from ragassay.stats import Flag
from tests.support.verdicts import labelled_rows


def _flag(metric: str, message: str) -> Flag:
    return Flag(metric=metric, scope="overall", value=0.0, level="warning", message=message)


def test_a_warning_says_what_peoples_labels_put_the_metric_at(tmp_path: Path) -> None:
    import ragassay

    rows = labelled_rows(answers=40, abstaining=4)
    report = ragassay.evaluate(rows, "judge", store=tmp_path / "r.db",
                               progress=False).report()
    head = report.headline
    people = {r.metric: r.estimate for r in head.rows}
    rate = people["judge.hallucination"]
    assert rate is not None and rate.estimate > 0.2  # bad on purpose, past its line
    said = head.flag_text(_flag("judge.hallucination", "judge.hallucination rate 0.6: "
                                "above the warning line 0.2 (target <= 0.1)"))
    agg = report.aggregate("judge.hallucination")
    assert agg is not None and agg.abstained == 4  # trial 83: what the rate is of
    assert said.startswith(f"judge.hallucination rate 0.6 of {agg.count} scored answers; 4 "
                           "read as declines set aside (judge; people "), said
    assert said.endswith(", past the warning line by people's labels too): above the "
                         "warning line 0.2 (target <= 0.1)"), said
    # a score on another scale than people's label: their share of it, in one clause
    faithful = people["judge.faithfulness"]
    assert faithful is not None
    said = head.flag_text(_flag("judge.faithfulness", "judge.faithfulness mean 4.1: below "
                                "the warning line 4.6 (target >= 5.5)"))
    base = f"of {report.aggregate('judge.faithfulness').count} scored answers; 4 read as " \
        "declines set aside"
    assert said == (f"judge.faithfulness mean 4.1 {base} (people's labels mark "
                    f"{faithful.estimate:.0%} {faithful.label}): below the warning line "
                    "4.6 (target >= 5.5)"), said
