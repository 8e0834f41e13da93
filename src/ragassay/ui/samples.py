"""The sample explorer's logic: a filterable table of samples and label resolution."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ragassay.ui.fmt import metric_label, sample_key

SCORED_ALL = "(scored on every metric)"
UNSCORED_ANY = "(unscored on some metric)"
ANY = "(any)"


def sample_frame(detailed: Sequence[Mapping[str, Any]], metrics: Sequence[str]) -> pd.DataFrame:
    """One row per sample: key, strategy, id, status, question, one column per metric
    (booleans as 0/1, unscored empty) and the unscored reasons."""
    rows = []
    for i, d in enumerate(detailed):
        values = d.get("metrics", {})
        unscored = dict(d.get("unscored", {}))
        if d.get("status") == "failed":
            unscored = {m: "invalid input" for m in metrics}
        row: dict[str, Any] = {
            "index": i, "key": sample_key(d.get("strategy", ""), d.get("id", "")),
            "strategy": d.get("strategy", ""), "id": d.get("id", ""),
            "status": d.get("status", ""),
            "question": " ".join(str(d.get("question", d.get("error", ""))).split())[:120],
        }
        for m in metrics:
            v = values.get(m)
            row[metric_label(m)] = None if v is None else float(v)
        row["unscored"] = "; ".join(f"{metric_label(m)}: {r}" for m, r in unscored.items())
        row["_reasons"] = tuple(sorted(set(unscored.values())))
        rows.append(row)
    columns = ["index", "key", "strategy", "id", "status",
               *[metric_label(m) for m in metrics], "unscored", "question", "_reasons"]
    return pd.DataFrame(rows, columns=columns)


def reasons(frame: pd.DataFrame) -> list[str]:
    """The filter choices for unscored reasons."""
    found = sorted({r for rs in frame["_reasons"] for r in rs})
    return [ANY, SCORED_ALL, UNSCORED_ANY, *found]


@dataclass(frozen=True)
class Filters:
    strategies: tuple[str, ...] = ()  # empty: all
    reason: str = ANY
    text: str = ""
    sort_metric: str | None = None
    ascending: bool = True
    value_range: tuple[float, float] | None = None  # on the sort metric


def apply_filters(frame: pd.DataFrame, detailed: Sequence[Mapping[str, Any]],
                  f: Filters) -> pd.DataFrame:
    """Filter by strategy, unscored reason, text (question/answer/id) and value range,
    then sort by a metric (unscored last)."""
    out = frame
    if f.strategies:
        out = out[out["strategy"].isin(f.strategies)]
    if f.reason == SCORED_ALL:
        out = out[out["_reasons"].map(len) == 0]
    elif f.reason == UNSCORED_ANY:
        out = out[out["_reasons"].map(len) > 0]
    elif f.reason != ANY:
        out = out[out["_reasons"].map(lambda rs: f.reason in rs)]
    if f.text.strip():
        needle = f.text.strip().casefold()

        def hit(i: int) -> bool:
            d = detailed[i]
            hay = " ".join(str(d.get(k, "")) for k in ("id", "question", "answer", "error"))
            return needle in hay.casefold()

        out = out[out["index"].map(hit)]
    if f.sort_metric is not None:
        col = metric_label(f.sort_metric)
        if f.value_range is not None:
            lo, hi = f.value_range
            out = out[out[col].isna() | out[col].between(lo, hi)]
        out = out.sort_values(col, ascending=f.ascending, na_position="last", kind="stable")
    return out


def resolve(label: str, frame: pd.DataFrame) -> int | None:
    """Index of the sample named `label`: "strategy/id", or a unique id."""
    hits = frame.index[frame["key"] == label]
    if len(hits):
        return int(frame.loc[hits[0], "index"])
    hits = frame.index[frame["id"] == label]
    if len(hits) == 1:
        return int(frame.loc[hits[0], "index"])
    return None
