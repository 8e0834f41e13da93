"""The probe suite of issue #38 (benches/probes/, benches/probes.py): its data has the
shape the issue asks for, and the offline judge keeps its development batch right.

Batch B (held out until 2026-12-03, benches/probes/batch_b.toml): its figure is
measured by the script and reported in benches/RESULTS.md, never asserted here."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "benches" / "probes.py"
DEV_FLOOR = 0.9  # per kind, batch A; the issue's target (0.95) is reported, not asserted


@pytest.fixture(scope="module")
def probes() -> ModuleType:
    spec = importlib.util.spec_from_file_location("probes_script", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_suite_has_the_probes_the_issue_asks_for(probes: ModuleType) -> None:
    a, b = probes.load("a"), probes.load("b")
    assert len(a) + len(b) >= 200
    assert len({p.domain for p in a + b}) >= 6
    for batch in (a, b):
        kinds = Counter(p.kind for p in batch)
        assert set(kinds) == set(probes.KINDS) and min(kinds.values()) >= 8
    assert not {p.answer for p in a} & {p.answer for p in b}  # other words
    # a contradiction meant to be built from the contexts' own words states no number or
    # name they lack (it would be caught for that alone)
    assert probes.check(a + b) == []


def test_right_is_read_per_kind(probes: ModuleType) -> None:
    assert probes.right("negation_flip", True, 2.0) == (True, True)
    assert probes.right("negation_flip", False, 9.7) == (False, False)
    assert probes.right("paraphrase", False, 8.0) == (True, True)
    assert probes.right("paraphrase", None, None) == (False, False)  # a faithful answer
    assert probes.right("decline", None, None) == (True, True)  # abstained
    assert probes.right("decline", True, 2.0) == (False, False)


def test_the_offline_judge_keeps_the_development_batch(probes: ModuleType,
                                                       tmp_path: Path) -> None:
    rows = probes.judge_probes(probes.load("a"), "offline", str(tmp_path / "p.db"), {})
    by_kind: dict[str, list[bool]] = {}
    for r in rows:
        by_kind.setdefault(r["kind"], []).append(r["right_hallucination"]
                                                 and r["right_faithfulness"])
    shares = {k: sum(v) / len(v) for k, v in by_kind.items()}
    assert min(shares.values()) >= DEV_FLOOR, shares
    assert "| **all** |" in probes.table(rows)


def test_the_decline_prefilter_drops_no_decline(probes: ModuleType) -> None:
    """is_noncommittal scans for a trigger word before the full decline patterns: over
    the suite's answers and sentences that only look close, it says what the patterns
    alone say."""
    from ragassay.judge.offline.declines import DECLINE, is_noncommittal

    texts = [p.answer for b in ("a", "b") for p in probes.load(b)] + [
        "I was able to find it.", "Nothing in the documents covers it.", "Unknown.",
        "That is beyond what the leaflet says.", "We dont know.", "It cant be determined.",
        "No idea, sorry.", "The price is outside the range.", "Refunds take 5 days.",
        "I\u2019m unable to confirm that.", "The docs don\u02bct say."]
    assert sum(is_noncommittal(t) for t in texts) >= 30
    for t in texts:
        assert is_noncommittal(t) == bool(DECLINE.search(t)), t


def test_an_unknown_batch_is_one_line_and_a_non_zero_exit() -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, str(root / "benches" / "probes.py"), "--batches", "zz"],
                          capture_output=True, text=True, check=False)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        done.stderr.strip()] and "no batch 'zz'" in done.stderr
