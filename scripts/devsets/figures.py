"""What the dev-set scripts report, computed through the product's own path.

Each sample is keyed once (`ragassay.text.key_sample`, as the runner does), the
Analyzer gives its Evidence, and the judge, trace and ragas suites score it with
their real offline scorers (`Suite.evaluate_offline`), so a figure here is the value
a user of `ragassay eval` sees: judge.faithfulness, ragas.faithfulness,
trace.adherence_ratio, judge/trace.context_relevance, judge.answer_similarity.
Agreement figures come from `ragassay.stats` (AUROC, Spearman, the seeded bootstrap);
the lexical baseline is `ragassay.stats.baseline.lexical_support`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ragassay.judge.offline import Analyzer
from ragassay.metrics import get_suites
from ragassay.metrics.base import SuiteOptions
from ragassay.stats.agreement import (
    _auroc_weighted,
    _balanced_rows,
    auroc,
    auroc_ci,
    balanced_accuracy,
    balanced_accuracy_ci,
    correlation,
    spearman_ci,
)
from ragassay.stats.bootstrap import bootstrap_stat, bootstrap_weighted
from ragassay.text import key_sample
from ragassay.types import Sample
from ragassay.types.reliability import VERDICT_STATISTIC

FAITHFULNESS = ("judge.faithfulness", "ragas.faithfulness", "trace.adherence_ratio")
RELEVANCE = ("judge.context_relevance", "trace.context_relevance")
CORRECTNESS = ("judge.answer_similarity",)
VERDICTS = {"judge.hallucination": False, "trace.adherence": True}
"""The yes/no verdicts the faithfulness sets measure, each with the value that means
faithful (judge.hallucination: faithfulness below HALLUCINATION_THRESHOLD; trace.adherence:
every answer sentence's support at SUPPORT_THRESHOLD or above), scored by balanced
accuracy against people's faithful / not (a verdict has no ranking for an AUROC)."""
SUITES = ("judge", "trace", "ragas")


def product_values(
    an: Analyzer, samples: Sequence[Sample], metrics: Sequence[str]
) -> list[dict[str, float | None]]:
    """Per sample, the named metrics' values as `ragassay eval` with the offline judge
    computes them (None where the suite leaves a metric unscored)."""
    items = [key_sample(s) for s in samples]
    evidence = an.analyze_many(items)
    wanted = {m.split(".")[0] for m in metrics}
    suites = [s for s in get_suites(SUITES) if s.name in wanted]
    options = SuiteOptions()
    out = []
    for item, ev in zip(items, evidence, strict=True):
        values: dict[str, float | None] = {}
        for suite in suites:
            for r in suite.evaluate_offline(item, ev, options).result.results:
                if r.name in metrics:
                    values[r.name] = None if r.value is None else float(r.value)
        out.append({m: values.get(m) for m in metrics})
    return out


@dataclass
class Figure:
    """One agreement figure: value and 95% CI, with the lexical baseline beside it."""

    metric: str
    n: int
    value: float | None
    ci: tuple[float, float] | None
    baseline: float | None
    diff_ci: tuple[float, float] | None = None  # paired bootstrap CI of value - baseline

    def as_dict(self) -> dict[str, object]:
        return self.__dict__.copy()


def auroc_figure(
    metric: str, scores: Sequence[float], truth: Sequence[bool], base: Sequence[float], n_res: int
) -> Figure:
    """AUROC with its CI, the baseline's AUROC and the paired CI of the difference
    (the same seeded resamples for both)."""
    s, b, y = (np.asarray(x, dtype=float) for x in (scores, base, truth))
    yb = y.astype(bool)

    def difference(a: list[Any]) -> Any:
        fs, fb = _auroc_weighted(a[0], a[2]), _auroc_weighted(a[1], a[2])
        return lambda w: fs(w) - fb(w)

    diff = bootstrap_weighted([s, b, yb], difference, n_resamples=n_res, seed=0)
    return Figure(
        metric,
        len(s),
        auroc(list(s), list(yb)),
        auroc_ci(list(s), list(yb), n_resamples=n_res),
        auroc(list(b), list(yb)),
        diff,
    )


def balanced_figure(
    metric: str, said: Sequence[bool], truth: Sequence[bool], base: Sequence[bool], n_res: int
) -> Figure:
    """Balanced accuracy of a yes/no verdict with its CI (the seeded percentile bootstrap
    the AUROC rows use), the baseline verdict's, and the paired CI of the difference."""
    s, b, y = (np.asarray(x, dtype=float) for x in (said, base, truth))

    def difference(cols: list[Any]) -> Any:
        return _balanced_rows([cols[0], cols[2]]) - _balanced_rows([cols[1], cols[2]])

    value = balanced_accuracy(list(said), list(truth))
    ci = balanced_accuracy_ci(list(said), list(truth), n_resamples=n_res)
    diff = bootstrap_stat([s, b, y], difference, n_resamples=n_res, seed=0)
    return Figure(metric, len(s), value, ci, balanced_accuracy(list(base), list(truth)), diff)


def spearman_figure(
    metric: str, scores: Sequence[float], grades: Sequence[float], base: Sequence[float], n_res: int
) -> Figure:
    rho, _ = correlation(scores, grades, "spearman")
    b_rho, _ = correlation(base, grades, "spearman")
    return Figure(
        metric, len(scores), rho, spearman_ci(scores, grades, n_resamples=n_res), b_rho, None
    )


def fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def fmt_ci(ci: tuple[float, float] | None, signed: bool = False) -> str:
    if ci is None:
        return "-"
    return f"[{ci[0]:+.3f}, {ci[1]:+.3f}]" if signed else f"[{ci[0]:.3f}, {ci[1]:.3f}]"


STATISTIC = {"auroc": "AUROC", "spearman": "Spearman", "balanced": VERDICT_STATISTIC}
"""A figure's kind -> the statistic's name, as the reliability table names it."""


def target(f: Figure, kind: str) -> str:
    """The issue's criterion: AUROC (or a verdict's balanced accuracy) >= baseline + 0.02
    where the baseline is below 0.90, not below it where it is above; Spearman > 0.25 for
    context relevance."""
    if f.value is None or f.baseline is None:
        return "-"
    if kind == "spearman":
        return "met" if f.value > 0.25 else "NOT met"
    need = f.baseline + 0.02 if f.baseline < 0.90 else f.baseline
    return "met" if f.value >= need else f"NOT met ({f.value - need:+.3f})"


def table(rows: list[tuple[str, Figure, str]]) -> str:
    """A markdown table of (set, figure, kind) rows."""
    out = [
        "| set | metric | n | value [95% CI] | lexical baseline | difference [95% CI] | target |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, f, kind in rows:
        stat = STATISTIC[kind]
        out.append(
            f"| {name} | {f.metric} ({stat}) | {f.n} | {fmt(f.value)} {fmt_ci(f.ci)} "
            f"| {fmt(f.baseline)} | {fmt_ci(f.diff_ci, signed=True)} | {target(f, kind)} |"
        )
    return "\n".join(out)
