"""What `evaluate` returns: the stored run, as tables and reports.

The result holds only the store and the run id; every view reads the store, so a
result stays cheap however large the run, and the dashboard sees the same run.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args, overload

from ragassay.store import Store
from ragassay.types import LABEL_PREFIX, LabelRule, Status

if TYPE_CHECKING:
    import pandas as pd

    from ragassay.report import Report, SampleEntry
    from ragassay.runner import RunOutcome, RunStats
    from ragassay.stats import Groups

ReportFormat = Literal["json", "html", "csv"]
REASON_SUFFIX = "_reason"
"""`ragas.faithfulness_reason`: the column beside a metric with its unscored reason."""
STATUS_SUFFIX = "_status"
"""`judge.hallucination_status`: the column beside a metric saying whether the sample is
scored, abstained (the answer declined: no value, not unscored) or unscored, as
`summary()` counts them (`types.Status`; trial 61: `isna()` counted declines unscored)."""
INPUT_COLUMNS = ("id", "strategy", "status", "error", "question", "answer", "contexts",
                 "reference")
"""The first columns of `to_pandas()`: the sample's identity, state and inputs."""
TEXT_COLUMNS = ("id", "strategy", "status", "error", "question", "answer", "reasoning")
"""Columns of `to_pandas()` held as pandas' nullable `string` (missing: <NA>)."""


def _reference(ref: str | tuple[str, ...] | None) -> str | list[str] | None:
    """A sample's reference as a cell: its text, or the list of acceptable ones."""
    return ref if ref is None or isinstance(ref, str) else list(ref)


def _nullable(column: pd.Series) -> pd.Series:
    """A label or metadata column in its values' nullable dtype (`string`, `Int64`,
    `boolean`, ...), or `object` when they mix types; an absent cell is <NA> either way
    (`convert_dtypes` leaves None in an object column: mixed types, or all absent)."""
    import pandas as pd

    out = column.convert_dtypes()
    return out.astype(object).where(out.notna(), pd.NA) if out.dtype == object else out


def _statuses() -> pd.CategoricalDtype:
    """The status columns' dtype: a category of `types.Status`, in its order."""
    import pandas as pd

    return pd.CategoricalDtype(list(get_args(Status)))


def _status(sample: SampleEntry | None, metric: str) -> Status | None:
    """Whether the sample's metric is scored, abstained or unscored (`types.Status`);
    None for a row that failed (it has no metric to score)."""
    if sample is None:
        return None
    if sample.metrics.get(metric) is not None:
        return "scored"
    return "abstained" if sample.abstained and metric in sample.abstained else "unscored"


def _long(frame: pd.DataFrame, inputs: list[str], metrics: list[str]) -> pd.DataFrame:
    """The wide frame as one row per sample and metric: the inputs, `metric`, `value`
    (Float64; a flag as 0/1), `reason` (set where unscored or abstained) and
    `metric_status` (the sample's own `status` is ok or failed)."""
    import pandas as pd

    parts = []
    for order, m in enumerate(metrics):
        part = frame[inputs].copy()
        part["metric"] = m
        part["value"] = frame[m].map(lambda v: None if v is None else float(v)).astype(
            "Float64")
        part["reason"] = frame[m + REASON_SUFFIX]
        part["metric_status"] = frame[m + STATUS_SUFFIX]
        part["_order"] = order
        parts.append(part)
    columns = [*inputs, "metric", "value", "reason", "metric_status"]
    if not parts:
        return pd.DataFrame(columns=columns).astype({"metric_status": _statuses()})
    out = pd.concat(parts)
    out["_row"] = out.index
    return out.sort_values(["_row", "_order"], kind="stable")[columns].reset_index(drop=True)


