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
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from ragassay.judge.base import Judge
from ragassay.terminal import counted
from ragassay.types import Agreement, Reliability, RunReliability
from ragassay.types.reliability import AGREEMENT_FLOOR

__all__ = ["AGREEMENT_FLOOR", "Agreement", "Reliability", "RunReliability", "from_figures",
           "gate_warning_summary", "gate_warnings", "load_reliability", "reliability_meta",
           "weak_held_apart"]


def reliability_meta(judge: Judge, metrics: list[str]) -> RunReliability:
    """What a run stores about its judge's reliability (`RunMeta.reliability`): the table
    and one line per metric of the run, so that readers need not know judges."""
    table = getattr(judge, "reliability", None)
    if not isinstance(table, Reliability):
        table = Reliability(judge=str(getattr(judge, "spec", "this")))
    return RunReliability(**dict(table), lines=dict(zip(metrics, table.lines(metrics),
                                                        strict=True)))


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
    data = {**data, "command": rerunnable(str(data.get("command", "")))}
    if "figures" in data:
        return from_figures(judge, data)
    return Reliability.model_validate({**data, "judge": data.get("judge", judge)})


def rerunnable(command: str) -> str:
    """The parts ("; ") of a measurement's command that a clean clone of the repository
    can rerun from its root: a part naming a path of the machine it was measured on (an
    absolute one, or one above the folder it was started in: `..`) is left out, never
    shown to a user as a command to run."""
    def portable(part: str) -> bool:
        return not any(w.startswith(("/", "~", "\\")) or ".." in w.replace("\\", "/").split("/")
                       or (len(w) > 2 and w[1] == ":" and w[2] in "/\\")
                       for w in part.replace("=", " ").split())
    return "; ".join(p.strip() for p in command.split(";") if p.strip() and portable(p))


def _held_apart(reliability: RunReliability | None) -> tuple[str, Mapping[str, Agreement]]:
    """The judge the gate's notes name and its held-apart agreement per metric, read off
    the run's stored table (`RunReliability` holds `Reliability`'s fields): "this run's"
    and none without one."""
    if reliability is None:
        return "this run's", {}
    return reliability.judge, reliability.metrics


def gate_warnings(reliability: RunReliability | None, metrics: list[str],
                  in_run: Mapping[str, str] | None = None) -> list[str]:
    """The gate's warnings for the metrics it checks: a judge with no measured agreement
    on a metric, or one below AGREEMENT_FLOOR on some unseen set.

    `in_run`: metric -> its agreement with this run's own labels, said ("AUROC 0.97 on 22
    labels"); a metric measured there is not said to have no measured agreement."""
    in_run = in_run or {}
    judge, held = _held_apart(reliability)
    out = []
    for m in metrics:
        a = held.get(m)
        if a is None and m in in_run:
            out.append(f"note: gating on {m}, whose {judge} judge's agreement with people is "
                       f"measured in this run only ({in_run[m]}), on no set it was not tuned on")
        elif a is None:
            out.append(f"warning: gating on {m}, but the {judge} judge has no measured "
                       "agreement with people on it")
        elif (weak := a.weak(judge)) is not None:
            out.append(f"warning: gating on {m}, whose {weak}" + _this_data(in_run.get(m)))
    return out


def _this_data(measured: str | None) -> str:
    """What a held-apart warning adds where this run's labels measure the metric (trial
    69: AUROC 0.49 held apart a few lines from 0.87 on the run's own labels, nothing tying
    them): the run's own figure is the one that holds for this data."""
    if measured is None:
        return ""
    return (f"; this run's own labels measure {measured}, the figure that holds for this "
            "data (the unseen sets are other data)")


