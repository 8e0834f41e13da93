"""Each dashboard page's logic, run in-process with Streamlit's AppTest over real runs."""

from __future__ import annotations

import base64
import json
import math
import re
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ragassay.dataset import demo_dataset_path
from ragassay.report import build_report, report_json
from ragassay.stats import compare_tables, level_text
from ragassay.store import Store
from ragassay.ui.fmt import metric_label
from ragassay.ui.highlight import md_escape
from tests.ui.conftest import MD_QUESTION, XSS_ID, UIStore

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def report_of(ui: UIStore, run_id: str) -> dict[str, Any]:
    """The run's JSON report: the figures as published, which the pages show."""
    with Store(ui.db, readonly=True) as store:
        return report_json(build_report(store, run_id))


@pytest.fixture(scope="module")
def report_a(ui_store: UIStore) -> dict[str, Any]:
    return report_of(ui_store, ui_store.run_a)


@pytest.fixture(scope="module")
def report_b(ui_store: UIStore) -> dict[str, Any]:
    return report_of(ui_store, ui_store.run_b)


def open_page(at: Any, name: str) -> Any:
    at.run()
    if name != "runs":
        at.switch_page(f"screens/{name}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def arr(value: Any) -> list[Any]:
    """A plotly data array, decoding plotly's base64 typed arrays."""
    if isinstance(value, dict) and "bdata" in value:
        out = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        if "shape" in value:
            out = out.reshape([int(x) for x in str(value["shape"]).split(",")])
        return out.tolist()
    return list(value)


def figures(at: Any) -> dict[str, dict[str, Any]]:
    """The page's plotly figures as JSON, by the key they were drawn with."""
    return {c.proto.id.rsplit("-", 1)[-1]: json.loads(c.proto.spec)
            for c in at.get("plotly_chart")}


def html_bodies(at: Any) -> list[str]:
    return [h.proto.body for h in at.get("html")]


# -- runs ------------------------------------------------------------------------------


def test_runs_page_lists_every_run_with_headline_means(app_test, ui_store, report_a):
    at = open_page(app_test(), "runs")
    frame = at.dataframe[0].value
    assert set(frame["run"]) == {ui_store.run_a, ui_store.run_b}
    row = frame[frame["run"] == ui_store.run_a].iloc[0]
    assert row["samples"] == 24 and row["status"] == "complete"
    assert row["dataset"] == "demo.jsonl"
    overall = report_a["aggregate_metrics"]["metrics"]["judge.overall"]["mean"]
    assert row[metric_label("judge.overall")] == pytest.approx(overall, abs=1e-6)


def test_runs_page_opens_one_run_and_compares_two(app_test, ui_store):
    at = open_page(app_test(), "runs")
    assert at.button[0].disabled and at.button[1].disabled  # nothing selected yet
    at.multiselect(key="runs_pick").set_value([ui_store.run_a]).run()
    at.button[0].click().run()
    assert [t.value for t in at.title] == ["Run overview"]
    assert at.session_state["run_id"] == ui_store.run_a

    at = open_page(app_test(), "runs")
    at.multiselect(key="runs_pick").set_value([ui_store.run_a, ui_store.run_b]).run()
    at.button[1].click().run()
    assert [t.value for t in at.title] == ["Compare"]
    assert at.selectbox(key="compare_a").value == ui_store.run_a
    assert at.selectbox(key="compare_b").value == ui_store.run_b


def test_missing_database_explains_instead_of_failing(app_test, tmp_path):
    at = open_page(app_test(db=tmp_path / "none.db"), "runs")
    assert "no database at" in at.info[0].value
    at.switch_page("screens/overview.py").run()
    assert not at.exception


# -- overview --------------------------------------------------------------------------


def test_overview_shows_aggregates_consistency_distribution_and_links(
        app_test, ui_store, report_a):
    at = open_page(app_test(run_id=ui_store.run_a), "overview")
    aggregates = report_a["aggregate_metrics"]["metrics"]
    table = next(df.value for df in at.dataframe if "scored" in df.value.columns)
    assert list(table["metric"]) == [metric_label(m) for m in aggregates]
    first = next(iter(aggregates.values()))
    assert table.iloc[0]["mean"] == pytest.approx(first["mean"])
    assert table.iloc[0]["95% CI"] == f"[{first['ci_low']:.3f}, {first['ci_high']:.3f}]"

    consistency = at.code[0].value.splitlines()
    assert len(consistency) == len(aggregates)
    for line, (name, e) in zip(consistency, report_a["rmse_metrics"].items(), strict=True):
        assert line == f"{metric_label(name)} {e['mean']:.3f} +/- {e['std_dev']:.3f}"
    assert re.fullmatch(r".+ \d+\.\d{3} \+/- \d+\.\d{3}", consistency[0])

    distribution = at.code[1].value.splitlines()
    assert all("mean " in line and "median " in line for line in distribution)
    per_metric = report_a["per_metric_statistics"]
    assert [e.label for e in at.expander][:len(per_metric)] == [md_escape(metric_label(m))
                                                                 for m in per_metric]

    # every worst sample of every fired rule has a link into the sample explorer
    fired = [f for f in report_a["diagnostics"] if f["fired"]]
    links = at.get("page_link")
    assert fired and len(links) == sum(len(f["worst_samples"]) for f in fired)
    first_worst = fired[0]["worst_samples"][0]
    assert links[0].proto.page == "sample_explorer"  # the page's path is its title
    assert links[0].proto.query_string == (
        f"run={ui_store.run_a}&sample={first_worst.replace('/', '%2F')}")

    specs = report_a["metric_specs"]  # each level in the HTML's words (trial 72)
    levels = {level_text(f["level"], specs.get(f["metric"], {}).get("higher_is_better", True))
              for f in report_a["interpretation"]}
    shown = next(d.value for d in at.dataframe if "level" in d.value.columns)
    assert set(shown["level"]) == levels
    assert any("Cost: $0.00" in t.value for t in at.text)


def test_overview_says_a_findings_caveat_beside_it(app_test, ui_store, report_a):
    """Issue #38: a finding resting on a metric the offline judge agrees weakly with
    people on (its relevance, Spearman 0.25 held apart) says so beside it, once."""
    fired = [f for f in report_a["diagnostics"] if f["fired"]]
    caveats = [f"caveat: {f['caveat']}" for f in fired if "caveat" in f]
    assert caveats  # the demo's retrieval and hallucination findings read its relevance
    at = open_page(app_test(run_id=ui_store.run_a), "overview")
    assert [w.value for w in at.warning if w.value.startswith("caveat: ")] == caveats


def test_overview_shows_the_abstention_rates(app_test, ui_store, report_a):
    at = open_page(app_test(run_id=ui_store.run_a), "overview")
    assert "Abstentions" in [h.value for h in at.header]
    table = next(d.value for d in at.dataframe if "false_abstention_rate" in d.value.columns)
    rates = report_a["abstentions"]
    assert list(table["strategy"]) == list(rates)
    for (_, row), want in zip(table.iterrows(), rates.values(), strict=True):
        assert row["abstained"] == want["abstained"]
        assert row["abstention_rate"] == pytest.approx(want["abstention_rate"]["mean"])


def test_overview_follows_a_run_link(app_test, ui_store):
    at = app_test()
    at.query_params["run"] = ui_store.run_b[:11]  # a unique prefix is enough
    at.run()
    at.switch_page("screens/overview.py").run()
    assert at.session_state["run_id"] == ui_store.run_b
    assert at.dataframe[0].value.iloc[0]["value"] == ui_store.run_b


def _copy_db(src: Path, dst: Path) -> None:
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)


