"""New-user trial 72's remaining findings (a town library's help-desk answers, made up).

1. An unlabelled run said `judge.hallucination: ... held apart: not measured` (and so of
   trace.adherence) beside judge.faithfulness's AUROC, whose threshold the verdict is: a
   yes/no verdict now has its held-apart balanced accuracy, said with its statistic's name
   on every surface that says held-apart figures.
3. A claim's `supported: true` showed no probability while ragas.faithfulness averages
   the probabilities (supported: true beside 0.60): each claim keeps its probability and
   the HTML and dashboard claim lines say `supported (0.60)`.
4. The abstention metric counted a decline false (the judge read the contexts as
   answering) while the headline's decline sentence read every decline right: the
   sentence names the false abstentions the run's own metric found."""

from __future__ import annotations

import io
import json
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from ragassay.api import EvalResult

HOURS = ("The Elm Street library is open 9am to 8pm Monday to Friday and 10am to 4pm on "
         "Saturday. It is closed on Sundays.")
LOANS = ("Books can be borrowed for three weeks. DVDs can be borrowed for one week. Each card "
         "may hold up to 15 items at a time.")
FINES = ("The library charges no late fines for children's books. Adult items cost 20 cents "
         "per day overdue, up to 5 dollars per item.")
ROWS = [
    ("When is the library open on Saturday?", HOURS,
     "On Saturday the library is open from 10am to 4pm.", False),
    ("Is the library open on Sunday?", HOURS, "Yes, it opens at noon on Sundays.", True),
    ("How long can I borrow a book?", LOANS, "Books can be borrowed for three weeks.", False),
    ("How long can I keep a DVD?", LOANS, "DVDs can be kept for two weeks.", True),
    ("Are there late fines for children's books?", FINES,
     "No, there are no late fines for children's books.", False),
    ("What is the maximum fine per item?", FINES, "The maximum fine is 10 dollars per item.",
     True),
    # declines: the first two where the context holds the answer, the last where it does not
    ("How long can I borrow a DVD for?", LOANS,
     "I'm sorry, I can't find that in the information I have.", False),
    ("What time does the library close on Friday?", HOURS,
     "I don't know; the documents don't say.", False),
    ("Can I eat in the library?", FINES,
     "I'm sorry, I don't have information about eating in the library.", False),
]


def rows(labelled: bool) -> list[dict[str, Any]]:
    out = []
    for i, (q, ctx, answer, hallucinated) in enumerate(ROWS):
        row: dict[str, Any] = {"id": f"lib{i}", "question": q, "contexts": [ctx],
                               "answer": answer}
        if labelled:
            row["labels"] = {"hallucinated": hallucinated}
            row["metadata"] = {"kind": "decline" if i >= 6 else "answer"}
        out.append(row)
    return out


@pytest.fixture(scope="module")
def unlabelled(tmp_path_factory: pytest.TempPathFactory) -> EvalResult:
    import ragassay

    db = tmp_path_factory.mktemp("t72u") / "r.db"
    return ragassay.evaluate(rows(False), "judge,trace,ragas", store=db, progress=False)


@pytest.fixture(scope="module")
def labelled(tmp_path_factory: pytest.TempPathFactory) -> EvalResult:
    import ragassay

    db = tmp_path_factory.mktemp("t72l") / "r.db"
    return ragassay.evaluate(rows(True), "judge,trace,ragas", store=db, progress=False)


VERDICTS = ("judge.hallucination", "trace.adherence")


def test_an_unlabelled_run_says_each_verdicts_held_apart_figure(unlabelled: EvalResult
                                                                 ) -> None:
    from rich.console import Console

    from ragassay.cli.corrected_view import print_headline
    from ragassay.report import reliability_lines, to_html

    report = unlabelled.report()
    held = {r.metric: r.held_apart for r in report.headline.rows}
    for metric in VERDICTS:
        said = held[metric]
        assert said is not None and said.startswith("balanced accuracy "), (metric, said)
        assert "on 7 unseen human-labelled sets (lexical baseline " in said
    from ragassay.report.headline_notes import HELD_APART_VERDICT_NOTE

    assert HELD_APART_VERDICT_NOTE in report.headline.note
    out = io.StringIO()
    print_headline(report, Console(file=out, width=100))  # a line per row
    console = " ".join(out.getvalue().split())
    assert "judge.hallucination vs people (hallucinated): held apart: balanced " \
           "accuracy" in console and "held apart: not measured" not in console
    lines = reliability_lines(report, list(report.metrics))
    assert any(x.startswith("offline judge, trace.adherence: balanced accuracy") for x in lines)
    page = " ".join(unescape(to_html(report)).split())
    assert f"{held['judge.hallucination']}" in page