def gate_warning_summary(reliability: RunReliability | None, metrics: list[str],
                         in_run: Mapping[str, str] | None = None,
                         in_rows: Collection[str] = ()) -> list[str]:
    """`gate_warnings` grouped by kind (trial 67: 13 lines before the gate's table), each
    metric on a short line of its own under its kind's (trial 71: one line of 1,000
    characters): the metrics agreeing with people below AGREEMENT_FLOOR on unseen sets,
    each with its lowest set's figure said as such (`Agreement.lowest_text`) and what
    this run's labels say of it; those with no measured agreement; those measured in this
    run only. `ragassay gate --verbose` says them one line per metric. `in_rows`: the
    metrics whose gate row says its weak figure already (`weak_held_apart`), named on
    the warning's line rather than said again (session 25: each said twice)."""
    in_run = in_run or {}
    judge, held = _held_apart(reliability)
    weak, none, only, named = [], [], [], []
    for m in metrics:
        a = held.get(m)
        if a is None and m in in_run:
            only.append(f"  {m}: {in_run[m]}")
        elif a is None:
            none.append(m)
        elif (said := _weak_text(a, in_run.get(m))) is not None:
            if m in in_rows:
                named.append(m)
            else:
                weak.append(f"  {m}: {said}")
    out = []
    if weak or named:
        ours = any("; this run: " in w for w in weak) or any(m in in_run for m in named)
        out.append(f"warning: the {judge} judge agrees with people below {AGREEMENT_FLOOR} "
                   f"on an unseen set for {counted(len(weak) + len(named), 'gated metric')}"
                   + (" (this run's own figure, where its labels measure one, holds for "
                      "this data)" if ours else "")
                   + (f": {', '.join(named)} (each row says its lowest unseen set"
                      + (" and this run's figure" if ours else "") + ")" if named else "")
                   + (":\n" + "\n".join(weak) if weak else ""))
    if none:
        out.append(f"warning: the {judge} judge has no measured agreement with people on "
                   f"{counted(len(none), 'gated metric')}: {', '.join(none)}")
    if only:
        out.append("note: agreement with people measured in this run only, on no set the "
                   f"{judge} judge was not tuned on:\n" + "\n".join(only))
    return out


def weak_held_apart(reliability: RunReliability | None, metric: str,
                    in_run: Mapping[str, str] | None = None) -> str | None:
    """What a gate row says of a metric whose judge agrees with people below
    AGREEMENT_FLOOR on some unseen set (trial 71: a PASS of judge.context_relevance at
    Spearman 0.25 read as a trusted pass): `weak agreement with people: Spearman 0.25 on
    its one unseen set`, with this run's own figure where its labels measure it; None
    otherwise."""
    _, held = _held_apart(reliability)
    a = held.get(metric)
    said = None if a is None else _weak_text(a, (in_run or {}).get(metric))
    return None if said is None else f"weak agreement with people: {said}"


def _weak_text(a: Agreement, in_run: str | None) -> str | None:
    """The one test and wording of a weak held-apart agreement, read by the gate's summary
    and its rows: `Agreement.lowest_text` where the worst unseen set is below
    AGREEMENT_FLOOR, with this run's own figure after it (`; this run: AUROC 0.87 on 22
    labels`) where its labels measure one; None where it is not weak."""
    if not a.below_floor:
        return None
    return a.lowest_text() + (f"; this run: {in_run}" if in_run else "")


def held_apart_context(reliability: RunReliability | None, metrics: list[str],
                       in_run: Mapping[str, str] | None = None) -> list[str]:
    """What a gate on a judge check (`eval --judge-check`) says of the held-apart figures,
    once, as what they are (trial 90: `weak agreement with people: balanced accuracy 0.50,
    the lowest of 7 unseen sets` on every row beside `this run: 84%`, which to believe
    unclear): context from other data, the run's agreement with the user's labels the
    figure that counts; [] where no gated metric is weak on an unseen set."""
    judge, held = _held_apart(reliability)
    weak = [m for m in metrics if (a := held.get(m)) is not None and a.below_floor]
    if not weak:
        return []
    ours = " (in the rows)" if any(m in (in_run or {}) for m in weak) else ""
    return [f"context, not this data: on other human-labelled sets (not tuned on) the {judge} "
            f"judge agreed with people below {AGREEMENT_FLOOR} on some set for "
            f"{counted(len(weak), 'gated metric')}. For your labels, this run's agreement"
            f"{ours} is the figure that counts (gate --verbose: each metric)"]
