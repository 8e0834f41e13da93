"""A store on read-only media (a read-only bind mount, or a folder of mode 555) can be
read: `runs list`, `runs show` and `report` open it read-only, as an immutable file when
SQLite could not create the shared-memory file a WAL database needs (issue #33, item 10).
Writing to it is still the one-line error of test_storage_faults."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.test_storage_faults import _run_readonly, readonly_dir  # noqa: F401, F811

pytestmark = pytest.mark.timeout(300)


def test_a_store_on_read_only_media_can_be_read(tmp_path: Path,
                                                readonly_dir: tuple[Path, list[str]]  # noqa: F811
                                                ) -> None:
    folder, prefix = readonly_dir
    data, db = tmp_path / "d.jsonl", folder / "runs.db"
    data.write_text(json.dumps({"id": "a", "question": "What is X?", "contexts": ["X is Y."],
                                "answer": "X is Y."}) + "\n")
    made = subprocess.run([sys.executable, "-m", "ragassay", "eval", str(data), "--metrics",
                           "judge", "--db", str(db), "-q"], capture_output=True, text=True,
                          timeout=120)  # its own process: the store is closed, the WAL gone
    assert made.returncode == 0, made.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["runs.db"]
    listing = _run_readonly(prefix, folder, ["runs", "list", "--format", "json", "--db",
                                             str(db)])
    assert listing.returncode == 0, listing.stderr
    (run,) = json.loads(listing.stdout)
    run_id = run["id"]
    for args in (["runs", "show", run_id], ["report", run_id, "--format", "json"]):
        shown = _run_readonly(prefix, folder, [*args, "--db", str(db)])
        assert shown.returncode == 0, shown.stderr
        assert run_id in shown.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["runs.db"]  # nothing written there
