"""The dashboard's pure helpers: escaping and highlighting, formatting, exports, uploads."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from ragassay.dataset import DatasetError
from ragassay.report import dump_json
from ragassay.report.highlight import (
    answer_html,
    contexts_html,
    marks_of,
    text_html,
    unmatched_claims,
)
from ragassay.stats import Distribution, Spread
from ragassay.types import SentenceMarks, Usage
from ragassay.ui import MAX_UPLOAD_MB, streamlit_command
from ragassay.ui.evaluate import StreamlitProgress, plan_upload, safe_name, save_upload
from ragassay.ui.fmt import consistency_lines, distribution_details, metric_label
from ragassay.ui.highlight import md_escape
from tests.report.conftest import entry, make_report

TRACE_MARKS = {
    "trace.context_relevance": SentenceMarks(relevant=("0a", "1b")),
    "trace.context_utilization": SentenceMarks(used=("1b",)),
    "trace.adherence": SentenceMarks(unsupported=("b",)),
    "trace.adherence_ratio": SentenceMarks(),
}


def test_marks_gather_the_metrics_typed_marks():
    marks = marks_of({**TRACE_MARKS, "ragas.faithfulness": SentenceMarks(
        unsupported_claims=("Invented <b>fact</b>.",))})
    assert marks.relevant == {"0a", "1b"} and marks.used == {"1b"}
    assert marks.unsupported == {"b"} and not marks.supported
    assert marks.unsupported_claims == ["Invented <b>fact</b>."]
    assert marks.sources == ["trace.context_relevance", "trace.context_utilization",
                             "trace.adherence", "ragas.faithfulness"]
    assert marks_of(None).empty and marks_of({"m": SentenceMarks()}).empty


def test_answer_and_contexts_are_escaped_and_highlighted():
    marks = marks_of(TRACE_MARKS)
    answer = answer_html("One. Two <script>alert(1)</script>.", marks)
    assert "<script" not in answer and "&lt;script&gt;alert(1)&lt;/script&gt;" in answer
    assert answer.count('class="ra-unsupported"') == 1
    assert '<span class="ra-key">b</span><span class="ra-unsupported">Two' in answer
    blocks = contexts_html(["Alpha <img src=x onerror=1>. Beta.", "Gamma. Delta."], marks)
    assert len(blocks) == 2 and "<img" not in blocks[0] and "&lt;img" in blocks[0]
    assert '<span class="ra-key">0a</span><span class="ra-relevant">Alpha' in blocks[0]
    assert '<span class="ra-key">1b</span><span class="ra-relevant ra-used">Delta' in blocks[1]
    assert text_html('<a href="javascript:x">') == (
        '<div class="ra-text">&lt;a href=&quot;javascript:x&quot;&gt;</div>')


def test_claims_that_are_answer_sentences_are_highlighted_in_place():
    marks = marks_of({"ragas.faithfulness": SentenceMarks(
        unsupported_claims=("Two.", "Elsewhere."))})
    assert 'class="ra-unsupported">Two.' in answer_html("One. Two.", marks)
    assert unmatched_claims("One. Two.", marks) == ["Elsewhere."]


def test_md_escape_neutralises_markdown():
    assert md_escape("**b** [x](javascript:y) <i> :red[z]") == (
        r"\*\*b\*\* \[x\]\(javascript\:y\) \<i\> \:red\[z\]")


def test_formatting():
    assert metric_label("trace.adherence_ratio") == "Adherence ratio (trace)"
    assert consistency_lines({"judge.faithfulness": Spread(mean=0.35, std_dev=0.1234),
                              "x.y": Spread(mean=None)}) == [
        "Faithfulness (judge) 0.350 +/- 0.123", "Y (x) unscored"]
    rows = dict(distribution_details(Distribution(percentile_25=1.0, perfect_count=2, min=0.5,
                                                  unscored_reasons={"empty answer": 1})))
    assert rows["25th percentile"] == "1.000" and rows["perfect count"] == "2"
    assert rows["min"] == "0.500" and rows["unscored: empty answer"] == "1"
    assert rows["max"] == "—"


def test_json_export_parses_and_refuses_nan():
    # the dashboard's download goes through the report writer that `ragassay report` uses
    buf = io.StringIO()
    report = make_report(generated="2026-01-02T03:04:05+00:00")
    dump_json(report, buf, iter([entry("a", {"x": 1.5})]))
    doc = json.loads(buf.getvalue())
    assert doc["evaluation_metadata"]["generated"] == "2026-01-02T03:04:05+00:00"
    assert [(d["id"], d["metrics"]) for d in doc["detailed_results"]] == [("a", {"x": 1.5})]
    with pytest.raises(ValueError):
        dump_json(report.model_copy(update={"detailed_results": [entry("b", {"x": float("nan")})]}),
                  io.StringIO())


def test_upload_names_are_sanitised_and_sizes_limited(tmp_path: Path):
    assert safe_name("../../etc/passwd.jsonl") == "passwd.jsonl"
    assert safe_name("C:\\Users\\me\\my data (1).csv.gz") == "my_data_1_.csv.gz"
    assert safe_name(".hidden") == "hidden" and safe_name("") == "dataset"
    path = save_upload(b'{"question": "q"}\n', "../x.jsonl", tmp_path)
    assert path == tmp_path / "x.jsonl" and path.read_bytes() == b'{"question": "q"}\n'
    with pytest.raises(DatasetError, match="accepts up to 1 MB"):
        save_upload(b"x" * (1024 * 1024 + 1), "big.jsonl", tmp_path, max_bytes=1024 * 1024)
    assert MAX_UPLOAD_MB == 20


def test_an_upload_is_checked_as_eval_checks_it(tmp_path: Path):
    """Planned through the run session: the first bad row or a misnamed answer column
    stops it in one line, with no store opened; the counts come with the plan."""
    good = '{"question": "q", "contexts": ["c"], "answer": "a"}\n'
    bad = '{"question": "q", "contexts": 7}\n'
    path = save_upload((good + bad).encode(), "d.jsonl", tmp_path)
    db = tmp_path / "s.db"
    with pytest.raises(DatasetError, match=r"^d\.jsonl:2: 'contexts' must be a list"):
        plan_upload(path, ["judge"], str(db), skip_invalid=False)
    plan = plan_upload(path, ["judge"], str(db), skip_invalid=True)
    assert plan.check is not None and (plan.check.total, plan.check.invalid) == (2, 1)
    assert plan.config.dataset == "upload:d.jsonl" and plan.config.judge == "offline"
    foreign = save_upload(b'{"question": "q", "generated_answer": "a"}\n', "f.jsonl", tmp_path)
    with pytest.raises(DatasetError, match=r"^f\.jsonl: no row has an answer, .*unknown "
                                           r"columns: generated_answer"):
        plan_upload(foreign, ["judge"], str(db), skip_invalid=False)
    assert not db.exists()


def test_streamlit_progress_drives_the_bar():
    seen: list[tuple[float, str | None]] = []

    class Bar:
        def progress(self, value: float, text: str | None = None) -> None:
            seen.append((value, text))

    p = StreamlitProgress(Bar())
    p.start(4)
    p.advance(1, Usage())
    p.advance(3, Usage())
    p.finish()
    assert [v for v, _ in seen] == [0.0, 0.25, 1.0, 1.0]
    assert seen[1][1] == "1 of 4 samples judged"


def test_launcher_command_is_local_headless_and_limited():
    cmd = streamlit_command(Path("runs.db"), 8600)
    assert cmd[:4] == [sys.executable, "-m", "streamlit", "run"]
    assert cmd[4].endswith("ragassay/ui/app.py") and Path(cmd[4]).is_file()
    flags = dict(zip(cmd[5:-3:2], cmd[6:-3:2], strict=True))
    assert flags == {"--server.address": "127.0.0.1", "--server.port": "8600",
                     "--server.headless": "true", "--browser.gatherUsageStats": "false",
                     "--server.maxUploadSize": "20",
                     "--client.toolbarMode": "minimal"}  # no Deploy button
    assert cmd[-3:] == ["--", "--db", "runs.db"]
    assert streamlit_command(Path("d"), 1, host="0.0.0.0")[6] == "0.0.0.0"



def test_a_postgresql_store_is_not_on_the_launchers_command_line():
    from ragassay.store import StoreUrl

    cmd = streamlit_command(StoreUrl("postgresql://ci:hunter2@db:5432/runs"), 8600)
    assert "--db" not in cmd and not any("hunter2" in part or "db:5432" in part
                                         for part in cmd)  # launch() sets RAGASSAY_DB


def test_importing_the_launcher_does_not_load_streamlit():
    import subprocess

    code = "import sys, ragassay.ui; assert 'streamlit' not in sys.modules, 'loaded'"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
