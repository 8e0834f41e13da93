"""Trial 78, `ragassay eval probes.jsonl --metrics judge --by kind` with people's
`labels.hallucination`, `metadata.kind` and no reference answers, the offline judge:

1. the abstentions line read `default 11 of 144 (9 correct, 2 false)` beside "right on
   11 of 16" of the same declines: it now says where the contexts looked relevant as the
   judge's reading, and people's split of the declines as the headline counts them; the
   strategy's name no longer opens it;
2. `judge.answer_similarity` showed a row of `-` and 0/33 and "33 metric values
   unscored; top reasons: no reference answer": one plain line says it instead."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.cli import eval_by_kind, shown

FACTS = [
    ("How many projects can a Team workspace have?",
     "A Team workspace can hold up to 25 active projects.",
     "A Team workspace can have up to 25 active projects.",
     "A Team workspace can have up to 40 active projects."),
    ("How long is the Pro trial?", "New Pro workspaces get a free trial of 14 days.",
     "The Pro trial lasts 14 days.", "The Pro trial lasts 30 days."),
    ("How are exports delivered?",
     "Exports are delivered as a ZIP archive of CSV files within one hour.",
     "Exports come as a ZIP of CSV files within an hour.", "Exports are emailed as a PDF."),
]
FILLER = "The office is closed on public holidays."
DECLINES = ("I don't know based on the context.", "The provided context does not say.",
            "I'm not able to answer that from the documents.")


def _rows() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for question, context, good, bad in FACTS * 2:
        for answer, invents in ((good, False), (bad, True)):
            rows.append({"question": question, "contexts": [context, FILLER],
                         "answer": answer, "labels": {"hallucination": invents},
                         "metadata": {"kind": "fact"}})
    # declines where the contexts hold the answer (the judge reads them relevant): people
    # marked the first hallucinated (it should have answered), the rest not
    for j, (question, context, _, _) in enumerate(FACTS * 2):
        rows.append({"question": question, "contexts": [context, FILLER],
                     "answer": DECLINES[j % 3], "labels": {"hallucination": j == 0},
                     "metadata": {"kind": "decline"}})
    for answer in DECLINES:  # declines the contexts cannot answer
        rows.append({"question": "What is the CEO's favourite colour?", "contexts": [FILLER],
                     "answer": answer, "labels": {"hallucination": False},
                     "metadata": {"kind": "decline"}})
    return [{"id": f"p{i:02d}", **r} for i, r in enumerate(rows)]


@pytest.fixture(scope="module")
def output(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("trial78")
    said = eval_by_kind(tmp, _rows())
    _shown[0] = shown(tmp / "r.db")  # the abstentions line in full (k198)
    return said


_shown = [""]


def _line(output: str, start: str) -> str:
    return next(x for x in output.splitlines() if x.startswith(start))


def test_the_abstentions_line_says_peoples_split_as_the_headline_counts_it(output: str
                                                                          ) -> None:
    head = _line(output, "judge.hallucination: right on")
    found = re.search(r"(\d+) of (\d+) answers the judge read as declines", head)
    assert found is not None, head
    right, declines = found.groups()
    assert _line(output, "abstentions").startswith(
        "abstentions: 9 of 21 answers read as declines by the judge, ")
    line = _line(_shown[0], "abstentions")  # in full under `runs show` (k198)
    # no "default"
    assert line.startswith("abstentions: 9 of 21 answers read as declines by the judge, "), line
    # (trial 79 read "7 of the 9 labelled declines" as rows labelled to be declines)
    assert f"people's labels on the {declines} answers the judge read as declines: {right} " \
           f"right, {int(declines) - int(right)} marked hallucination" in line, line
    # the judge's heuristic said as its reading, never "correct" / "false"
    assert "where the contexts looked relevant (people: 5 of them right); \"looked " \
           "relevant\" is the judge's reading, not people's" in line
    assert not re.search(r"\b(correct|false)\b", line), line


def test_a_metric_no_sample_could_score_without_references_is_one_plain_line(
        output: str) -> None:
    assert "judge.answer_similarity needs reference answers: none in this data, not " \
           "scored" in output
    rows = [x for x in output.splitlines()
            if x.startswith("judge.answer_similarity ") and " needs " not in x]
    assert rows == [], rows  # no row of "-" and 0/21
    assert "values unscored" not in output and "value unscored" not in output
    assert "no sample has a reference" not in output  # said once, in the line above
