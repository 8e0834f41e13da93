"""Metric suites (`judge`, `trace`, `ragas`): declared metrics and pure scoring over verdicts.

Suites are registered by name and imported lazily, so that `--metrics judge` never
loads what the other suites need.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence

from ragassay.metrics.base import Outcome, Suite, SuiteOptions
from ragassay.types import MetricSpec

SUITES: dict[str, str] = {
    "judge": "ragassay.metrics.judge:JudgeSuite",
    "trace": "ragassay.metrics.trace:TraceSuite",
    "ragas": "ragassay.metrics.ragas:RagasSuite",
}

__all__ = ["SUITES", "Outcome", "Suite", "SuiteOptions", "UnknownSuiteError", "all_specs",
           "get_suites", "parse_metrics"]


class UnknownSuiteError(ValueError):
    pass


def available() -> list[str]:
    """Registered suites whose module is importable."""
    out = []
    for name, target in SUITES.items():
        try:
            importlib.import_module(target.split(":")[0])
        except ImportError:
            continue
        out.append(name)
    return out


def parse_metrics(text: str | Sequence[str] | None) -> tuple[str, ...]:
    """`"judge,trace"` -> ("judge", "trace"); None or "all" -> every available suite."""
    if text is None or text == "all" or text == ("all",):
        return tuple(available())
    parts = text.split(",") if isinstance(text, str) else list(text)
    names = tuple(dict.fromkeys(p.strip() for p in parts if p.strip()))
    unknown = [n for n in names if n not in SUITES]
    if unknown:
        raise UnknownSuiteError(
            f"unknown metric suite {unknown[0]!r}; choose from {', '.join(SUITES)}")
    return names


def get_suites(names: Iterable[str]) -> list[Suite]:
    suites: list[Suite] = []
    for name in names:
        if name not in SUITES:
            raise UnknownSuiteError(
                f"unknown metric suite {name!r}; choose from {', '.join(SUITES)}")
        module, cls = SUITES[name].split(":")
        suites.append(getattr(importlib.import_module(module), cls)())
    return suites


def all_specs(names: Iterable[str]) -> dict[str, MetricSpec]:
    """Every metric declaration of the named suites, by qualified name."""
    return {spec.name: spec for suite in get_suites(names) for spec in suite.specs}
