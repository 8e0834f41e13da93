"""Paired comparison of two runs, or of two strategies within a run.

Differences are always b - a ("candidate minus baseline"); a verdict says how
b compares with a. A metric is "better"/"worse" only when its Holm-adjusted
Wilcoxon p-value is below `alpha` AND the paired-bootstrap CI of the mean
difference excludes 0; the direction respects `MetricSpec.higher_is_better`. When
either side has an abstention, the abstention rates are compared too (`stats.abstention`).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from scipy import stats as sps

from ragassay.stats.abstention import RATE_SPECS, rate_column
from ragassay.stats.bootstrap import bootstrap_ci
from ragassay.stats.result import Result, omitted
from ragassay.stats.table import Row, ScoreTable
from ragassay.types import MetricSpec

Verdict = Literal["better", "worse", "no detectable difference"]


class PairedDifference(Result):
    """b - a over `n` shared keys: the means, the mean difference with its paired-bootstrap
    interval, and the Wilcoxon signed-rank p-value (None where not computable)."""

    n: int
    mean_a: float | None = None
    mean_b: float | None = None
    diff: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    wilcoxon_p: float | None = None


class MetricComparison(PairedDifference):
    """One metric of a comparison: the paired difference, its Holm-adjusted p-value and
    the verdict (b vs a, respecting the metric's direction)."""

    p_adjusted: float | None
    higher_is_better: bool
    verdict: Verdict


class Comparison(Result):
    """b compared with a, metric by metric (`a`, `b`: the strategies, for a comparison
    within a run), paired by `paired_by`."""

    a: str | None = omitted()
    b: str | None = omitted()
    paired_by: str
    duplicates_dropped: int
    alpha: float
    paired_samples: int
    only_in_a: int
    only_in_b: int
    metrics: dict[str, MetricComparison]
    metrics_only_in_a: list[str]
    metrics_only_in_b: list[str]


@dataclass(frozen=True)
class CompareOptions:
    alpha: float = 0.05
    n_resamples: int = 2000
    confidence: float = 0.95
    seed: int = 0


def compare_paired(
    a: Mapping[Hashable, float],
    b: Mapping[Hashable, float],
    *,
    seed: int = 0,
    n_resamples: int = 2000,
    confidence: float = 0.95,
) -> PairedDifference:
    """Compare b with a over their shared keys: diff = mean_b - mean_a, its paired
    bootstrap interval and the Wilcoxon p-value. All-zero differences give p = 1.0;
    no shared key gives None everywhere but n = 0.
    """
    keys = [k for k in a if k in b]
    if not keys:
        return PairedDifference(n=0)
    xa = np.array([a[k] for k in keys], dtype=float)
    xb = np.array([b[k] for k in keys], dtype=float)
    d = xb - xa
    ci = bootstrap_ci(d, n_resamples=n_resamples, confidence=confidence, seed=seed)
    return PairedDifference(
        n=len(keys),
        mean_a=math.fsum(xa) / len(keys),
        mean_b=math.fsum(xb) / len(keys),
        diff=math.fsum(d) / len(keys),
        ci_low=ci[0] if ci else None,
        ci_high=ci[1] if ci else None,
        wilcoxon_p=wilcoxon_p(d),
    )


def wilcoxon_p(diffs: np.ndarray[Any, Any]) -> float | None:
    """Two-sided Wilcoxon signed-rank p-value; 1.0 when every difference is 0."""
    if diffs.size == 0:
        return None
    if np.all(diffs == 0):
        return 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = float(sps.wilcoxon(diffs).pvalue)
    return p if math.isfinite(p) else None


def holm(pvalues: Mapping[str, float | None]) -> dict[str, float | None]:
    """Holm-Bonferroni step-down adjusted p-values (None stays None, not counted)."""
    known = sorted(((p, k) for k, p in pvalues.items() if p is not None), key=lambda t: t[0])
    m = len(known)
    adjusted: dict[str, float | None] = {k: None for k, p in pvalues.items() if p is None}
    running = 0.0
    for i, (p, k) in enumerate(known):
        running = max(running, min(1.0, (m - i) * p))
        adjusted[k] = running
    return {k: adjusted[k] for k in pvalues}


def verdict(result: PairedDifference, spec: MetricSpec, alpha: float = 0.05,
            p_adjusted: float | None = None) -> Verdict:
    """ "better"/"worse" (b vs a) when the p-value (`p_adjusted` when given, else the
    result's Wilcoxon p) is below alpha and the CI excludes 0."""
    p = p_adjusted if p_adjusted is not None else result.wilcoxon_p
    lo, hi = result.ci_low, result.ci_high
    if p is None or lo is None or hi is None or p >= alpha or lo <= 0 <= hi:
        return "no detectable difference"
    up = lo > 0
    return "better" if up == spec.higher_is_better else "worse"


def _compare_columns(
    a: Mapping[str, Mapping[Hashable, float]],
    b: Mapping[str, Mapping[Hashable, float]],
    specs: Mapping[str, MetricSpec],
    opts: CompareOptions,
) -> dict[str, MetricComparison]:
    results = {
        m: compare_paired(
            a[m], b[m], seed=opts.seed, n_resamples=opts.n_resamples, confidence=opts.confidence
        )
        for m in specs
    }
    adjusted = holm({m: r.wilcoxon_p for m, r in results.items()})
    return {m: MetricComparison(**dict(r), p_adjusted=adjusted[m],
                                higher_is_better=specs[m].higher_is_better,
                                verdict=verdict(r, specs[m], opts.alpha, adjusted[m]))
            for m, r in results.items()}


def _scored(rows: Mapping[Hashable, Row], metric: str) -> dict[Hashable, float]:
    out = {}
    for k, r in rows.items():
        v = r.value(metric)
        if v is not None:
            out[k] = v
    return out


def _keyed(rows: tuple[Row, ...], key: Any) -> tuple[dict[Hashable, Row], int]:
    """Rows by pairing key, first occurrence wins; also the number of duplicates."""
    out: dict[Hashable, Row] = {}
    dup = 0
    for r in rows:
        k = key(r)
        if k in out:
            dup += 1
        else:
            out[k] = r
    return out, dup


def _compare_keyed(
    ra: dict[Hashable, Row],
    rb: dict[Hashable, Row],
    specs_a: Mapping[str, MetricSpec],
    specs_b: Mapping[str, MetricSpec],
    opts: CompareOptions,
    **pairing: Any,
) -> Comparison:
    shared = {m: s for m, s in specs_b.items() if m in specs_a}
    cols_a = {m: _scored(ra, m) for m in shared}
    cols_b = {m: _scored(rb, m) for m in shared}
    if any(r.abstained for r in (*ra.values(), *rb.values())):  # the two rates, paired
        for name, spec in RATE_SPECS.items():
            shared[name] = spec
            cols_a[name], cols_b[name] = rate_column(ra, name), rate_column(rb, name)
    return Comparison(
        **pairing,
        alpha=opts.alpha,
        paired_samples=sum(k in rb for k in ra),
        only_in_a=sum(k not in rb for k in ra),
        only_in_b=sum(k not in ra for k in rb),
        metrics=_compare_columns(cols_a, cols_b, shared, opts),
        metrics_only_in_a=[m for m in specs_a if m not in specs_b],
        metrics_only_in_b=[m for m in specs_b if m not in specs_a],
    )


def compare_tables(
    table_a: ScoreTable, table_b: ScoreTable, options: CompareOptions | None = None
) -> Comparison:
    """Compare run b with run a, metric by metric, paired by sample.

    Samples pair by (strategy, id); if that pairs nothing, by id alone (e.g. the
    same dataset evaluated under a renamed strategy). Metrics present in only
    one run are listed, not compared. Holm correction runs across the metrics.
    """
    opts = options or CompareOptions()
    ra, dup_a = _keyed(table_a.rows, lambda r: r.key)
    rb, dup_b = _keyed(table_b.rows, lambda r: r.key)
    paired_by = "strategy and sample id"
    if not any(k in rb for k in ra):
        ra, dup_a = _keyed(table_a.rows, lambda r: r.id)
        rb, dup_b = _keyed(table_b.rows, lambda r: r.id)
        paired_by = "sample id"
    return _compare_keyed(ra, rb, table_a.specs, table_b.specs, opts, paired_by=paired_by,
                          duplicates_dropped=dup_a + dup_b)


def _question_text(r: Row) -> str:
    return " ".join(r.question.split()).casefold()


def compare_strategies(
    table: ScoreTable, s1: str, s2: str, options: CompareOptions | None = None
) -> Comparison:
    """Compare strategy s2 with strategy s1 within one run, paired by question.

    Pairing key, first that applies: metadata "question_id" when every row of
    both strategies has one; the sample id when the two strategies share any
    id; otherwise the question text (whitespace-collapsed, case-folded). A
    repeated key within a strategy keeps its first row (counted in
    "duplicates_dropped").
    """
    opts = options or CompareOptions()
    rows1 = tuple(r for r in table.rows if r.strategy == s1)
    rows2 = tuple(r for r in table.rows if r.strategy == s2)
    both = rows1 + rows2
    key: Any
    if both and all(r.question_id is not None for r in both):
        key, paired_by = (lambda r: r.question_id), "question_id"
    elif {r.id for r in rows1} & {r.id for r in rows2}:
        key, paired_by = (lambda r: r.id), "sample id"
    else:
        key, paired_by = _question_text, "question text"
    ra, dup_a = _keyed(rows1, key)
    rb, dup_b = _keyed(rows2, key)
    return _compare_keyed(ra, rb, table.specs, table.specs, opts, a=s1, b=s2,
                          paired_by=paired_by, duplicates_dropped=dup_a + dup_b)
