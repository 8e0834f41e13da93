"""`EvalResult.by(key)`: the run by a metadata key in Python, typed (`stats.Groups`), the
figures the user computed with pandas (samples, a verdict's rate, right/total against the
human label per group); `report(by=...)` carries them into the JSON and the HTML."""

from __future__ import annotations

from pathlib import Path

import pytest

import ragassay
from ragassay.report import UnknownGroupKey
from ragassay.stats import Groups
from tests.support.grouped import by_kind, probe_rows


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> ragassay.EvalResult:
    db = tmp_path_factory.mktemp("api") / "r.db"
    return ragassay.evaluate(probe_rows(), metrics="judge", store=Path(db))


def test_by_gives_each_groups_figures(result: ragassay.EvalResult) -> None:
    groups = result.by("kind")
    assert isinstance(groups, Groups) and groups.key == "kind"
    entries = [e.model_dump() for e in result.report().entries]
    want = by_kind(entries, "judge.hallucination")
    assert {g.value: g.n for g in groups.groups} == {k: g["n"] for k, g in want.items()}
    assert groups.scales["judge.hallucination"].figure == "rate"
    for kind, g in want.items():
        mine = groups.group(kind)
        assert mine is not None
        assert mine.metrics["judge.hallucination"].mean == pytest.approx(g["mean"])
        a = mine.agreement_of("hallucinated", "judge.hallucination")
        assert a is not None and a.verdicts is not None
        assert (a.verdicts.agree, a.n) == (g["right"], g["total"])
    assert result.by("metadata.kind") == groups


def test_report_by_carries_the_groups_and_a_wrong_key_is_loud(
        result: ragassay.EvalResult) -> None:
    assert result.report(by="domain").groups == result.by("domain")
    assert result.report().groups is None
    assert 'id="groups"' in result.report("html", by="kind")
    with pytest.raises(ValueError, match="the CSV has each sample's metadata"):
        result.report("csv", by="kind")
    with pytest.raises(UnknownGroupKey, match="its keys: domain, kind$"):
        result.by("team")
