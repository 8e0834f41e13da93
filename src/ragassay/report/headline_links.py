"""What a report holds of each metric its labels are compared with, for the headline
(report/headline.py): the links in the run's metric order, a label as the run names it,
the calibration's agreement (or its skipped link, whose labels none has a value), the
abstentions a verdict counts where no verdict was compared, why a corrected
estimate more labels would not give is missing, and the judge's own figure read in the
label's direction."""

from __future__ import annotations

from ragassay.labels import VOCABULARY, canonical, linked_metrics
from ragassay.report.facts import Report
from ragassay.stats.calibration import BooleanAgreement, NumericAgreement, SkippedLink
from ragassay.stats.corrected import CorrectedEstimate
from ragassay.stats.describe import MetricAggregate, Scale
from ragassay.stats.verdicts import Declines


def linked(report: Report) -> list[tuple[str, str, bool]]:
    """(metric, label, inverted) for every metric of the run a label is compared with, in
    the run's metric order: a label the run has first (`faithful` labels head the
    hallucination verdict's row, not the `hallucinated` the run has none of), then the
    first link."""
    cal = report.calibration
    names = [k.name for k in VOCABULARY]
    own = [p.label for p in cal.pairs] if cal else []
    names += [n for n in dict.fromkeys(own) if canonical(n) not in names]
    have = {canonical(x.label) for x in [*cal.pairs, *cal.skipped]} if cal else set()
    names.sort(key=lambda n: canonical(n) not in have)
    found: dict[str, tuple[str, bool]] = {}
    for name in names:
        for metric, inverted in linked_metrics(name, [s for m in report.metrics
                                                      if (s := report.spec(m)) is not None]):
            found.setdefault(metric, (canonical(name), inverted))
    return [(m, *found[m]) for m in report.metrics if m in found]


def named(report: Report, label: str) -> str:
    """A vocabulary label as the run's labels name it (`hallucination`, an alias of
    `hallucinated`), as every other line of the run says it (trial 60: the headline said
    `hallucinated` above the footer's `hallucination`); as given where the run has none."""
    cal, cor = report.calibration, report.corrected
    said = [*(cal.pairs if cal else ()), *(cal.skipped if cal else ()),
            *(cor.estimates if cor else ()), *(cor.skipped if cor else ())]
    return next((x.label.removeprefix("labels.") for x in said
                 if canonical(x.label) == label), label)


def agreement_of(report: Report, metric: str, label: str
                 ) -> BooleanAgreement | NumericAgreement | None:
    """The calibration's agreement of `label` and `metric`, or None."""
    pairs = report.calibration.pairs if report.calibration else []
    return next((p for p in pairs if p.metric == metric and canonical(p.label) == label),
                None)


def uncompared_of(report: Report, metric: str, label: str) -> SkippedLink | None:
    """The calibration's skipped link of `label` and `metric` whose labelled samples all
    lack a value of the metric (`SkippedLink.abstained`, `.unscored`), or None."""
    skipped = report.calibration.skipped if report.calibration else []
    return next((s for s in skipped if s.metric == metric and canonical(s.label) == label
                 and s.abstained is not None), None)


def declines_of(report: Report, skip: SkippedLink | None) -> Declines | None:
    """For a metric that gives a yes/no verdict, the abstentions of a skipped link whose
    labels none has a value, which its agreement counts as it counts them beside verdicts
    (`verdicts.Declines`: right where people marked no problem); None otherwise (a score's
    AUROC has nothing to rank)."""
    spec = report.spec(skip.metric) if skip is not None and skip.metric else None
    if skip is None or spec is None or not spec.gives_verdict:
        return None
    return Declines.of(skip.label, skip.abstained, skip.unscored, skip.abstained_positives,
                       skip.abstained_false)


def blocked_of(report: Report, metric: str, label: str) -> str | None:
    """Why the run has no corrected estimate of `label` via `metric` when more labels
    would not give one (`Skipped.too_few_labels` false: a value off the label's scale),
    else None."""
    skipped = report.corrected.skipped if report.corrected is not None else ()
    return next((s.reason for s in skipped if s.strategy is None and s.metric == metric
                 and canonical(s.label) == label and not s.too_few_labels), None)


def own_figure(j: MetricAggregate, scale: Scale, metric: str, label: str,
               inverted: bool) -> tuple[str, str]:
    """The judge's own figure on its scale and, for an inverted link, how it reads in the
    label's direction beside people's (trial 67: people's hallucinated 0.556 beside an
    adherence rate 0.386): a 0-1 rate turned to the label's, (`rate 0.614 [0.531, 0.694]
    on 0-1`, `hallucinated rate: 1 - <metric>'s 0.386`); a score's mean as it is, with
    `inverted: high is not hallucinated`."""
    assert j.mean is not None
    if not inverted:
        return scale.figure_text(j.mean, j.text()), ""
    if not turns(scale, inverted):
        return scale.figure_text(j.mean, j.text()), f"inverted: high is not {label}"
    turned = j.model_copy(update={
        "mean": 1 - j.mean,
        "ci_low": None if j.ci_high is None else 1 - j.ci_high,
        "ci_high": None if j.ci_low is None else 1 - j.ci_low})
    return (scale.figure_text(turned.mean, turned.text()),
            f"{label} rate: 1 - {metric}'s {j.mean:.3f}")


def turns(scale: Scale | None, inverted: bool) -> bool:
    """Whether the headline shows the judge's figure turned to the label's direction (1 -
    a 0-1 rate of an inverted link: `own_figure`), in its cell, its comparison with
    people's rate and the JSON's `judge`."""
    return inverted and scale is not None and scale.figure == "rate" \
        and (scale.low, scale.high) == (0, 1)


def at_line(label: str, j: MetricAggregate | None,
            a: BooleanAgreement | NumericAgreement | None, cut: str,
            column: int | None = None) -> str:
    """A score's rate at its line (`cut`: `headline.kappa_cut`) beside people's yes/no
    rate, both of the label on the same samples, said before its mean (trial 72: people's
    hallucinated 0.25 beside a mean 7.3 on 1-10, under `(inverted)`, read as one scale):
    `hallucinated rate 0.237 at its line (a score below 5.5 read as hallucinated) on the
    38 it scored (people 0.263 on those 38)`, naming people's column's base where it is
    other samples (`column`: its count; trial 73: people's 0.625 on those 24 beside
    people's column 0.556 of all 30, unexplained): `(people 0.625 on those 24; people's
    column: all 30)`; "" for a verdict (`BooleanAgreement.rates` says its own), a
    grade's or with nothing compared."""
    if j is None or not isinstance(a, BooleanAgreement) or a.read_as is None or not a.n:
        return ""
    on = "" if a.n == j.count else " labelled"
    other = f"; people's column: all {column}" if column is not None and column != a.n else ""
    return (f"{label} rate {a.read_as / a.n:.3f} at its line{cut} on the {a.n}{on} it scored "
            f"(people {a.positives / a.n:.3f} on those {a.n}{other})")


def figure_of(e: CorrectedEstimate) -> str:
    """People's figure with its interval: `0.556 [0.474, 0.637]`."""
    return f"{e.estimate:.3f} [{e.ci_low:.3f}, {e.ci_high:.3f}]"
