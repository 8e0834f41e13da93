"""A run's figures by one of its samples' metadata keys (`--by kind`, `EvalResult.by`,
`build_report(by=...)`): the key checked against the keys the samples have, each
sample's value read from the store (its metadata only), and `stats.group_by` over the
run's score table. The one place every surface gets a run's groups from."""

from __future__ import annotations

from typing import Any

from ragassay.report.model import METADATA_PREFIX
from ragassay.report.table import RunTable, run_table
from ragassay.stats.describe import SCALE_NOTE
from ragassay.stats.groups import MIN_INTERVAL, Groups, RowKey, UnknownGroupKey, group_by
from ragassay.store import Store
from ragassay.text import did_you_mean
from ragassay.types import LabelRule

KEYS_SHOWN = 20  # metadata keys an unknown-key error names
FIGURES_NOTE = (f"{SCALE_NOTE}; 95% interval from {MIN_INTERVAL} values, else (n=...) "
                "without one; (12 scored, 4 abstained): the figure rests on the 12 samples "
                "scored, not on the group's n (the others abstained, or are unscored); "
                "where most of the group have no value, their counts come first and the "
                "figure after them (15 abstained; 1 scored: 1.00: a rate over 1 sample)")
AGREEMENT_NOTE = "\n".join((
    "right on N of M: how often the judge's yes/no verdict is people's label.",
    "Where some answers abstained, they are counted first, then the verdicts.",
    "misses: problems people marked that the judge did not; flags: the reverse.",
    "Without a yes/no verdict: AUROC (Spearman for a grade), how well scores rank the labels.",
    "Labelled samples without a value (abstained, unscored) are said apart"))
"""What the figures of a run's groups are, said under them (console, HTML)."""


def group_key(store: Store, run_id: str, given: str) -> str:
    """The metadata key `given` names, as users write it: `kind` or `metadata.kind`;
    UnknownGroupKey naming the keys the run's samples have when it names none."""
    known = store.sample_metadata_keys(run_id) or []
    for name in (given, given.removeprefix(METADATA_PREFIX)):
        if name in known:
            return name
    if not known:
        raise UnknownGroupKey(f"group by {given}: the samples of run {run_id} have no metadata "
                              "to group by (a row's `metadata` object, or a `metadata.<key>` "
                              "column)")
    shown = ", ".join(known[:KEYS_SHOWN]) + (f" and {len(known) - KEYS_SHOWN} more"
                                             if len(known) > KEYS_SHOWN else "")
    hint = did_you_mean(given.removeprefix(METADATA_PREFIX), known)
    raise UnknownGroupKey(f"group by {given}: no sample of run {run_id} has metadata key "
                          f"'{given.removeprefix(METADATA_PREFIX)}'{hint}; its keys: {shown}")


def group_values(store: Store, run_id: str, key: str) -> dict[RowKey, Any]:
    """Each sample's value of metadata `key` (a sample without it is left out), by its
    score-table row key (strategy, id)."""
    return {(strategy, sample_id): own.get(key)
            for strategy, sample_id, own in store.iter_metadata(run_id) if key in own}


def groups_for(store: Store, run_id: str, by: str, *, rt: RunTable | None = None,
               rule: LabelRule | None = None, seed: int = 0) -> Groups:
    """The run's groups by metadata key `by` (`stats.group_by`: per group its samples,
    each metric's mean or rate with its interval, the judge's agreement with people's
    labels), from its score table (`rt`, else read with `rule`)."""
    key = group_key(store, run_id, by)
    table = (rt or run_table(store, run_id, rule=rule)).table
    return group_by(table, group_values(store, run_id, key), key, seed=seed)
