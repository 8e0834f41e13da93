"""The offline judge's tests share one Analyzer per module (`an`)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()
