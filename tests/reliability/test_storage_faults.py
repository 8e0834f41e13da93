"""Disk full, read-only store, failed report writes, Ctrl-C: one clear line, nothing partial.

Disk full is simulated portably with RLIMIT_FSIZE (writes past the limit fail with
EFBIG, which SQLite reports as an I/O error); a read-only store with a read-only bind
mount in a private mount namespace (root) or file modes (other users).
"""

from __future__ import annotations

import errno
import json
import logging
import os
import resource  # noqa: E402  (POSIX; a plain import: never skip these tests)
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.report import build_report
from ragassay.store import Store, StoreError
from tests.support.cli import llm_eval_args
from tests.support.faults import FaultServer


def _write_data(path: Path, n: int, pad: int = 0) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(json.dumps({
                "id": f"d{i:03d}", "question": f"Disk question {i}? " + "pad " * pad,
                "contexts": [f"Context {i}. " + "words " * pad], "answer": f"Answer {i}.",
                "reference": f"Answer {i}.",
            }) + "\n")


def _eval_args(data: Path, server: FaultServer, db: Path, out: Path) -> list[str]:
    return llm_eval_args(data, server.base_url, db, "--out", str(out), "-q")


def _one_clean_line(stderr: str) -> str:
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    assert lines[0].startswith("error: ")
    return lines[0]


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="needs RLIMIT_FSIZE semantics")
def test_disk_full_mid_run_is_one_line_and_no_report(tmp_path: Path) -> None:
    data, db, out = tmp_path / "big.jsonl", tmp_path / "runs.db", tmp_path / "report.json"
    _write_data(data, 300, pad=60)
    limit = 800_000  # the empty store with its migrations fits; the whole run (~1.4 MB) does not

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    with FaultServer() as server:
        cmd = [sys.executable, "-m", "ragassay", *_eval_args(data, server, db, out)]
        proc = subprocess.run(cmd, preexec_fn=limited, capture_output=True, text=True,
                              timeout=120)
    assert proc.returncode == 2, proc.stderr
    line = _one_clean_line(proc.stderr)
    assert str(db) in line and ("disk" in line or "full" in line), line
    assert not out.exists() and not out.with_name(out.name + ".part").exists()
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    with Store(db) as store:
        run = store.latest_run()
        assert run is not None and run.status != "complete"
        saved = store.count_results(run.id)
        assert 0 < saved < 300  # work up to the failure is kept, for --resume
        report = build_report(store, run.id)
    assert report.run.complete is False


def _readonly_prefix(folder: Path) -> list[str] | None:
    """A command prefix that sees `folder` read-only, or None when not possible here."""
    if os.geteuid() != 0:
        return []
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    probe = subprocess.run([unshare, "-m", "sh", "-c",
                            f"mount --bind -o ro '{folder}' '{folder}' && ! touch '{folder}/x'"],
                           capture_output=True)
    if probe.returncode != 0:
        return None
    return [unshare, "-m", "sh", "-c",
            f"mount --bind -o ro '{folder}' '{folder}' && exec \"$0\" \"$@\""]


@pytest.fixture
def readonly_dir(tmp_path: Path):
    folder = tmp_path / "ro"
    folder.mkdir()
    prefix = _readonly_prefix(folder)
    if prefix is None:
        pytest.skip("cannot make a read-only folder here (root without mount namespaces)")
    yield folder, prefix
    folder.chmod(0o755)
    for p in folder.iterdir():
        p.chmod(0o644)


