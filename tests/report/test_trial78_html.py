"""Trial 78 in the HTML report: the abstentions table's counts are headed by the judge's
reading (never "correct" / "false" beside people's count of the same declines), its note
says people's split as the headline counts it, and a metric no sample could score for
want of references is one note, not a summary row of "-"; the JSON keeps its values."""

from __future__ import annotations

import json
from html import unescape
from pathlib import Path

import pytest

from ragassay.report import build_report, to_html
from ragassay.store import Store
from tests.cli.test_trial78_console import _rows


@pytest.fixture(scope="module")
def html_and_json(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict]:
    from click.testing import CliRunner

    from ragassay.cli import cli

    tmp = tmp_path_factory.mktemp("trial78html")
    data, db = tmp / "probes.jsonl", tmp / "r.db"
    data.write_text("".join(json.dumps(r) + "\n" for r in _rows()))
    result = CliRunner().invoke(cli, ["eval", str(data), "--db", str(db), "-q",
                                      "--metrics", "judge", "--out", str(tmp / "r.json")])
    assert result.exit_code == 0, result.output
    saved = json.loads((tmp / "r.json").read_text())
    report = build_report(Store(Path(db)), saved["evaluation_metadata"]["run_id"])
    return " ".join(unescape(to_html(report)).split()), saved


def test_the_abstentions_table_is_headed_by_the_judges_reading(html_and_json: tuple) -> None:
    html, _ = html_and_json
    section = html.partition('<section id="abstentions">')[2].partition("</section>")[0]
    assert "<th class=\"num\">contexts looked relevant</th>" in section, section
    assert ">correct<" not in section and ">false<" not in section
    assert ("people's labels on the 9 answers the judge read as declines: 8 right, 1 marked "
            "hallucination") in section, section


def test_a_metric_without_references_is_a_note_and_its_values_stay_unscored(
        html_and_json: tuple) -> None:
    html, report = html_and_json
    summary = html.partition('<section id="summary">')[2].partition("</section>")[0]
    assert "judge.answer_similarity needs reference answers: none in this data, not " \
           "scored" in summary
    assert "<td>judge.answer_similarity</td>" not in summary
    stats = report["per_metric_statistics"]["judge.answer_similarity"]
    assert stats["unscored_reasons"] == {"no reference answer": 21}
