"""Release gate: PASS/FAIL per metric against thresholds, and a TOML loader.

Default thresholds: every metric of the run, at the bar the report shows it against
(its target's `good`, `stats.interpret.target_for`: the declared target, else the generic
0.8 of its range; a bar a spec declares as a number, `MetricSpec.gate`, stands), so that
the gate gates what `eval` shows. Under the offline judge, whose scores are soft, that
target is the metric's soft target, the judge's own line (`MetricSpec.soft_target`, set on
the specs the run is stored with: `runner.judging.run_specs`). A config file's
[thresholds] bars replace them (a config with no bar, [corrected] only, keeps them: cli
`gate`). Under the defaults a metric with no scored value because no sample has the input
it needs (no reference answer: `types.MISSING_INPUT`) is NOT CHECKED, said as not gated,
as the report shows no flag for it; any other metric with nothing scored fails.

The value compared is the metric's mean (a yes/no verdict's rate, and said so: `rate
0.590 > 0.1`) or, with `strict`, the conservative CI
bound (the lower bound; the upper bound for lower-is-better metrics, which
pass at or below their threshold; one value has no interval, so strict fails it). A
value equal to its threshold up to float rounding passes. A metric absent from the run
fails with "metric not in run"; one with nothing scored fails too. `ready` is True only
when every check passes. A table's gate also reads the run's abstention rates
(`abstentions.abstention_rate`, `abstentions.false_abstention_rate`, lower is better).

A check whose metric is unscored on some samples says how many its figure rests on, and
why the others are unscored (`mean 0.825 >= 0.8; 64 of 139 scored, 75 unscored: no
relevant context sentences`): the bar says nothing of those samples. Samples whose answer
abstained are counted so too (`rate 0.641 > 0.1; 131 of 144 scored, 13 abstained`, as
eval's tables say `131 of 144 scored`). It still passes or
fails on the scored ones; with more than PARTIAL_SHARE of them unscored it is `partial`,
and a PASS says so in its verdict (`PASS on 112 of 130`, `GateCheck.verdict`; the cli
warns about it too).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ragassay.stats.abstention import RATE_NAMES, rate_aggregates
from ragassay.stats.describe import Aggregates, MetricAggregate, aggregate_metrics, scored_text
from ragassay.stats.interpret import target_for
from ragassay.stats.table import ScoreTable
from ragassay.types import MISSING_INPUT, MetricSpec

ALLOWED_TOP_LEVEL = frozenset({"thresholds", "corrected"})  # [corrected]: stats.gate_corrected
TOLERANCE = 1e-9  # relative: a value this close to its threshold counts as on it
STRICT_BOUND = "the 95% CI's conservative bound: the lower one, the upper where lower is better"
"""What `strict` compares, as the gate's table and `check_metrics` title it (trial 63: the
table said "lower 95% bound" above a hallucination rate's "CI upper bound 0.7308 > 0.1")."""
PARTIAL_SHARE = 0.1
"""A check whose metric is unscored on more than this share of the samples is `partial`:
its figure says nothing of them, and a PASS says on how many it rests (trial 61: a
metric passed at 0.8022 on 112 of 130, said only deep in a wrapped cell)."""
VALUE_DIGITS = 3  # decimals of a gated value, in its row's value column and reason alike
MAX_DIGITS = 6  # at most, where fewer would read as the threshold (`value_text`)


class ThresholdsError(ValueError):
    """A thresholds file that cannot be used; the message is one line naming the key."""


