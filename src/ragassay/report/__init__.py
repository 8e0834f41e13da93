"""Reports of a run: the JSON dictionary, and CSV and HTML renderings of it."""

from ragassay.report.build import build_report, load_run, score_table
from ragassay.report.csv import csv_rows, to_csv
from ragassay.report.html import to_html

__all__ = ["build_report", "csv_rows", "load_run", "score_table", "to_csv", "to_html"]
