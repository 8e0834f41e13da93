"""A run's corrected estimates: its score table with the store's human labels, and the
inclusion probabilities of its annotation plan (`ragassay.labels.plan`), through
`stats.corrected`. The one place every surface (report, console, dashboard, gate, API)
gets them from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from ragassay.labels import canonical, labelled_probabilities, queue, weights
from ragassay.report.table import RunTable, run_table
from ragassay.stats.calibration import LabelLink
from ragassay.stats.corrected import Corrected, CorrectedOptions, RowKey, corrected
from ragassay.store import Store
from ragassay.types import AnnotationPlan


def _plan_inputs(rt: RunTable, plan: AnnotationPlan) -> tuple[list[str], NDArray[np.float64]]:
    """The rows' content keys and plan weights, in table order."""
    rows = rt.table.rows
    keys = [rt.content_keys.get(r.key, "") for r in rows]
    scores = None
    if plan.kind == "uncertainty":
        spec = rt.table.specs.get(plan.metric or "")
        scores = [None if spec is None or (v := r.value(spec.name)) is None
                  else spec.normalise(v) for r in rows]
    return keys, weights(plan, [r.strategy for r in rows], scores)


def plan_queue(rt: RunTable, plan: AnnotationPlan) -> list[tuple[RowKey, str]]:
    """The run's samples (row key, content key) in the order the plan offers them: the
    annotation queue. A content key shared by several rows appears once (its first)."""
    keys, w = _plan_inputs(rt, plan)
    rows = rt.table.rows
    seen: set[str] = set()
    out: list[tuple[RowKey, str]] = []
    for i in queue(plan, keys, w):
        if keys[i] not in seen:
            seen.add(keys[i])
            out.append((rows[i].key, keys[i]))
    return out


def plan_designs(rt: RunTable, plan: AnnotationPlan | None
                 ) -> dict[str, dict[RowKey, float]]:
    """label name -> row key -> inclusion probability, for the labels of a weighted plan
    (empty for a uniform plan or none: the labels are then a simple random sample).
    Unlabelled samples before the last labelled one in the queue (skips among them) are
    non-response: see `labels.labelled_probabilities`."""
    if plan is None or plan.kind == "uniform":
        return {}
    rows = rt.table.rows
    keys, w = _plan_inputs(rt, plan)
    out: dict[str, dict[RowKey, float]] = {}
    for label in rt.table.label_names:
        if plan.labels and canonical(label) not in {canonical(x) for x in plan.labels}:
            continue
        done = {keys[i] for i, r in enumerate(rows) if r.labels.get(label) is not None}
        pis, _ = labelled_probabilities(plan, keys, w, done)
        out[label] = {r.key: pis[keys[i]] for i, r in enumerate(rows) if keys[i] in pis}
    return out


def corrected_for(store: Store, run_id: str, *, rt: RunTable | None = None,
                  links: Sequence[LabelLink] | None = None,
                  options: CorrectedOptions | None = None) -> Corrected:
    """The run's corrected estimates (reading its table, with people's labels made one
    value by `options.rule`, unless `rt` is given: then by its rule), saying the rule
    and where each label's values came from when the store gave people's labels."""
    opts = options or CorrectedOptions()
    rt = rt or run_table(store, run_id, keys=True, rule=opts.rule)
    plan = store.get_plan(rt.run.id)
    designs = plan_designs(rt, plan)
    if designs and plan is not None:
        opts = replace(opts, designs=designs, design_kind=plan.kind)
    out = corrected(rt.table, links, opts)
    sources = rt.people.sources()
    if not sources:
        return out
    return out.model_copy(update={"label_rule": str(rt.rule), "label_sources": sources})
