"""Trial 81, `ragassay eval probes.jsonl --metrics judge --by kind --out r.json` on rows
labelled `labels.hallucination` with `metadata.kind`, then `ragassay runs show RUN
--disagree`:

1. a decline people labelled right, where the judge read the contexts as relevant, was
   counted right by the headline and listed as a possible false abstention by the
   abstentions line and `--disagree`, with no word on which reading to trust: people's
   reading wins where they labelled (`people: 3 of them right`), and `--disagree` lists
   such a decline apart, as no disagreement (`people agree with the judge here`);
2. the `--by kind` table's decline row wrapped in the middle of a phrase at 100 columns:
   its cell breaks between phrases at 100 and at 120."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_trial78_console import DECLINES, FILLER
from tests.cli.test_trial78_console import FACTS as FACTS78
from tests.support.cli import cli_output

FACTS = [*FACTS78,
         ("Which regions host data?", "Data is hosted in the EU and the US regions.",
          "Data is hosted in the EU and the US.", "Data is hosted in Japan and Brazil."),
         ("When are invoices sent?",
          "Invoices are sent on the first business day of each month.",
          "Invoices go out on the first business day of each month.",
          "Invoices are sent every Friday.")]


def rows() -> list[dict[str, Any]]:
    """28 rows: each fact answered right and wrong twice; per fact a decline where the
    contexts hold the answer (people marked the first two hallucinated: they should have
    answered; the other three right), and three declines the contexts cannot answer."""
    out: list[dict[str, Any]] = []
    for question, context, good, bad in FACTS * 2:
        for answer, invents in ((good, False), (bad, True)):
            out.append({"question": question, "contexts": [context, FILLER],
                        "answer": answer, "labels": {"hallucination": invents},
                        "metadata": {"kind": "fact"}})
    for j, (question, context, _, _) in enumerate(FACTS):
        out.append({"question": question, "contexts": [context, FILLER],
                    "answer": DECLINES[j % 3], "labels": {"hallucination": j < 2},
                    "metadata": {"kind": "decline"}})
    for answer in DECLINES:
        out.append({"question": "What is the CEO's favourite colour?", "contexts": [FILLER],
                    "answer": answer, "labels": {"hallucination": False},
                    "metadata": {"kind": "decline"}})
    return [{"id": f"p{i:02d}", **r} for i, r in enumerate(out)]


_run = partial(cli_output, columns="400")


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    tmp = tmp_path_factory.mktemp("trial81")
    data = tmp / "probes.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows()))
    out = _run("eval", str(data), "--db", str(tmp / "r.db"), "--metrics", "judge",
               "--by", "kind", "--out", str(tmp / "r.json"))
    run_id = json.loads((tmp / "r.json").read_text())["evaluation_metadata"]["run_id"]
    return tmp, run_id, out


def _line(output: str, start: str) -> str:
    return next(x for x in output.splitlines() if x.startswith(start))


def test_the_abstentions_line_says_how_many_people_labelled_right(
        ran: tuple[Path, str, str]) -> None:
    line = _line(ran[2], "abstentions:")
    assert "8 of 28 answers read as declines by the judge, 5 where the contexts looked " \
           "relevant (people: 3 of them right)" in line, line
    # the rest of the line is said in full by `runs show` (k198: eval's line is short)
    tmp, run_id, _ = ran
    full = _line(_run("runs", "show", run_id, "--db", str(tmp / "r.db")), "abstentions:")
    assert "where people labelled a decline theirs wins" in full, full
    # the headline counts the same 3 right: 6 of 8 declines right, 2 marked hallucination
    assert "6 of 8 answers the judge read as declines" in _line(
        ran[2], "judge.hallucination: right on")


def test_disagree_lists_a_decline_people_labelled_right_apart(
        ran: tuple[Path, str, str]) -> None:
    tmp, run_id, _ = ran
    out = _run("runs", "show", run_id, "--disagree", "--db", str(tmp / "r.db"))
    lines = out.splitlines()
    title = _line(out, "declined where")
    assert title.endswith("not by people: 5 (people: 3 of them right)"), title
    apart = lines.index(_line(out, "of them, not disagreements:"))
    listed = [x for x in lines[lines.index(title) + 1:apart]]
    every = lines.index(_line(out, "answers the judge read as declines"))  # k198's list
    agree = [x for x in lines[apart + 1:every] if x.startswith("  p")]
    assert [x.split()[0] for x in listed] == ["p20", "p21"]  # people marked these
    assert all("people agree" not in x for x in listed)
    assert [x.split()[0] for x in agree] == ["p22", "p23", "p24"]
    assert all("people hallucination no (people agree with the judge here)" in x
               for x in agree), agree


def test_the_html_says_peoples_count_beside_the_judges(ran: tuple[Path, str, str]) -> None:
    tmp, run_id, _ = ran
    page = _run("report", run_id, "--format", "html", "--db", str(tmp / "r.db"))
    assert "under &quot;contexts looked relevant&quot;, people: 3 of them right: where " \
           "people labelled a decline, their reading wins" in page


@pytest.mark.parametrize("columns", [100, 120])
def test_the_by_kind_decline_row_breaks_between_phrases(
        ran: tuple[Path, str, str], columns: int) -> None:
    tmp, run_id, _ = ran
    out = _run("eval", str(tmp / "probes.jsonl"), "--db", str(tmp / "w.db"), "--metrics",
               "judge", "--by", "kind", columns=str(columns))
    lines = out.splitlines()
    start = lines.index(next(x for x in lines if x.startswith("decline ")))
    cell = []
    for x in lines[start:]:
        if x[:1].strip() and x is not lines[start]:
            break
        cell.append(x[15:].strip())  # after `kind  n` and its padding
    text = " ".join(cell)
    # counted as the headline's `right on` counts declines (session 28, k247)
    assert text.startswith("right on 6 of 8 (75%), all 8 answers the judge read as "
                           "declines;"), cell
    for phrase in ("right on 6 of 8 (75%),", "all 8 answers the judge read as declines;",
                   "2 marked hallucination by people,",
                   "5 of them where the judge read the contexts as answering it",
                   "(its reading, not people's)"):
        assert phrase in text and any(phrase in x for x in cell), (phrase, cell)
    assert max(map(len, lines[start:start + len(cell)])) <= columns


def test_docs_cli_example_is_the_line_this_file_gives(ran: tuple[Path, str, str]) -> None:
    """docs/cli.md's worked example of the abstentions line is this file's line."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    example = doc.split("### The abstentions line", 1)[1].split("```text\n", 1)[1]
    line = example.split("\n", 1)[0]
    tmp, run_id, said = ran
    assert line.startswith("abstentions:")
    assert line in " ".join(said.split())
    full = example.split("```text\n", 1)[1].split("\n", 1)[0]  # `runs show`'s, in full
    shown = _run("runs", "show", run_id, "--db", str(tmp / "r.db"))
    assert full.startswith("abstentions:") and full in " ".join(shown.split())
