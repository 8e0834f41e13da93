"""Corrected estimates: what people would say about a whole run, from a few human labels
and every judge score (prediction-powered inference, `stats.ppi`).

For each metric linked to a label (the label vocabulary's links, or `LabelLink`s given),
with at least `min_labels` labelled samples: the estimate of the label's mean over the
run's population (with a `hallucinated` label, the share of answers people call
hallucinated, whatever the linked metric's direction; a relevance grade's mean grade),
its interval, the labels-only estimate it improves on, and the judge's own mean beside
it. Per strategy too, and the difference between every two strategies.

The judge's score is oriented to the label (1 - x for an inverted link), put on the
label's 0-1 scale by a cross-fitted logistic map, and an unscored sample gets the mean
score (so that the estimate is still of every sample). Labels drawn by a weighted plan
come with their inclusion probabilities (`designs`); labels without a plan are taken to
be a uniform random sample.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Literal

import numpy as np
from pydantic import PrivateAttr

from ragassay.labels import check_value, linked_metrics, lookup, own_value
from ragassay.stats import ppi
from ragassay.stats.calibration import LabelLink, unlinked_skips
from ragassay.stats.corrected_text import (
    no_variation_text,
    rare_text,
    too_small_text,
    uncorrected_text,
)
from ragassay.stats.describe import Scale, scored_text
from ragassay.stats.result import Result, omitted
from ragassay.stats.table import Row, ScoreTable
from ragassay.text import did_you_mean
from ragassay.types import LabelRule, LabelSource, MetricSpec

MIN_LABELS = 30  # fewer labels give no corrected estimate: the interval is not reliable
MIN_RARE = 10  # fewer labels of a yes/no label's rarer value: the interval may be too narrow
UNLIKE_P = 0.01  # labels without a plan whose judge scores differ from the rest's this surely
# are said to look unlike the run (a random draw is flagged 1% of the time)
TARGET_WIDTH = 0.1  # the interval width to aim for, as a share of the label's range

RowKey = tuple[str, str]


class LabelScale(Result):
    """How a label's values read: bool, or a grade within [low, high]; its direction."""

    kind: Literal["bool", "grade"]
    low: float
    high: float
    higher_is_better: bool = True

    def to_unit(self, x: float) -> float:
        return (x - self.low) / (self.high - self.low)

    def from_unit(self, x: float) -> float:
        return self.low + x * (self.high - self.low)


class LabelsOnly(Result):
    """The estimate from the labels alone (the classical interval), on the label's scale."""

    estimate: float
    ci_low: float
    ci_high: float


