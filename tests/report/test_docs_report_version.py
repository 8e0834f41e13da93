"""The docs never name a report version that does not exist (issue 43, item 15: docs/trust.md
said the `corrected` section was in report_version 0.2.0; it came with 1.0.0, and the
current one is what `ragassay report --schema` says)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.report import model

REPO = Path(__file__).resolve().parents[2]
NAMED = re.compile(r"report[_ ]version (\d+\.\d+\.\d+)")


def _history() -> set[str]:
    """The versions REPORT_VERSION's docstring records (`1.0.0: ...`), and the current."""
    source = (REPO / "src" / "ragassay" / "report" / "model.py").read_text()
    block = source[source.index("REPORT_VERSION = "):]
    block = block[:block.index('"""', block.index('"""') + 3)]
    return set(re.findall(r"^(\d+\.\d+\.\d+):", block, re.M)) | {model.REPORT_VERSION}


def test_every_report_version_the_docs_name_exists() -> None:
    shown = CliRunner().invoke(cli, ["report", "--schema"])
    assert shown.exit_code == 0, shown.output
    current = json.loads(shown.output)["title"].removeprefix("ragassay report (report_version "
                                                             ).removesuffix(")")
    assert current == model.REPORT_VERSION
    known = _history()
    named = {(path.relative_to(REPO).as_posix(), v)
             for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
             for v in NAMED.findall(path.read_text(encoding="utf-8"))}
    assert named, "the docs name no report version: the pattern is stale"
    unknown = sorted((where, v) for where, v in named if v not in known)
    assert not unknown, f"report versions the docs name that never were: {unknown}"
