"""Monitor processes a failed test left running are killed after it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.monitor_process import MonitorProcess


@pytest.fixture(autouse=True)
def _no_monitor_left() -> Iterator[None]:
    yield
    MonitorProcess.kill_left()