class CorrectedEstimate(Result):
    """The human-level mean of one label, estimated through one metric's scores."""

    label: str
    metric: str
    inverted: bool
    strategy: str | None  # None: the whole run
    scale: LabelScale
    estimate: float  # on the label's own scale
    ci_low: float
    ci_high: float
    labels_only: LabelsOnly
    n_labelled: int
    n_total: int
    n_unscored: int  # samples the metric left unscored (given the mean score)
    # samples whose answer abstained (no judge score either: given the mean score; since
    # report_version 2.12.0, counted in n_unscored before)
    n_abstained: int = 0
    judge_mean: float | None  # the metric's own mean over the same samples, its scale
    lam: float
    gain: float | None  # labels-only variance / corrected variance
    effective_labels: float | None
    design: str  # "uniform" (assumed for labels without a plan) or the plan's kind
    target_width: float  # on the label's scale
    more_labels: int | None  # about how many more labels reach target_width; None: more
    # than the run has
    note: str | None = None  # a caution about this interval, when there is one
    # what `judge_mean` is: a score's mean or a yes/no verdict's rate, on the metric's
    # range (not the label's `scale`: 7.05 on 1-10 beside a 0-1 label)
    judge_scale: Scale | None = omitted()

    def judge_text(self) -> str:
        """The judge's own figure with its scale: `mean 7.173 on 1-10`, `rate 0.267 on
        0-1` ("-" without one; the bare number for an estimate without its scale), and
        the samples it rests on when some have no score, beside people's figure of every
        sample: `rate 0.557 on 0-1 (131 of 144 scored)`."""
        if self.judge_scale is None or self.judge_mean is None:
            return "-" if self.judge_mean is None else f"{self.judge_mean:.3f}"
        on = scored_text(self.n_total - self.n_unscored - self.n_abstained, self.n_total)
        return self.judge_scale.figure_text(self.judge_mean) + (f" ({on})" if on else "")

    def subject(self) -> str:
        """What a line under the estimates is about: `hallucinated via METRIC`,
        or the label alone when every sample is labelled (its figure is the same through
        every metric, said once: `split_exact`)."""
        return self.label if self.all_labelled else f"{self.label} via {self.metric}"

    @property
    def all_labelled(self) -> bool:
        """Every sample has people's label: the figure is the labels' own, nothing was
        corrected (the gain is 1)."""
        return self.n_labelled >= self.n_total

    @property
    def width(self) -> float:
        return self.ci_high - self.ci_low

    def narrowing(self) -> str | None:
        """What more labels would do to an interval wider than its target: about how
        many narrow it to the target, that the run has too few samples to, or, with every
        sample labelled (which `exact_text` says above it), that only more samples would;
        None once it is there. The line every surface says under a whole-run estimate
        (the console's summaries, the HTML report)."""
        if self.more_labels == 0:
            return None
        now = f"{self.target_width:g} wide (now {self.width:.3f})"
        if self.all_labelled:
            return f"only more samples would narrow the interval to {now}"
        if self.more_labels is None:
            return (f"even with all {self.n_total} samples labelled the interval would not "
                    f"narrow to {now}")
        return f"about {self.more_labels} more labels narrow the interval to {now}"

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump()


class CorrectedDifference(Result):
    """Strategy `a` minus strategy `b` on one label's human-level mean."""

    label: str
    metric: str
    a: str
    b: str
    estimate: float
    ci_low: float
    ci_high: float
    paired: bool  # from samples labelled under both strategies; else the two estimates'
    n_pairs: int

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump()


class Skipped(Result):
    """A link (per strategy, or the whole run) with no corrected estimate, and why; a
    label linked to no metric has `metric` None (`near_miss`: the vocabulary label its
    name is close to, a typo's, when it is one)."""

    label: str
    metric: str | None
    strategy: str | None
    reason: str
    too_few_labels: bool = False  # fewer labelled samples than an estimate needs
    near_miss: str | None = omitted()
    # its samples (the run's, a strategy's) where fewer than an estimate needs labelled:
    # labelling every one would not give it one (`too_small`)
    samples: int | None = omitted()

    def too_small(self) -> str | None:
        """Why more labels would not give it an estimate, where its samples are fewer than
        one needs (trial 60: a run of 24 samples, all labelled, was told to label more):
        `the run has 24 samples in all, so labelling cannot give one`; None otherwise."""
        return None if self.samples is None else too_small_text(self.samples, self.strategy)

    def subject(self) -> str:
        """What has no estimate, as the report and the dashboard say it: `LABEL via
        METRIC`, or the label alone when it is linked to no metric."""
        return self.label if self.metric is None else f"{self.label} via {self.metric}"

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump()


