"""Builders for small, hand-checkable score tables."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from ragassay.metrics import all_specs
from ragassay.stats.table import Row, ScoreTable
from ragassay.types import MetricSpec

MakeTable = Callable[..., ScoreTable]


def spec(name: str, low: float = 0.0, high: float = 1.0, **kw: Any) -> MetricSpec:
    return MetricSpec(name=name, low=low, high=high, **kw)


SPECS = all_specs(["judge", "trace", "ragas"])
"""The suites' own declarations: targets, gate thresholds, rules and the composite."""
JUDGE_SPECS = {n: s for n, s in SPECS.items() if s.suite == "judge"}


def build(
    specs: Mapping[str, MetricSpec],
    columns: Mapping[str, Sequence[float | None]],
    *,
    strategies: Sequence[str] | None = None,
    labels: Sequence[Mapping[str, Any]] | None = None,
    ids: Sequence[str] | None = None,
    questions: Sequence[str] | None = None,
    question_ids: Sequence[str | None] | None = None,
) -> ScoreTable:
    n = len(next(iter(columns.values()))) if columns else len(ids or [])
    rows = []
    for i in range(n):
        rows.append(
            Row(
                id=ids[i] if ids else f"s{i + 1}",
                strategy=strategies[i] if strategies else "default",
                question=questions[i] if questions else f"question {i + 1}",
                question_id=question_ids[i] if question_ids else None,
                labels=dict(labels[i]) if labels else {},
                values={m: columns[m][i] for m in columns},
                reasons={m: "unscored" for m in columns if columns[m][i] is None},
            )
        )
    return ScoreTable.from_rows(rows, {m: specs[m] for m in columns})


@pytest.fixture
def make_table() -> MakeTable:
    return build


@pytest.fixture
def judge_specs() -> dict[str, MetricSpec]:
    return dict(JUDGE_SPECS)
