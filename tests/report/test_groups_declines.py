"""New-user trial (nine kinds of 16 labelled rows, the `decline` kind's answers all but
one declining): `--by kind` showed the declines' "hallucination rate 1.00 (1 scored, 15
abstained)", `res.by("kind").group("decline")` gave 1.0 with no hint but `.count`, and
the kinds were listed alphabetically. The HTML "By kind" section, the JSON and the
Python groups now lead such a figure with its counts where they say it in words, and
list the kinds in the data's order; `.mean` stays the scored samples' mean."""

from __future__ import annotations

import re
from html import unescape

import jsonschema
import pytest

from ragassay.api import EvalResult
from ragassay.report import build_report, report_json, schema
from tests.support.grouped import TRIAL_KINDS, declines_probe_run


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> EvalResult:
    return declines_probe_run(tmp_path_factory.mktemp("declines") / "r.db")


def test_the_python_groups_keep_the_datas_order_and_say_the_abstentions(
        run: EvalResult) -> None:
    groups = run.by("kind")
    assert [g.value for g in groups.groups] == list(TRIAL_KINDS)
    decline = groups.group("decline")
    assert decline is not None
    figure = decline.metrics["judge.hallucination"]
    assert (figure.mean, figure.count, figure.abstained) == (1.0, 1, 15)  # as documented
    assert "  judge.hallucination: 15 abstained; 1 scored: 1.000" in str(decline).splitlines()


def test_the_json_and_the_html_list_the_kinds_in_the_datas_order(run: EvalResult) -> None:
    doc = report_json(build_report(run.store, run.run_id, by="kind"))
    jsonschema.validate(doc, schema())
    assert [g["value"] for g in doc["groups"]["groups"]] == list(TRIAL_KINDS)
    html = run.report("html", by="kind")
    section = html.split('<section id="groups">', 1)[1].split("</section>", 1)[0]
    head = re.search(r"<tr>(.*?)</tr>", section, re.S)
    assert head is not None
    names = [unescape(c) for c in re.findall(r"<th[^>]*>(.*?)</th>", head.group(1))]
    assert names == ["kind", *TRIAL_KINDS]
    row = next(r for r in re.findall(r"<tr>(.*?)</tr>", section, re.S)
               if "judge.hallucination (rate 0-1)" in r)
    cells = [unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
    assert cells[1 + TRIAL_KINDS.index("decline")] == "15 abstained; 1 scored: 1.000"
    assert re.fullmatch(r"0\.\d{3} \[[\d., ]+\]", cells[1])  # pricing: all 16 scored
