"""The team's own pipeline in the bench: a Python callable (sync and async) and an HTTP
endpoint beside a built-in strategy, in one leaderboard; a failing question is a failed
row; latency per question; the leaderboard, config and costs stored with the run."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.bench import (
    BenchOptions,
    ConfigError,
    PipelineError,
    PipelineFields,
    PipelineSetupError,
    load_config,
    run_bench,
    stored_bench,
)
from ragassay.bench.pipeline import to_answer
from ragassay.cli import cli
from ragassay.report import build_report, report_json
from ragassay.store import Store
from ragassay.types import InvalidRow, Sample

from .conftest import HashEmbedder

USER_MODULE = '''
import asyncio

LEAVE = "Employees get 27 days of annual leave. Unused days expire on 31 March."
HOTEL = "Hotels in Toronto cost at most 220 euros per night."

def answer(question):
    if "dress code" in question:
        raise ValueError("no document about dress codes")
    text = LEAVE if "leave" in question else HOTEL
    return {"answer": text.split(". ")[0] + ".", "contexts": [{"text": text,
            "doc": "leave.md" if "leave" in question else "travel.txt"}]}

async def aanswer(question):
    await asyncio.sleep(0)
    return ("I am not sure.", ["Nothing relevant."])
'''


class _Rag(BaseHTTPRequestHandler):
    """A RAG service with its own field names: {"query"} -> {"output": {"text"}, "sources"}."""

    seen: list[dict[str, Any]] = []

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _Rag.seen.append({"body": body, "auth": self.headers.get("Authorization")})
        if "hotel" in body["query"]:
            self.send_response(500)
            self.send_header("Content-Length", "4")
            self.end_headers()
            self.wfile.write(b"boom")
            return
        data = json.dumps({"output": {"text": "27 days of annual leave."},
                           "sources": ["Employees get 27 days of annual leave."]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def rag_service() -> Iterator[str]:
    _Rag.seen = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Rag)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/rag"
    httpd.shutdown()
    httpd.server_close()


def _config(tiny_bench: Path, url: str, module: str) -> Path:
    (tiny_bench.parent / f"{module}.py").write_text(USER_MODULE)
    text = tiny_bench.read_text().split("[grid]")[0] + f'''
[[strategy]]
chunker = "fixed"
size = 12
retriever = "bm25"
k = 2

[[strategy]]
name = "my app"
pipeline = "{module}:answer"

[[strategy]]
name = "my async app"
pipeline = "{module}:aanswer"

[[strategy]]
name = "my service"
pipeline = "{url}"
fields = {{ question = "query", answer = "output.text", contexts = "sources" }}
headers = {{ Authorization = "Bearer ${{RAG_TEST_TOKEN}}", X-Fixed = "literal-secret" }}
'''
    path = tiny_bench.parent / "mixed.toml"
    path.write_text(text)
    return path


def test_callables_and_http_mix_with_builtins_in_one_leaderboard(
        tiny_bench: Path, rag_service: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAG_TEST_TOKEN", "tok-123")
    cfg = load_config(_config(tiny_bench, rag_service, "team_rag_a"))
    with Store(":memory:") as store:
        result = run_bench(cfg, store, BenchOptions(embedder=HashEmbedder(128)))
        by_name = {s.name: s for s in result.strategies}
        assert list(by_name) == ["fixed-12 bm25 k2", "my app", "my async app", "my service"]
        app, service = by_name["my app"], by_name["my service"]
        assert (app.failed, by_name["my async app"].failed, service.failed) == (1, 0, 1)
        assert app.failures == ["c: raised ValueError: no document about dress codes"]
        assert service.failures[0].startswith("b: HTTP 500: boom")
        # the callable named its documents: retrieval metrics against the gold labels
        assert app.retrieval["recall"] == 1.0 and app.retrieval_scored == 2
        # gold docs; the service names no docs, but its context's text is in leave.md
        assert service.retrieval["recall"] == 1.0 and service.retrieval_scored == 1
        assert app.answer_p95_s is not None and app.pipeline == "team_rag_a:answer"
        items = list(store.iter_samples(result.run_id))
        failed = {i.id: i for i in items if isinstance(i, InvalidRow)}
        assert set(failed) == {"my app::c", "my service::b"}
        assert failed["my app::c"].source == "pipeline team_rag_a:answer, question c"
        sample = next(i for i in items if isinstance(i, Sample) and i.id == "my app::a")
        assert sample.contexts[0].startswith("Employees get 27 days")
        assert sample.metadata["latency"]["answer_s"] >= 0
        assert sample.metadata["retrieved_docs"] == ["leave.md"]
        assert _Rag.seen[0]["auth"] == "Bearer tok-123"  # ${ENV} expanded at call time
        assert {s["body"]["query"] for s in _Rag.seen} == {q for q in [
            "How many days of annual leave do employees get?",
            "What is the hotel cap in Toronto?", "What is the dress code?"]}
        record = stored_bench(store.get_run(result.run_id).meta)
        assert record is not None
        rows = record.stored()["leaderboard"]
        assert {r["strategy"] for r in rows} == set(by_name)
        assert {r["strategy"]: r["kind"] for r in rows}["my service"] == "pipeline"
        assert {r["strategy"]: r["failed"] for r in rows}["my app"] == 1
        assert [r["rank"] for r in rows if r["mean"] is not None] == list(
            range(1, 1 + sum(r["mean"] is not None for r in rows)))
        shown = json.dumps(record.stored())
        assert "literal-secret" not in shown and "tok-123" not in shown
        assert "${RAG_TEST_TOKEN}" in shown
        report = build_report(store, result.run_id)
        assert report_json(report)["leaderboard"] == rows  # as stored
        assert report.leaderboard is not None and report.leaderboard[0].strategy == rows[0][
            "strategy"]
        assert report.bench is not None and report.bench.strategies[1].failed == 1
        assert report.bench_config is not None
        assert report.bench_config["strategies"][3]["pipeline"]["target"] == rag_service
        assert report.run.invalid_samples == 2


def test_the_cli_bench_reports_failures_and_stores_the_leaderboard(
        tiny_bench: Path, rag_service: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import ragassay.bench.run as bench_run

    monkeypatch.setattr(bench_run, "get_embedder", lambda spec: HashEmbedder(128))
    config = _config(tiny_bench, rag_service, "team_rag_b")
    db = tmp_path / "b.db"
    runner = CliRunner()
    done = runner.invoke(cli, ["bench", str(config), "--db", str(db), "-q"])
    assert done.exit_code == 0, done.output
    assert "my app: 1 of 3 questions failed" in done.output
    assert "Leaderboard by" in done.output
    listed = json.loads(runner.invoke(cli, ["runs", "list", "--db", str(db), "--format",
                                            "json"]).output)
    assert listed[0]["kind"] == "bench"
    html = runner.invoke(cli, ["report", "--db", str(db), "--format", "html"]).output
    assert "Leaderboard by" in html and "my service" in html


def test_setup_mistakes_are_one_line(tiny_bench: Path, tmp_path: Path) -> None:
    base = tiny_bench.read_text().split("[grid]")[0]
    bad = tmp_path / "bad.toml"
    bad.write_text(base + '[[strategy]]\npipeline = "nomodule_here_x:answer"\n')
    bad_cfg = load_config(bad)
    with Store(":memory:") as store, pytest.raises(PipelineSetupError,
                                                   match="cannot import nomodule_here_x"):
        run_bench(bad_cfg, store, BenchOptions(embedder=HashEmbedder(16)))
    done = CliRunner().invoke(cli, ["bench", str(bad), "--db", str(tmp_path / "x.db")])
    assert done.exit_code == 2 and done.output.count("\n") == 1
    bad.write_text(base + '[[strategy]]\npipeline = "no-colon"\n')
    with pytest.raises(ConfigError, match=r"strategy\[0\].pipeline: 'no-colon'"):
        load_config(bad)
    bad.write_text(base + '[[strategy]]\nchunker = "fixed"\nfields = { answer = "x" }\n')
    with pytest.raises(ConfigError, match="only a strategy with a pipeline"):
        load_config(bad)


@pytest.mark.parametrize("result, expected", [
    ({"answer": "a", "contexts": ["c1", "c2"]}, ("a", ("c1", "c2"), ())),
    (("a", ["c1"]), ("a", ("c1",), ())),
    ("just text", ("just text", (), ())),
    ({"answer": "a", "contexts": [{"text": "t", "doc": "d.md"}, "u"]},
     ("a", ("t", "u"), ("d.md", None))),
    ({"answer": "a", "contexts": ["t"], "docs": ["d.md"]}, ("a", ("t",), ("d.md",))),
])
def test_answer_shapes(result: Any, expected: tuple[Any, ...]) -> None:
    got = to_answer(result, PipelineFields())
    assert (got.answer, got.contexts, got.docs) == expected


def test_documents_as_objects_and_bad_shapes() -> None:
    class Doc:
        def __init__(self, text: str, source: str) -> None:
            self.page_content, self.metadata = text, {"source": source}

    got = to_answer({"answer": "a", "contexts": [Doc("t", "s.md")]}, PipelineFields())
    assert got.contexts == ("t",) and got.docs == ("s.md",)
    with pytest.raises(PipelineError, match="no string answer"):
        to_answer({"answer": 3}, PipelineFields())
    with pytest.raises(PipelineError, match="not a list"):
        to_answer({"answer": "a", "contexts": "one string"}, PipelineFields())
