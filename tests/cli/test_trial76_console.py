"""Trial 76, `ragassay eval probes.jsonl --by kind` on 28 rows with people's
`labels.hallucination`, 8 of them declines (3 of which people marked hallucinated),
piped (CliRunner: stdout is no terminal):

1. the "see" line read "3 declines they marked hallucination"; it now says what it means;
2. the short summary showed "scored 20/28" beside "right on 23 of 28": the line under
   the table says how that figure splits (declines, scored answers); the row's "scored"
   cell keeps its count (trial 77: left blank, it read as missing);
3. lines were wrapped at 100 columns mid-sentence, the headline's sentence too: without
   COLUMNS a pipe's lines of text are not wrapped (its tables keep 100 columns); with
   COLUMNS, lines wrap at it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.console import PIPED_WIDTH

FACTS = {
    "How much does the Pro plan cost?": (
        "The Pro plan costs $12 per user per month, billed annually.",
        "The Pro plan costs $12 per user per month, billed annually.",
        "The Pro plan costs $15 per user per month and includes phone support."),
    "How long is the Team trial?": (
        "New Team workspaces get a free trial of 14 days with every feature enabled.",
        "The Team plan has a 14-day free trial.",
        "The Team plan has a 30-day free trial with priority onboarding."),
    "How are exports delivered?": (
        "Exports are delivered as a ZIP archive of CSV files within one hour.",
        "Exports arrive as a ZIP archive of CSV files within an hour.",
        "Exports are emailed as a PDF within 24 hours."),
    "Can guests create projects?": (
        "Guests can view and comment on shared projects but cannot create new ones.",
        "No, guests can view and comment on shared projects but cannot create new ones.",
        "Yes, guests can create up to 5 projects of their own."),
    "Where is SAML single sign-on configured?": (
        "Single sign-on with SAML is configured under Settings, then Security.",
        "SAML SSO is configured under Settings, then Security.",
        "SAML SSO is configured under Admin, then Integrations, on every plan."),
}
DECLINES = ("I'm sorry, I don't have that information.",
            "I could not find an answer to that in the documentation.", "I don't know.")
HEADLINE = ("judge.hallucination: right on 23 of 28 (82%): 5 of 8 answers the judge read as "
            "declines, "
            "18 of 20 (90%) scored answers")


def _rows() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for _ in range(2):
        for question, (context, good, bad) in FACTS.items():
            for answer, invents in ((good, False), (bad, True)):
                rows.append({"question": question, "contexts": [context], "answer": answer,
                             "labels": {"hallucination": invents}, "kind": "fact"})
    for j, invents in enumerate((False, False, False, True, True, False, False, True)):
        question, (context, _, _) = list(FACTS.items())[j % 5]
        rows.append({"question": question, "contexts": [context], "answer": DECLINES[j % 3],
                     "labels": {"hallucination": invents}, "kind": "decline"})
    return [{"id": f"p{i:03d}", **{k: v for k, v in r.items() if k != "kind"},
             "metadata": {"kind": r["kind"]}} for i, r in enumerate(rows)]


def _eval(tmp: Path, *extra: str, columns: str | None = None) -> str:
    data = tmp / "probes.jsonl"
    if not data.exists():
        data.write_text("".join(json.dumps(r) + "\n" for r in _rows()))
    result = CliRunner().invoke(cli, ["eval", str(data), "--by", "kind", "--db",
                                      str(tmp / "r.db"), *extra], env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(scope="module")
def piped(tmp_path_factory: pytest.TempPathFactory) -> str:
    return _eval(tmp_path_factory.mktemp("trial76"))


def test_the_see_line_says_what_the_declines_people_marked_are(piped: str) -> None:
    see = [line for line in piped.splitlines() if line.startswith("see ")]
    assert len(see) == 1, piped
    assert (", and 3 answers the judge read as declines were marked hallucination by "
            "people (false abstentions by their labels): ragassay runs show ") in see[0]
    assert "declines they marked" not in piped


def test_the_right_on_line_splits_its_figure_and_the_row_keeps_its_scored_count(
        piped: str) -> None:
    """The line under the table says how the row's `right on` splits (declines, scored
    answers); the row's "scored" cell keeps its count as every row does (trial 77: a blank
    cell in that row only read as missing)."""
    assert HEADLINE in piped.splitlines()
    row = next(line for line in piped.splitlines() if line.startswith("judge.hallucination "))
    assert "right on 23 of 28 (82%)" in row and " 20/28 " in row, row
    faithfulness = next(line for line in piped.splitlines()
                        if line.startswith("judge.faithfulness "))
    assert " 20/28 " in faithfulness  # a metric whose row says no right on keeps it


def test_a_pipe_does_not_wrap_lines_of_text_and_keeps_its_tables_laid_out(
        piped: str, tmp_path: Path) -> None:
    lines = piped.splitlines()
    assert max(map(len, lines)) > PIPED_WIDTH  # the "next" and "see" lines, whole
    tables = [line for line in lines if set(line) & set("│─")]
    assert tables and max(map(len, tables)) <= PIPED_WIDTH
    assert any(line.startswith("               ") and "judge read the contexts" in line
               for line in lines)
    verbose = _eval(tmp_path, "--verbose")
    lines = verbose.splitlines()  # a figure a line under the metric (trial 78), each whole
    said = lines[lines.index("judge.hallucination vs people (hallucination):") + 1:]
    assert said[0].startswith("  " + HEADLINE.split(": ", 1)[1])
    assert any(x.startswith("  judge's own: judge 0.600 on the 20 it scored") for x in said[:9])


def test_columns_still_sets_the_width_of_a_pipe(tmp_path: Path) -> None:
    out = _eval(tmp_path, columns="80")
    assert max(map(len, out.splitlines())) <= 80
    assert HEADLINE not in out.splitlines() and HEADLINE in " ".join(out.split())
