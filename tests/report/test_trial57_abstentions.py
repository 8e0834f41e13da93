"""New-user trial 57 (every row labelled, 16 correct declines the judge abstained on):
the surfaces that left the abstaining answers unsaid or counted them as something else.
A run of `tests/support/verdicts.py` rows, whose declines are a `decline` kind."""

from __future__ import annotations

import jsonschema
import pytest

from ragassay.api import EvalResult
from ragassay.report import REPORT_VERSION, build_report, report_json, schema
from tests.support.verdicts import declines_run


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> EvalResult:
    return declines_run(tmp_path_factory.mktemp("t57") / "r.db")


def test_a_group_of_declines_says_why_a_score_has_no_agreement(run: EvalResult) -> None:
    """A score's AUROC has nothing to rank in a group whose answers all abstained; a
    verdict counts them as the headline does (tests/report/test_trial62_headline.py)."""
    decline = run.by("kind").group("decline")
    assert decline is not None
    got = decline.agreement_of("hallucinated", "judge.faithfulness")
    assert got is not None and got.unmeasured == "all 6 abstained: nothing to compare"
    doc = report_json(build_report(run.store, run.run_id, by="kind"))
    jsonschema.validate(doc, schema())
    group = next(g for g in doc["groups"]["groups"] if g["value"] == "decline")
    cells = {a["metric"]: a for a in group["agreement"]}
    assert cells["judge.faithfulness"]["n"] == 0
    assert cells["judge.faithfulness"]["unmeasured"] == "all 6 abstained: nothing to compare"


def test_the_summary_accounts_for_every_sample(run: EvalResult) -> None:
    summary = run.summary()
    row = summary.loc["judge.hallucination"]
    assert (row["scored"], row["unscored"], row["abstained"]) == (40, 0, 6)
    assert (summary["scored"] + summary["unscored"] + summary["abstained"] == 46).all()


def test_the_python_headline_reads_like_the_json(run: EvalResult) -> None:
    report = run.report()
    doc = report_json(report)["headline"]["rows"]
    assert len(doc) == len(report.headline.rows)
    for row, entry in zip(report.headline.rows, doc, strict=True):
        for name in ("people_text", "agreement_text", "judge_text"):
            value = getattr(row, name)
            assert isinstance(value, str) and value == entry[name], name
    bare = next(r for r in report.headline.rows if r.estimate is None)
    assert bare.people_text == "no labels"  # what people's column shows, as in the JSON


def test_abstained_samples_are_not_counted_unscored(run: EvalResult) -> None:
    est = run.corrected().overall("judge.hallucination")
    assert est is not None and (est.n_unscored, est.n_abstained, est.n_total) == (0, 6, 46)
    assert est.judge_text().endswith("(40 of 46 scored)")
    doc = report_json(run.report())
    entry = next(e for e in doc["corrected"]["estimates"]
                 if e["metric"] == "judge.hallucination" and e["strategy"] is None)
    assert (entry["n_unscored"], entry["n_abstained"]) == (0, 6)
    assert doc["evaluation_metadata"]["report_version"] == REPORT_VERSION
    assert tuple(map(int, REPORT_VERSION.split("."))) >= (2, 12, 0)
    jsonschema.validate(doc, schema())


def test_the_headline_says_how_often_the_verdict_is_right_with_the_declines(
        run: EvalResult) -> None:
    """How often the verdicts are right, over the verdicts (trial 71: a decline the judge
    never read is no verdict to count right), then the 6 declines apart with what people
    marked them (the first is marked)."""
    row = next(r for r in run.report().headline.rows if r.metric == "judge.hallucination")
    a = row.agreement
    assert a is not None and a.verdicts is not None and a.abstained == 6
    right = a.verdicts.agree
    assert row.agreement_text.startswith(
        f"right on {right + 5} of {a.n + 6} ({(right + 5) / (a.n + 6):.0%}): 5 of 6 "
        f"answers the judge read as declines, {right} of {a.n} ({right / a.n:.0%}) scored "
        f"answers: misses "
    ), row.agreement_text
    assert ("; 6 declines abstained, 1 marked hallucinated by people; in this run: "
            "AUROC ") in row.agreement_text
    score = next(r for r in run.report().headline.rows if r.metric == "judge.faithfulness")
    assert "right on" not in score.agreement_text  # a score gives no verdict to count
