"""New-user trial 74: no figure counted the correct declines (the user added 13 back by
hand), and the `decline` kind's row read `right on 1 of 3 (33%)` though 14 of its 16 were
right. The HTML summary's headline and its "By kind" section say the verdict's figure
with the abstentions counted too, worked out here from the rows: a decline people did not
mark hallucinated right, the one they marked wrong."""

from __future__ import annotations

from html import unescape
from pathlib import Path

from ragassay.report import SampleEntry
from tests.support.verdicts import declines_run

ALSO = ("s1", "s2", "s3")  # three answers of the `decline` kind given a verdict


def test_the_html_says_the_figure_with_the_abstentions(tmp_path: Path) -> None:
    run = declines_run(tmp_path / "r.db", also=ALSO)  # 40 answers, 6 declines, 1 marked
    report = run.report()
    values = {e.id: e.metrics["judge.hallucination"] for e in report.entries
              if isinstance(e, SampleEntry)}
    labels = {f"s{i}": (i % 3 == 0) != (i % 7 == 0) for i in range(40)}  # as the rows say
    right = {k: (v >= 0.5) == labels[k] for k, v in values.items() if k.startswith("s")
             and v is not None}
    assert len(right) == 40 and all(values[f"d{i}"] is None for i in range(6))
    agree, kind = sum(right.values()), sum(right[k] for k in ALSO)
    page = unescape(run.report("html", by="kind"))
    assert (f"right on {agree + 5} of 46 ({(agree + 5) / 46:.0%}): 5 of 6 answers the judge "
            f"read as declines, "
            f"{agree} of 40 ({agree / 40:.0%}) scored answers: ") in page
    # trial 75: a group of mostly declines gives its 3 verdicts' figure no percentage
    assert (f"right on {kind + 5} of 9 ({(kind + 5) / 9:.0%}): 6 read as declines (5 right, 1 "
            f"marked hallucinated by people); of 3 scored as answers, {kind} right"
            ) in page.split("By kind", 1)[1]  # (trial 89: plain words)
