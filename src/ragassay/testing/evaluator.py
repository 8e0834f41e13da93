"""`Evaluator`: what the `ragassay_eval` fixture hands a test."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ragassay.api import EvalResult, evaluate
from ragassay.store import Store


class Evaluator:
    """Evaluate a dataset, or one sample, into the session's store.

    `evaluator(data, metrics=..., judge=..., **options)` as `ragassay.evaluate` (the run
    is named after the test unless `dataset=` is given); `evaluator.sample(question=...,
    answer=..., contexts=[...], reference=...)` scores one sample. `runs` lists the
    results made so far.
    """

    def __init__(self, store: Store, judge: str = "offline", name: str = "pytest",
                 options: dict[str, Any] | None = None) -> None:
        self.store = store
        self.judge = judge
        self.name = name
        self.options = dict(options or {})
        self.runs: list[EvalResult] = []

    def __call__(self, data: Any, metrics: str | Sequence[str] | None = "all",
                 judge: str | None = None, **options: Any) -> EvalResult:
        merged = {"dataset": self.name, "progress": False, **self.options, **options}
        result = evaluate(data, metrics, judge or self.judge, store=self.store, **merged)
        self.runs.append(result)
        return result

    def sample(self, question: str, answer: str = "", contexts: Sequence[str] = (),
               reference: str | Sequence[str] | None = None, *,
               metrics: str | Sequence[str] | None = "all", judge: str | None = None,
               **options: Any) -> EvalResult:
        """Score one sample (an id is made from its content)."""
        row: dict[str, Any] = {"question": question, "answer": answer,
                               "contexts": list(contexts)}
        if reference is not None:
            row["reference"] = reference if isinstance(reference, str) else list(reference)
        return self(row, metrics, judge, **options)


__all__ = ["Evaluator"]
