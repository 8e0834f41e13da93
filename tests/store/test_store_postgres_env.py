"""What the URL leaves out comes from libpq's standard PG* variables; the store's label
never shows them."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from ragassay.store import Store
from ragassay.types import RunConfig


def test_host_port_and_user_from_the_pg_variables(pg_url: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    parts = urlsplit(pg_url)
    monkeypatch.setenv("PGHOST", str(parts.hostname))
    monkeypatch.setenv("PGPORT", str(parts.port))
    monkeypatch.setenv("PGUSER", str(parts.username))
    monkeypatch.setenv("PGPASSWORD", "from-the-environment")
    with Store(f"postgresql:///{parts.path.lstrip('/')}") as store:
        run_id = store.create_run(RunConfig(dataset="d.jsonl"), package_version="t",
                                  dataset_hash=None, judge_model="m")
        assert store.label == f"postgresql:///{parts.path.lstrip('/')}"
    with Store(pg_url, readonly=True) as other:
        assert other.get_run(run_id).id == run_id
