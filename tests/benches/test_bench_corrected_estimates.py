"""The corrected-estimates benchmark's core on a tiny synthetic set: the draws go through
the product's estimator, the judge's bias and the truth are read right, an n >= N is
left out, a set with no variation in its labels says so (or, drawn uniformly, gets the
labels' own interval), and the LOO scores are cached."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from benches import corrected_estimates as bench
from benches.corrected_estimates import (
    HEADERS,
    SetScores,
    report,
    simulate,
    summary_rows,
    table_rows,
)

N = 400


def _synthetic(labels: np.ndarray | None = None) -> SetScores:
    """People's hallucinated label and a biased, informative judge (1-10 faithfulness,
    higher when faithful, about 2 points too kind; its bool hallucination flag)."""
    rng = np.random.default_rng(3)
    q = rng.normal(size=N)
    y = (rng.random(N) < 1 / (1 + np.exp(1.5 * q + 0.5))) if labels is None else labels
    faith = np.clip(np.round(7 + 2.5 * q + rng.normal(scale=1.5, size=N)), 1, 10)
    values: dict[str, list[float | None]] = {
        "judge.faithfulness": [float(v) for v in faith],
        "judge.hallucination": [float(v < 6) for v in faith],
    }
    values["judge.faithfulness"][0] = None  # an unscored row: the product fills the mean
    return SetScores("synthetic", "hallucinated", [f"r{i}" for i in range(N)],
                     [float(v) for v in y], values, "judge.faithfulness")


def test_draws_cover_the_finite_truth_and_read_the_judges_bias() -> None:
    data = _synthetic()
    out = simulate(data, [50, 100, N], draws=20, plans=("uniform", "uncertainty"))
    assert set(out) == {(m, p, n) for m in data.values for p in ("uniform", "uncertainty")
                        for n in (50, 100)}  # n = N is no sample: left out
    truth = float(np.mean(data.labels))
    faith = [v for v in data.values["judge.faithfulness"] if v is not None]
    own = 1 - float(np.mean([(v - 1) / 9 for v in faith]))  # inverted: 1 - faithfulness
    flagged = float(np.mean(data.values["judge.hallucination"]))
    for (metric, _plan, _n), t in out.items():
        assert t.draws == 20 and t.skipped == 0
        assert t.truth == pytest.approx(truth)
        assert t.judge == pytest.approx(own if metric == "judge.faithfulness" else flagged)
        assert t.hits / t.draws >= 0.75 and t.hits_only / t.draws >= 0.75
    assert abs(out[("judge.faithfulness", "uniform", 100)].judge - truth) > 0.05  # biased
    informative = out[("judge.faithfulness", "uniform", 100)]
    assert np.mean(informative.widths) < np.mean(informative.widths_only)
    assert np.mean(out[("judge.faithfulness", "uniform", 100)].widths) < np.mean(
        out[("judge.faithfulness", "uniform", 50)].widths)


def test_the_report_has_a_summary_and_a_table_per_plan() -> None:
    data = _synthetic()
    out = simulate(data, [50], draws=5, plans=("uniform", "uncertainty"))
    rows = list(table_rows(data, out, "uniform"))
    assert len(rows) == 2 and all(len(r) == len(HEADERS) for r in rows)
    assert rows[0][:5] == ["synthetic", f"hallucinated ({N})", "judge.faithfulness", "50",
                           "0.12"]
    assert rows[0][8].endswith("%")
    [summary] = summary_rows(data, out, [50, 100])
    assert summary[2] == "judge.faithfulness" and summary[-1] == "-"  # no n = 100 draws
    text = report([(data, out)], [50], ("uniform", "uncertainty"), "header")
    assert text.startswith("header") and "Plan `uniform`" in text
    assert "Plan `uncertainty`" in text and text.count("| synthetic |") == 5


def test_labels_without_variation_give_no_estimate_and_say_so() -> None:
    """Labels all alike drawn by the uncertainty plan give no estimate (the product's
    skip); drawn uniformly, the labels' own exact interval, which holds the truth."""
    data = _synthetic(labels=np.zeros(N))
    out = simulate(data, [50], draws=3, plans=("uncertainty",))
    assert all(t.draws == 0 and t.skipped == 3 for t in out.values())
    rows = list(table_rows(data, out, "uncertainty"))
    assert rows[0][8] == "no estimate (3 draws)"
    assert list(summary_rows(data, out, [50])) == []  # no uniform draws to sum up
    uniform = simulate(data, [50], draws=3, plans=("uniform",))
    assert all(t.draws == 3 and t.hits == t.hits_only == 3 for t in uniform.values())


def test_loo_scores_are_read_from_the_cache(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "OUT", tmp_path / "out")
    monkeypatch.setattr(bench, "DEVSETS", tmp_path / "devsets")
    with pytest.raises(SystemExit, match="convert.py"):
        bench.loo_scores("q2")
    (tmp_path / "devsets").mkdir()
    (tmp_path / "devsets" / "q2.jsonl").write_text("{}\n", encoding="utf-8")
    cached = _synthetic()
    path = tmp_path / "out" / "scores" / f"q2-{bench._code_key('q2', 'static')}.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(cached.__dict__), encoding="utf-8")
    assert bench.loo_scores("q2") == cached
