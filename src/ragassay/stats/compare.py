"""Paired comparison of two runs, or of two strategies within a run.

Differences are always b - a ("candidate minus baseline"); a verdict says how b
compares with a, in four words:

- "equivalent": the two one-sided tests (TOST, paired t, Holm-adjusted over the
  metrics) show the mean difference within the metric's practical-equivalence margin
  (`stats.effect.margin_for`: declared on the metric, `MetricSpec.equivalence`, or
  overridden), whether or not a difference is also detectable: a 0.1-point gap on a
  ten-point scale is real but does not matter;
- "better" / "worse": not equivalent, the Holm-adjusted Wilcoxon p-value is below
  `alpha` AND the paired-bootstrap interval of the mean difference excludes 0; the
  direction respects `MetricSpec.higher_is_better`; with a negligible or small effect
  size it is worded `better (negligible effect)` (`MetricComparison.verdict_text`);
- "unclear": neither: the data can tell neither a difference nor an equivalence;
- "not scored": no paired sample has a value on both sides (a metric neither run scored,
  such as one that needs a reference answer the data lacks): there is nothing to test.

Beside the test: the mean difference with its interval and a standardised effect size
(Cohen's d_av, `stats.effect`). A metric whose values are equal on every pair is
`constant`: it cannot separate the two. When either side has an abstention, the
abstention rates are compared too (`stats.abstention`).
"""

from __future__ import annotations

import math
import warnings
from collections import Counter
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from scipy import stats as sps

from ragassay.stats.abstention import RATE_SPECS, rate_column
from ragassay.stats.bootstrap import bootstrap_ci
from ragassay.stats.effect import effect_size, magnitude, margin_for, tost_p
from ragassay.stats.result import Result, omitted
from ragassay.stats.table import Row, ScoreTable
from ragassay.terminal import counted
from ragassay.types import MetricSpec

Verdict = Literal["better", "worse", "equivalent", "unclear", "not scored"]
VERDICTS: tuple[Verdict, ...] = ("better", "worse", "equivalent", "unclear", "not scored")
SMALL_EFFECTS = ("negligible", "small")
"""Cohen's words (`effect.magnitude`) a better or worse verdict says beside itself."""


class PairedDifference(Result):
    """b - a over `n` shared keys: the means, the mean difference with its paired-bootstrap
    interval, the Wilcoxon signed-rank p-value, the standardised effect size (Cohen's
    d_av), the equivalence margin with the TOST p-value, and whether every pair is equal
    (`constant`); None where not computable."""

    n: int
    mean_a: float | None = None
    mean_b: float | None = None
    diff: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    wilcoxon_p: float | None = None
    effect_size: float | None = None
    margin: float | None = None
    tost_p: float | None = None
    constant: bool = False


class MetricComparison(PairedDifference):
    """One metric of a comparison: the paired difference, its Holm-adjusted p-values (of
    the difference, and of the equivalence) and the verdict (b vs a, respecting the
    metric's direction)."""

    p_adjusted: float | None
    tost_p_adjusted: float | None = None
    higher_is_better: bool
    verdict: Verdict

    @property
    def verdict_text(self) -> str:
        """The verdict as every surface words it: a "better" or "worse" whose effect size
        is negligible or small says so beside it, `better (negligible effect)` (trial 73:
        "better" beside "negligible" read as a contradiction; the difference is real by
        the tests, and small by Cohen's d)."""
        size = magnitude(self.effect_size)
        if self.verdict in ("better", "worse") and size in SMALL_EFFECTS:
            return f"{self.verdict} ({size} effect)"
        return self.verdict


class AbstentionChange(Result):
    """A paired sample whose abstention outcome differs between A and B: `a`, `b` each
    `answered` (no abstention), or the abstention's outcome (`correct`, `false`,
    `unknown`: `Row.abstention`)."""

    id: str
    strategy: str
    a: str
    b: str


class AbstentionChanges(Result):
    """The paired samples whose abstention outcome changed (since trial 67: `compare`
    called two runs equivalent with one correct decline turned false and nothing said),
    counted by `A -> B` class (`counts`: `correct -> false`: 1) and listed."""

    counts: dict[str, int]
    samples: list[AbstentionChange]

    def text(self, most: int = 5) -> str:
        """`abstention outcome changed on 1 paired sample: correct -> false 1 (p17)`, the
        first `most` samples named."""
        ids = [c.id for c in self.samples[:most]]
        more = len(self.samples) - len(ids)
        return (f"abstention outcome changed on {counted(len(self.samples), 'paired sample')}"
                f": {', '.join(f'{k} {n}' for k, n in self.counts.items())} ("
                + ", ".join(ids) + (f", and {more} more: --json lists them" if more else "")
                + ")")


def abstention_changes(ra: Mapping[Hashable, Row], rb: Mapping[Hashable, Row]
                       ) -> AbstentionChanges | None:
    """The paired samples whose abstention outcome differs (`AbstentionChanges`), in A's
    order; None when none does."""
    changed = [AbstentionChange(id=r.id, strategy=r.strategy, a=r.abstention or "answered",
                                b=rb[k].abstention or "answered")
               for k, r in ra.items() if k in rb and r.abstention != rb[k].abstention]
    if not changed:
        return None
    return AbstentionChanges(counts=dict(Counter(f"{c.a} -> {c.b}" for c in changed)),
                             samples=changed)


