"""A new user's probe set (issue: the group-by trial): 144 rows of the labels example,
each with `metadata: {"kind": ..., "domain": ...}` (some without a kind) and, where the
example has one, a human `hallucinated` label; and the per-group counts worked out from
a JSON report's per-sample entries, as the user did with pandas. Another user's: 16
labelled rows of each of nine kinds, in data order, the `decline` kind's answers all but
one declining (`declines_probe_rows`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "labels"
KINDS = ("lookup", "howto", "policy", "pricing")


def probe_rows(n: int = 144) -> list[dict[str, Any]]:
    """The first `n` rows of the labels example with a kind (one of KINDS, in turn;
    every 17th row from the 6th has none) and a domain, and the example's label."""
    labels = {}
    for line in (EXAMPLE / "labels.jsonl").read_text().splitlines():
        row = json.loads(line)
        labels[row["id"]] = row["hallucinated"]
    rows = [json.loads(line) for line in (EXAMPLE / "data.jsonl").read_text().splitlines()][:n]
    for i, row in enumerate(rows):
        row["metadata"] = {"domain": "security" if i % 3 == 0 else "billing"}
        if i % 17 != 5:
            row["metadata"]["kind"] = KINDS[i % 4]
        if row["id"] in labels:
            row["labels"] = {"hallucinated": labels[row["id"]]}
    return rows


def write_probe(path: Path, n: int = 144) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in probe_rows(n)))
    return path


def by_kind(entries: Iterable[Mapping[str, Any]], metric: str) -> dict[str, dict[str, Any]]:
    """Per kind ("(none)" for a row without one) from a JSON report's detailed results:
    the samples, the metric's mean, and right/total of its yes/no verdict against the
    `hallucinated` label (a sample with both)."""
    out: dict[str, dict[str, Any]] = {}
    for e in entries:
        kind = e["metadata"].get("kind") or "(none)"
        g = out.setdefault(kind, {"n": 0, "values": [], "right": 0, "total": 0})
        g["n"] += 1
        value = e["metrics"].get(metric)
        if value is not None:
            g["values"].append(float(value))
        label = e["labels"].get("hallucinated")
        if value is not None and label is not None:
            g["total"] += 1
            g["right"] += bool(value) == bool(label)
    for g in out.values():
        g["mean"] = sum(g["values"]) / len(g["values"]) if g["values"] else None
    return out


TRIAL_KINDS = ("pricing", "lookup", "decline", "howto", "policy", "compare", "steps",
               "limits", "access")
"""The kinds of `declines_probe_rows`, in the order the data holds them (not sorted)."""


def declines_probe_rows(per_kind: int = 16) -> list[dict[str, Any]]:
    """A new user's probe set: `per_kind` labelled rows of each of TRIAL_KINDS, one kind
    after another; every third answer invents, and the `decline` kind's answers all
    decline but its first, which invents (a rate of 1.00 over 1 scored sample)."""
    rows: list[dict[str, Any]] = []
    for k, kind in enumerate(TRIAL_KINDS):
        for j in range(per_kind):
            i = k * per_kind + j
            ctx = f"Locker {i} on deck {i % 4 + 2} opens with the blue key card."
            declines = kind == "decline" and j > 0
            invents = not declines and (i % 3 == 0 or kind == "decline")
            answer = ("I don't have information about that." if declines else
                      f"Locker {i} was removed for repairs until spring." if invents else ctx)
            rows.append({"id": f"q{i:03d}", "question": f"How does locker {i} open?",
                         "contexts": [ctx], "answer": answer,
                         "labels": {"hallucinated": invents},
                         "metadata": {"kind": kind}})
    return rows


def write_declines_probe(path: Path, per_kind: int = 16) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in declines_probe_rows(per_kind)))
    return path


def declines_probe_run(db: Path) -> Any:
    """A stored judge run (`ragassay.EvalResult`) of `declines_probe_rows()`."""
    import ragassay

    return ragassay.evaluate(declines_probe_rows(), "judge", store=db, progress=False)
