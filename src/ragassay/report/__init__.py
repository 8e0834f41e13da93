"""Reports of a run: the JSON dictionary, and CSV and HTML renderings of it."""

from ragassay.report.build import build_report, load_run, score_table

__all__ = ["build_report", "load_run", "score_table"]
