"""The release gate on corrected intervals: what people would say, checked too.

The corrected gate adds rows, it never removes one: every metric threshold (the
config's `[thresholds]`, else the defaults) is checked on the judge's values as the
plain gate checks it. The one rule of the rows it adds: each label is checked once,
right after the gated metric it is first linked to (`linked_metrics`: its own before an
inverted one) among those the run has a corrected estimate through (enough labels, see
`stats.corrected`): the conservative bound of the 95% interval of people's label mean
against the label's threshold (the config's `[corrected]` table, else the vocabulary's
default: at most 10% hallucinated answers, at least 90% faithful, at least 80% correct).
Every other gated metric linked to that label says so in one line (`<metric>: people's
hallucinated is checked once, after <its own measure> ...`): people's figure is one,
however many metrics estimate it. A linked label without an estimate, or
without a threshold, is said in one line.
A label given a threshold whose linked metrics are not gated is checked too (through its
first linked metric with an estimate); one without an estimate is a NOT CHECKED row that
says why ("10 of 30 labels"), and fails the gate with `require_labels`. A label threshold
naming no known label, or outside its label's scale, is refused (`label_threshold_problem`).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ragassay.labels import VOCABULARY, canonical, linked_metrics, lookup
from ragassay.stats.corrected import Corrected, CorrectedEstimate
from ragassay.stats.corrected_text import too_small_text
from ragassay.stats.gate import (
    TOLERANCE,
    GateCheck,
    GateResult,
    ThresholdsError,
    gate,
    value_text,
)
from ragassay.stats.table import ScoreTable
from ragassay.text import did_you_mean
from ragassay.types import MetricSpec


@dataclass(frozen=True)
class CorrectedGate:
    """The gate's result, and one line for each check that fell back to the judge."""

    result: GateResult
    notes: tuple[str, ...]


