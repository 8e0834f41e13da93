"""Reports of a run: the JSON dictionary, and CSV and HTML renderings of it."""

from ragassay.report.build import (
    RunTable,
    bench_sections,
    build_report,
    iter_details,
    run_table,
    sample_entry,
)
from ragassay.report.csv import csv_rows, to_csv, write_csv
from ragassay.report.html import to_html
from ragassay.report.jsonfile import dump_json

__all__ = [
    "RunTable",
    "bench_sections",
    "build_report",
    "csv_rows",
    "dump_json",
    "iter_details",
    "run_table",
    "sample_entry",
    "to_csv",
    "to_html",
    "write_csv",
]
