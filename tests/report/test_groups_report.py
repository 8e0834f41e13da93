"""A report built `by` a metadata key (`build_report(by=...)`, `groups_for`): its
`groups` section in the published JSON Schema, rounded like every statistics section,
the key checked against the keys the samples have before anything is computed, and the
HTML report's section."""

from __future__ import annotations

import jsonschema
import pytest

import ragassay
from ragassay.report import (
    UnknownGroupKey,
    build_report,
    groups_for,
    report_json,
    schema,
    to_html,
)
from ragassay.store import Store
from tests.support.grouped import probe_rows


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, str]:
    db = tmp_path_factory.mktemp("groups") / "r.db"
    rows = probe_rows(60)
    rows[3]["metadata"]["kind"] = None  # null: the (none) group too
    rows[4]["metadata"]["kind"] = ["a", "b"]  # a list: its JSON text names its group
    result = ragassay.evaluate(rows, metrics="judge", store=db)
    return Store(db, readonly=True), result.run_id


def test_the_groups_section_is_published_and_rounded(probe: tuple[Store, str]) -> None:
    store, run_id = probe
    report = build_report(store, run_id, include_details=False, by="kind")
    doc = report_json(report)
    jsonschema.validate(doc, schema())
    names = [g["value"] for g in doc["groups"]["groups"]]
    assert names[-1] == "(none)" and '["a", "b"]' in names
    means = [m["mean"] for g in doc["groups"]["groups"] for m in g["metrics"].values()
             if m["mean"] is not None]
    assert means and all(m == round(m, 6) for m in means)
    assert report.groups == groups_for(store, run_id, "metadata.kind")  # one computation


def test_an_unknown_key_fails_before_the_report_is_built(
        probe: tuple[Store, str], monkeypatch: pytest.MonkeyPatch) -> None:
    store, run_id = probe
    import ragassay.report.build as build

    monkeypatch.setattr(build, "run_table", lambda *a, **k: pytest.fail("table read"))
    with pytest.raises(UnknownGroupKey, match=r"has metadata key 'kinds' \(did you mean "
                                              r"kind\?\); its keys: domain, kind$"):
        build_report(store, run_id, by="kinds")
    assert isinstance(UnknownGroupKey("x"), ValueError)


def test_the_html_report_has_a_section_per_key(probe: tuple[Store, str]) -> None:
    store, run_id = probe
    page = to_html(build_report(store, run_id, by="kind"))
    section = page.split('<section id="groups">', 1)[1].split("</section>", 1)[0]
    assert section.startswith("<h2>By kind</h2>")
    assert "<td>judge.hallucination (rate 0-1)</td>" in section
    assert "<td>judge.faithfulness (mean 1-10)</td>" in section
    assert "judge.hallucination vs people (hallucinated)" in section and "right on" in section
    assert '<a href="#groups">By kind</a>' in page
    assert 'id="groups"' not in to_html(build_report(store, run_id))


def test_metadata_is_read_without_the_samples_texts(probe: tuple[Store, str]) -> None:
    store, run_id = probe
    found = list(store.iter_metadata(run_id))
    assert len(found) == 60 and found[0] == ("bot-v2", "a000",
                                             {"domain": "security", "kind": "lookup"})
