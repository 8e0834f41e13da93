"""Which labels an annotation session asks, and the plan it follows: started afresh,
resumed as stored, or replaced on request.

A plan fixes the queue's order (its kind, seed and, for `uncertainty`, the metric whose
scores weight it); the labels given so far are a valid sample only under the plan that
drew them, so a stored plan is never changed silently: asking for a different kind, seed
or metric is a `PlanConflict` unless `replace` is set. Adding labels to ask is not a
change of order, so they join the stored plan's labels.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from ragassay.labels import VOCABULARY, canonical, linked_metrics, lookup
from ragassay.stats import ScoreTable
from ragassay.text import did_you_mean
from ragassay.types import AnnotationPlan, MetricSpec, PlanKind


class AnnotationError(ValueError):
    """A setup mistake of an annotation session, said in one line."""


class PlanConflict(AnnotationError):
    """The options ask for another order than the run's stored plan."""

    def __init__(self, message: str, plan: AnnotationPlan) -> None:
        super().__init__(message)
        self.plan = plan


@dataclass(frozen=True)
class SessionOptions:
    """What a person asks of a session; None / empty: the stored plan's, else the default
    (a uniform plan, seed 0, the vocabulary labels linked to the run's metrics)."""

    kind: PlanKind | None = None
    seed: int | None = None
    metric: str | None = None  # weights an `uncertainty` plan; alone, picks the labels
    labels: tuple[str, ...] = ()
    replace: bool = False  # replace a stored plan of another kind, seed or metric


def unscored_everywhere(table: ScoreTable) -> dict[str, str]:
    """The run's metrics with a value on no sample (a `correct` label's answer_similarity
    on a run without references), each with its most common reason: a label compared only
    with these feeds no corrected estimate, so a session does not ask it unless named."""
    out: dict[str, str] = {}
    for m in table.metrics:
        if not table.values(m):
            reasons = table.unscored_reasons(m)
            out[m] = max(reasons, key=lambda r: reasons[r]) if reasons else ""
    return out


def idle_labels(names: Iterable[str], specs: Sequence[MetricSpec],
                unscored: Mapping[str, str]) -> list[str]:
    """Of `names`, those compared with some of the metrics of `specs` but only with metrics
    unscored on every sample (`unscored_everywhere`): their labels would correct nothing."""
    scored = [s for s in specs if s.name not in unscored]
    return [n for n in names
            if linked_metrics(n, specs) and not linked_metrics(n, scored)]


@dataclass(frozen=True)
class LabelChoice:
    """The labels a session asks, and the lines it says about the rest: `left_out`, those
    it would ask by default but does not (compared only with metrics unscored on every
    sample), `idle`, those asked by name although they are. The one rule the terminal
    session and the dashboard's Annotate page share."""

    asked: list[str]
    left_out: list[str] = field(default_factory=list)
    idle: list[str] = field(default_factory=list)
    run_id: str = ""
    specs: Sequence[MetricSpec] = ()
    unscored: Mapping[str, str] = field(default_factory=dict)

    def why(self, labels: Sequence[str]) -> str:
        """`SUITE.answer_similarity (no reference answer), which it is compared with, is
        unscored on every sample of run R`: each metric with its most common reason."""
        linked = dict.fromkeys(m for n in labels for m, _ in linked_metrics(n, self.specs)
                               if m in self.unscored)
        said = ", ".join(f"{m} ({self.unscored[m]})" if self.unscored[m] else m
                         for m in linked)
        one = len(labels) == 1
        verb = "is" if len(linked) == 1 else "are"
        return (f"{said}, which {'it is' if one else 'they are'} compared with, {verb} "
                f"unscored on every sample of run {self.run_id}")

    def notes(self) -> list[str]:
        """One line for the labels left out, one warning for those asked anyway."""
        out: list[str] = []
        for names, line in ((self.left_out, "not asking {}: {}, so {} labels would feed no "
                                            "corrected estimate"),
                            (self.idle, "warning: asking {} as named, although {}: {} labels "
                                        "will feed no corrected estimate")):
            if names:
                out.append(line.format(", ".join(names), self.why(names),
                                       "its" if len(names) == 1 else "their"))
        return out


