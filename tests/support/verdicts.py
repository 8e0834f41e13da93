"""A labelled run for the headline's verdict counts: answers that keep to their context or
invent, `hallucinated` labels (or `faithful`, their opposite) that mostly match and
sometimes do not (on both sides), and answers that abstain (labelled not hallucinated,
or, the first `marked` of them, hallucinated: the judge gives them no verdict)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ragassay.api import EvalResult


def labelled_rows(answers: int = 135, abstaining: int = 9,
                  label: str = "hallucinated", marked: int = 0) -> list[dict[str, Any]]:
    """`answers` rows that answer (every third invents; every seventh label says the
    opposite of what the answer did) and `abstaining` rows whose answer declines, the
    first `marked` of them labelled a problem by people; labelled `hallucinated`, or with
    `label="faithful"` its opposite."""
    good = label == "faithful"  # True is the good value
    rows: list[dict[str, Any]] = []
    for i in range(answers):
        ctx = f"Locker {i} on deck {i % 4 + 2} opens with the blue key card."
        invents = i % 3 == 0
        answer = f"Locker {i} was removed for repairs until spring." if invents else ctx
        rows.append({"id": f"s{i}", "question": f"How does locker {i} open?",
                     "contexts": [ctx], "answer": answer,
                     "labels": {label: good != (invents != (i % 7 == 0))}})
    for i in range(abstaining):
        rows.append({"id": f"d{i}", "question": f"Who repaints locker {i}?",
                     "contexts": [f"Locker {i} on deck 2 opens with the blue key card."],
                     "answer": "I don't have information about that.",
                     "labels": {label: good == (i >= marked)}})
    return rows


def expected(rows: Sequence[Mapping[str, Any]], values: Mapping[str, float | None],
             inverted: bool = False, label: str = "hallucinated") -> dict[str, int]:
    """The counts the headline should say, from the rows' labels and each sample's
    verdict (`values` by id; None: no verdict, left out), worked out here on their own:
    compared, people's positives, agreements, and on the problem side (a hallucination:
    `hallucinated` true, `faithful` false) people's problems, the verdict's misses of
    them and its flags of the rest, and those left out (with people's problems among
    them, and their positives)."""
    problem = label != "faithful"
    out = dict.fromkeys(("n", "positives", "problems", "agree", "missed", "flagged",
                         "left_out", "left_problems", "left_positives"), 0)
    for row in rows:
        given, value = bool(row["labels"][label]), values[row["id"]]
        if value is None:
            out["left_out"] += 1
            out["left_problems"] += given == problem
            out["left_positives"] += given
            continue
        says = (value < 0.5) if inverted else (value >= 0.5)
        out["n"] += 1
        out["positives"] += given
        out["problems"] += given == problem
        out["agree"] += says == given
        out["missed"] += given == problem and says != problem
        out["flagged"] += says == problem and given != problem
    return out


def declines_run(db: Path, also: Sequence[str] = ()) -> EvalResult:
    """A stored judge run of `labelled_rows(answers=40, abstaining=6, marked=1)` whose
    declines, and the answers `also` names, are the `decline` kind, the rest `answer`."""
    import ragassay

    rows = labelled_rows(answers=40, abstaining=6, marked=1)
    for row in rows:
        kind = row["id"].startswith("d") or row["id"] in also
        row["metadata"] = {"kind": "decline" if kind else "answer"}
    return ragassay.evaluate(rows, "judge", store=db, progress=False)


def lead(want: Mapping[str, int]) -> str:
    """The headline's `right on` figure from `expected`'s counts, worked out here: (trial
    75) over every labelled answer first, an abstention right where people marked no
    problem, then split (trial 76), the declines, then the verdicts: `right on 54 of 64
    (84%): 3 of 4 answers the judge read as declines, 51 of 60 (85%) scored answers`."""
    n, agree, left, wrong = want["n"], want["agree"], want["left_out"], want["left_problems"]
    if not left:
        return f"right on {agree} of {n} ({agree / n:.0%})"
    total, right = n + left, agree + left - wrong
    share = f" ({agree / n:.0%})" if n >= left else ""
    declines = "answers the judge read as declines" if left != 1 else (
        "answer the judge read as a decline")
    return (f"right on {right} of {total} ({right / total:.0%}): {left - wrong} of {left} "
            f"{declines}, {agree} of {n}{share} scored answer{'s' * (n != 1)}")