class EvalResult:
    """One evaluated run: `run_id`, `to_pandas()`, `summary()`, `report()` (the typed
    `ragassay.report.Report`)."""

    def __init__(self, store: Store, run_id: str, stats: RunStats | None = None, *,
                 outcome: RunOutcome | None = None, label_rule: LabelRule | None = None
                 ) -> None:
        self.store = store
        self.run_id = run_id
        self.stats = stats
        self.outcome = outcome
        # how several people's labels of a sample become one (evaluate's `label_rule`)
        self.label_rule = label_rule or LabelRule()

    @property
    def status(self) -> str:
        """The run's status as stored: "complete", "failed" (every judge call failed),
        "interrupted" or "running"."""
        return self.store.get_run(self.run_id).status

    @property
    def notes(self) -> list[str]:
        """What the run's plan said before it started (invalid rows skipped, a set without
        answers, the embedder answer relevancy falls back to, judgments judged again)."""
        return [n.text for n in self.outcome.notes] if self.outcome else []

    @property
    def findings(self) -> list[str]:
        """What the finished run found (the judge's notes, samples lacking an input,
        suspicious judge replies, failed judgments and how to judge them again)."""
        return [f.text for f in self.outcome.findings] if self.outcome else []

    def __repr__(self) -> str:
        return f"EvalResult(run_id={self.run_id!r}, store={self.store.label!r})"

    def import_labels(self, path: str | Path, *, annotator: str = "",
                      allow_new_label: bool = False) -> int:
        """Store the human labels of a JSONL/JSON/CSV file (rows by sample id, content key
        or content; see `ragassay labels import`); returns how many were stored. A label
        name close to a vocabulary name is a typo (LabelFileError) unless
        `allow_new_label`; a sample given one label twice is a LabelFileError when the
        values differ, a warning when they agree. Each person's label is kept beside
        other annotators' (see `corrected`'s `label_rule`)."""
        from ragassay.labels import import_file, mismatch_line

        matched = import_file(self.store, self.run_id, Path(path), annotator=annotator,
                              allow_new=allow_new_label)
        for warning in (matched.repeated,):
            if warning:
                warnings.warn(warning, UserWarning, stacklevel=2)
        if matched.mismatched:
            warnings.warn(mismatch_line(matched, Path(path).name, self.run_id), UserWarning,
                          stacklevel=2)
        return len(matched.labels)

    def corrected(self, *, min_labels: int = 30, label_rule: str | None = None) -> Any:
        """What people would say: the corrected estimate of each human label linked to a
        metric (a `ragassay.stats.corrected.Corrected`: `.estimates`, `.skipped`,
        `.differences`, `.overall(metric)`, `.label_rule`, `.label_sources`), from the
        run's labels (the data's and the store's, several people's made one by
        `label_rule`: "majority" or "annotator:NAME"; default the result's) and every
        judge score."""
        from ragassay.report import corrected_for
        from ragassay.stats.corrected import CorrectedOptions

        rule = self.label_rule if label_rule is None else LabelRule.parse(label_rule)
        return corrected_for(self.store, self.run_id,
                             options=CorrectedOptions(min_labels=min_labels, rule=rule))

    def by(self, key: str, *, label_rule: str | None = None) -> Groups:
        """The run by a metadata key of its samples (`"kind"` or `"metadata.kind"`): a
        `ragassay.stats.Groups` with per value (`.groups`, `.group("lookup")`; samples
        without it in "(none)") its samples, each metric's mean (a yes/no verdict's
        rate) with its 95% interval (`.scales` says which, on which range), and the
        judge's agreement with people's labels in it ("right on 12 of 16"). A key no
        sample has is an UnknownGroupKey (a ValueError) naming the keys there are."""
        from ragassay.report import groups_for

        rule = self.label_rule if label_rule is None else LabelRule.parse(label_rule)
        return groups_for(self.store, self.run_id, key, rule=rule)

    @property
    def metrics(self) -> list[str]:
        """The run's metrics, in the order its suites declare them."""
        return [s.name for s in self.store.get_run(self.run_id).specs]

    def to_pandas(self, *, long: bool = False) -> pd.DataFrame:
        """The run's samples as a DataFrame ready for analysis.

        Wide (default): one row per sample: id, strategy, status and error, the inputs
        (question, answer, contexts as a list, reference), each label as
        `label.<name>`, the judge's reasoning, then each metric's value with
        `<metric>_reason` and `<metric>_status` beside it (the unscored reason,
        "abstained (correct)" / "abstained (false)" for an answer that declined; "scored",
        "abstained" or "unscored", as `summary()` counts them), then each key of the samples'
        metadata as `metadata.<key>` (in the order the keys first appear; a list or
        object as its JSON text; <NA> where a sample lacks the key; beyond
        METADATA_KEYS_MAX keys one `metadata` column, each sample's as JSON text, as the
        CSV has). Metric columns are
        nullable: `Float64` for scores, `boolean` for flags; unscored and abstained are
        both <NA>, the reason is set on those rows only, and the status (a categorical)
        tells them apart; text columns are nullable `string`, labels and metadata take
        their values' nullable dtype. A row that failed has no status.
        `long=True`: one row per sample and metric (id, strategy, the inputs, labels,
        reasoning, metadata, then metric, value as `Float64` with a flag as 0/1, reason,
        metric_status), for grouping and plotting."""
        import pandas as pd

        from ragassay.report import (
            FailedEntry,
            SampleEntry,
            iter_details,
            metadata_cells,
            metadata_columns,
            metadata_keys,
        )

        specs = {s.name: s for s in self.store.get_run(self.run_id).specs}
        metrics = list(specs)
        keys = metadata_keys(self.store, self.run_id)
        rows: list[dict[str, Any]] = []
        label_names: dict[str, None] = {}
        for entry in iter_details(self.store, self.run_id, self.label_rule):
            sample = entry if isinstance(entry, SampleEntry) else None
            row: dict[str, Any] = {
                "id": entry.id, "strategy": entry.strategy, "status": entry.status,
                "error": entry.error if isinstance(entry, FailedEntry) else None,
                "question": sample.question if sample else None,
                "answer": sample.answer if sample else None,
                "contexts": list(sample.contexts) if sample else None,
                "reference": _reference(sample.reference) if sample else None,
                "reasoning": entry.reasoning}
            for name, value in (sample.labels if sample else {}).items():
                label_names.setdefault(LABEL_PREFIX + name)
                row[LABEL_PREFIX + name] = value
            for m in metrics:
                row[m] = entry.metrics.get(m)
                row[m + REASON_SUFFIX] = (
                    sample.reason(m) if sample is not None else "failed row")
                row[m + STATUS_SUFFIX] = _status(sample, m)
            row.update(metadata_cells(entry, keys))
            rows.append(row)
        inputs = [*INPUT_COLUMNS, *label_names, "reasoning"]
        meta = metadata_columns(keys)
        frame = pd.DataFrame(rows, columns=[*inputs, *(
            c for m in metrics for c in (m, m + REASON_SUFFIX, m + STATUS_SUFFIX)), *meta])
        for column in [*label_names, *meta]:
            frame[column] = _nullable(frame[column])
        text = [*TEXT_COLUMNS, *(m + REASON_SUFFIX for m in metrics)]
        frame = frame.astype({**dict.fromkeys(text, "string"),
                              **dict.fromkeys((m + STATUS_SUFFIX for m in metrics), _statuses())})
        if long:
            return _long(frame, [*inputs, *meta], metrics)
        for m in metrics:
            frame[m] = frame[m].astype("boolean" if specs[m].kind == "bool" else "Float64")
        return frame

    @overload
    def report(self, format: Literal["json"] = "json", out: str | Path | None = None, *,
               by: str | None = None) -> Report: ...

    @overload
    def report(self, format: Literal["html", "csv"], out: str | Path | None = None, *,
               by: str | None = None) -> str: ...

    def report(self, format: ReportFormat = "json", out: str | Path | None = None, *,
               by: str | None = None) -> Report | str:
        """The report: the typed `Report` ("json"; its JSON written to `out` when given),
        or the HTML or CSV text (written to `out` too when given, atomically); `by` a
        metadata key: its `groups` (`by`) too, in the JSON and the HTML."""
        from ragassay.report import build_report, export, iter_details

        if format not in ("json", "html", "csv"):
            raise ValueError(f"format must be json, html or csv, not {format!r}")
        if by is not None and format == "csv":
            raise ValueError(f"by={by!r} breaks the JSON or HTML report down: the CSV has "
                             "each sample's metadata.<key> columns to group by")
        if out is not None:
            from ragassay.files import replaced_input, store_files

            if replaced_input(out, [("the run store", f) for f in store_files(self.store.path)]):
                raise ValueError(f"out={str(out)!r} would overwrite the run store "
                                 f"({self.store.path}): write the report elsewhere")
        report = build_report(self.store, self.run_id, include_details=format != "csv",
                              rule=self.label_rule, per_sample=format != "html", by=by)
        if format == "json":
            if out is not None:
                export(report, "json", out)
            return report
        buf = io.StringIO()
        export(report, format, buf, iter_details(self.store, self.run_id, self.label_rule)
               if format == "csv" else None)
        if out is not None:
            from ragassay.files import atomic_write

            with atomic_write(Path(out)) as fh:
                fh.write(buf.getvalue())
        return buf.getvalue()

    def summary(self) -> pd.DataFrame:
        """Per metric: mean, 95% CI, and the samples scored, unscored and abstained (the
        answer declined: no value, not unscored), which add up to every sample (indexed by
        metric), as the report publishes them."""
        import pandas as pd

        from ragassay.report import build_report, published

        report = published(build_report(self.store, self.run_id, include_details=False,
                                        per_sample=False))
        rows = [{"metric": m, "mean": e.mean, "ci_low": e.ci_low, "ci_high": e.ci_high,
                 "scored": e.count, "unscored": e.unscored, "abstained": e.abstained or 0}
                for m, e in report.aggregate_metrics.metrics.items()]
        return pd.DataFrame(rows, columns=["metric", "mean", "ci_low", "ci_high", "scored",
                                           "unscored", "abstained"]).set_index("metric")

    def _repr_html_(self) -> str:  # a notebook shows the summary
        return f"<p>ragassay run <code>{self.run_id}</code></p>" + self.summary().to_html()


__all__ = ["INPUT_COLUMNS", "LABEL_PREFIX", "REASON_SUFFIX", "STATUS_SUFFIX", "EvalResult"]