def describe(plan: AnnotationPlan) -> str:
    """`an uncertainty plan (seed 0, by SUITE.faithfulness; labels hallucinated)`."""
    by = f", by {plan.metric}" if plan.kind == "uncertainty" and plan.metric else ""
    labels = f"; labels {', '.join(plan.labels)}" if plan.labels else ""
    article = "an" if plan.kind == "uncertainty" else "a"
    return f"{article} {plan.kind} plan (seed {plan.seed}{by}{labels})"


def default_labels(specs: Sequence[MetricSpec], data_labels: Iterable[str] = ()) -> list[str]:
    """The vocabulary labels linked to the metrics of `specs`, one per group of metrics: a label the
    run's data already uses first (so `faithful` data gets `faithful` asked), then the
    vocabulary's order; a label whose metrics an earlier one covers is left out
    (`faithful` after `hallucinated`: one is the other's complement)."""
    used = [canonical(n) for n in data_labels if lookup(n) is not None]
    chosen: list[str] = []
    covered: set[str] = set()
    for name in dict.fromkeys([*used, *(k.name for k in VOCABULARY)]):
        linked = {m for m, _ in linked_metrics(name, specs)}
        if linked and not linked <= covered:
            chosen.append(name)
            covered |= linked
    return chosen


def _link_hint(specs: Sequence[MetricSpec]) -> str:
    """The run's metrics, none of which declares the label (`MetricSpec.labels`)."""
    names = ", ".join(s.name for s in specs)
    return f" (its metrics: {names})" if names else ""


def check_labels(names: Sequence[str], specs: Sequence[MetricSpec], run_id: str) -> list[str]:
    """The labels asked for, by their vocabulary names; AnnotationError for a name outside
    the vocabulary or one linked to none of the run's metrics."""
    known = [k.name for k in VOCABULARY]
    out: list[str] = []
    for name in names:
        if lookup(name) is None:
            raise AnnotationError(f"'{name}' is not a label the annotation asks; the labels "
                                  f"are {', '.join(known)}{did_you_mean(name, known)}")
        if not linked_metrics(name, specs):
            raise AnnotationError(f"label '{canonical(name)}' is linked to no metric of run "
                                  f"{run_id}{_link_hint(specs)}")
        if canonical(name) not in out:
            out.append(canonical(name))
    return out


def check_metric(metric: str, metrics: Sequence[str], run_id: str) -> str:
    if metric not in metrics:
        raise AnnotationError(f"run {run_id} has no metric '{metric}'"
                              f"{did_you_mean(metric, list(metrics))}; its metrics are "
                              f"{', '.join(metrics) or 'none'}")
    return metric


def asked_labels(opts: SessionOptions, specs: Sequence[MetricSpec], data_labels: Sequence[str],
                 run_id: str, unscored: Mapping[str, str] | None = None) -> LabelChoice:
    """The labels a session asks: those given (kept, with a warning for any compared only
    with metrics unscored on every sample: `unscored`), else the defaults for the run's
    metrics (or for `opts.metric` alone, when given) less such labels, which are said to
    be left out; AnnotationError when there are none."""
    unscored = dict(unscored or {})
    said = LabelChoice([], run_id=run_id, specs=tuple(specs), unscored=unscored)
    if opts.labels:
        labels = check_labels(opts.labels, specs, run_id)
        return replace(said, asked=labels, idle=idle_labels(labels, specs, unscored))
    names = [s.name for s in specs]
    pool = ([s for s in specs if s.name == check_metric(opts.metric, names, run_id)]
            if opts.metric else list(specs))
    every = default_labels(pool, data_labels)
    chosen = default_labels([s for s in pool if s.name not in unscored], data_labels)
    if chosen:
        return replace(said, asked=chosen, left_out=[x for x in every if x not in chosen])
    vocabulary = ", ".join(k.name for k in VOCABULARY)
    if every:
        raise AnnotationError(f"no label can be asked: {said.why(every)}, so labels would "
                              "correct nothing")
    if opts.metric:
        raise AnnotationError(f"metric {opts.metric} is compared with no human label "
                              f"({vocabulary}); pick another with --metric, or none")
    raise AnnotationError(f"no metric of run {run_id} is compared with a human label "
                          f"({vocabulary}), so labels would correct nothing; annotate a run of "
                          "the judge, trace or ragas suite")


