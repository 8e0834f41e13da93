"""Trial 79: the JSON report's per-sample layout was barely described. docs/cli.md's
table names every field of an evaluated sample, in the model's order, and no other."""

from __future__ import annotations

import re
from pathlib import Path

from ragassay.report.model import SampleEntry

DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def _table_fields() -> list[str]:
    section = DOC.read_text(encoding="utf-8").split(
        "### The JSON report, sample by sample", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"^\| `(\w+)` \|", section, flags=re.MULTILINE)


def test_the_docs_name_every_field_of_a_sample_in_order() -> None:
    assert _table_fields() == list(SampleEntry.model_fields)


def test_the_fields_left_out_when_empty_are_the_optional_ones() -> None:
    section = DOC.read_text(encoding="utf-8").split(
        "### The JSON report, sample by sample", 1)[1].split("\n### ", 1)[0]
    said = re.search(r"Fields that say nothing for a sample \(([^)]*)\)", section)
    assert said is not None
    left_out = re.findall(r"`(\w+)`", said.group(1))
    optional = [name for name, f in SampleEntry.model_fields.items()
                if f.default is None]
    assert sorted(left_out) == sorted(optional)