def test_the_gate_reads_a_verdicts_held_apart_figure(unlabelled: EvalResult) -> None:
    from ragassay.judge import gate_warning_summary, gate_warnings

    rel = unlabelled.report().run.judge_reliability
    said = " ".join(gate_warnings(rel, list(VERDICTS)) + gate_warning_summary(rel, list(VERDICTS)))
    assert "no measured agreement" not in said
    a = rel.metrics["judge.hallucination"] if rel is not None else None
    assert a is not None and a.statistic == "balanced accuracy"
    assert (a.low < 0.7) == ("balanced accuracy" in said)  # weak below the floor, said so


def test_a_claim_shows_its_probability_beside_its_flag(labelled: EvalResult) -> None:
    from ragassay.report import report_json, to_html

    report = labelled.report()
    entry = next(e for e in report.entries if e.id == "lib1")  # one claim, unsupported
    claims = entry.details["ragas.faithfulness"]["claims"]  # the suite's own record
    assert all("probability" in c for c in claims), claims
    marks = (entry.marks or {})["ragas.faithfulness"]  # what readers read, typed
    assert [(c.text, c.supported, c.probability) for c in marks.claims] == [
        (c["claim"], c["supported"], c["probability"]) for c in claims]
    p = marks.claims[0].probability
    assert isinstance(p, float) and 0 <= p <= 1
    assert entry.metrics["ragas.faithfulness"] == pytest.approx(
        sum(c.probability or 0 for c in marks.claims) / len(marks.claims), abs=1e-3)
    flag = "supported" if marks.claims[0].supported else "unsupported"
    assert marks.claims[0].verdict_text() == f"{flag} ({p:.2f})"
    dumped = json.loads(json.dumps(report_json(report)))
    row = next(e for e in dumped["detailed_results"] if e["id"] == "lib1")
    assert row["marks"]["ragas.faithfulness"]["claims"][0]["probability"] == p
    page = unescape(to_html(report))  # the sample's card, among the worst
    assert f"{marks.claims[0].text}</span> <i>{flag} ({p:.2f})</i>" in page


def test_the_decline_sentence_names_the_false_abstentions(labelled: EvalResult,
                                                           tmp_path: Path) -> None:
    from ragassay.report import to_html

    report = labelled.report()
    rates = report.abstentions
    assert rates is not None
    false = sum(r.false for r in rates.values())
    assert false >= 1  # the run's own abstention metric counts some decline false
    row = next(r for r in report.headline.rows if r.metric == "judge.hallucination")
    clause = f"none marked hallucinated by people, {false} of them where the judge read " \
             "the contexts as answering it (its reading, not people's)"
    assert clause in row.agreement_text, row.agreement_text
    assert clause in " ".join(unescape(to_html(report)).split())
    from ragassay.stats.groups import group_cell  # a --by group of the declines alone

    group = labelled.by("kind").group("decline")
    assert group is not None
    cell = group_cell(next(a for a in group.agreement if a.metric == "judge.hallucination"))
    # counted as `right on` counts declines (k247), with the same false clause after
    assert cell.startswith("right on ") and "answers the judge read as declines" in cell
    assert cell.endswith(clause.removeprefix("none marked hallucinated by people")), cell
    from ragassay.cli.calibrate import left_out  # calibrate's note of the labels left out

    assert report.calibration is not None
    notes = [x["text"] for x in left_out(report.calibration)]
    assert any(x.endswith(f"people marked 0 of them hallucinated, {false} of them where "
                          "the judge read the contexts as answering it (its reading, not "
                          "people's)")
               for x in notes), notes
