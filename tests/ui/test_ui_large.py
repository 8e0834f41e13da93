"""The dashboard over a large run (issue 33 item 9): pages read aggregates and pages of
the store, and build the full report (or the score table) only on a click.

The shared demo runs (24 samples) are made "large" by lowering `data.LARGE_RUN`; what
is checked is what each page reads, never how long it takes (benches/dashboard_pages.py
measures that on 50,000 samples).
"""

from __future__ import annotations

from typing import Any

import pytest
import streamlit as st

from ragassay.store import Store
from ragassay.types import MetricSpec
from ragassay.ui import data
from ragassay.ui.fmt import metric_label
from tests.ui.test_ui_pages import open_page, report_of

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Runs count as large; records every full report and score table built."""
    calls: list[str] = []
    for name in ("build_report", "run_table"):
        real = getattr(data, name)

        def counted(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            calls.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(data, name, counted)
    monkeypatch.setattr(data, "LARGE_RUN", 10)
    st.cache_data.clear()
    return calls


def test_overview_of_a_large_run_shows_sql_aggregates_then_the_report_on_click(
        app_test, ui_store, built):
    at = open_page(app_test(run_id=ui_store.run_a), "overview")
    assert built == []
    report = report_of(ui_store, ui_store.run_a)
    frame = at.dataframe[1].value
    for name, entry in report["aggregate_metrics"]["metrics"].items():
        spec = MetricSpec.model_validate({"name": name, **report["metric_specs"][name]})
        row = frame[frame["metric"] == metric_label(name, {name: spec})].iloc[0]
        assert row["mean"] == pytest.approx(entry["mean"], abs=1e-6)
        assert row["scored"] == entry["count"]
    assert any("24 samples" in i.value for i in at.info)
    at.button(key="large_overview").click().run()
    assert not at.exception and built == ["build_report"]
    headers = [h.value for h in at.header]
    # people's number first (issue #38 item 5: the demo's labels are too few: the prompt)
    assert headers[:2] == ["What people would say", "Aggregate metrics"]
    assert "Metric consistency" in headers


def test_charts_and_compare_of_a_large_run_wait_for_a_click(app_test, ui_store, built):
    at = open_page(app_test(run_id=ui_store.run_a), "charts")
    assert built == [] and not at.get("plotly_chart")
    at.button(key="large_charts").click().run()
    assert not at.exception and at.get("plotly_chart")
    built.clear()
    at = open_page(app_test(run_id=ui_store.run_a), "compare")
    assert built == []
    assert at.button(key="large_compare").label == "Compare these runs"
    at.button(key="large_compare").click().run()
    assert not at.exception and at.get("plotly_chart")


def test_the_sample_explorer_of_a_large_run_reads_a_page_from_the_store(
        app_test, ui_store, built):
    at = open_page(app_test(run_id=ui_store.run_a), "samples")
    assert built == []
    frame = at.dataframe[0].value
    assert len(frame) == 24
    overall = metric_label("judge.overall")
    at.selectbox(key="samples_sort").set_value("judge.overall").run()
    at.radio(key="samples_order").set_value("highest first").run()
    frame = at.dataframe[0].value
    scored = list(frame[overall].dropna())
    assert scored == sorted(scored, reverse=True) and len(scored) < 24
    assert frame[overall].iloc[len(scored):].isna().all()  # unscored last
    strategy = str(frame["strategy"].iloc[0])
    at.multiselect(key="samples_strategies").set_value([strategy]).run()
    frame = at.dataframe[0].value
    assert set(frame["strategy"]) == {strategy} and 0 < len(frame) < 24
    key = str(at.selectbox(key="samples_pick").value)  # the sample shown
    assert key in set(frame["key"])
    with Store(ui_store.db, readonly=True) as store:
        question = store.get_sample(ui_store.run_a, key.split("/", 1)[1]).question
    assert any(question in h.proto.body for h in at.get("html"))
    assert built == []  # neither the report nor the score table was built


def test_a_link_to_a_sample_of_a_large_run_opens_it(app_test, ui_store, built):
    at = app_test(run_id=ui_store.run_a)
    at.query_params["sample"] = "dense-k5/q02-dense-k5"
    at = open_page(at, "samples")
    assert at.selectbox(key="samples_pick").value == "dense-k5/q02-dense-k5"
    assert not at.warning and built == []


def test_the_paged_explorer_turns_pages_and_keeps_the_page_in_range(
        app_test, ui_store, built, monkeypatch):
    from ragassay.ui import paged

    monkeypatch.setattr(paged, "PAGE_ROWS", 10)
    at = open_page(app_test(run_id=ui_store.run_a), "samples")
    first = list(at.dataframe[0].value["key"])
    at.number_input(key="samples_page_no").set_value(3).run()
    third = list(at.dataframe[0].value["key"])
    assert len(first) == 10 and len(third) == 4 and not set(first) & set(third)
    strategy = first[0].split("/", 1)[0]
    at.multiselect(key="samples_strategies").set_value([strategy]).run()  # 12: 2 pages
    assert not at.exception and at.number_input(key="samples_page_no").value == 1
    assert len(at.dataframe[0].value) == 10 and built == []


def test_only_the_csv_and_json_downloads_read_the_metadata_keys(
        ui_store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The samples' metadata keys are a scan of every sample, which every page's report
    ran (review 6): now only the downloads with a per-sample table (CSV, JSON) read them."""
    scans: list[str] = []
    real = Store.sample_metadata_keys

    def counted(self: Store, *args: Any, **kwargs: Any) -> Any:
        scans.append("keys")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Store, "sample_metadata_keys", counted)
    st.cache_data.clear()
    db, run_id = str(ui_store.db), ui_store.run_a
    data.report(db, run_id, "v")
    data.download(db, run_id, "v", "html")
    assert scans == []
    data.download(db, run_id, "v", "csv")
    data.download(db, run_id, "v", "json")
    assert scans == ["keys", "keys"]
