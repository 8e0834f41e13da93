"""scripts/devsets/loo_table.py prints the table docs/judges.md opens with from a LOO JSON
(a new-user trial found that table stale, the shipped figures 600 lines further down)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

LOO = {
    "judge": "shipped", "date": "2026-12-05", "n_resamples": 1000,
    "notes": ["begin: IN-SAMPLE (the shipped calibration was fitted on it)"],
    "figures": [
        {"set": "begin", "kind": "auroc", "metric": "judge.faithfulness", "n": 430,
         "value": 0.9412, "ci": [0.9156, 0.9631], "baseline": 0.944,
         "diff_ci": [-0.027, 0.018]},
        {"set": "factcheck_gpt", "kind": "auroc", "metric": "ragas.faithfulness", "n": 92,
         "value": 0.4957, "ci": [0.3596, 0.6312], "baseline": 0.4338,
         "diff_ci": [-0.122, 0.231]},
        {"set": "trec_dl2020", "kind": "spearman", "metric": "trace.context_relevance",
         "n": 2859, "value": 0.228, "ci": [0.194, 0.262], "baseline": 0.085, "diff_ci": None},
        {"set": "new_set", "kind": "auroc", "metric": "judge.faithfulness", "n": 0,
         "value": None, "ci": None, "baseline": None, "diff_ci": None},
    ],
}


def test_prints_a_row_per_figure_with_ci_baseline_and_target(tmp_path: Path) -> None:
    path = tmp_path / "loo.json"
    path.write_text(json.dumps(LOO), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "devsets" / "loo_table.py"), str(path)],
        capture_output=True, text=True, check=True, env=env, cwd=tmp_path,
    ).stdout.splitlines()
    assert out[0].startswith("| set | metric | n | value [95% CI] | lexical baseline |")
    assert out[2:6] == [
        "| BEGIN | `judge.faithfulness` (AUROC) | 430 | 0.941 [0.916, 0.963] | 0.944 "
        "| [-0.027, +0.018] | NOT met (-0.003) |",
        "| Factcheck-GPT answers | `ragas.faithfulness` (AUROC) | 92 | 0.496 [0.360, 0.631] "
        "| 0.434 | [-0.122, +0.231] | met |",
        "| TREC DL 2020 | `trace.context_relevance` (Spearman) | 2859 | 0.228 [0.194, 0.262] "
        "| 0.085 | - | NOT met |",
        "| new_set | `judge.faithfulness` (AUROC) | 0 | - | - | - | - |",
    ]
    assert out[6:] == ["", "- begin: IN-SAMPLE (the shipped calibration was fitted on it)"]
