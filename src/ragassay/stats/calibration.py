"""Agreement of metrics with ground-truth / human labels (Sample.labels).

A `LabelLink` ties a label to a metric. Metric values are normalised to 0-1 with their spec
and, for an inverted link, flipped (1 - x), so that every statistic reads "high metric
agrees with high / True label":

* boolean label: AUROC (Mann-Whitney, ties 0.5) with a bootstrap CI, and the metric as a
  decision (a bool metric as is, a score metric thresholded at `threshold` on its own 0-1
  scale: at or above it the metric's yes, `reads_as_label`, counted: `read_as`) ->
  balanced accuracy (with CI) and Cohen's kappa; a metric that gives a verdict (as it
  declares: `MetricSpec.gives_verdict`) also counts how often its verdict is people's
  label, what it misses and what it flags, on the label's problem side (`Verdicts`);
* numeric label: normalised to 0-1 with `label_range` (or an inferred one,
  reported) -> RMSE, bias (mean metric - mean label, both 0-1), Pearson,
  Spearman (with CI) and Kendall tau-b with p-values.

A labelled sample without a value of the metric (its answer abstains, or the metric left it
unscored) has nothing to compare: it is left out and counted (`abstained`, `unscored`; on
the skipped link when none is left to compare), and for a yes/no label people's labels of
the abstaining ones are counted too (`abstained_positives`). An abstention is never taken
for a verdict (not "not hallucinated"): it is the answer's decline, which the abstention
figures judge (a correct or a false decline), and a label whose good value is not "no
claim" (`correct`) would have no value to give it.

Default links are the ones the metrics declare (see `default_links`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field

from ragassay.labels import (
    linked_metrics,
    lookup,
    nearest,
    own_value,
    problem_value,
    unlinked_reason,
)
from ragassay.stats import agreement as ag
from ragassay.stats.baseline import LexicalComparison, against_baseline, baseline_lines
from ragassay.stats.readings import LabelLink, same_values, same_verdicts
from ragassay.stats.result import Pair, Result, omitted
from ragassay.stats.table import Row, ScoreTable
from ragassay.types import MetricSpec


class SameValues(Result):
    """Another metric linked to the same label, earlier in the links, whose values are a
    score's own on all but a few of the labelled samples (`same_readings`): `metric`, and
    on how many of the labelled samples (`samples`) the two say the same."""

    metric: str
    samples: int


class Agreement(Result):
    """What every label-metric pair has: which label, which metric (`inverted`: a high
    metric means a False / low label), over how many samples, and the labelled samples
    left out for want of a value (`abstained`: the answer abstains; `unscored`); for a
    score, the earlier metric whose values are nearly all its own (`same_values`, since
    report_version 2.17.0: its agreement is nearly that one's, not a second measurement)."""

    label: str
    metric: str
    inverted: bool
    n: int
    abstained: int = 0
    unscored: int = 0
    same_values: SameValues | None = omitted()

    @property
    def labelled(self) -> int:
        """The samples with the label, compared or left out."""
        return self.n + self.abstained + self.unscored

    def link(self) -> LabelLink:
        """The link this pair measured (what `compared` reads the table by)."""
        return LabelLink(label=self.label, metric=self.metric, inverted=self.inverted)


def same_values_text(same: SameValues, labelled: int) -> str:
    """What stands for a score's agreement whose values are an earlier metric's on all
    but a few of the `labelled` samples, in the headline's words, which the `--by KEY`
    table says too (trial 64: two identical AUROC columns): `same values as A on 143 of
    144 labelled samples: its agreement with people is nearly that metric's, not a second
    measurement` (`that metric's` on all)."""
    whole = same.samples == labelled
    on = ("the one labelled sample" if labelled == 1 else f"all {labelled} labelled samples"
          if whole else f"{same.samples} of {labelled} labelled samples")
    return (f"same values as {same.metric} on {on}: its agreement with people is "
            f"{'' if whole else 'nearly '}that metric's, not a second measurement")


class Verdicts(Result):
    """A metric's yes/no verdicts (oriented to the label) against people's yes/no labels,
    counted on the label's problem side (`problem`: the value that marks a problem, True
    of `hallucinated`, False of `faithful` and `correct`; `labels.problem_value`): how
    many agree, how many of people's problem labels the verdict calls fine (`missed`:
    a hallucination it did not catch) and of their fine labels it calls a problem
    (`flagged`); `same_as`: the metric linked to the same label, earlier in the links,
    whose verdicts are these on every labelled sample (`same_readings`), None when none
    is (since report_version 2.14.0; a group's too, the run's, since 2.18.0)."""

    agree: int
    missed: int
    flagged: int
    problem: bool = True
    same_as: str | None = omitted()


class BooleanAgreement(Agreement):
    """A boolean label: ranking (AUROC; the lexical baseline's on its samples, `baseline`)
    and decision (balanced accuracy, kappa); a verdict's confusion counts (`verdicts`)."""

    kind: Literal["boolean"] = "boolean"
    positives: int
    auroc: float | None
    auroc_ci: Pair | None
    decision_threshold: float
    balanced_accuracy: float | None
    balanced_accuracy_ci: Pair | None
    kappa: float | None
    kappa_ci: Pair | None = omitted()
    verdicts: Verdicts | None = omitted()
    # of the `abstained` samples left out, how many people labelled True (as `positives`)
    abstained_positives: int | None = omitted()
    # of the `abstained`, how many the run's abstention metric counted false (the judge
    # read the contexts as answering: `Row.abstention`); left out where none
    abstained_false: int | None = omitted()
    baseline: LexicalComparison | None = omitted()  # the lexical baseline on its samples
    read_as: int | None = omitted()  # a score's: samples it reads as the label at its line

    def rates(self) -> Pair | None:
        """The verdict's rate of yes and people's, on the samples compared, both in the
        metric's own terms (an inverted link's yes is the label's False): the judge's own
        rate beside people's on the same samples; None for a metric without verdicts."""
        v = self.verdicts
        if v is None or not self.n:
            return None
        said = self.positives + (v.flagged - v.missed if v.problem else v.missed - v.flagged)
        if self.inverted:
            return (self.n - said) / self.n, (self.n - self.positives) / self.n
        return said / self.n, self.positives / self.n


class NumericAgreement(Agreement):
    """A numeric label: error and bias on 0-1, and three correlations with p-values."""

    kind: Literal["numeric"] = "numeric"
    label_range: Pair | None
    label_range_source: str
    rmse: float | None
    bias: float | None
    pearson: float | None
    pearson_p: float | None
    spearman: float | None
    spearman_p: float | None
    kendall: float | None
    kendall_p: float | None
    spearman_ci: Pair | None


LabelAgreement = Annotated[BooleanAgreement | NumericAgreement, Field(discriminator="kind")]


class SkippedLink(Result):
    """A label-metric link that could not be measured, and why; a label linked to no
    metric has `metric` None (`near_miss`: the vocabulary label its name is close to, a
    typo's, when it is one). Labelled samples none of which has a value of the metric
    are counted by why (`abstained`, `unscored`): the labels exist, with nothing to
    compare."""

    label: str
    metric: str | None
    reason: str
    near_miss: str | None = omitted()
    abstained: int | None = omitted()
    unscored: int | None = omitted()
    abstained_positives: int | None = omitted()  # people's True labels of the abstained
    abstained_false: int | None = omitted()  # of the abstained, those counted false


class Calibration(Result):
    """Agreement of metrics with human labels: the measured pairs, the skipped links."""

    pairs: list[LabelAgreement]
    skipped: list[SkippedLink]

    def note_lines(self) -> list[str]:
        """Said once under the agreements wherever shown (eval's headline, calibrate,
        meta-eval), after how many measurements each label's metrics are
        (`verdicts.measurements_lines`, trial 71; a row that repeats another's readings
        says so itself): what a lexical baseline below chance means."""
        return baseline_lines(self.pairs)


def default_links(label_names: Sequence[str],
                  specs: Iterable[MetricSpec]) -> list[LabelLink]:
    """Links between the labels and metrics present, as the metrics declare them
    (`labels.linked_metrics`: a metric of the label's own short name, then those whose
    `MetricSpec.labels` name the label's vocabulary entry)."""
    listed = list(specs)
    return [LabelLink(label.removeprefix("labels."), metric, inverted=inverted)
            for label in label_names
            for metric, inverted in linked_metrics(label, listed)]


def unlinked_labels(label_names: Iterable[str], links: Iterable[LabelLink]) -> list[str]:
    """The label names (without a "labels." prefix) that no link compares with a metric:
    a typo'd vocabulary name, or a label of the user's own no metric of the run is named
    after; the report lists each as skipped (`labels.unlinked_reason`), never drops it
    silently."""
    linked = {link.label_key for link in links}
    names = dict.fromkeys(n.removeprefix("labels.") for n in label_names)
    return [n for n in names if n not in linked]


def unlinked_skips(label_names: Iterable[str], links: Iterable[LabelLink]) -> list[SkippedLink]:
    """A skipped entry for every label no link compares with a metric (`unlinked_labels`):
    `metric` None, the reason every reader gives (`labels.unlinked_reason`) and the
    vocabulary name a typo is close to. The calibration and the corrected estimates list
    the same entries."""
    return [SkippedLink(label=name, metric=None, reason=unlinked_reason(name),
                        near_miss=nearest(name))
            for name in unlinked_labels(label_names, links)]


def is_boolean_label(key: str) -> bool:
    """Whether a label's vocabulary entry is a yes/no one (0/1 values read as booleans)."""
    kind = lookup(key)
    return kind is not None and kind.kind == "bool"


def _label_kind(key: str, values: list[Any]) -> str | None:  # None: mixed, non-numeric
    if not values:
        return None
    if all(isinstance(v, bool) for v in values):
        return "boolean"
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        if is_boolean_label(key) and all(v in (0, 1) for v in values):
            return "boolean"
        return "numeric"
    return None


def _numeric_problem(key: str, value: Any) -> str | None:
    """Why a label value cannot enter a statistic (not finite, or past +-MAX_MAGNITUDE:
    the import's rule for labels of the user's own), or None."""
    checked = own_value(value)
    return f"label '{key}': {checked}" if isinstance(checked, str) else None


def _label_range(
    link: LabelLink, values: list[float], spec: MetricSpec
) -> tuple[tuple[float, float] | None, str]:
    if link.label_range is not None:
        return link.label_range, "given"
    lo, hi = min(values), max(values)
    if lo >= 0 and hi <= 1:
        return (0.0, 1.0), "0-1 (values within it)"
    if lo >= spec.low and hi <= spec.high:
        return (spec.low, spec.high), "metric range (values within it)"
    if hi > lo:
        return (lo, hi), "observed min-max"
    return None, "constant values outside 0-1 and the metric range"


def _boolean_stats(link: LabelLink, spec: MetricSpec, m: list[float], truth: list[bool],
                   seed: int, n_res: int, pair: dict[str, Any], rows: Sequence[Row]
                   ) -> BooleanAgreement:
    cut = 0.5 if spec.gives_verdict else link.threshold
    pred = [reads_as_label(x, cut, link.inverted) for x in m]
    auroc, ci = ag.auroc(m, truth), ag.auroc_ci(m, truth, seed=seed, n_resamples=n_res)
    return BooleanAgreement(
        **pair, positives=sum(truth), auroc=auroc, auroc_ci=ci,
        baseline=against_baseline(link.label_key, auroc, ci, [r.lexical for r in rows],
                                  truth, seed=seed, n_resamples=n_res),
        decision_threshold=cut,
        balanced_accuracy=ag.balanced_accuracy(pred, truth),
        balanced_accuracy_ci=ag.balanced_accuracy_ci(pred, truth, seed=seed, n_resamples=n_res),
        kappa=ag.cohens_kappa(pred, truth),
        kappa_ci=ag.cohens_kappa_ci(pred, truth, seed=seed, n_resamples=n_res),
        verdicts=verdicts_of(link, spec, m, truth),
        read_as=None if spec.gives_verdict else sum(pred))


def reads_as_label(x: float, cut: float, inverted: bool) -> bool:
    """Whether a score (`x` on 0-1, oriented to the label) reads as the label's True:
    the metric at or above its line `cut` reads as its own yes (the offline judge's rule:
    it flags a hallucination below faithfulness 5.5, the gate passes a mean at 5.5), so
    an inverted link's label holds strictly below the line (`headline.kappa_cut`)."""
    return 1.0 - x < cut if inverted else x >= cut


def verdicts_of(link: LabelLink, spec: MetricSpec, m: Sequence[float],
                truth: Sequence[bool]) -> Verdicts | None:
    """How often a metric's yes/no verdicts (`m`: on 0-1, oriented to the label) are
    people's yes/no labels, counted on the label's problem side; None for a metric that
    gives no verdict as declared (a score thresholded by us is no verdict)."""
    if not spec.gives_verdict:
        return None
    bad = problem_value(link.label_key)
    sides = [verdict_side(x, t, bad) for x, t in zip(m, truth, strict=True)]
    return Verdicts(agree=sides.count(None), missed=sides.count("missed"),
                    flagged=sides.count("flagged"), problem=bad)


def verdict_side(x: float, truth: bool, problem: bool) -> Literal["missed", "flagged"] | None:
    """Where one yes/no verdict (`x` on 0-1, oriented to the label) stands against
    people's label, on the label's `problem` side: "missed" (people marked the problem,
    the verdict calls it fine), "flagged" (the verdict calls a problem people did not
    mark) or None (they agree). `Verdicts` counts these; `stats.disagreements` lists
    the samples."""
    said = x >= 0.5
    if said == truth:
        return None
    return "missed" if truth == problem else "flagged"


@dataclass(frozen=True)
class Compared:
    """What one link compares over a table: the metric's values on 0-1 oriented to the
    label (1 - x for an inverted link) and the label values of the samples having both;
    the label's kind ("boolean", "numeric", None: mixed or non-numeric); the labelled
    samples, and those left out because the answer abstained (with, for yes/no labels,
    how many of them people labelled True; None otherwise or without any); `rows`: the
    rows compared (as `values`), `declined`: the abstained ones (`stats.disagreements`
    lists samples from these)."""

    values: list[float]
    labels: list[Any]
    kind: str | None
    labelled: int
    abstained: int
    abstained_positives: int | None = None
    abstained_false: int = 0  # of the abstained, those the run counts false abstentions
    rows: Sequence[Row] = ()
    declined: Sequence[Row] = ()

    @property
    def unscored(self) -> int:  # labelled, neither compared nor abstained
        return self.labelled - len(self.values) - self.abstained


def compared(table: ScoreTable, link: LabelLink) -> Compared:
    """The samples of `table` that `link` compares (its metric must be in the table)."""
    key, spec = link.label_key, table.spec(link.metric)
    labelled = [r for r in table.rows if r.labels.get(key) is not None]
    rows = [r for r in labelled if r.value(link.metric) is not None]
    abstained = [r for r in labelled
                 if r.value(link.metric) is None and link.metric in r.abstained]
    declined = [r.labels[key] for r in abstained]
    labels = [r.labels[key] for r in rows]
    norm = [spec.normalise(v) for r in rows if (v := r.value(link.metric)) is not None]
    boolean = _label_kind(key, declined) == "boolean"
    return Compared(values=[1.0 - x for x in norm] if link.inverted else norm, labels=labels,
                    kind=_label_kind(key, labels), labelled=len(labelled),
                    abstained=len(declined),
                    abstained_positives=sum(map(bool, declined)) if boolean else None,
                    abstained_false=sum(r.abstention == "false" for r in abstained),
                    rows=rows, declined=abstained)


def same_readings(table: ScoreTable, pairs: Sequence[BooleanAgreement | NumericAgreement],
                  links: Sequence[LabelLink]) -> list[BooleanAgreement | NumericAgreement]:
    """`pairs`, each that repeats an earlier pair of the same label naming it: a
    verdict's `same_as`, the first earlier verdict whose marks are its own on every
    labelled sample (`same_verdicts`; trial 59: a trace verdict's headline cell repeated
    the judge suite's word for word); a score's `same_values`, the first earlier score
    whose values (`value_marks`) are its own on all but a few labelled samples
    (`alike_count`; trial 63: the ragas and trace suites' shares, on 143 of 144)."""
    by_metric = {(link.label_key, link.metric): link for link in links}
    measured = [p for p in pairs if (p.label, p.metric) in by_metric]
    twins = same_verdicts(table, [by_metric[(p.label, p.metric)] for p in measured
                                  if _verdicts(p) is not None])
    alike = same_values(table, [by_metric[(p.label, p.metric)] for p in measured
                                if _verdicts(p) is None])
    out: list[BooleanAgreement | NumericAgreement] = []
    for p in pairs:
        v, key = _verdicts(p), (p.label, p.metric)
        if v is not None and key in twins:
            out.append(p.model_copy(update={"verdicts": v.model_copy(
                update={"same_as": twins[key]})}))
        elif v is None and key in alike:
            metric, samples = alike[key]
            out.append(p.model_copy(update={"same_values": SameValues(metric=metric,
                                                                       samples=samples)}))
        else:
            out.append(p)
    return out


def _verdicts(p: BooleanAgreement | NumericAgreement) -> Verdicts | None:
    return p.verdicts if isinstance(p, BooleanAgreement) else None


def left_out_text(abstained: int, unscored: int) -> str:
    """The labelled samples without a value of the metric, by why: `9 abstained`, `1
    abstained and 1 unscored`; "" when none."""
    return " and ".join(f"{k} {why}" for k, why in ((abstained, "abstained"),
                                                    (unscored, "unscored")) if k)


def nothing_text(abstained: int, unscored: int) -> str:
    """Why labelled samples none of which has a value of the metric give no agreement:
    `all 16 abstained: nothing to compare`, `9 abstained and 7 unscored: nothing to
    compare` (the headline says `(6 abstained: nothing to compare)` likewise)."""
    whole = "all " if not (abstained and unscored) else ""
    return f"{whole}{left_out_text(abstained, unscored)}: nothing to compare"


def label_problem(key: str, values: Iterable[Any]) -> str | None:
    """Why a label's values cannot enter a statistic (the first one not finite, or past
    +-MAX_MAGNITUDE: the import's rule for labels of the user's own), or None."""
    return next((p for v in values if isinstance(p := _numeric_problem(key, v), str)), None)


def _numeric_stats(
    link: LabelLink, spec: MetricSpec, m: list[float], raw: list[float], seed: int, n_res: int,
    pair: dict[str, Any],
) -> NumericAgreement:
    rng, source = _label_range(link, raw, spec)
    lab = None if rng is None else [(x - rng[0]) / (rng[1] - rng[0]) for x in raw]
    pearson, spearman, kendall = (ag.correlation(m, raw, method)
                                  for method in ("pearson", "spearman", "kendall"))
    return NumericAgreement(
        **pair, label_range=rng, label_range_source=source,
        rmse=None if lab is None else ag.rmse(m, lab),
        bias=None if lab is None else ag.bias(m, lab),
        pearson=pearson[0], pearson_p=pearson[1], spearman=spearman[0],
        spearman_p=spearman[1], kendall=kendall[0], kendall_p=kendall[1],
        spearman_ci=ag.spearman_ci(m, raw, seed=seed, n_resamples=n_res))


def calibration(
    table: ScoreTable,
    mapping: Sequence[LabelLink] | None = None,
    *,
    seed: int = 0,
    n_resamples: int = 2000,
) -> Calibration:
    """The agreement of each linked label and metric, and the links skipped.

    `mapping` None -> `default_links`. A link is skipped (with a reason) when its
    metric is absent, its label values are mixed / non-numeric, or no sample
    has both a label value and a scored metric value. A labelled sample without a
    value is counted as left out (abstained or unscored).
    """
    links = (
        list(mapping) if mapping is not None else default_links(table.label_names,
                                                               table.specs.values())
    )
    pairs: list[BooleanAgreement | NumericAgreement] = []
    skipped: list[SkippedLink] = []
    for link in links:
        key = link.label_key
        if link.metric not in table.specs:
            skipped.append(SkippedLink(label=key, metric=link.metric,
                                       reason="metric not in run"))
            continue
        spec = table.spec(link.metric)
        got = compared(table, link)
        if not got.values or got.kind is None:
            reason = ("no sample has both" if not got.values
                      else "label values are mixed or non-numeric")
            counted = bool(got.labelled) and not got.values  # labels, none with a value
            skipped.append(SkippedLink(
                label=key, metric=link.metric, reason=reason,
                abstained=got.abstained if counted else None,
                unscored=got.unscored if counted else None,
                abstained_positives=got.abstained_positives if counted else None,
                abstained_false=got.abstained_false if counted and got.abstained_false
                else None))
            continue
        beyond = label_problem(key, got.labels)
        if beyond is not None:  # the import's rule: statistics of +-1e308 are not finite
            skipped.append(SkippedLink(label=key, metric=link.metric, reason=beyond))
            continue
        m, labels = got.values, got.labels
        pair = {"label": key, "metric": link.metric, "inverted": link.inverted,
                "n": len(m), "abstained": got.abstained, "unscored": got.unscored}
        if got.kind == "boolean":
            pair["abstained_positives"] = got.abstained_positives
            pair["abstained_false"] = got.abstained_false or None
            pairs.append(_boolean_stats(link, spec, m, [bool(v) for v in labels], seed,
                                        n_resamples, pair, got.rows))
        else:
            raw = [float(v) for v in labels]
            pairs.append(_numeric_stats(link, spec, m, raw, seed, n_resamples, pair))
    skipped += unlinked_skips(table.label_names, links)
    return Calibration(pairs=same_readings(table, pairs, links), skipped=skipped)
