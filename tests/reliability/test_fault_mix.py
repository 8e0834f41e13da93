"""500 samples through a server injecting every fault kind at 30%: nothing is lost.

The figures land in test-artifacts/reliability.json (docs/reliability.md quotes them;
regenerate with `python -m tests.reliability.fault_mix --report --update-docs`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.reliability.fault_mix import (
    BACKEND,
    METRICS_PER_SAMPLE,
    MixResult,
    run_mix,
    write_artifact,
)
from tests.support.faults import CONTENT_FAULTS, FAULT_KINDS, TRANSPORT_FAULTS

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

N = 500


@pytest.fixture(scope="module")
def mix(tmp_path_factory: pytest.TempPathFactory) -> MixResult:
    result = run_mix(tmp_path_factory.mktemp("mix"), n=N, rate=0.3, seed=7)
    write_artifact(result.figures)
    return result


def test_every_fault_kind_was_injected(mix: MixResult) -> None:
    fig = mix.figures
    assert not fig.server_exhausted
    assert set(fig.faults_by_kind) == set(FAULT_KINDS)
    assert all(n > 0 for n in fig.faults_by_kind.values()), fig.faults_by_kind
    # about 30% of all requests were faulty (binomial: well within +-6 points)
    assert 0.24 < fig.faults / fig.requests < 0.36, (fig.faults, fig.requests)


def test_nothing_is_lost_and_totals_reconcile(mix: MixResult) -> None:
    fig = mix.figures
    assert fig.lost == 0
    assert len(mix.faulty) == N
    assert fig.scored + fig.unscored == N * METRICS_PER_SAMPLE == fig.metric_values
    for sid, metrics in mix.faulty.items():
        for name, value in metrics.items():
            reason = mix.reasons.get(sid, {}).get(name)
            assert (value is None) == bool(reason), (sid, name, value, reason)
    # the report says the same
    rows = mix.report["detailed_results"]
    assert len(rows) == N and mix.report["evaluation_metadata"]["complete"] is True
    scored = sum(v is not None for r in rows for v in r["metrics"].values())
    unscored = sum(len(r["unscored"]) for r in rows)
    assert (scored, unscored) == (fig.scored, fig.unscored)
    assert fig.report_written


def test_unscored_only_where_faults_exhausted_the_budget(mix: MixResult) -> None:
    fig = mix.figures
    assert fig.outcome_mismatches == 0
    assert fig.unscored_samples > 0  # 30% faults do exhaust some budgets
    for sid, reasons in mix.reasons.items():
        last = mix.history[sid][-1]
        assert last in TRANSPORT_FAULTS + CONTENT_FAULTS, (sid, mix.history[sid])
        reason = next(iter(reasons.values()))
        if last in TRANSPORT_FAULTS:
            assert reason.startswith("judge call failed:"), reason
            assert re.search(r"after \d+ attempts", reason), reason
        else:
            assert reason.startswith(("unparseable reply", "invalid reply", "reply cut")), reason


def test_retries_stay_within_their_bounds(mix: MixResult) -> None:
    fig = mix.figures
    assert fig.request_bound == (BACKEND["max_retries"] + 1) * 2
    assert fig.over_bound == 0
    assert fig.max_requests_per_sample <= fig.request_bound + 2
    for sid, kinds in mix.history.items():
        # a repair is asked at most once: at most two content faults in a row end it
        content = [k for k in kinds if k in CONTENT_FAULTS]
        assert len(content) <= 2, (sid, kinds)
    assert fig.retries > 0 and fig.repairs > 0


def test_scores_of_successful_samples_match_the_fault_free_run(mix: MixResult) -> None:
    fig = mix.figures
    assert fig.score_mismatches == 0
    assert fig.same_scores_as_clean + fig.unscored_samples == N


def test_out_of_range_replies_are_invalid_suspicious_and_counted(mix: MixResult) -> None:
    """A rating outside its scale is never clamped: the judge is asked once more, and
    when the last reply is out of range too the sample is unscored with that reason;
    every result that met such a reply counts as suspicious."""
    fig = mix.figures
    assert fig.out_of_range_unscored > 0
    for sid, kinds in mix.history.items():
        if kinds[-1] == "out_of_range":
            reason = next(iter(mix.reasons[sid].values()))
            assert "is outside the scale 1-10" in reason, reason
    met = sum("out_of_range" in kinds for sid, kinds in mix.history.items() if sid != "?")
    assert fig.suspicious_results == met > 0
    assert mix.report["evaluation_metadata"]["suspicious_replies"] == met


def test_figures_are_written(mix: MixResult) -> None:
    path = Path(__file__).resolve().parents[2] / "test-artifacts" / "reliability.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["samples"] == N and data["lost"] == 0