def test_a_running_run_is_shown_and_refreshed_as_it_grows(app_test, ui_store, tmp_path):
    """The cache key follows the run: new results appear without restarting."""
    db = tmp_path / "live.db"
    _copy_db(ui_store.db, db)
    with Store(db) as store:
        done = store.get_run(ui_store.run_a)
        live = store.create_run(done.config, package_version="test", dataset_hash=None,
                                judge_model="offline")
        store.add_samples(live, store.iter_samples(done.id))
        results = list(store.iter_results(done.id))
        for r in results[: len(results) // 2]:
            store.save_result(live, r)
    at = app_test(db=db, run_id=live)
    open_page(at, "overview")
    assert any("still being written" in i.value for i in at.info)
    count = at.dataframe[1].value.iloc[0]["scored"]
    assert 0 < count < 24
    with Store(db) as store:  # the run goes on in "another process"
        for r in results[len(results) // 2:]:
            store.save_result(live, r)
    at.run()
    assert at.dataframe[1].value.iloc[0]["scored"] == 24


# -- charts ----------------------------------------------------------------------------


def test_charts_plot_the_run(app_test, ui_store, report_a):
    at = open_page(app_test(run_id=ui_store.run_a), "charts")
    charts = figures(at)
    assert set(charts) == {"chart_boxes", "chart_hist", "chart_strategies", "chart_corr",
                           "chart_trends"}
    boxes = charts["chart_boxes"]["data"]
    assert sum(len(arr(t["y"])) for t in boxes) == sum(
        e["count"] for e in report_a["aggregate_metrics"]["metrics"].values())
    bars = charts["chart_strategies"]["data"]
    assert sorted(t["name"] for t in bars) == ["bm25-k3", "dense-k5"]
    strategy = report_a["strategies"]["bm25-k3"]["metrics"]["judge.faithfulness"]
    bm25 = next(t for t in bars if t["name"] == "bm25-k3")
    i = arr(bm25["x"]).index(metric_label("judge.faithfulness"))
    assert arr(bm25["y"])[i] == pytest.approx((strategy["mean"] - 1) / 9)
    assert arr(bm25["error_y"]["array"])[i] == pytest.approx(
        (strategy["ci_high"] - strategy["mean"]) / 9)
    corr = arr(charts["chart_corr"]["data"][0]["z"])
    n = len(report_a["correlations"]["metrics"])
    assert len(corr) == n and corr[0][0] == pytest.approx(1.0)
    trends = charts["chart_trends"]["data"]
    assert trends and all(len(arr(t["x"])) == 2 for t in trends)  # two runs of the dataset
    overall = next(t for t in trends if t["name"] == metric_label("judge.overall"))
    assert arr(overall["y"])[0] == pytest.approx(
        report_a["aggregate_metrics"]["metrics"]["judge.overall"]["mean"])


# -- compare ---------------------------------------------------------------------------


def test_compare_two_runs_shows_paired_differences_and_verdicts(app_test, ui_store):
    at = app_test(run_id=ui_store.run_a)
    at.session_state["compare_runs"] = (ui_store.run_a, ui_store.run_b)
    open_page(at, "compare")
    frame = at.dataframe[0].value
    with Store(ui_store.db, readonly=True) as store:
        from ragassay.report import run_table

        tables = [run_table(store, r).table for r in (ui_store.run_a, ui_store.run_b)]
    expected = compare_tables(*tables)
    row = frame[frame["metric"] == metric_label("trace.adherence_ratio")].iloc[0]
    truth = expected.metrics["trace.adherence_ratio"]
    assert truth.diff is not None
    assert row["B - A"] == pytest.approx(truth.diff) and truth.diff < 0
    assert row["n (paired)"] == truth.n
    verdicts = set(frame["verdict (B vs A)"])
    assert "▼ worse" in verdicts  # run B replaced 16 answers with an unsupported one
    assert at.metric[0].value == "24"  # paired samples


def test_compare_two_strategies_of_one_run(app_test, ui_store):
    at = open_page(app_test(run_id=ui_store.run_a), "compare")
    at.radio(key="compare_mode").set_value("Two strategies of one run").run()
    assert not at.exception
    assert at.selectbox(key="compare_s1").value == "bm25-k3"
    assert at.selectbox(key="compare_s2").value == "dense-k5"
    assert "question_id" in at.caption[0].value
    assert len(at.dataframe[0].value) > 5


# -- samples ---------------------------------------------------------------------------


def test_sample_explorer_filters_and_sorts(app_test, ui_store):
    at = open_page(app_test(run_id=ui_store.run_a), "samples")
    assert at.caption[0].value == "24 of 24 samples"
    at.multiselect(key="samples_strategies").set_value(["bm25-k3"]).run()
    frame = at.dataframe[0].value
    assert len(frame) == 12 and set(frame["strategy"]) == {"bm25-k3"}
    label = metric_label("trace.adherence_ratio")
    at.selectbox(key="samples_sort").set_value("trace.adherence_ratio").run()
    at.radio(key="samples_order").set_value("highest first").run()
    values = [v for v in at.dataframe[0].value[label] if not math.isnan(v)]
    assert values == sorted(values, reverse=True) and len(set(values)) > 1
    at.multiselect(key="samples_strategies").set_value([]).run()
    at.selectbox(key="samples_reason").set_value("(unscored on some metric)").run()
    unscored = at.dataframe[0].value
    assert 0 < len(unscored) < 24 and all(unscored["unscored"] != "")
    at.selectbox(key="samples_reason").set_value("(any)").run()
    at.text_input(key="samples_text").input("single sign-on").run()
    assert set(at.dataframe[0].value["key"]) == {"bm25-k3/q10-bm25-k3", "dense-k5/q10-dense-k5"}


def test_sample_view_escapes_user_text_and_highlights_evidence(app_test, ui_store, report_b):
    at = app_test()
    at.query_params["run"] = ui_store.run_b
    at.query_params["sample"] = f"dense-k5/{XSS_ID}"
    at.run()
    at.switch_page("screens/samples.py").run()
    assert not at.exception
    assert at.selectbox(key="samples_pick").value == f"dense-k5/{XSS_ID}"
    bodies = "\n".join(html_bodies(at))
    assert "&lt;script&gt;window.__pwned = 1;&lt;/script&gt;" in bodies
    assert "&lt;img src=x onerror=" in bodies
    assert "<script" not in bodies and "<img" not in bodies and "<b>" not in bodies
    assert "**not bold** [click me](javascript:alert(1))" in bodies
    assert all(MD_QUESTION not in m.value for m in at.markdown)

    # a sample with a wrong answer: its unsupported sentence is highlighted
    at.selectbox(key="samples_pick").set_value("bm25-k3/q04-bm25-k3").run()
    detail = next(d for d in report_b["detailed_results"] if d["id"] == "q04-bm25-k3")
    unsupported = detail["marks"]["trace.adherence"]["unsupported"]
    assert unsupported
    bodies = html_bodies(at)
    answer = next(b for b in bodies if "ra-unsupported" in b and "50,000" in b)
    assert answer.count('class="ra-unsupported"') == len(unsupported)
    contexts = [b for b in bodies if 'class="ra-legend"' not in b]
    for kind, key in (("relevant", "trace.context_relevance"), ("used",
                                                               "trace.context_utilization")):
        keys = detail.get("marks", {}).get(key, {}).get(kind, [])
        marked = re.findall(rf'<span class="ra-key">(\w+)</span><span class="[^"]*ra-{kind}',
                            "".join(contexts))
        assert sorted(marked) == sorted(keys), kind
    assert detail["marks"]["trace.context_relevance"]["relevant"]
    # the sample's own metadata, as the data gave it
    assert "**Metadata**" in [m.value for m in at.markdown]
    assert {"question_id": "q04", "topic": "deletion"}.items() <= next(
        json.loads(j.value) for j in at.json if "question_id" in j.value).items()


def test_sample_view_shows_raw_reply_of_unscored_metric(app_test, tmp_path):
    from ragassay.types import (
        JudgeFailure,
        Message,
        MetricResult,
        RunConfig,
        Sample,
        SampleResult,
    )

    db = tmp_path / "llm.db"
    raw = '{"faithfulness": <b>nine</b>'
    with Store(db) as store:
        run = store.create_run(RunConfig(dataset="x.jsonl", judge="openai:m"),
                               package_version="t", dataset_hash=None, judge_model="m")
        sample = Sample(id="s1", question="Q?", contexts=("C.",), answer="A.")
        store.add_samples(run, [sample])
        failure = JudgeFailure(raw_reply=raw,
                               prompt=(Message(role="user", content="judge this"),))
        store.save_result(run, SampleResult(sample_id="s1", suite="judge", results=(
            MetricResult(name="judge.faithfulness", value=None,
                         unscored_reason="reply is not valid JSON", failure=failure),
            MetricResult(name="judge.context_relevance", value=7.0))))
        store.finish_run(run, "complete")
    at = open_page(app_test(db=db, run_id=run), "samples")
    assert any(e.label.startswith(md_escape("Faithfulness (judge): reply is not valid JSON"))
               for e in at.expander)
    assert [c.value for c in at.code if c.value == raw] == [raw]
    assert any(c.value == "[user]\njudge this" for c in at.code)


# -- evaluate --------------------------------------------------------------------------


def _rows(n: int) -> bytes:
    return b"".join(demo_dataset_path().read_bytes().splitlines(keepends=True)[:n])


def test_evaluate_uploads_and_runs_the_offline_judge(app_test, tmp_path):
    db = tmp_path / "fresh.db"
    at = open_page(app_test(db=db), "evaluate")
    at.multiselect(key="eval_suites").set_value(["judge", "trace"]).run()
    at.file_uploader(key="eval_upload").set_value(("four.jsonl", _rows(4),
                                                    "application/json")).run()
    assert any(t.value == "four.jsonl: 4 rows" for t in at.text)
    at.button(key="eval_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert [t.value for t in at.title] == ["Run overview"]
    with Store(db, readonly=True) as store:
        run = store.get_run(at.session_state["run_id"])
        assert run.status == "complete" and run.dataset == "upload:four.jsonl"
        assert run.config.metrics == ("judge", "trace")
        assert store.count_samples(run.id) == 4 and store.count_results(run.id) == 8


@pytest.mark.parametrize(("name", "content", "message"), [
    ("bad.jsonl", _rows(1) + b'{"question": "q", "contexts": 7}\n',
     "bad.jsonl:2: 'contexts' must be a list of strings"),
    ("evil.pkl.gz", b"\x80\x04K\x01.", "evil.pkl.gz: unknown dataset format '.pkl.gz'"),
    ("../../etc/x.csv", b"", "x.csv: no samples (the dataset is empty)"),
])
def test_evaluate_reports_dataset_errors_clearly(app_test, tmp_path, name, content, message):
    at = open_page(app_test(db=tmp_path / "none.db"), "evaluate")
    at.file_uploader(key="eval_upload").set_value((name, content, "text/plain")).run()
    assert not at.exception
    assert at.error and at.error[0].value == "The dataset cannot be evaluated:"
    assert message in at.code[0].value
    assert not at.button  # nothing to run
    assert not (tmp_path / "none.db").exists()


# -- downloads -------------------------------------------------------------------------


def test_downloads_build_nothing_before_a_click(app_test, ui_store, monkeypatch):
    """Issue 33 item 9: the page built the JSON, CSV and HTML reports before any click
    (a 50,000-sample run had not rendered after 287 s). Now each is built on its click."""
    import streamlit as st

    from ragassay.ui import data

    built: list[str] = []
    real = data.build_report

    def counted(*args, **kwargs):
        built.append("report")
        return real(*args, **kwargs)

    monkeypatch.setattr(data, "build_report", counted)
    st.cache_data.clear()
    at = open_page(app_test(run_id=ui_store.run_a), "downloads")
    assert built == [] and not at.get("download_button")
    assert [b.label for b in at.button] == ["Build the JSON report", "Build the CSV",
                                            "Build the HTML report"]
    at.button(key="build_csv").click().run()
    assert not at.exception
    assert built  # the click built it
    buttons = at.get("download_button")
    assert [b.proto.label for b in buttons] == ["Download CSV"]
    assert buttons[0].proto.url.rsplit(".", 1)[1] == "csv"
    at.button(key="build_json").click().run()
    assert [b.proto.label for b in at.get("download_button")] == ["Download JSON report",
                                                                  "Download CSV"]


def test_a_one_sample_interval_reads_n1_no_interval(app_test, tmp_path):
    """A bootstrap of one value is no interval: shown as `n=1, no interval`, not [x, x]."""
    from ragassay.runner import evaluate
    from ragassay.types import RunConfig, Sample

    db = tmp_path / "one.db"
    sample = Sample(id="only", question="What plan?", contexts=("The Free plan.",),
                    answer="The Free plan.", reference="Free")
    with Store(db) as store:
        run_id = evaluate([sample], RunConfig(dataset="one.jsonl", metrics=("judge",)),
                          store=store).run_id
    at = open_page(app_test(db=db, run_id=run_id), "overview")
    frame = next(df.value for df in at.dataframe if "scored" in df.value.columns)
    assert set(frame["95% CI"]) == {"n=1, no interval"}
    cards = [m for m in at.metric if m.proto.help.startswith("95% CI")]
    assert cards and all(m.proto.help.startswith("95% CI n=1, no interval") for m in cards)


def test_sample_view_draws_the_trace_span_tree_with_hop_scores(app_test, tmp_path):
    import ragassay
    from tests.support.traces import openinference_trace, write_otlp

    data = write_otlp(tmp_path / "traces.jsonl", [openinference_trace()])
    run = ragassay.evaluate(data, "trace", store=tmp_path / "t.db", progress=False)
    at = open_page(app_test(db=tmp_path / "t.db", run_id=run.run_id), "samples")
    tree = next(df.value for df in at.dataframe if "span id" in df.value.columns)
    assert [s.strip("\u2003\u2514 ") for s in tree["span"]] == [
        "rag", "retrieve", "retrieve-2", "rerank", "generate"]
    assert list(tree["kind"]) == ["chain", "retriever", "retriever", "reranker", "llm"]
    assert list(tree["fed the answer"]) == ["", "", "", "yes", ""]
    with Store(tmp_path / "t.db", readonly=True) as store:
        report = build_report(store, run.run_id)
    hops = report.entries[0].hops
    # named for what it is: not the trace.context_relevance metric (trial 69)
    assert tree["relevance of the hop's documents"][1] == pytest.approx(hops[0].relevance)
    assert "relevance" not in tree.columns
    assert any(c.value.startswith("relevance of the hop's documents: how relevant the "
                                  "documents one retrieval") and "not trace.context_relevance"
               in c.value for c in at.caption)
    assert [w.value for w in at.warning if "later hop lost" in w.value] == [
        "A later hop lost what hop 1 found: a document with document relevance "
        f"{hops[0].documents[0].relevance:.2f} is missing from the final contexts."]
    assert [e.label for e in at.expander if e.label.startswith("Hop ")] == [
        "Hop 1: retriever, 2 documents", "Hop 2: retriever, 2 documents",
        "Hop 3: reranker, 2 documents"]


def test_overview_says_each_target_on_its_metric_scale(app_test, ui_store):
    """A new-user trial: judge.overall (0-10) showed a target of 0.8 on 0-1 beside its
    mean; the flags table says it on the metric's own scale (the offline judge's run: its
    soft target, 5.5 on its parts' 1-10, trial 65)."""
    at = open_page(app_test(run_id=ui_store.run_a), "overview")
    shown = next(d.value for d in at.dataframe if "level" in d.value.columns)
    overall = shown[shown["metric"] == metric_label("judge.overall")]
    assert len(overall) >= 1
    for message in overall["message"]:
        assert "target >= 5.5" in message and "0-1" not in message


def test_overview_and_sample_view_show_a_routed_runs_routing(app_test, tmp_path,
                                                            scripted_server):
    from click.testing import CliRunner

    from ragassay.cli import cli
    from tests.support.routing import ScriptedJudge, routing_data

    server = scripted_server(ScriptedJudge())
    data = routing_data(tmp_path / "d.jsonl", 40, labelled=40)
    db = tmp_path / "r.db"
    result = CliRunner().invoke(cli, [
        "eval", str(data), "--metrics", "judge", "--db", str(db), "--base-url",
        server.base_url, "--judge", "openai:weak", "--escalate", "openai:strong",
        "--escalate-share", "0.25", "-q"])
    assert result.exit_code == 0, result.output
    with Store(db, readonly=True) as store:
        run_id = store.latest_run().id
    at = open_page(app_test(db=db, run_id=run_id), "overview")
    assert "Judge routing" in [h.value for h in at.header]
    tiers = next(df.value for df in at.dataframe if "decided" in df.value.columns)
    assert list(tiers["judge"]) == ["openai:weak", "openai:strong"]
    assert list(tiers["decided"]) == [30, 10]
    cards = {m.label: m.value for m in at.metric}
    assert cards["escalated past tier 0"] == "10 of 40" and cards["guarantee"] == "none"
    at = open_page(app_test(db=db, run_id=run_id), "samples")
    assert any(c.value.startswith(("decided by tier", "left for a person"))
               for c in at.caption)


def test_overview_shows_agreement_between_people_or_why_not(app_test, tmp_path):
    from ragassay.types import HumanLabel
    from tests.support.annotated_run import make_run

    db = tmp_path / "people.db"
    with Store(db) as store:
        r = make_run(store, 60)
        store.set_labels(HumanLabel(content_key=r.key(i), name="hallucinated",
                                    value=bool(r.bad[i]), annotator="ana") for i in range(40))
    at = open_page(app_test(db=db, run_id=r.run_id), "overview")
    assert "Agreement between people" in [h.value for h in at.header]
    captions = [c.value for c in at.caption]
    assert md_escape("one annotator: agreement between people not measurable") in captions
    with Store(db) as store:  # a second person labels 30 of the same samples
        store.set_labels(HumanLabel(content_key=r.key(i), name="hallucinated",
                                    value=bool(r.bad[i]) if i % 5 else not r.bad[i],
                                    annotator="bo") for i in range(30))
    at = open_page(app_test(db=db, run_id=r.run_id), "overview")
    frame = next(df.value for df in at.dataframe if "annotators" in df.value.columns)
    assert list(frame["annotators"]) == ["all (Krippendorff's alpha, nominal)",
                                         "ana vs bo (Cohen's kappa)"]
    assert list(frame["samples"]) == [30, 30]
    captions = [c.value for c in at.caption]
    assert any(c.startswith(md_escape("Labels read by rule majority")) for c in captions)
    assert any(c.startswith(md_escape("people's labels read by rule majority; hallucinated: "
                                      "34 samples: 10 from 1 label, 24 from 2 labels; 6 "
                                      "ties left out")) for c in captions), captions
    # the rule is chosen on the page: one person's labels
    at.selectbox(key="label_rule").select("annotator:bo").run()
    captions = [c.value for c in at.caption]
    assert any(c.startswith(md_escape("people's labels read by rule annotator:bo; "
                                      "hallucinated: 30 samples: 30 from 1 label"))
               for c in captions), captions
