"""The HTML report escapes all user text: markup in data stays text, nothing runs.

Payloads go into every field a user or a judge controls (id, strategy, question,
answer, contexts, reference, labels, metadata, the dataset's file name, the judge's
reasoning and an error message that becomes an unscored reason). The page is parsed:
no script, handler attribute or javascript: URL may appear, and each payload must be
visible as text.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.report import build_report, to_html
from ragassay.store import Store
from tests.support.cli import llm_eval_args
from tests.support.faults import FaultServer, fenced, judge_scores
from tests.support.scripted_server import ScriptedReply

SCRIPT = "<script>alert('x')</script>"
IMG = '"><img src=x onerror=alert(1)>'
CLOSE = "</pre></td></tr></table><script>document.cookie</script>"
PAYLOADS = (SCRIPT, IMG, CLOSE)
# `a` is allowed only as a link within the page (href="#..."): checked in _check_page
FORBIDDEN_TAGS = {"script", "img", "iframe", "object", "embed", "link", "form", "input",
                  "base", "audio", "video", "source", "foreignobject", "use", "animate", "set"}


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attrs: list[tuple[str, str]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag.lower())
        self.attrs += [(k.lower(), v or "") for k, v in attrs]

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _check_page(html: str) -> str:
    page = _Page()
    page.feed(html)
    page.close()
    assert not page.tags & FORBIDDEN_TAGS, page.tags & FORBIDDEN_TAGS
    assert not [k for k, _ in page.attrs if k.startswith("on")]
    assert not [v for _, v in page.attrs if "javascript:" in v.lower()]
    assert all(v.startswith("#") for k, v in page.attrs if k in ("href", "src", "xlink:href"))
    assert ("http-equiv", "Content-Security-Policy") in page.attrs
    return "".join(page.text)


class _Echo(FaultServer):
    """Valid verdicts whose reasoning repeats the question; one question gets an error."""

    def _handle(self, request: dict[str, Any], n: int) -> ScriptedReply:
        question = fenced(request, "QUESTION") or ""
        if "[error]" in question:
            return ScriptedReply.error(400, f"bad request near {SCRIPT}")
        verdict = {**judge_scores(request), "reasoning": f"The question was {question}"}
        return ScriptedReply.chat(json.dumps(verdict))


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("html")
    data = folder / f"{IMG}.jsonl"
    rows = []
    for i, p in enumerate(PAYLOADS):
        for strategy in (f"s{p}", "plain"):
            rows.append({"id": f"{p}-{i}-{strategy[:1]}", "question": f"Q{i} {p}",
                         "contexts": [f"ctx {p}", "second"], "answer": f"A {p}",
                         "reference": f"R {p}", "strategy": strategy,
                         "labels": {"correct": i % 2 == 0, f"lab{p}": True},
                         "metadata": {"question_id": f"q{i}", "note": p}})
    rows.append({"id": "err", "question": f"[error] {SCRIPT}", "contexts": ["c"], "answer": "a",
                 "strategy": "plain"})
    data.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    db = folder / "r.db"
    with _Echo() as server:
        result = CliRunner().invoke(cli, llm_eval_args(data, server.base_url, db, "-q"))
    assert result.exit_code == 0, result.output
    with Store(db, readonly=True) as store:
        run = store.latest_run()
        assert run is not None
        return db, run.id


def test_html_report_keeps_user_text_as_text(hostile_run: tuple[Path, str]) -> None:
    db, run_id = hostile_run
    with Store(db, readonly=True) as store:
        report = build_report(store, run_id)
    reasons = [r.unscored for r in report.entries if r.id == "err"]
    assert SCRIPT in json.dumps(reasons)  # the error message really carries the payload
    text = _check_page(to_html(report))
    for p in PAYLOADS:
        assert p in text, f"payload not shown as text: {p}"
    assert f"The question was Q0 {SCRIPT}" in text  # the judge's reasoning, escaped


def test_report_command_html_is_escaped(hostile_run: tuple[Path, str]) -> None:
    db, run_id = hostile_run
    result = CliRunner().invoke(cli, ["report", run_id, "--format", "html", "--db", str(db)])
    assert result.exit_code == 0, result.output
    text = _check_page(result.output)
    assert SCRIPT in text and IMG in text
