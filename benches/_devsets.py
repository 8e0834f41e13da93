"""Seeded, label-balanced samples of the converted dev sets, for the judge benchmarks.

The dev sets are `data/devsets/*.jsonl` (`scripts/devsets/convert.py` writes them from
../shared/data). Each row's task label is the first of `TASK_LABELS` it carries:
`faithful` and `correct` are 0/1, `relevance` (TREC grade 0-3) and
`answer_similarity` (SAS grade 0-2) are graded. A sample takes about the same number
of rows from every label value (seeded shuffle per value; a value with too few rows
gives all it has and the others fill up), so AUROC and Spearman are not dominated by
the majority class.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

DEVSETS = Path(__file__).resolve().parents[1] / "data" / "devsets"
TASK_LABELS = ("faithful", "correct", "relevance", "answer_similarity")


def task_label(row: dict[str, Any]) -> str | None:
    labels = row.get("labels") or {}
    return next((k for k in TASK_LABELS if isinstance(labels.get(k), int | float)), None)


def load_rows(name: str, split: str | None = None, devsets: Path = DEVSETS
              ) -> list[dict[str, Any]]:
    path = devsets / f"{name}.jsonl"
    if not path.exists():
        raise SystemExit(f"{path} is missing: run .venv/bin/python scripts/devsets/convert.py")
    rows = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    return [r for r in rows if task_label(r) and (split is None
                                                   or r["metadata"].get("split") == split)]


def balanced_sample(rows: list[dict[str, Any]], n: int, seed: int) -> list[dict[str, Any]]:
    """About n / k rows for each of the k label values, seeded; in a stable order."""
    by_value: dict[Any, list[dict[str, Any]]] = {}
    for r in rows:
        label = task_label(r)
        assert label is not None
        by_value.setdefault(r["labels"][label], []).append(r)
    rng = random.Random(seed)
    pools = {v: rng.sample(group, len(group)) for v, group in sorted(by_value.items())}
    chosen: list[dict[str, Any]] = []
    while len(chosen) < n and any(pools.values()):
        for v in sorted(pools):  # round robin: balanced while every value has rows left
            if pools[v] and len(chosen) < n:
                chosen.append(pools[v].pop())
    return sorted(chosen, key=lambda r: r["id"])


def available_sets(devsets: Path = DEVSETS) -> list[str]:
    """Converted sets that carry a task label, by file name."""
    names = []
    for path in sorted(devsets.glob("*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            first = fh.readline()
        if first.strip() and task_label(json.loads(first)):
            names.append(path.stem)
    return names


def lexical_score(sample: Any) -> float | None:
    """The lexical baseline of a sample: the share of its answer's words found in the
    evidence (`ragassay.stats.baseline`, as meta-eval reports it); for a set without
    answers (TREC: is the passage relevant to the query?) the share of the question's
    words found in the passage."""
    from ragassay.stats.baseline import lexical_share, lexical_support

    if sample.answer.strip():
        return lexical_support(sample)
    return lexical_share(sample.question, " ".join(sample.contexts))


def write_jsonl(rows: list[dict[str, Any]], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                   encoding="utf-8")
    tmp.replace(path)