@dataclass(frozen=True)
class GateCheck:
    metric: str
    threshold: float
    value: float | None
    status: Literal["PASS", "FAIL", "NOT CHECKED"]  # NOT CHECKED: a label without an estimate
    reason: str = ""
    higher_is_better: bool = True
    label: str | None = None  # decided on this human label's corrected interval
    # the samples the figure rests on (None: not a metric's own values) and the ones
    # unscored, by reason when the gate read a table, and abstained (neither of them)
    scored: int | None = None
    unscored: int = 0
    unscored_reasons: Mapping[str, int] | None = None
    abstained: int = 0
    # a label's row: people's estimate, what its value column shows as the other rows
    # show their figure (`value` is the 95% bound decided on, named in `reason`: trial 68
    # read the bound 0.637 there beside the estimate 0.556 in the text)
    estimate: float | None = None

    @property
    def samples(self) -> int | None:
        """The samples its figure is of: scored, unscored and abstained (None: not a
        metric's own values)."""
        return None if self.scored is None else self.scored + self.unscored + self.abstained

    @property
    def mostly_unscored(self) -> bool:
        """Its figure rests on fewer samples than are unscored for it."""
        return self.scored is not None and self.unscored > self.scored

    @property
    def partial(self) -> bool:
        """More than PARTIAL_SHARE of the samples are unscored for it."""
        return (self.scored is not None
                and self.unscored > PARTIAL_SHARE * (self.scored + self.unscored))

    @property
    def value_text(self) -> str:
        """The value column (`value_text`): people's estimate on a label's row, else the
        value decided on; `-` without one."""
        shown = self.value if self.estimate is None else self.estimate
        return "-" if shown is None else value_text(shown, self.threshold)

    @property
    def verdict(self) -> str:
        """The status as the gate's row says it: a partial PASS with the samples it rests
        on, `PASS on 112 of 130`; else the status."""
        if self.status == "PASS" and self.partial:
            return f"PASS on {self.scored} of {self.samples}"
        return self.status

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "metric": self.metric,
            "threshold": self.threshold,
            "value": self.value,
            "status": self.status,
            "reason": self.reason,
            "higher_is_better": self.higher_is_better,
        }
        if self.label is not None:
            out["label"] = self.label
        if self.estimate is not None:
            out["estimate"] = self.estimate
        if self.scored is not None:
            out["scored"] = self.scored
            out["unscored"] = self.unscored
            out["abstained"] = self.abstained
            out["partial"] = self.partial
            if self.unscored_reasons:
                out["unscored_reasons"] = dict(self.unscored_reasons)
        return out


@dataclass(frozen=True)
class GateResult:
    checks: tuple[GateCheck, ...]
    strict: bool = False
    corrected: bool = False  # checks with a label were decided on corrected intervals

    @property
    def ready(self) -> bool:
        """Every decided check passed, and at least one was decided."""
        decided = [c for c in self.checks if c.status != "NOT CHECKED"]
        return bool(decided) and all(c.status == "PASS" for c in decided)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ready": self.ready,
            "strict": self.strict,
            "checks": [c.to_dict() for c in self.checks],
        }
        if self.corrected:
            out["corrected"] = True
        return out


GateSource = ScoreTable | Aggregates | Mapping[str, MetricAggregate]
"""What the gate reads: a table, the aggregate section, or its metrics by name."""


def _per_metric(source: GateSource, seed: int,
                n_resamples: int) -> Mapping[str, MetricAggregate]:
    if isinstance(source, ScoreTable):
        return {**aggregate_metrics(source, seed=seed, n_resamples=n_resamples).metrics,
                **rate_aggregates(source, seed=seed, n_resamples=n_resamples)}
    return source.metrics if isinstance(source, Aggregates) else source


def coverage(scored: int, unscored: int, reasons: Mapping[str, int] | None = None,
             abstained: int = 0) -> str:
    """`64 of 139 scored, 75 unscored: no relevant context sentences` (several reasons:
    `r (n), s (m)`, the commonest three), `131 of 144 scored, 13 abstained`, or "" when
    every sample is scored."""
    if not unscored and not abstained:
        return ""
    top = sorted((reasons or {}).items(), key=lambda kv: (-kv[1], kv[0]))
    why = (top[0][0] if len(top) == 1 else
           ", ".join(f"{r} ({n})" for r, n in top[:3]) + (", ..." if len(top) > 3 else ""))
    return (f"{scored_text(scored, scored + unscored + abstained)}"
            + (f", {abstained} abstained" if abstained else "")
            + (f", {unscored} unscored" if unscored else "") + (f": {why}" if why else ""))


