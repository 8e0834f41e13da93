"""New-user trial 58: a group's agreement under `--by kind` that left its abstentions
out without saying so (finding 3), on every surface: the console table, the HTML "By
kind" section and the JSON. A run of `tests/support/verdicts.py` rows whose declines,
and the first three answers, are the `decline` kind."""

from __future__ import annotations

import jsonschema
import pytest
from click.testing import CliRunner

from ragassay.api import EvalResult
from ragassay.cli import cli
from ragassay.report import build_report, report_json, schema
from ragassay.stats.groups import group_cell
from tests.support.console_tables import table_cell
from tests.support.verdicts import declines_run

# what the six declines add to the three answers' verdicts (one marked hallucinated)
LEFT = "6 read as declines (5 right, 1 marked hallucinated by people); "


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> EvalResult:
    return declines_run(tmp_path_factory.mktemp("t58") / "r.db", also=("s0", "s1", "s2"))


def _cell(run: EvalResult) -> str:
    decline = run.by("kind").group("decline")
    assert decline is not None
    got = decline.agreement_of("hallucinated", "judge.hallucination")
    assert got is not None and got.n == 3 and got.abstained == 6
    return group_cell(got)


def test_the_groups_cell_says_its_abstentions_and_how_often_it_is_right(
        run: EvalResult) -> None:
    cell = _cell(run)
    assert cell.startswith("right on ") and "; of 3 scored as answers, " in cell
    assert "verdicts" not in cell
    assert LEFT in cell, cell  # (trial 89: the declines in plain words)


def test_every_surface_shows_the_groups_abstentions(run: EvalResult) -> None:
    cell = _cell(run)
    doc = report_json(build_report(run.store, run.run_id, by="kind"))
    jsonschema.validate(doc, schema())
    group = next(g for g in doc["groups"]["groups"] if g["value"] == "decline")
    got = next(a for a in group["agreement"] if a["metric"] == "judge.hallucination")
    assert (got["n"], got["abstained"], got["abstained_positives"]) == (3, 6, 1)
    html = run.report("html", by="kind")
    assert cell.replace("'", "&#x27;") in html
    shown = CliRunner().invoke(cli, ["runs", "show", run.run_id, "--by", "kind", "--db",
                                     str(run.store.path)], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert table_cell(shown.output, "judge vs people by kind", "decline", 2) == cell
