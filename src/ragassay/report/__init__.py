"""Reports of a run: the typed `Report` (`build_report`), and its JSON, CSV, Parquet and
HTML renderings (`export`); `schema()` is the JSON report's published JSON Schema."""

from ragassay.report.bench import (
    BenchFigures,
    BenchRecord,
    CostFigures,
    CostReport,
    LeaderboardRow,
    StrategyFigures,
)
from ragassay.report.build import (
    bench_sections,
    build_report,
    iter_details,
    run_info,
    sample_entry,
)
from ragassay.report.corrected import corrected_for, plan_designs, plan_queue
from ragassay.report.csv import csv_rows, to_csv, write_csv
from ragassay.report.export import FORMATS, Format, export
from ragassay.report.headline import HEADLINE_NOTE, HEADLINE_TITLE, Headline, HeadlineRow, headline
from ragassay.report.html import to_html
from ragassay.report.jsonfile import dump_json, entry_json, report_json
from ragassay.report.leaderboard import (
    LEADERBOARD_COLUMNS,
    LEADERBOARD_HEADERS,
    LEADERBOARD_NOTE,
    VERSUS_COLUMNS,
    VERSUS_HEADERS,
    VERSUS_NOTE,
    LeaderboardColumn,
    leaderboard_notes,
    versus_rows,
)
from ragassay.report.model import (
    REPORT_VERSION,
    BatchUsage,
    Entry,
    FailedEntry,
    HopPosition,
    HopsSection,
    InvalidRowEntry,
    LostEntry,
    Report,
    RunInfo,
    RunUsage,
    SampleEntry,
    StrategyEntry,
    UsageSummary,
    published,
)
from ragassay.report.parquet import write_parquet
from ragassay.report.people import PeopleLabel, PeopleSection, agreement_text, people_section
from ragassay.report.schema import schema
from ragassay.report.table import (
    RunTable,
    label_spelling,
    merge_labels,
    overlay_labels,
    run_table,
)

__all__ = [
    "FORMATS",
    "HEADLINE_NOTE",
    "HEADLINE_TITLE",
    "LEADERBOARD_COLUMNS",
    "LEADERBOARD_HEADERS",
    "LEADERBOARD_NOTE",
    "VERSUS_COLUMNS",
    "VERSUS_HEADERS",
    "VERSUS_NOTE",
    "REPORT_VERSION",
    "BenchFigures",
    "BenchRecord",
    "CostFigures",
    "CostReport",
    "Entry",
    "FailedEntry",
    "Format",
    "Headline",
    "HeadlineRow",
    "HopPosition",
    "HopsSection",
    "InvalidRowEntry",
    "LeaderboardColumn",
    "LeaderboardRow",
    "LostEntry",
    "PeopleLabel",
    "PeopleSection",
    "Report",
    "RunInfo",
    "RunTable",
    "BatchUsage",
    "RunUsage",
    "SampleEntry",
    "StrategyEntry",
    "StrategyFigures",
    "UsageSummary",
    "bench_sections",
    "agreement_text",
    "build_report",
    "corrected_for",
    "csv_rows",
    "dump_json",
    "entry_json",
    "export",
    "headline",
    "iter_details",
    "label_spelling",
    "merge_labels",
    "overlay_labels",
    "people_section",
    "plan_designs",
    "plan_queue",
    "published",
    "report_json",
    "run_info",
    "run_table",
    "sample_entry",
    "schema",
    "to_csv",
    "to_html",
    "write_csv",
    "write_parquet",
    "leaderboard_notes",
    "versus_rows",
]