def load_corrected_thresholds(path: str | Path) -> dict[str, float] | None:
    """The `[corrected]` table of a gate config (label = threshold), {} when it is empty,
    None when the file has none. Label names are the vocabulary's (`hallucination` ->
    `hallucinated`). One-line ThresholdsError for a value that is not a finite number."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None  # load_thresholds reads the same file and says what is wrong
    table = data.get("corrected")
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ThresholdsError(f"{p.name}: corrected must be a table of label = number")
    out: dict[str, float] = {}
    for key, value in table.items():
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not math.isfinite(value):
            raise ThresholdsError(f'{p.name}: corrected."{key}" must be a finite number')
        out[canonical(key)] = float(value)
    return out


def label_threshold_problem(given: Mapping[str, float], present: Iterable[str] = ()
                            ) -> str | None:
    """One line for the first label threshold that names neither a vocabulary label nor
    one of `present` (the run's own labels), with the nearest vocabulary name, or that lies
    outside its label's scale; None when every one is fine."""
    own = {canonical(p) for p in present}
    names = [k.name for k in VOCABULARY]
    for label, value in given.items():
        kind = lookup(label)
        if kind is None and canonical(label) not in own:
            known = names + sorted(own - set(names))
            hint = did_you_mean(label, [n for k in VOCABULARY for n in sorted(k.names)])
            if hint:  # an alias may be the closest: name its vocabulary label
                close = hint.removeprefix(" (did you mean ").removesuffix("?)")
                hint = f" (did you mean {canonical(close)}?)"
            return f"unknown label {label!r}{hint}; known labels: {', '.join(known)}"
        if kind is not None and not kind.low <= value <= kind.high:
            what = ("a share of answers" if kind.kind == "bool" else "a mean grade")
            return (f"{kind.name} = {value:g} is outside the label's scale "
                    f"{kind.low:g}-{kind.high:g} ({what})")
    return None


def _threshold(label: str, given: Mapping[str, float]) -> float | None:
    if canonical(label) in given:
        return given[canonical(label)]
    kind = lookup(label)
    return kind.gate if kind is not None else None


def judge_base(table: ScoreTable, est: CorrectedEstimate) -> str:
    """People's figure on the samples the judge's own figure rests on, where that base is
    not people's (trial 65: the judge's hallucination rate 0.615 on the 130 it scored, the
    14 correct declines left out, failed beside people's 0.556 on all 144): `on the judge's
    base, the 130 <metric> scored: people 0.615` (`the 27 labelled ...` where
    not every one is labelled), as eval's headline says it; "" on the same base."""
    label = canonical(est.label)
    scored = [r for r in table.rows if r.values.get(est.metric) is not None]
    if len(scored) >= est.n_total:
        return ""
    given = [float(v) for r in scored for k, v in r.labels.items()
             if canonical(k) == label and v is not None]
    if not given:
        return ""
    some = "" if len(given) == len(scored) else " labelled"
    return (f"; on the judge's base, the {len(given)}{some} {est.metric} scored: people "
            f"{sum(given) / len(given):.3g}")


def _check(est: CorrectedEstimate, threshold: float, base: str = "") -> GateCheck:
    hib = est.scale.higher_is_better
    value = est.ci_low if hib else est.ci_high
    slack = TOLERANCE * max(1.0, abs(threshold))
    ok = value >= threshold - slack if hib else value <= threshold + slack
    rel = (">=" if ok else "<") if hib else ("<=" if ok else ">")
    bound = "lower" if hib else "upper"
    # every sample labelled: people's own rate, nothing corrected (as eval says it)
    what, n = ((" (all labelled, nothing corrected): 95%", f"all {est.n_total} samples labelled")
               if est.all_labelled else (": corrected 95%", f"{est.n_labelled} labels"))
    said = value_text(value, threshold)
    reason = (f"people's {est.label}{what} {bound} bound {said} {rel} {threshold:g} "
              f"(estimate {est.estimate:.3g}, {n}{base})")
    return GateCheck(est.metric, threshold, value, "PASS" if ok else "FAIL", reason, hib,
                     label=est.label, estimate=est.estimate)


def _why_none(corrected: Corrected, metric: str, labels: list[str], run: str,
              samples: int) -> str | None:
    """Why a gated metric has no corrected estimate: the skipped link's reason, else (its
    labels have no value in the run) which labels to give it, or, in a run of fewer
    `samples` than an estimate needs labelled, that labelling cannot give one (trial 60:
    a 3-row run was told to label some); None when no label is compared with the metric
    (nothing to say)."""
    reasons = [s.reason for s in corrected.skipped if s.metric == metric and s.strategy is None]
    if reasons:
        return reasons[0]
    if not labels:
        return None
    none = f"no {' or '.join(repr(n) for n in labels)} labels in this run"
    if samples < corrected.min_labels:
        return (f"{none}, and a corrected estimate needs {corrected.min_labels} labelled "
                f"samples: {too_small_text(samples)}")
    return f"{none}; label some with ragassay annotate {run} --label {labels[0]}"


def _labels_of(table: ScoreTable, gated: list[MetricSpec]) -> dict[str, list[str]]:
    """metric -> the labels compared with it (vocabulary and the run's own, by canonical
    name), those it measures directly before those it measures inverted."""
    links: dict[str, list[tuple[bool, str]]] = {}
    names = dict.fromkeys(canonical(n) for n in
                          [k.name for k in VOCABULARY] + list(table.label_names))
    for name in names:
        for metric, inverted in linked_metrics(name, gated):
            links.setdefault(metric, []).append((inverted, name))
    return {m: [name for _, name in sorted(pairs, key=lambda p: p[0])]
            for m, pairs in links.items()}


def _why_unchecked(table: ScoreTable, corrected: Corrected, label: str) -> tuple[str, str]:
    """(linked metric or "", why) for a label threshold without a corrected estimate."""
    skipped = [s for s in corrected.skipped
               if s.strategy is None and canonical(s.label) == label]
    n = sum(1 for r in table.rows
            if any(canonical(k) == label and v is not None for k, v in r.labels.items()))
    small = (f"; {too_small_text(len(table.rows))}"
             if len(table.rows) < corrected.min_labels else "")
    few = next((s for s in skipped if s.too_few_labels), None)
    if few is not None:
        return few.metric or "", f"{n} of {corrected.min_labels} labels{small}"
    if skipped:
        return skipped[0].metric or "", skipped[0].reason
    if not n:
        return "", f"no labels{small}"
    return "", "no metric of this run is linked to it"


def gate_corrected(table: ScoreTable, thresholds: Mapping[str, float], corrected: Corrected,
                   label_thresholds: Mapping[str, float] | None = None, *,
                   strict: bool = False, require_labels: bool = False,
                   defaults: bool = False, run: str = "RUN") -> CorrectedGate:
    """Every metric check as `gate` decides it on the judge's values (with `strict`;
    `defaults`: the bars are the defaults), and after each one linked to a label with a
    corrected estimate, that label's check on people's corrected interval: the corrected
    gate adds rows, it never removes a threshold. A linked label without an estimate or
    a threshold is said in a note; a label threshold without an estimate is a NOT
    CHECKED check (FAIL with `require_labels`); `run` is named in the command that adds
    labels."""
    given = {canonical(k): v for k, v in (label_thresholds or {}).items()}
    plain = gate(table, thresholds, strict=strict, defaults=defaults).checks
    gated = [table.specs[t] for t in thresholds if t in table.specs]
    labels_of = _labels_of(table, gated)
    whole = _whole_run(corrected)
    follows = _follows(plain, whole, gated)
    checks: list[GateCheck] = []
    notes: list[str] = []
    used: set[str] = set()
    for check in plain:
        checks.append(check)
        metric = check.metric
        ests = whole.get(metric, [])
        limits = [(est, _threshold(est.label, given)) for est in ests]
        if not any(limit is not None for _, limit in limits):
            why = (_why_none(corrected, metric, labels_of.get(metric, []), run,
                             len(table.rows)) if not ests
                   else f"no corrected threshold for label '{ests[0].label}' (set "
                   f"[corrected] {ests[0].label} = ... in the gate config)")
            if why is not None:  # None: a metric no label is compared with
                notes.append(f"{metric}: no corrected estimate ({why}): gated on the judge's "
                             "own values")
            continue
        for est, limit in limits:
            label = canonical(est.label)
            if limit is not None and follows.get(label, metric) != metric:
                notes.append(f"{metric}: people's {est.label} is checked once, after "
                             f"{follows[label]} (the metric it is first linked to): gated "
                             "here on the judge's own values")
            if limit is None or label in used or follows.get(label) != metric:
                continue
            used.add(label)
            checks.append(_check(est, limit, judge_base(table, est)))
            if est.note:
                notes.append(f"warning: {metric}: people's {est.label}: {est.note}")
    for label, limit in given.items():
        if label in used:
            continue
        found = next((e for e in corrected.estimates
                      if e.strategy is None and canonical(e.label) == label), None)
        if found is None:
            metric, why = _why_unchecked(table, corrected, label)
            kind = lookup(label)
            status: Literal["FAIL", "NOT CHECKED"] = ("FAIL" if require_labels
                                                      else "NOT CHECKED")
            checks.append(GateCheck(
                metric, limit, None, status,
                f"not checked: {why} (labels required)" if require_labels else why,
                kind.higher_is_better if kind is not None else True, label=label))
            continue
        checks.append(_check(found, limit, judge_base(table, found)))
        if found.note:
            notes.append(f"warning: people's {found.label}: {found.note}")
    return CorrectedGate(GateResult(tuple(checks), strict=strict, corrected=True), tuple(notes))


def _whole_run(corrected: Corrected) -> dict[str, list[CorrectedEstimate]]:
    """metric -> every label's whole-run estimate through it (a faithfulness rating can
    estimate both `faithful` and, inverted, `hallucinated`), in one pass."""
    out: dict[str, list[CorrectedEstimate]] = {}
    for e in corrected.estimates:
        if e.strategy is None:
            out.setdefault(e.metric, []).append(e)
    return out


def _follows(checks: Iterable[GateCheck], whole: Mapping[str, list[CorrectedEstimate]],
             gated: list[MetricSpec]) -> dict[str, str]:
    """label -> the gated metric its corrected row follows: of the gated metrics with an
    estimate of the label, the one the label is compared with first (`linked_metrics`:
    its own metric, the hallucination flag for `hallucinated`, before an inverted one)."""
    with_estimate: dict[str, list[str]] = {}
    for check in checks:
        for est in whole.get(check.metric, []):
            with_estimate.setdefault(canonical(est.label), []).append(check.metric)
    out: dict[str, str] = {}
    for label, metrics in with_estimate.items():
        order = [m for m, _ in linked_metrics(label, gated)]
        out[label] = min(metrics, key=lambda m: order.index(m) if m in order else len(order))
    return out


def default_label_thresholds(corrected: Corrected) -> dict[str, float]:
    """The vocabulary's default corrected thresholds for the labels the run estimates."""
    out: dict[str, float] = {}
    for e in corrected.estimates:
        kind = lookup(e.label)
        if e.strategy is None and kind is not None and kind.gate is not None:
            out.setdefault(kind.name, kind.gate)
    return out