def value_text(value: float, threshold: float) -> str:
    """A gated value to VALUE_DIGITS decimals (trailing zeros dropped: `0.6`), in the
    value column and in the reason alike (trial 67: 0.307 beside `rate 0.3067 > 0.1`);
    more, up to MAX_DIGITS, where those would read as the threshold it is not (a rate
    0.1004 over a 0.1 bar: `0.1004 > 0.1`, not `0.1 > 0.1`)."""
    digits = VALUE_DIGITS
    on = abs(value - threshold) <= TOLERANCE * max(1.0, abs(threshold))
    while digits < MAX_DIGITS and not on and round(value, digits) == round(threshold, digits):
        digits += 1
    return f"{value:.{digits}f}".rstrip("0").rstrip(".")


def _check(metric: str, threshold: float, entry: MetricAggregate | None,
           strict: bool, reasons: Mapping[str, int] | None = None,
           figure: str = "mean") -> GateCheck:
    if entry is None:
        return GateCheck(metric, threshold, None, "FAIL", "metric not in run")
    hib = entry.higher_is_better
    seen = (entry.count, entry.unscored, reasons if entry.unscored else None,
            entry.abstained or 0)
    key = ("ci_low" if hib else "ci_high") if strict else "mean"
    # one value has no interval (describe.mean_ci): strict fails it
    value = (entry.ci_low if hib else entry.ci_high) if strict else entry.mean
    if value is None:
        why = "no scored values" if entry.mean is None else f"no {key} (too few values)"
        if part := coverage(*seen):
            why += f"; {part}"
        return GateCheck(metric, threshold, None, "FAIL", why, hib, None, *seen)
    value = float(value)
    # a value equal to its threshold up to float rounding (a mean of 37 x 0.7 is
    # 0.6999999999999998 in a resample) sits on it
    slack = TOLERANCE * max(1.0, abs(threshold))
    ok = value >= threshold - slack if hib else value <= threshold + slack
    label = "CI lower bound" if key == "ci_low" else "CI upper bound" if strict else figure
    rel = (">=" if ok else "<") if hib else ("<=" if ok else ">")
    reason = f"{label} {value_text(value, threshold)} {rel} {threshold:g}"
    if part := coverage(*seen):
        reason += f"; {part}"
    return GateCheck(metric, threshold, value, "PASS" if ok else "FAIL", reason, hib, None,
                     *seen)


def figures(source: GateSource) -> dict[str, str]:
    """What each metric's figure is called (`MetricSpec.aggregation`): a yes/no verdict's
    `rate`, a score's `mean`; the run's abstention rates are rates. Known from a table's
    specs only: the aggregates name no metric's kind, so their figures read `mean`."""
    if not isinstance(source, ScoreTable):
        return {}
    return {**{m: s.aggregation for m, s in source.specs.items()},
            **dict.fromkeys(RATE_NAMES, "rate")}


def default_thresholds(specs: Mapping[str, MetricSpec] | Iterable[MetricSpec]
                       ) -> dict[str, float]:
    """The default bar of every metric, by name: the bar a spec declares as a number
    (`MetricSpec.gate`), else its target's `good` (`target_for`: what the report shows)."""
    items = specs.values() if isinstance(specs, Mapping) else specs
    return {s.name: s.gate if s.gate is not None else target_for(s).good for s in items}


def missing_inputs(table: ScoreTable) -> dict[str, str]:
    """Metrics with no scored value because every sample lacks an input they need
    (`types.MISSING_INPUT`), and that reason ("no reference answer"), by name."""
    out: dict[str, str] = {}
    for name in table.specs:
        reasons = {r.reasons.get(name) for r in table.rows if r.values.get(name) is None}
        scored = any(r.values.get(name) is not None for r in table.rows)
        if not scored and reasons and reasons <= MISSING_INPUT:
            out[name] = " / ".join(sorted(str(x) for x in reasons))
    return out


def _not_checked(metric: str, threshold: float, why: str, spec: MetricSpec | None) -> GateCheck:
    hib = spec.higher_is_better if spec is not None else True
    # said as what happens, not as if a config required it (trial 65: "a [thresholds] bar
    # requires it" read so with no config at all)
    return GateCheck(metric, threshold, None, "NOT CHECKED",
                     f"not gated, nothing to score: {why} on any sample; a [thresholds] bar "
                     "for it would require it", hib)