class Comparison(Result):
    """b compared with a, metric by metric (`a`, `b`: the strategies, for a comparison
    within a run), paired by `paired_by`; the paired samples whose abstention outcome
    changed (`abstentions_changed`, since trial 67), which no verdict says."""

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
    abstentions_changed: AbstentionChanges | None = omitted()


@dataclass(frozen=True)
class CompareOptions:
    """The test's level and the interval's resampling; `margins` overrides metrics'
    declared equivalence margins (by metric name)."""

    alpha: float = 0.05
    n_resamples: int = 2000
    confidence: float = 0.95
    seed: int = 0
    margins: Mapping[str, float] = field(default_factory=dict)


def compare_paired(
    a: Mapping[Hashable, float],
    b: Mapping[Hashable, float],
    *,
    seed: int = 0,
    n_resamples: int = 2000,
    confidence: float = 0.95,
    margin: float | None = None,
) -> PairedDifference:
    """Compare b with a over their shared keys: diff = mean_b - mean_a, its paired
    bootstrap interval, the Wilcoxon p-value, Cohen's d_av and, given a `margin`, the
    TOST p-value of |diff| < margin. All-zero differences give p = 1.0 and `constant`;
    no shared key gives None everywhere but n = 0.
    """
    keys = [k for k in a if k in b]
    if not keys:
        return PairedDifference(n=0, margin=margin)
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
        effect_size=effect_size(xa, xb),
        margin=margin,
        tost_p=None if margin is None else tost_p(d, margin),
        constant=bool(np.all(d == 0)),
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
            p_adjusted: float | None = None, tost_adjusted: float | None = None) -> Verdict:
    """b vs a: "equivalent" when the equivalence p-value (`tost_adjusted` when given, else
    the result's TOST p) is below alpha; else "better"/"worse" when the difference's
    p-value (`p_adjusted` when given, else the result's Wilcoxon p) is below alpha and the
    interval excludes 0; else "unclear"; "not scored" when no pair has a value on both
    sides (n = 0)."""
    if not result.n:
        return "not scored"
    tost = tost_adjusted if tost_adjusted is not None else result.tost_p
    if tost is not None and tost < alpha:
        return "equivalent"
    p = p_adjusted if p_adjusted is not None else result.wilcoxon_p
    lo, hi = result.ci_low, result.ci_high
    if p is None or lo is None or hi is None or p >= alpha or lo <= 0 <= hi:
        return "unclear"
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
            a[m], b[m], seed=opts.seed, n_resamples=opts.n_resamples,
            confidence=opts.confidence, margin=margin_for(specs[m], opts.margins.get(m)),
        )
        for m in specs
    }
    adjusted = holm({m: r.wilcoxon_p for m, r in results.items()})
    tost_adjusted = holm({m: r.tost_p for m, r in results.items()})
    return {m: MetricComparison(**dict(r), p_adjusted=adjusted[m],
                                tost_p_adjusted=tost_adjusted[m],
                                higher_is_better=specs[m].higher_is_better,
                                verdict=verdict(r, specs[m], opts.alpha, adjusted[m],
                                                tost_adjusted[m]))
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
        abstentions_changed=abstention_changes(ra, rb),
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


def _strategy_pairing(rows1: tuple[Row, ...], rows2: tuple[Row, ...]) -> tuple[Any, str]:
    """The pairing key of two strategies' rows and its name (see `compare_strategies`)."""
    both = rows1 + rows2
    if both and all(r.question_id is not None for r in both):
        return (lambda r: r.question_id), "question_id"
    if {r.id for r in rows1} & {r.id for r in rows2}:
        return (lambda r: r.id), "sample id"
    return _question_text, "question text"


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
    key, paired_by = _strategy_pairing(rows1, rows2)
    ra, dup_a = _keyed(rows1, key)
    rb, dup_b = _keyed(rows2, key)
    return _compare_keyed(ra, rb, table.specs, table.specs, opts, a=s1, b=s2,
                          paired_by=paired_by, duplicates_dropped=dup_a + dup_b)


def constant_across_strategies(table: ScoreTable) -> list[str]:
    """The metrics on which every strategy scores each question alike (paired by question
    as `compare_strategies` pairs them, each strategy with the first): they cannot
    separate the strategies. Empty for a run of one strategy; a metric some strategy
    shares no scored question on is not constant."""
    strategies = table.strategies
    if len(strategies) < 2:
        return []
    rows = {s: tuple(r for r in table.rows if r.strategy == s) for s in strategies}
    first = rows[strategies[0]]
    out = []
    for metric in table.metrics:
        same = True
        for other in strategies[1:]:
            key, _ = _strategy_pairing(first, rows[other])
            a = _scored(_keyed(first, key)[0], metric)
            b = _scored(_keyed(rows[other], key)[0], metric)
            shared = [k for k in a if k in b]
            if not shared or any(a[k] != b[k] for k in shared):
                same = False
                break
        if same:
            out.append(metric)
    return out
