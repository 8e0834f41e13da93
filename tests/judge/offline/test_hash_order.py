"""The offline judge's output does not depend on Python's string hash seed: which
context units a claim is read against came in the order a set of words iterates, so a
claim's reason ("contradicts the context: a (number)" or "(entity)") changed with
PYTHONHASHSEED (found 2026-12-04 comparing two runs of probe batch F)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[3] / "src"
JUDGE = """
import json
from ragassay.judge.offline import Analyzer, reasoning
from ragassay.types import Sample
an = Analyzer()
s = Sample(id="s", question="Which plan supports multiple countries?", contexts=(
    "The Starter plan covers payroll for one country and up to 25 employees.",
    "The Global plan supports payroll in up to 30 countries."),
    answer="The Starter plan supports payroll in up to 30 countries.")
print(json.dumps(reasoning(an.analyze(s))))
"""


def test_the_same_claim_reads_the_same_under_every_hash_seed() -> None:
    outs = set()
    for seed in ("0", "1", "2", "3"):
        env = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", JUDGE], env=env, text=True,
                              capture_output=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        outs.add(done.stdout)
    assert len(outs) == 1, outs
    assert "contradicts the context" in json.loads(outs.pop())
