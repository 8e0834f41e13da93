"""What a judge's scores are worth: its measured agreement with people, per metric.

A judge carries a `Reliability`: for each metric it was measured on, the agreement
statistic (AUROC for yes/no labels, Spearman for graded ones) on human-labelled sets it
was NOT fitted or chosen on (leave-one-dataset-out), as the range over those sets, the
sets it held, and the command that produced it. The runner stores it with the run, so
the report, the CLI summary, the dashboard and the gate say it next to the numbers.
A judge without a measurement says so: that is a state, not a number.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

AGREEMENT_FLOOR = 0.7  # the gate warns below this (the worst unseen set)


class Agreement(BaseModel):
    """One metric's measured agreement with people on data the judge never saw."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    statistic: str = "AUROC"
    low: float  # the worst held-out set
    high: float  # the best held-out set
    sets: tuple[str, ...] = ()  # the held-out sets it was measured on
    lexical_low: float | None = None  # the lexical baseline's range on the same sets
    lexical_high: float | None = None

    def describe(self, judge: str, metric: str) -> str:
        """`offline judge, judge.faithfulness: AUROC 0.61-0.78 on 7 unseen human-labelled
        sets (lexical baseline 0.55-0.93)`."""
        text = (f"{judge} judge, {metric}: {self.statistic} {_span(self.low, self.high)} on "
                f"{len(self.sets)} unseen human-labelled set{'s' if len(self.sets) != 1 else ''}")
        if self.lexical_low is not None and self.lexical_high is not None:
            text += f" (lexical baseline {_span(self.lexical_low, self.lexical_high)})"
        return text


def _span(low: float, high: float) -> str:
    """`0.61-0.95`, or one figure where both ends print the same (one set)."""
    a, b = f"{low:.2f}", f"{high:.2f}"
    return a if a == b else f"{a}-{b}"


class Reliability(BaseModel):
    """A judge's agreement table: per qualified metric, or nothing measured."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    judge: str
    measured: str = ""  # date
    command: str = ""  # what reproduces it
    metrics: dict[str, Agreement] = Field(default_factory=dict)

    def of(self, metric: str) -> Agreement | None:
        return self.metrics.get(metric)

    def lines(self, metrics: list[str]) -> list[str]:
        """One line per metric of the run: its agreement, or that none was measured."""
        out = []
        for m in metrics:
            a = self.of(m)
            out.append(a.describe(self.judge, m) if a else
                       f"{self.judge} judge, {m}: no measured agreement with people")
        return out


def reliability_meta(judge: Any, metrics: list[str]) -> dict[str, Any]:
    """What a run stores about its judge's reliability (run meta "reliability"): the table
    and one line per metric of the run, so that readers need not know judges."""
    table = getattr(judge, "reliability", None)
    if not isinstance(table, Reliability):
        table = Reliability(judge=str(getattr(judge, "spec", "this")))
    return {**table.model_dump(mode="json"), "lines": dict(zip(metrics, table.lines(metrics),
                                                               strict=True))}


def from_figures(judge: str, data: dict[str, Any]) -> Reliability:
    """A table from per-(metric, set) figures, as scripts/devsets/loo.py writes them:
    `{"date", "command", "figures": [{"metric", "set", "statistic", "value",
    "baseline"}, ...]}`; each metric's range over its held-out sets."""
    by_metric: dict[str, list[dict[str, Any]]] = {}
    for f in data.get("figures", []):
        if isinstance(f.get("value"), int | float):
            by_metric.setdefault(str(f["metric"]), []).append(f)
    metrics = {}
    for name, every in by_metric.items():
        rows = _one_statistic(every)
        values = [float(r["value"]) for r in rows]
        base = [float(r["baseline"]) for r in rows if isinstance(r.get("baseline"), int | float)]
        metrics[name] = Agreement(
            statistic=str(rows[0].get("statistic", "AUROC")), low=min(values), high=max(values),
            sets=tuple(str(r["set"]) for r in rows),
            lexical_low=min(base) if base else None, lexical_high=max(base) if base else None)
    return Reliability(judge=judge, measured=str(data.get("date", "")),
                       command=str(data.get("command", "")), metrics=metrics)


def _one_statistic(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A range never mixes statistics (an AUROC on one set, a Spearman on another): the
    rows of the statistic measured on the most sets, AUROC first on a tie."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(str(r.get("statistic", "AUROC")), []).append(r)
    best = max(groups, key=lambda k: (len(groups[k]), k == "AUROC"))
    return groups[best]


def load_reliability(path: str | Path, judge: str,
                     overlay: str | Path | None = None) -> Reliability:
    """The table shipped at `path`; an empty one (nothing measured) if there is none.

    `overlay` (loo.py figures of a judge mode that changes some metrics) replaces the
    figures of the (metric, set) pairs it measured."""
    p = Path(path)
    if not p.is_file():
        return Reliability(judge=judge)
    data: dict[str, Any] = json.loads(p.read_text(encoding="utf-8"))
    if overlay is not None and Path(overlay).is_file() and "figures" in data:
        extra = json.loads(Path(overlay).read_text(encoding="utf-8"))
        seen = {(f["metric"], f["set"]) for f in extra.get("figures", [])}
        data = {**data, "command": f"{data.get('command', '')}; {extra.get('command', '')}",
                "figures": [f for f in data["figures"] if (f["metric"], f["set"]) not in seen]
                + list(extra.get("figures", []))}
    if "figures" in data:
        return from_figures(judge, data)
    return Reliability.model_validate({**data, "judge": data.get("judge", judge)})


def gate_warnings(reliability: dict[str, Any] | None, metrics: list[str]) -> list[str]:
    """The gate's warnings for the metrics it checks: a judge with no measured agreement
    on a metric, or one below AGREEMENT_FLOOR on some unseen set."""
    table = None
    if reliability:
        fields = Reliability.model_fields
        table = Reliability.model_validate({k: v for k, v in reliability.items() if k in fields})
    out = []
    for m in metrics:
        a = table.of(m) if table else None
        judge = table.judge if table else "this run's"
        if a is None:
            out.append(f"warning: gating on {m}, but the {judge} judge has no measured "
                       "agreement with people on it")
        elif a.low < AGREEMENT_FLOOR:
            out.append(f"warning: gating on {m}, whose {judge} judge agrees with people only "
                       f"at {a.statistic} {a.low:.2f} on its worst unseen set "
                       f"(below {AGREEMENT_FLOOR})")
    return out
