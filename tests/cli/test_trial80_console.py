"""Trial 80, `ragassay eval probes.jsonl --metrics judge --by kind` on labelled rows
where some declines the judge sets aside and others (referral-style) it scores, then
`ragassay runs show RUN --disagree`:

1. "5 of 6 set aside as declines" and "6 of 26 answers declined" read as every decline
   in the data: both now say these are the answers the judge read as declines;
2. the reasoning's keys ("0a", "sentence a (0.16)") came with no legend nor threshold:
   the listing says once what they mean, with the judge's own support threshold."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.judge.offline import SUPPORT_THRESHOLD
from tests.support.cli import eval_by_kind, shown

FILLER = "The office is closed on public holidays."
FACTS = [("How long is the Pro trial?", "New Pro workspaces get a free trial of 14 days.",
          "The Pro trial lasts 14 days.", "The Pro trial lasts 30 days."),
         ("Which regions host data?", "Data is hosted in the EU and the US regions.",
          "Data is hosted in the EU and the US.", "Data is hosted in Japan and Brazil.")]
DECLINES = ("I don't know based on the context.", "The provided context does not say.")
REFERRALS = ("The sources only cover billing plans and workspace limits; please contact the "
             "support team for details about this.",
             "For this question you should ask your account manager, since the "
             "documentation describes pricing tiers instead.")


def _rows() -> list[dict[str, Any]]:
    """Facts answered right and wrong on purpose (half bad), then per fact a plain
    decline and a referral-style one, all labelled not hallucinated."""
    said = [(q, c, a, bad, "fact") for q, c, good, wrong in FACTS * 2
            for a, bad in ((good, False), (wrong, True))]
    said += [(q, c, a, False, "decline") for j, (q, c, _, _) in enumerate(FACTS)
             for a in (DECLINES[j], REFERRALS[j])]
    return [{"id": f"p{i:02d}", "question": q, "contexts": [c, FILLER], "answer": a,
             "labels": {"hallucination": bad}, "metadata": {"kind": kind}}
            for i, (q, c, a, bad, kind) in enumerate(said)]


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    tmp = tmp_path_factory.mktemp("trial80")
    return eval_by_kind(tmp, _rows()), tmp / "r.db"


def _line(output: str, start: str) -> str:
    return next(x for x in output.splitlines() if x.startswith(start))


def test_the_split_and_the_abstentions_say_the_judge_read_them_as_declines(
        ran: tuple[str, Path]) -> None:
    output, _ = ran
    head = _line(output, "judge.hallucination: right on")
    found = re.search(r": (\d) of \1 answers the judge read as declines, \d+ of (\d+) ", head)
    assert found is not None, head
    declines, scored = int(found.group(1)), int(found.group(2))
    assert declines < 4 and scored == 12 - declines  # a decline the judge scored
    assert "set aside as" not in output
    line = _line(output, "abstentions")
    assert line.startswith(f"abstentions: {declines} of 12 answers read as declines by the "
                           "judge, "), line
    line = _line(shown(ran[1]), "abstentions")  # in full under `runs show` (k198)
    assert (f"people's labels on the {declines} answers the judge read as declines: "
            f"{declines} right") in line


def test_the_disagree_listing_says_once_what_the_reasoning_keys_mean(
        ran: tuple[str, Path]) -> None:
    output, db = ran
    run = re.search(r"run (\S+) stored in", output)
    assert run is not None, output
    shown = CliRunner().invoke(cli, ["runs", "show", run.group(1), "--db", str(db),
                                     "--disagree"], env={"COLUMNS": "400"})
    assert shown.exit_code == 0, shown.output
    assert re.search(r"sentence [a-z] \(0\.\d\d\)", shown.output), shown.output
    legend = [x for x in shown.output.splitlines() if x.startswith("keys: ")]
    assert legend == [
        "keys: 0a = first passage, sentence a; 'sentence c (0.30)' = the answer's third "
        "sentence and its support (0-1; a claim below "
        f"{SUPPORT_THRESHOLD:g} is unsupported)"], shown.output