class Corrected(Result):
    """Every corrected estimate of a run, and every link that has none (`confidence`:
    of the intervals; `min_labels`: fewer labelled samples give no estimate)."""

    min_labels: int = MIN_LABELS
    confidence: float = 1 - ppi.ALPHA
    estimates: tuple[CorrectedEstimate, ...] = ()
    differences: tuple[CorrectedDifference, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    # where people's labels from the store were read: the rule that made several
    # people's labels one value (`LabelRule`: "majority", "annotator:NAME") and, per
    # label, how many samples took a value from how many labels, and the ties left out
    label_rule: str | None = omitted()
    label_sources: dict[str, LabelSource] | None = omitted()

    _metrics: tuple[str, ...] = PrivateAttr(default=())  # the run's, when known

    @property
    def alpha(self) -> float:
        return 1 - self.confidence

    def rule_text(self) -> str | None:
        """`people's labels read by rule majority; hallucinated: 30 samples: 24 from 1
        label, 6 from 2 labels; 1 tie left out` (None: no people's labels were read)."""
        if self.label_rule is None:
            return None
        return f"people's labels read by rule {self.label_rule}" + "".join(
            f"; {name}: {src.describe()}" for name, src in (self.label_sources or {}).items())

    def with_metrics(self, metrics: Sequence[str]) -> Corrected:
        """This result, knowing the run's metrics (so that `overall` refuses others)."""
        self._metrics = tuple(metrics)
        return self

    def find(self, metric: str, label: str | None = None) -> CorrectedEstimate | None:
        """The whole-run estimate through `metric` (of `label`, when given), or None."""
        return next((e for e in self.estimates if e.metric == metric and e.strategy is None
                     and (label is None or e.label == label)), None)

    def overall(self, metric: str, label: str | None = None) -> CorrectedEstimate | None:
        """The whole-run estimate through `metric` (of `label`, when given); None for a
        metric of the run without one (see `skipped`), ValueError (did you mean) for a
        metric the run does not have (when it knows the run's metrics: `corrected` does)."""
        known = self._metrics  # () when read back from a report: not checked
        if known and metric not in known:
            raise ValueError(f"unknown metric {metric!r}{did_you_mean(metric, known)}; this "
                             f"run has {', '.join(known) or 'no metrics'}")
        return self.find(metric, label)

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump()


@dataclass(frozen=True)
class CorrectedOptions:
    """What a corrected estimate needs beyond the table."""

    min_labels: int = MIN_LABELS
    alpha: float = ppi.ALPHA
    target_width: float = TARGET_WIDTH  # share of the label's range
    seed: int = 0
    # label name -> row key -> inclusion probability, for labels drawn by a weighted plan
    designs: Mapping[str, Mapping[RowKey, float]] = field(default_factory=dict)
    design_kind: str = "uniform"
    per_strategy: bool = True
    # how several people's labels of a sample become one (None: majority); read where
    # the store's labels join the table (`report.run_table`)
    rule: LabelRule | None = None
    # a yes/no label with fewer labels of its rarer value gets a note: its interval may
    # be too narrow (docs/corrected_figures.md: EVOUNA, 15% wrong, 50 labels: 86-89%
    # coverage, the labels' own interval 93%)
    min_rare: int = MIN_RARE


def _scale(label: str, values: Sequence[Any], metric_range: tuple[float, float]
           ) -> LabelScale | str | None:
    """The label's scale (vocabulary, else read from its values), a one-line problem with
    a value, or None when a label of the user's own has one value only (its scale cannot
    be read yet: more labels may give it one)."""
    kind = lookup(label)
    if kind is not None:
        scale = LabelScale(kind=kind.kind, low=kind.low, high=kind.high,
                           higher_is_better=kind.higher_is_better)
    elif all(isinstance(v, bool) or v in (0, 1) for v in values):
        scale = LabelScale(kind="bool", low=0.0, high=1.0)
    else:
        for v in values:  # the rule the import applies: a mean of +-1e308 is not finite
            problem = own_value(v)
            if isinstance(problem, str):
                return f"label '{label}': {problem}"
        nums = [float(v) for v in values]
        lo, hi = min(nums), max(nums)
        rng = ((0.0, 1.0) if lo >= 0 and hi <= 1 else metric_range
               if metric_range[0] <= lo and hi <= metric_range[1] else (lo, hi))
        if rng[1] <= rng[0]:
            return None
        scale = LabelScale(kind="grade", low=rng[0], high=rng[1])
    for v in values:
        checked = check_value(v, scale.kind, scale.low, scale.high)
        if isinstance(checked, str):
            return f"label '{label}': {checked}"
    return scale


def _scores(table: ScoreTable, rows: Sequence[Row], link: LabelLink
            ) -> tuple[np.ndarray, list[float]]:
    """The metric's scores on 0-1 oriented to the label (an unscored sample gets the mean
    score), and the scored ones as they were."""
    spec = table.spec(link.metric)
    column = [r.value(link.metric) for r in rows]
    scored = [spec.normalise(v) for v in column if v is not None]
    fill = float(np.mean(scored)) if scored else 0.5
    f = np.array([fill if v is None else spec.normalise(v) for v in column])
    return (1.0 - f if link.inverted else f), scored


def _skip(link: LabelLink, strategy: str | None, reason: str, few: bool = False,
          samples: int | None = None) -> Skipped:
    return Skipped(label=link.label_key, metric=link.metric, strategy=strategy, reason=reason,
                   too_few_labels=few, samples=samples)


def _one(table: ScoreTable, rows: Sequence[Row], link: LabelLink, strategy: str | None,
         opts: CorrectedOptions) -> CorrectedEstimate | Skipped:
    """The corrected estimate of one link over `rows` (a strategy's, or all)."""
    key, spec = link.label_key, table.spec(link.metric)
    labelled = [i for i, r in enumerate(rows) if r.labels.get(key) is not None]
    raw = [rows[i].labels[key] for i in labelled]
    # a value off the label's scale first: more labels would not mend it
    scale = _scale(key, raw, (spec.low, spec.high)) if raw else None
    if isinstance(scale, str):
        return _skip(link, strategy, scale)
    f, scored = _scores(table, rows, link)
    if labelled and not scored and len(labelled) < len(rows):  # more labels would not mend
        return _skip(link, strategy, "no sample has a judge score")  # (all: the labels' own)
    if len(labelled) < opts.min_labels and len(labelled) < len(rows):  # all: people's own
        return _skip(link, strategy, f"{len(labelled)} labelled samples, fewer than the "
                     f"{opts.min_labels} a corrected estimate needs", few=True,
                     samples=len(rows) if len(rows) < opts.min_labels else None)
    if scale is None:
        return _skip(link, strategy, f"label '{key}' has one value only ({raw[0]:g})")
    y = np.array([scale.to_unit(float(v)) for v in raw])
    pis, binary, same = opts.designs.get(key), scale.kind == "bool", float(y.min()) == y.max()
    # all alike: a yes/no label's own exact interval; a grade's, a weighted plan's: none
    if same and (not binary or pis):
        return _skip(link, strategy, no_variation_text(len(y), raw[0], len(y) == len(rows)))
    mask = np.zeros(len(rows), dtype=bool)
    mask[labelled] = True
    h_lab, h_rest = ppi.cross_fit(f[mask], y, f[~mask], seed=opts.seed)
    if pis:
        h_all = np.empty(len(rows))
        h_all[mask], h_all[~mask] = h_lab, h_rest
        pi = [pis.get(rows[i].key, 0.0) for i in labelled]
        if min(pi) <= 0:
            return _skip(link, strategy, "a labelled sample has no inclusion probability "
                         "in the annotation plan")
        est = ppi.weighted_mean(y, h_lab, pi, h_all, alpha=opts.alpha)
        design = opts.design_kind
    else:
        est = ppi.ppi_mean(y, h_lab, h_rest, alpha=opts.alpha, binary=binary)
        design = "uniform"
    abstained = sum(r.value(link.metric) is None and link.metric in r.abstained for r in rows)
    out = _estimate(link, strategy, scale, est, (len(rows) - len(scored) - abstained,
                                                 abstained), scored, spec, opts, design)
    said_rare = binary and not est.corrected.exact and not out.all_labelled  # (trial 70)
    notes = [uncorrected_text(len(y), raw[0]) if same and est.n_labelled < est.n_total else "",
             rare_text(int(min(y.sum(), len(y) - y.sum())), opts.min_rare) if said_rare else None,
             None if pis else _unlike(table, rows, labelled)]  # no plan: a random draw?
    note = "; ".join(x for x in notes if x) or None
    return out.model_copy(update={"note": note}) if note else out


def _unlike(table: ScoreTable, rows: Sequence[Row], labelled: Sequence[int]) -> str | None:
    """A caution when the labelled samples' judge scores differ from the other samples'
    on any metric of the run (two-sided Mann-Whitney, p < UNLIKE_P over the metrics
    compared, Bonferroni; at least 10 scored on each side): labels picked, not drawn at
    random, make the interval that assumes a random draw wrong."""
    from scipy.stats import mannwhitneyu

    chosen = set(labelled)
    found: list[tuple[float, str, float, float, int]] = []
    for metric in table.metrics:
        ours = [float(v) for i, r in enumerate(rows) if i in chosen
                and (v := r.value(metric)) is not None]
        rest = [float(v) for i, r in enumerate(rows) if i not in chosen
                and (v := r.value(metric)) is not None]
        if len(ours) < 10 or len(rest) < 10 or len(set(ours) | set(rest)) < 2:
            continue
        p = float(mannwhitneyu(ours, rest).pvalue)
        found.append((p, metric, float(np.mean(ours)), float(np.mean(rest)), len(rest)))
    if not found or not min(found)[0] < UNLIKE_P / len(found):
        return None
    p, metric, mine, others, n = min(found)
    return (f"the {len(labelled)} labelled samples look unlike the run: their {metric} "
            f"mean {mine:.3g} vs {others:.3g} over the other {n} (Mann-Whitney p = {p:.2g}); "
            "labels picked rather than drawn at random make this interval unreliable: "
            "draw them with an annotation plan (ragassay annotate)")


def _estimate(link: LabelLink, strategy: str | None, scale: LabelScale, est: ppi.Estimate,
              left: tuple[int, int], scored: list[float], spec: MetricSpec,
              opts: CorrectedOptions, design: str) -> CorrectedEstimate:
    """The estimate as reported; `left`: the samples without a judge score, (unscored,
    abstained)."""
    c, lab = est.corrected, est.labels_only
    span = scale.high - scale.low
    half = opts.target_width / 2
    z = ppi.norm.ppf(1 - opts.alpha / 2)
    se = c.width / (2 * z) if c.exact else c.se  # an exact one by its width (se 0: all alike)
    share = est.n_labelled * (z * se / half) ** 2 if half > 0 else 0.0
    needed = math.ceil(share) if math.isfinite(share) else None
    more = max(0, needed - est.n_labelled) if needed is not None and needed <= est.n_total \
        else None
    judge = (float(np.mean([spec.low + x * (spec.high - spec.low) for x in scored]))
             if scored else None)  # every sample labelled, none scored: the labels alone
    return CorrectedEstimate(
        label=link.label_key, metric=link.metric, inverted=link.inverted, strategy=strategy,
        scale=scale, estimate=scale.from_unit(c.estimate), ci_low=scale.from_unit(c.ci_low),
        ci_high=scale.from_unit(c.ci_high),
        labels_only=LabelsOnly(estimate=scale.from_unit(lab.estimate),
                               ci_low=scale.from_unit(lab.ci_low),
                               ci_high=scale.from_unit(lab.ci_high)),
        n_labelled=est.n_labelled, n_total=est.n_total, n_unscored=left[0],
        n_abstained=left[1], judge_mean=judge,
        lam=est.lam, gain=est.gain, effective_labels=est.effective_labels, design=design,
        target_width=opts.target_width * span, more_labels=more,
        judge_scale=Scale.of(spec),
    )


def _difference(table: ScoreTable, link: LabelLink, a: CorrectedEstimate,
                b: CorrectedEstimate, rows_a: Sequence[Row], rows_b: Sequence[Row],
                opts: CorrectedOptions) -> CorrectedDifference:
    """a - b: paired through the samples with the same id under both strategies when at
    least `min_labels` of them are labelled under both (PPI++ on the differences, uniform
    designs only) and the differences vary (all alike, their interval is zero wide);
    otherwise the two estimates' difference with their variances added (conservative:
    the two share questions, so their errors are positively related)."""
    key, metric = a.label, a.metric
    by_id = {r.id: i for i, r in enumerate(rows_b)}
    index = [(i, by_id[r.id]) for i, r in enumerate(rows_a) if r.id in by_id]
    pairs = [(rows_a[i], rows_b[j]) for i, j in index]
    both = [i for i, (x, y) in enumerate(pairs)
            if x.labels.get(key) is not None and y.labels.get(key) is not None]
    uniform = a.design == "uniform" and b.design == "uniform"
    d = np.array([a.scale.to_unit(float(pairs[i][0].labels[key]))
                  - a.scale.to_unit(float(pairs[i][1].labels[key])) for i in both])
    if uniform and len(both) >= max(1, opts.min_labels) and float(d.min()) < float(d.max()):
        fa, fb = _scores(table, rows_a, link)[0], _scores(table, rows_b, link)[0]
        f = np.array([fa[i] - fb[j] for i, j in index])
        mask = np.zeros(len(pairs), dtype=bool)
        mask[both] = True
        est = ppi.ppi_mean((d + 1) / 2, (f[mask] + 1) / 2, (f[~mask] + 1) / 2,
                           alpha=opts.alpha).corrected
        span = a.scale.high - a.scale.low
        lo, mid, hi = ((2 * x - 1) * span for x in (est.ci_low, est.estimate, est.ci_high))
        return CorrectedDifference(label=key, metric=metric, a=str(a.strategy),
                                   b=str(b.strategy), estimate=mid, ci_low=lo, ci_high=hi,
                                   paired=True, n_pairs=len(both))
    z = ppi.norm.ppf(1 - opts.alpha / 2)
    se = math.hypot(*(e.width / (2 * z) for e in (a, b)))
    mid = a.estimate - b.estimate
    return CorrectedDifference(label=key, metric=metric, a=str(a.strategy), b=str(b.strategy),
                               estimate=mid, ci_low=mid - z * se, ci_high=mid + z * se,
                               paired=False, n_pairs=len(both))


def corrected(table: ScoreTable, links: Sequence[LabelLink] | None = None,
              options: CorrectedOptions | None = None) -> Corrected:
    """Corrected estimates for every link (default: each label's vocabulary links to the
    run's metrics), for the whole run and, with several strategies, per strategy."""
    opts = options or CorrectedOptions()
    if links is None:
        links = [LabelLink(label, metric, inverted=inv) for label in table.label_names
                 for metric, inv in linked_metrics(label, table.specs.values())]
    estimates: list[CorrectedEstimate] = []
    skipped: list[Skipped] = []
    differences: list[CorrectedDifference] = []
    strategies = table.strategies if opts.per_strategy and len(table.strategies) > 1 else ()
    groups: list[tuple[str | None, Sequence[Row]]] = [(None, table.rows)]
    groups += [(s, [r for r in table.rows if r.strategy == s]) for s in strategies]
    for link in links:
        if link.metric not in table.specs:
            skipped.append(_skip(link, None, "metric not in run"))
            continue
        per: dict[str, tuple[CorrectedEstimate, Sequence[Row]]] = {}
        for strategy, rows in groups:
            out = _one(table, rows, link, strategy, opts)
            if isinstance(out, Skipped):
                skipped.append(out)
                continue
            estimates.append(out)
            if strategy is not None:
                per[strategy] = (out, rows)
        for (ea, ra), (eb, rb) in combinations(per.values(), 2):
            differences.append(_difference(table, link, ea, eb, ra, rb, opts))
    skipped += [Skipped(label=u.label, metric=None, strategy=None, reason=u.reason,
                        near_miss=u.near_miss) for u in unlinked_skips(table.label_names, links)]
    return Corrected(min_labels=opts.min_labels, confidence=1 - opts.alpha,
                     estimates=tuple(estimates), differences=tuple(differences),
                     skipped=tuple(skipped)).with_metrics(table.metrics)
