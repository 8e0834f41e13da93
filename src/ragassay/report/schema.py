"""The published JSON Schema of the JSON report (`ragassay report --schema`)."""

from __future__ import annotations

from typing import Any

from ragassay.report.headline import HeadlineSection
from ragassay.report.model import REPORT_VERSION, Report

SCHEMA_ID = "https://ragassay.dev/schema/report-{version}.json"


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) that every JSON report of this version satisfies:
    the `Report` model as serialised, with what its serialisers change said."""
    out: dict[str, Any] = Report.model_json_schema(mode="serialization", by_alias=True)
    defs = out.get("$defs", {})
    spec = defs.get("MetricSpec")
    if spec:  # metric_specs is keyed by name; an entry leaves its name out
        spec["properties"].pop("name", None)
        spec["required"] = [r for r in spec.get("required", []) if r != "name"]
    run_info = defs.get("RunInfo")
    if run_info:  # a run stored without its judge's reliability table reads {}
        run_info["properties"]["judge_reliability"] = {"anyOf": [
            {"$ref": "#/$defs/RunReliability"},
            {"type": "object", "maxProperties": 0}]}
    # the headline is computed from the sections (`Report.headline`), written after
    # `evaluation_metadata` when some metric is linked to a label
    head = HeadlineSection.model_json_schema(mode="serialization",
                                             ref_template="#/$defs/{model}")
    defs.update(head.pop("$defs", {}))
    defs["HeadlineSection"] = head
    props = out["properties"]
    out["properties"] = {"evaluation_metadata": props.pop("evaluation_metadata"),
                         "headline": {"$ref": "#/$defs/HeadlineSection"}, **props}
    row = defs.get("LeaderboardRow")
    if row:  # rows are written as stored: only the strategy and metric are sure
        row["required"] = ["strategy", "metric"]
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": SCHEMA_ID.format(version=REPORT_VERSION), **out,
            "title": f"ragassay report (report_version {REPORT_VERSION})"}