def _run_readonly(prefix: list[str], folder: Path, args: list[str]) -> subprocess.CompletedProcess:
    if not prefix:  # not root: file modes are enough
        for p in folder.iterdir():
            p.chmod(0o444)
        folder.chmod(0o555)
    return subprocess.run([*prefix, sys.executable, "-m", "ragassay", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_readonly_store_is_one_line_exit_2(tmp_path: Path, readonly_dir) -> None:
    folder, prefix = readonly_dir
    db = folder / "runs.db"
    Store(db).close()  # an existing, valid store
    data = tmp_path / "d.jsonl"
    _write_data(data, 3)
    with FaultServer() as server:
        proc = _run_readonly(prefix, folder, _eval_args(data, server, db, tmp_path / "r.json"))
        assert server.count == 0  # refused before any judge call was paid for
    assert proc.returncode == 2, proc.stderr
    line = _one_clean_line(proc.stderr)
    assert str(db) in line
    assert not (tmp_path / "r.json").exists()


@pytest.mark.slow
def test_report_into_readonly_folder_is_one_line_exit_2(tmp_path: Path, readonly_dir) -> None:
    folder, prefix = readonly_dir
    data, db = tmp_path / "d.jsonl", tmp_path / "runs.db"
    _write_data(data, 3)
    for out in (folder / "report.json", folder / "sub" / "report.json"):
        with FaultServer() as server:
            proc = _run_readonly(prefix, folder, _eval_args(data, server, db, out))
        assert proc.returncode == 2, proc.stderr
        line = _one_clean_line(proc.stderr)
        assert "report" in line and str(out.parent) in line, line
        assert not out.exists() and not out.with_name(out.name + ".part").exists()
    for fmt in ("json", "csv", "html"):
        out = folder / "sub" / f"report.{fmt}"
        proc = _run_readonly(prefix, folder, ["report", "--format", fmt, "--out", str(out),
                                              "--db", str(db)])
        assert proc.returncode == 2, proc.stderr
        assert str(out.parent) in _one_clean_line(proc.stderr)
        assert not out.exists()


def test_failed_report_write_leaves_no_partial_file(tmp_path: Path, monkeypatch) -> None:
    """ENOSPC half-way through the report: no file under the final name, no .part left."""
    data, db, out = tmp_path / "d.jsonl", tmp_path / "runs.db", tmp_path / "report.json"
    _write_data(data, 2)
    real_fdopen = os.fdopen

    class FillsUp:
        """A file that takes 2 KB, then fails as a full disk does."""

        def __init__(self, fh) -> None:  # type: ignore[no-untyped-def]
            self.fh, self.left = fh, 2048

        def write(self, text: str) -> int:
            if len(text) > self.left:
                self.fh.write(text[: self.left])
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            self.left -= len(text)
            return self.fh.write(text)

        def __enter__(self):  # type: ignore[no-untyped-def]
            return self

        def __exit__(self, *exc: object) -> None:
            self.fh.close()

    def disk_full(fd: int, mode: str = "r", *args, **kwargs):  # type: ignore[no-untyped-def]
        fh = real_fdopen(fd, mode, *args, **kwargs)  # the atomic writer's temporary file
        return FillsUp(fh) if "w" in mode else fh

    with FaultServer() as server:
        monkeypatch.setattr("ragassay.files.os.fdopen", disk_full)
        result = CliRunner().invoke(cli, _eval_args(data, server, db, out))
        monkeypatch.undo()
    assert result.exit_code == 2, result.output
    assert "cannot write report" in result.output and "No space left" in result.output
    assert not out.exists() and not list(tmp_path.glob("*.part"))
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".report.json")]


def test_interrupted_run_is_never_reported_complete(tmp_path: Path, monkeypatch) -> None:
    """Ctrl-C: exit 130 with a resume hint, status "interrupted", report complete=False."""
    from ragassay import console as progress

    data, db, out = tmp_path / "d.jsonl", tmp_path / "runs.db", tmp_path / "report.json"
    _write_data(data, 40)

    def interrupt(self, samples, usage) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(progress.RichProgress, "advance", interrupt)
    with FaultServer() as server:
        result = CliRunner().invoke(cli, [*_eval_args(data, server, db, out), "--concurrency",
                                          "1"])
    assert result.exit_code == 130, result.output
    assert "--resume" in result.output
    assert not out.exists()
    with Store(db) as store:
        run = store.latest_run()
        assert run is not None and run.status == "interrupted"
        assert store.count_results(run.id) == 1  # concurrency 1: the first judgment was saved
        assert build_report(store, run.id).run.complete is False
    report = CliRunner().invoke(cli, ["report", run.id, "--db", str(db)])
    assert report.exit_code == 0
    assert json.loads(report.output)["evaluation_metadata"]["complete"] is False


class _FailingStore(Store):
    """A store whose disk fills up after a few results."""

    def __init__(self, path: Path, ok: int) -> None:
        super().__init__(path)
        self.ok = ok

    def save_result(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        if self.ok <= 0:
            raise StoreError(f"cannot write to {self.label}: database or disk is full")
        self.ok -= 1
        super().save_result(*args, **kwargs)


def test_many_failing_saves_report_one_error_and_no_stray_traceback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Judgments failing together: one StoreError raised, none left unretrieved."""
    import gc

    from ragassay.runner import evaluate
    from ragassay.types import RunConfig, Sample

    samples = [Sample(id=f"f{i}", question=f"q{i}?", contexts=("c",), answer="a")
               for i in range(64)]
    caplog.set_level(logging.ERROR, logger="asyncio")
    with FaultServer(latency_s=0.01) as server:
        store = _FailingStore(tmp_path / "r.db", ok=5)
        config = RunConfig(dataset="d", judge="openai:x", base_url=server.base_url,
                           metrics=("judge",), concurrency=16, use_cache=False)
        with pytest.raises(StoreError, match="disk is full"):
            evaluate(samples, config, store=store)
        gc.collect()
        store.close()
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]
    with Store(tmp_path / "r.db") as check:
        run = check.latest_run()
        assert run is not None and run.status == "failed" and check.count_results(run.id) == 5
