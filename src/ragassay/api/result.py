"""What `evaluate` returns: the stored run, as tables and reports.

The result holds only the store and the run id; every view reads the store, so a
result stays cheap however large the run, and the dashboard sees the same run.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, overload

from ragassay.store import Store

if TYPE_CHECKING:
    import pandas as pd

    from ragassay.report import Report
    from ragassay.runner import RunStats

ReportFormat = Literal["json", "html", "csv"]
REASON_SUFFIX = "_reason"
"""`ragas.faithfulness_reason`: the column beside a metric with its unscored reason."""


class EvalResult:
    """One evaluated run: `run_id`, `to_pandas()`, `summary()`, `report()` (the typed
    `ragassay.report.Report`)."""

    def __init__(self, store: Store, run_id: str, stats: RunStats | None = None) -> None:
        self.store = store
        self.run_id = run_id
        self.stats = stats

    def __repr__(self) -> str:
        return f"EvalResult(run_id={self.run_id!r}, store={self.store.label!r})"

    def import_labels(self, path: str | Path, *, annotator: str = "") -> int:
        """Store the human labels of a JSONL/JSON/CSV file (rows by sample id, content key
        or content; see `ragassay labels import`); returns how many were stored."""
        from ragassay.labels import import_file

        return len(import_file(self.store, self.run_id, Path(path), annotator=annotator).labels)

    def corrected(self, *, min_labels: int = 30) -> Any:
        """What people would say: the corrected estimate of each human label linked to a
        metric (a `ragassay.stats.corrected.Corrected`: `.estimates`, `.skipped`,
        `.differences`, `.overall(metric)`), from the run's labels (the data's and the
        store's) and every judge score."""
        from ragassay.report import corrected_for
        from ragassay.stats.corrected import CorrectedOptions

        return corrected_for(self.store, self.run_id,
                             options=CorrectedOptions(min_labels=min_labels))

    @property
    def metrics(self) -> list[str]:
        """The run's metrics, in the order its suites declare them."""
        return [s.name for s in self.store.get_run(self.run_id).specs]

    def to_pandas(self) -> pd.DataFrame:
        """One row per sample: id, strategy, question, status (ok or failed, with the
        error), then each metric's value with `<metric>_reason` beside it (the unscored
        reason, "abstained (correct)" / "abstained (false)" for an answer that declined,
        None when scored). Booleans stay booleans; unscored and abstained values are None."""
        import pandas as pd

        from ragassay.report import FailedEntry, SampleEntry, iter_details

        metrics = self.metrics
        rows = []
        for entry in iter_details(self.store, self.run_id):
            failed = isinstance(entry, FailedEntry)
            row: dict[str, Any] = {
                "id": entry.id, "strategy": entry.strategy,
                "question": entry.question if isinstance(entry, SampleEntry) else None,
                "status": entry.status,
                "error": entry.error if isinstance(entry, FailedEntry) else None}
            abstained = (entry.abstained or {}) if isinstance(entry, SampleEntry) else {}
            for m in metrics:
                row[m] = entry.metrics.get(m)
                row[m + REASON_SUFFIX] = (
                    f"abstained ({abstained[m]})" if m in abstained
                    else entry.unscored.get(m) if m in entry.metrics
                    else "failed row" if failed else None)
            rows.append(row)
        columns = ["id", "strategy", "question", "status", "error"] + [
            c for m in metrics for c in (m, m + REASON_SUFFIX)]
        frame = pd.DataFrame(rows, columns=columns)
        return frame.astype({m: object for m in metrics}).where(frame.notna(), None)

    @overload
    def report(self, format: Literal["json"] = "json", out: str | Path | None = None
               ) -> Report: ...

    @overload
    def report(self, format: Literal["html", "csv"], out: str | Path | None = None
               ) -> str: ...

    def report(self, format: ReportFormat = "json", out: str | Path | None = None
               ) -> Report | str:
        """The report: the typed `Report` ("json"; its JSON written to `out` when given),
        or the HTML or CSV text (written to `out` too when given, atomically)."""
        from ragassay.report import build_report, export, iter_details

        if format not in ("json", "html", "csv"):
            raise ValueError(f"format must be json, html or csv, not {format!r}")
        report = build_report(self.store, self.run_id, include_details=format != "csv")
        if format == "json":
            if out is not None:
                export(report, "json", out)
            return report
        buf = io.StringIO()
        export(report, format, buf, iter_details(self.store, self.run_id)
               if format == "csv" else None)
        if out is not None:
            from ragassay.files import atomic_write

            with atomic_write(Path(out)) as fh:
                fh.write(buf.getvalue())
        return buf.getvalue()

    def summary(self) -> pd.DataFrame:
        """Per metric: mean, 95% CI, scored and unscored counts (indexed by metric), as
        the report publishes them."""
        import pandas as pd

        from ragassay.report import build_report, published

        report = published(build_report(self.store, self.run_id, include_details=False))
        rows = [{"metric": m, "mean": e.mean, "ci_low": e.ci_low, "ci_high": e.ci_high,
                 "scored": e.count, "unscored": e.unscored}
                for m, e in report.aggregate_metrics.metrics.items()]
        return pd.DataFrame(rows, columns=["metric", "mean", "ci_low", "ci_high", "scored",
                                           "unscored"]).set_index("metric")

    def _repr_html_(self) -> str:  # a notebook shows the summary
        return f"<p>ragassay run <code>{self.run_id}</code></p>" + self.summary().to_html()


__all__ = ["REASON_SUFFIX", "EvalResult"]