def gate(
    table_or_aggregates: GateSource,
    thresholds: Mapping[str, float] | None = None,
    *,
    strict: bool = False,
    seed: int = 0,
    n_resamples: int = 2000,
    defaults: bool | None = None,
) -> GateResult:
    """Check each thresholded metric; `thresholds` None -> every metric's default bar.

    Accepts a ScoreTable, the `aggregate_metrics` section, or its metrics by name; the
    latter two need explicit thresholds. `defaults` (else: whether `thresholds` is None):
    the bars are the defaults, so a metric no sample has the input for is NOT CHECKED.
    """
    per_metric = _per_metric(table_or_aggregates, seed, n_resamples)
    defaults = thresholds is None if defaults is None else defaults
    if thresholds is None and not isinstance(table_or_aggregates, ScoreTable):
        raise ValueError("gate() needs thresholds when given aggregates, not a table")
    missing: dict[str, str] = {}
    if isinstance(table_or_aggregates, ScoreTable):
        if thresholds is None:
            thresholds = default_thresholds(table_or_aggregates.specs)
        if defaults:
            missing = missing_inputs(table_or_aggregates)
    assert thresholds is not None
    table = table_or_aggregates if isinstance(table_or_aggregates, ScoreTable) else None
    specs = table.specs if table is not None else {}
    called = figures(table_or_aggregates)
    return GateResult(
        checks=tuple(_not_checked(m, float(t), missing[m], specs.get(m)) if m in missing
                     else _check(m, float(t), per_metric.get(m), strict,
                                 table.unscored_reasons(m) if table is not None and m in specs
                                 else None, called.get(m, "mean"))
                     for m, t in thresholds.items()),
        strict=strict,
    )


def threshold_out_of_range(
    thresholds: Mapping[str, float], specs: Mapping[str, MetricSpec]
) -> str | None:
    """The first threshold outside its metric's range, said in one line ("<metric> = 0.8
    is outside the metric's range 1-10": a 0-1 bar on a 1-10 metric always passes), or
    None. Metrics without a spec are not checked here."""
    for metric, value in thresholds.items():
        spec = specs.get(metric)
        if spec is not None and not spec.low <= value <= spec.high:
            return f"{metric} = {value:g} is outside the metric's range {spec.low:g}-{spec.high:g}"
    return None


def load_thresholds(path: str | Path) -> dict[str, float]:
    """Read the `[thresholds]` table of a TOML file: {"suite.metric": 0.9, ...}.

    Raises ThresholdsError with one line such as
    `ragassay.toml: thresholds."suite.metric" must be a number`.
    A file without a [thresholds] table gives {}.
    """
    p = Path(path)
    name = p.name
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ThresholdsError(f"{name}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise ThresholdsError(f"{name}: not valid UTF-8 (byte {exc.start + 1})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ThresholdsError(f"{name}: invalid TOML ({exc})") from None
    for key in data:
        if key not in ALLOWED_TOP_LEVEL:
            raise ThresholdsError(
                f'{name}: unknown key "{key}" (expected [thresholds] or [corrected])')
    table = data.get("thresholds", {})
    if not isinstance(table, dict):
        raise ThresholdsError(f"{name}: thresholds must be a table of metric = number")
    out: dict[str, float] = {}
    for key, value in table.items():
        # `suite.metric = 0.9` unquoted (or [thresholds.suite]) nests one level
        items = (
            [(f"{key}.{k}", v) for k, v in value.items()]
            if isinstance(value, dict)
            else [(key, value)]
        )
        for metric, v in items:
            out[metric] = _number(name, metric, v)
    return out


def _number(name: str, metric: str, value: Any) -> float:
    where = f'{name}: thresholds."{metric}"'
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ThresholdsError(f"{where} must be a number")
    if not math.isfinite(value):
        raise ThresholdsError(f"{where} must be a finite number")
    if "." not in metric:
        raise ThresholdsError(f'{where} must be a qualified metric name like "ragas.{metric}"')
    return float(value)
