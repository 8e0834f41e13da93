"""A jury's verdict: one suite's outcomes from several judges combined into one.

Per metric, over the jurors that scored it: a rating (or ratio) is the mean of the
jurors' values (each a probability-weighted rating when the judge gave token
probabilities), with the mean of their rating distributions (a juror without one counts
as all its mass on its value); a flag is the majority, a tie going to the more cautious
verdict (the worse side of the metric: `hallucination` true), with `rating.p_true` the jurors'
mean P(true) (a juror without one counts its vote as 0 or 1); a composite is recomputed
from the combined parts by its declared rule. `details["jury"]` keeps each juror's
value. A metric no juror scored takes the first juror's outcome (abstained when some
juror abstained, else unscored with its reason).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from ragassay.metrics.base import Outcome, Suite
from ragassay.types import MetricResult, MetricSpec, RatingReading, SampleResult, Usage

OWN_DETAILS = frozenset({"p_true", "distribution", "stated", "mass", "rating_mode",
                         "rating_fallback", "weights"})
"""Details that describe one judge's reading (not carried into the jury's verdict)."""


def _distribution(result: MetricResult) -> dict[str, float] | None:
    dist = result.rating.distribution if result.rating is not None else None
    return {str(k): float(v) for k, v in dist.items()} if dist else None


def _p_true(result: MetricResult) -> float | None:
    """A juror's P(true) of a flag: an LLM's token probability (`rating.p_true`), the
    offline judge's calibrated probability (its suite's own record)."""
    p = result.rating.p_true if result.rating is not None else None
    if p is None:
        p = result.details.get("p_true")
    return float(p) if isinstance(p, int | float) else None


def _mean_distribution(scored: Sequence[MetricResult]) -> dict[str, float] | None:
    dists = [_distribution(r) for r in scored]
    if not any(d is not None for d in dists):
        return None
    out: dict[str, float] = defaultdict(float)
    for r, d in zip(scored, dists, strict=True):
        if d is None:
            d = {str(round(float(r.value or 0))): 1.0}
        mass = sum(d.values()) or 1.0
        for k, p in d.items():
            out[k] += p / mass / len(scored)
    return {k: round(v, 6) for k, v in sorted(out.items(), key=lambda kv: float(kv[0]))}


def _flag(spec: MetricSpec, scored: Sequence[MetricResult]) -> tuple[bool, float]:
    votes = [bool(r.value) for r in scored]
    yes, no = sum(votes), len(votes) - sum(votes)
    cautious = not spec.higher_is_better  # the worse side: True when higher is worse
    value = yes > no or (yes == no and cautious)
    probs = []
    for r, vote in zip(scored, votes, strict=True):
        p = _p_true(r)
        probs.append(p if p is not None else float(vote))
    return value, sum(probs) / len(probs)


def _one(spec: MetricSpec, jurors: Sequence[str], results: Sequence[MetricResult | None]
         ) -> MetricResult:
    present = [(j, r) for j, r in zip(jurors, results, strict=True) if r is not None]
    votes = {j: r.value for j, r in present}
    scored = [r for _, r in present if r.value is not None]
    if not scored:
        first = next((r for _, r in present if r.abstention is not None), None) or present[0][1]
        return first.model_copy(update={"details": {**first.details, "jury": votes}})
    details: dict[str, Any] = {k: v for k, v in scored[0].details.items()
                               if k not in OWN_DETAILS}
    details["jury"] = votes
    if len(scored) < len(jurors):
        details["jurors_scored"] = len(scored)
    if spec.kind == "bool":
        flag, p = _flag(spec, scored)
        return MetricResult(name=spec.name, value=flag, details=details,
                            rating=RatingReading(mode="expected", p_true=round(p, 6)))
    value = sum(float(r.value or 0) for r in scored) / len(scored)
    dist = _mean_distribution(scored)
    return MetricResult(name=spec.name, value=value, details=details,
                        rating=None if dist is None else
                        RatingReading(mode="expected", distribution=dist))


def combine(suite: Suite, jurors: Sequence[str], outcomes: Sequence[Outcome]) -> Outcome:
    """The jury's outcome for one (sample, suite) from its jurors' outcomes (in juror
    order): see the module docstring."""
    specs = {s.name: s for s in suite.specs}
    per: list[dict[str, MetricResult]] = [{r.name: r for r in o.result.results}
                                          for o in outcomes]
    names = [r.name for r in outcomes[0].result.results]
    combined: dict[str, MetricResult] = {}
    for name in names:
        spec = specs.get(name) or MetricSpec(name=name)
        if spec.composite is None:
            combined[name] = _one(spec, jurors, [p.get(name) for p in per])
    for name in names:
        rule = declared.composite if (declared := specs.get(name)) is not None else None
        if rule is None:
            continue
        parts = {k: None if (r := combined.get(k)) is None or r.value is None
                 else float(r.value) for k in (*rule.weights, *filter(None, [rule.penalty]))}
        value, weights = rule.combine(parts)
        votes = {j: p[name].value if name in p else None
                 for j, p in zip(jurors, per, strict=True)}
        own = per[0][name]
        combined[name] = (own.model_copy(update={"details": {**own.details, "jury": votes}})
                          if value is None else
                          MetricResult(name=name, value=value,
                                       details={"weights": weights, "jury": votes}))
    usage = sum((o.result.usage for o in outcomes), Usage())
    reasons = [f"{j}: {o.result.reasoning}" for j, o in zip(jurors, outcomes, strict=True)
               if o.result.reasoning]
    first = outcomes[0].result
    result = SampleResult(sample_id=first.sample_id, strategy=first.strategy,
                          suite=first.suite, results=tuple(combined[n] for n in names),
                          reasoning="\n".join(reasons) or None, usage=usage)
    return Outcome(result, tuple(c for o in outcomes for c in o.calls))
