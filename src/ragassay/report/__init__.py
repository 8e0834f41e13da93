"""Reports of a run: the JSON dictionary, and CSV, Parquet and HTML renderings of it."""

from ragassay.report.build import (
    RunTable,
    bench_sections,
    build_report,
    iter_details,
    label_spelling,
    merge_labels,
    overlay_labels,
    run_table,
    sample_entry,
)
from ragassay.report.corrected import corrected_for, plan_designs, plan_queue
from ragassay.report.csv import csv_rows, to_csv, write_csv
from ragassay.report.html import to_html
from ragassay.report.jsonfile import dump_json
from ragassay.report.parquet import write_parquet

__all__ = [
    "RunTable",
    "bench_sections",
    "build_report",
    "corrected_for",
    "csv_rows",
    "dump_json",
    "iter_details",
    "label_spelling",
    "merge_labels",
    "overlay_labels",
    "plan_designs",
    "plan_queue",
    "run_table",
    "sample_entry",
    "to_csv",
    "to_html",
    "write_csv",
    "write_parquet",
]
