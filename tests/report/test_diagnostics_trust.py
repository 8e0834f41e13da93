"""What the report's diagnostics tell a user (issue #38, new-user trial): on 144 probes
whose contexts were written to answer them (16 whose contexts do not), the HTML's
Diagnostics said "Retrieval problem: the retrieved context is judged mostly irrelevant"
of 75, 59 of them answerable, with its fix and no warning beside it, although the
offline judge's context relevance agrees with people at Spearman 0.25 held apart (which
`gate` warns about).

A sample whose answer its contexts support is no longer counted (`Rule.unless`), and a
finding resting on a metric whose judge agrees weakly with people says so, in the gate's
words, once, on every surface that shows it: the JSON report, the HTML and the
dashboard (tests/ui/test_ui_pages.py; the console shows no diagnostics)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ragassay.report import Report, SampleEntry, report_json, to_html
from ragassay.stats import Finding
from ragassay.types import Agreement, RunReliability

RELEVANCE = "judge.context_relevance"
CONTEXTS = {
    "remote": "Employees may work remotely up to 3 days a week after completing their "
              "probation period. The probation period lasts 6 months. Managers must approve "
              "remote work schedules in advance. Contractors are not eligible for the remote "
              "work allowance of $500 per year.",
    "leave": "Full-time employees receive 25 days of paid annual leave per year; part-time "
             "employees receive leave pro rata. Up to 5 unused days can be carried over into "
             "the next year. Sick leave does not count against annual leave. Parental leave "
             "is 16 weeks at full pay for the primary caregiver and 4 weeks for the "
             "secondary caregiver.",
    "trash": "Shared folders can have up to 50 members. Link sharing is turned off by "
             "default for Basic accounts. Deleted files stay in the trash for 30 days "
             "before they are removed permanently.",
    "plans": "Nimbus Drive has three plans: Basic, Plus and Pro. Basic is free, syncs up to "
             "2 devices and includes 5 GB of storage. Pro costs $10 a month and has no "
             "device limit.",
}
ROWS = [
    # answers that paraphrase their contexts (written to answer the question)
    ("How often can I work from home?", ["remote"],
     "After probation you can work from home as many as three days weekly."),
    ("How much holiday do full-time staff get?", ["leave", "remote"],
     "Full-time staff get 25 paid vacation days each year."),
    ("What happens to files I delete?", ["trash", "plans"],
     "Files you delete are kept in the trash for 30 days and then permanently erased."),
    ("Who approves remote work schedules?", ["remote"],
     "Your manager has to approve a remote work schedule in advance."),
    # a decline over contexts that do not hold the answer, and an invented answer
    ("What is the tallest mountain on Earth?", ["plans"],
     "I don't know based on the provided context."),
    ("Who painted the Mona Lisa?", ["trash"], "The Mona Lisa was painted by Vincent van Gogh."),
]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    import ragassay

    rows = [{"id": f"r{i}", "question": q, "contexts": [CONTEXTS[c] for c in cs], "answer": a}
            for i, (q, cs, a) in enumerate(ROWS)]
    db = tmp_path_factory.mktemp("diag") / "r.db"
    return ragassay.evaluate(rows, "judge", store=db, progress=False).report()


def _finding(report: Report, rule: str) -> Finding:
    return next(f for f in report.diagnostics if f.rule == rule)


def _values(report: Report) -> dict[str, dict[str, Any]]:
    return {e.id: e.metrics for e in report.entries if isinstance(e, SampleEntry)}


def test_a_supported_answer_is_not_a_retrieval_problem(report: Report) -> None:
    values = _values(report)
    low = {i for i, v in values.items() if v[RELEVANCE] is not None and v[RELEVANCE] < 5.5}
    supported = {i for i in low if (f := values[i]["judge.faithfulness"]) is not None
                 and f >= 7.3 and values[i]["judge.hallucination"] is False}
    # the data's premise: the offline judge rates relevant contexts low under answers
    # they support (the trial's 59), and still the decline's irrelevant ones
    assert supported, {i: values[i] for i in values}
    assert "r4" in low - supported
    finding = _finding(report, "retrieval_problem")
    assert finding.exempt == len(supported)
    assert finding.count == len(low - supported)
    assert not supported & set(finding.worst_samples)
    assert "r4" in finding.worst_samples  # an abstention clears nothing
    page = to_html(report)
    diag = page.split('<section id="diagnostics">', 1)[1].split("</section>", 1)[0]
    assert f"<td class=\"num\">{finding.count} ({finding.exempt} exempt)</td>" in diag
    assert "unless judge.faithfulness &gt;= 7.3 (on 1-10) and judge.hallucination = no" in diag


def test_a_finding_from_a_weak_judge_carries_the_gates_caveat_once(report: Report) -> None:
    from ragassay.judge import gate_warnings

    reliability = report.run.judge_reliability
    assert reliability is not None
    (gate,) = gate_warnings(reliability, [RELEVANCE])
    weak = gate.split(f"gating on {RELEVANCE}, whose ", 1)[1]  # the gate's own words
    assert weak.startswith("offline judge agrees with people only at Spearman 0.25 ")
    finding = _finding(report, "retrieval_problem")
    assert finding.fired and finding.caveat == f"{RELEVANCE}: the {weak}"
    # the JSON report object, beside the finding
    doc = json.loads(json.dumps(report_json(report)))
    (said,) = [d for d in doc["diagnostics"] if d["rule"] == "retrieval_problem"]
    assert said["caveat"] == finding.caveat
    # the HTML: in the finding's own cell, once
    page = to_html(report)
    diag = page.split('<section id="diagnostics">', 1)[1].split("</section>", 1)[0]
    fired = [d for d in report.diagnostics if d.fired]
    for d in fired:
        row = next(r for r in diag.split("<tr>") if d.rule_text.split(" ")[0] in r
                   and d.fix.split(":")[0] in r)
        if d.caveat is None:
            assert "caveat: " not in row
        else:
            assert row.count("caveat: ") == 1 and d.caveat.split(":")[0] in row
    assert diag.count("caveat: ") == sum(d.caveat is not None for d in fired)


def test_a_judge_that_agrees_with_people_gives_no_caveat() -> None:
    """Only a weak held-apart agreement (below the gate's 0.7 on some unseen set) is
    said; a strong one, or none measured (not a weakness measured), says nothing."""
    from ragassay.report.build import caveated

    finding = Finding(rule="retrieval_problem", message="m", fix="f", metrics=[RELEVANCE],
                      conditions=[], evaluated=3, count=1, share_of_samples=1 / 3,
                      fires_on_aggregate=False, fired=True, worst_samples=["s1"])

    def run(low: float) -> RunReliability:
        return RunReliability(judge="some", metrics={RELEVANCE: Agreement(
            statistic="AUROC", low=low, high=0.95, sets=("a", "b"))})

    assert caveated([finding], run(0.81)) == [finding]
    assert caveated([finding], RunReliability(judge="some")) == [finding]
    assert caveated([finding], None) == [finding]
    (weak,) = caveated([finding], run(0.52))
    assert weak.caveat == (f"{RELEVANCE}: the some judge agrees with people only at AUROC "
                           "0.52 on its worst unseen set (below 0.7)")


def test_a_worst_sample_of_a_one_strategy_run_links_to_its_row(report: Report) -> None:
    """A run of one strategy names its worst samples by id alone: their links went to
    `#r-r4/` (the id read as a strategy), an element no page has."""
    page = to_html(report)
    diag = page.split('<section id="diagnostics">', 1)[1].split("</section>", 1)[0]
    (strategy,) = report.strategies
    for key in _finding(report, "retrieval_problem").worst_samples:
        target = next(t for t in (f"s-{strategy}/{key}", f"r-{strategy}/{key}")
                      if f'id="{t}"' in page)
        assert f'<a href="#{target}">{key}</a>' in diag
