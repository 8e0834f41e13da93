"""The pytest plugin (entry point `pytest11`): the `ragassay_eval` fixture and options.

    --ragassay-db PATH     the run store (default .ragassay/ragassay.db; ini ragassay_db)
    --ragassay-judge SPEC  the judge for every evaluation (default offline; ini
                           ragassay_judge), e.g. openai:gpt-4o-mini in a nightly job

Importing this module imports nothing but pytest: a test session that never asks for the
fixture pays nothing for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from ragassay.store import Store
    from ragassay.testing import Evaluator

_RUNS = pytest.StashKey[list[str]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ragassay", "RAG evaluation (ragassay)")
    group.addoption("--ragassay-db", dest="ragassay_db", default=None, metavar="PATH",
                    help="Run store the ragassay_eval fixture writes to "
                         "(default .ragassay/ragassay.db).")
    group.addoption("--ragassay-judge", dest="ragassay_judge", default=None, metavar="SPEC",
                    help="Judge for ragassay_eval: offline (default) or BACKEND:MODEL.")
    parser.addini("ragassay_db", "Run store of the ragassay_eval fixture.", default="")
    parser.addini("ragassay_judge", "Judge of the ragassay_eval fixture.", default="")


def _setting(config: pytest.Config, name: str, default: str) -> str:
    return str(config.getoption(name) or config.getini(name) or default)


@pytest.fixture(scope="session")
def ragassay_store(pytestconfig: pytest.Config) -> Iterator[Store]:
    """The session's run store (opened once, closed at the end)."""
    from ragassay.store import DEFAULT_DB_PATH, Store

    store = Store(_setting(pytestconfig, "ragassay_db", str(DEFAULT_DB_PATH)))
    yield store
    store.close()


@pytest.fixture
def ragassay_eval(request: pytest.FixtureRequest, ragassay_store: Store) -> Evaluator:
    """Evaluate data or one sample inside a test; runs are named `pytest:<test id>`."""
    from ragassay.testing import Evaluator

    judge = _setting(request.config, "ragassay_judge", "offline")
    evaluator = Evaluator(ragassay_store, judge=judge, name=f"pytest:{request.node.nodeid}")
    request.addfinalizer(lambda: request.config.stash.setdefault(_RUNS, []).extend(
        r.run_id for r in evaluator.runs))
    return evaluator


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int,
                            config: pytest.Config) -> None:
    runs = config.stash.get(_RUNS, [])
    if runs:
        db = _setting(config, "ragassay_db", ".ragassay/ragassay.db")
        terminalreporter.write_line(f"ragassay: {len(runs)} run(s) stored in {db} "
                                    f"(latest {runs[-1]}); `ragassay ui --db {db}` shows them")
