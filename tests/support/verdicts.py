"""A labelled run for the headline's verdict counts: answers that keep to their context or
invent, `hallucinated` labels that mostly match and sometimes do not (on both sides), and
answers that abstain (labelled not hallucinated: the judge gives them no verdict)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def labelled_rows(answers: int = 135, abstaining: int = 9) -> list[dict[str, Any]]:
    """`answers` rows that answer (every third invents; every seventh label says the
    opposite of what the answer did) and `abstaining` rows whose answer declines."""
    rows: list[dict[str, Any]] = []
    for i in range(answers):
        ctx = f"Locker {i} on deck {i % 4 + 2} opens with the blue key card."
        invents = i % 3 == 0
        answer = f"Locker {i} was removed for repairs until spring." if invents else ctx
        rows.append({"id": f"s{i}", "question": f"How does locker {i} open?",
                     "contexts": [ctx], "answer": answer,
                     "labels": {"hallucinated": invents != (i % 7 == 0)}})
    for i in range(abstaining):
        rows.append({"id": f"d{i}", "question": f"Who repaints locker {i}?",
                     "contexts": [f"Locker {i} on deck 2 opens with the blue key card."],
                     "answer": "I don't have information about that.",
                     "labels": {"hallucinated": False}})
    return rows


def expected(rows: Sequence[Mapping[str, Any]], values: Mapping[str, float | None],
             inverted: bool = False) -> dict[str, int]:
    """The counts the headline should say, from the rows' labels and each sample's
    verdict (`values` by id; None: no verdict, left out), worked out here on their own:
    compared, people's positives, agreements, misses, flags and those left out."""
    out = dict.fromkeys(("n", "positives", "agree", "missed", "flagged", "left_out"), 0)
    for row in rows:
        label, value = bool(row["labels"]["hallucinated"]), values[row["id"]]
        if value is None:
            out["left_out"] += 1
            continue
        says = (value < 0.5) if inverted else (value >= 0.5)
        out["n"] += 1
        out["positives"] += label
        out["agree"] += says == label
        out["missed"] += label and not says
        out["flagged"] += says and not label
    return out
