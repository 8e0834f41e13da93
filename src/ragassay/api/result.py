"""What `evaluate` returns: the stored run, as tables and reports.

The result holds only the store and the run id; every view reads the store, so a
result stays cheap however large the run, and the dashboard sees the same run.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ragassay.store import Store

if TYPE_CHECKING:
    import pandas as pd

    from ragassay.runner import RunStats

ReportFormat = Literal["json", "html", "csv"]
REASON_SUFFIX = "_reason"
"""`ragas.faithfulness_reason`: the column beside a metric with its unscored reason."""


class EvalResult:
    """One evaluated run: `run_id`, `to_pandas()`, `summary()`, `report()`."""

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
        reason, None when scored). Booleans stay booleans; unscored values are None."""
        import pandas as pd

        from ragassay.report import iter_details

        metrics = self.metrics
        rows = []
        for entry in iter_details(self.store, self.run_id):
            row: dict[str, Any] = {"id": entry["id"], "strategy": entry["strategy"],
                                   "question": entry.get("question"),
                                   "status": entry["status"], "error": entry.get("error")}
            values, unscored = entry.get("metrics", {}), entry.get("unscored", {})
            for m in metrics:
                row[m] = values.get(m)
                row[m + REASON_SUFFIX] = unscored.get(m) if m in values else (
                    None if entry["status"] == "ok" else "failed row")
            rows.append(row)
        columns = ["id", "strategy", "question", "status", "error"] + [
            c for m in metrics for c in (m, m + REASON_SUFFIX)]
        frame = pd.DataFrame(rows, columns=columns)
        return frame.astype({m: object for m in metrics}).where(frame.notna(), None)

    def report(self, format: ReportFormat = "json", out: str | Path | None = None
               ) -> Any:
        """The report: a dict ("json"), or the HTML or CSV text; written to `out` too
        when given (atomically)."""
        from ragassay.files import atomic_write
        from ragassay.report import build_report, iter_details, to_html, write_csv

        if format not in ("json", "html", "csv"):
            raise ValueError(f"format must be json, html or csv, not {format!r}")
        report = build_report(self.store, self.run_id, include_details=format != "csv")
        if format == "json":
            result: Any = report
            if out is not None:
                from ragassay.report import dump_json

                with atomic_write(Path(out)) as fh:
                    dump_json(report, fh)
            return result
        if format == "html":
            text = to_html(report)
        else:
            buf = io.StringIO()
            write_csv(report, buf, iter_details(self.store, self.run_id))
            text = buf.getvalue()
        if out is not None:
            with atomic_write(Path(out)) as fh:
                fh.write(text)
        return text

    def summary(self) -> pd.DataFrame:
        """Per metric: mean, 95% CI, scored and unscored counts (indexed by metric)."""
        import pandas as pd

        from ragassay.report import build_report

        report = build_report(self.store, self.run_id, include_details=False)
        metrics = report.get("aggregate_metrics", {}).get("metrics", {})
        rows = [{"metric": m, "mean": e.get("mean"), "ci_low": e.get("ci_low"),
                 "ci_high": e.get("ci_high"), "scored": e.get("count"),
                 "unscored": e.get("unscored")} for m, e in metrics.items()]
        return pd.DataFrame(rows, columns=["metric", "mean", "ci_low", "ci_high", "scored",
                                           "unscored"]).set_index("metric")

    def _repr_html_(self) -> str:  # a notebook shows the summary
        return f"<p>ragassay run <code>{self.run_id}</code></p>" + self.summary().to_html()


__all__ = ["REASON_SUFFIX", "EvalResult"]