def _uncertainty_metric(opts: SessionOptions, labels: Sequence[str],
                        specs: Mapping[str, MetricSpec], run_id: str) -> str:
    """The metric whose scores weight an uncertainty plan: the one given, else the first
    score (not yes/no) metric linked to the first label that has one."""
    metrics = list(specs)
    if opts.metric:
        metric = check_metric(opts.metric, metrics, run_id)
        if specs[metric].gives_verdict:
            raise AnnotationError(f"metric {metric} is a yes/no verdict: every sample is "
                                  "as sure as any other, so an uncertainty plan by it is a "
                                  "uniform one; weight it by a score metric")
        return metric
    for label in labels:
        for metric, _ in linked_metrics(label, specs.values()):
            if not specs[metric].gives_verdict:
                return metric
    raise AnnotationError(f"no score metric of run {run_id} is compared with "
                          f"{', '.join(labels)}: an uncertainty plan needs one; use a "
                          "uniform plan")


def resolve_plan(stored: AnnotationPlan | None, opts: SessionOptions, run_id: str,
                 specs: Mapping[str, MetricSpec], data_labels: Sequence[str],
                 unscored: Mapping[str, str] | None = None
                 ) -> tuple[AnnotationPlan, LabelChoice]:
    """The plan to follow and the labels to ask (a subset of the plan's), with the lines
    to say about labels left out or asked in vain (`asked_labels`; `unscored`: the run's
    metrics unscored on every sample, `unscored_everywhere`).

    No stored plan, or `opts.replace`: a new one from the options. A stored plan: resumed,
    with any new labels added; PlanConflict when the options ask for another order."""
    metrics = list(specs)
    if opts.metric:
        check_metric(opts.metric, metrics, run_id)
    if (stored is not None and stored.labels and not opts.replace
            and not (opts.labels or opts.metric)):  # resumed: the plan's labels, as chosen
        planned = [canonical(n) for n in stored.labels]
        listed = tuple(specs.values())
        choice = LabelChoice(planned, idle=idle_labels(planned, listed, unscored or {}),
                             run_id=run_id, specs=listed, unscored=unscored or {})
    else:
        choice = asked_labels(opts, tuple(specs.values()), data_labels, run_id, unscored)
    labels = choice.asked
    if stored is not None and not opts.replace:
        kind = opts.kind or stored.kind
        metric = (_uncertainty_metric(opts, labels, specs, run_id)
                  if opts.metric and kind == "uncertainty" else None)
        changed = (kind != stored.kind or (opts.seed is not None and opts.seed != stored.seed)
                   or (kind == "uncertainty" and metric is not None and metric != stored.metric))
        if changed:
            raise PlanConflict(f"run {run_id} is annotated with {describe(stored)}: resume "
                               "it as it is, or replace it (the labels given so far stay)",
                               stored)
        merged = tuple(dict.fromkeys([*stored.labels, *choice.asked]))
        plan = stored if merged == stored.labels else stored.model_copy(
            update={"labels": merged})
        return plan, choice
    kind = opts.kind or "uniform"
    metric = (_uncertainty_metric(opts, labels, specs, run_id) if kind == "uncertainty"
              else opts.metric)
    plan = AnnotationPlan(run_id=run_id, kind=kind, seed=opts.seed or 0, metric=metric,
                          labels=tuple(labels))
    return plan, choice
