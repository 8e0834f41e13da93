"""benches/probe_sureness.py: how many of the judge's wrong verdicts its least-sure
probes hold."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benches.probe_sureness import auroc, escalated, in_band, main, sureness


def _row(rating: float | None, right: bool) -> dict[str, Any]:
    return {"faithfulness": rating, "right_hallucination": right, "right_faithfulness": right}


def test_sureness_is_distance_from_the_middle() -> None:
    assert sureness(10.0) == sureness(1.0) == 1.0
    assert sureness(5.5) == 0.5
    assert sureness(7.75) == pytest.approx(0.75)


def test_least_sure_share_holds_the_mistakes() -> None:
    run = [_row(5.0, False), _row(6.5, False), _row(9.5, True), _row(1.2, True),
           _row(9.9, False), _row(None, False)]
    e = escalated(run, 0.4)  # 2 of the 5 scored, the two nearest the middle
    assert (e.sent, e.wrong_sent, e.wrong) == (2, 2, 3)
    assert escalated(run, 0.0).sent == 0


def test_in_band_counts_the_ratings_inside_it() -> None:
    run = [_row(4.0, True), _row(7.0, False), _row(7.1, True), _row(None, False)]
    assert in_band(run, 4, 7) == 2
    assert in_band(run, 8, 10) == 0


def test_auroc_orders_right_above_wrong() -> None:
    assert auroc([_row(9.0, True), _row(1.5, True), _row(6.0, False)]) == 1.0
    assert auroc([_row(9.0, False), _row(6.0, True)]) == 0.0
    assert auroc([_row(9.0, True), _row(1.0, True)]) is None
    assert auroc([_row(10.0, True), _row(1.0, False)]) == 0.5  # a tie counts half


def test_main_prints_each_share(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "run.json"
    path.write_text(json.dumps([_row(5.0, False), _row(9.5, True)]), encoding="utf-8")
    assert main([str(path), "--shares", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "least sure 50% (1 probes): 1 of 1 wrong verdicts (100%); wrong there 1.00" in out
    assert "AUROC of sureness for a right verdict: 1.000" in out
    assert "2 scored probes, 1 wrong verdicts (0.50 of them); rated 4-7: 1" in out
    with pytest.raises(SystemExit, match="probe_sureness"):
        main([str(tmp_path / "none.json")])
    report = tmp_path / "report.json"  # another JSON file: one line, no traceback
    report.write_text(json.dumps({"runs": []}), encoding="utf-8")
    with pytest.raises(SystemExit, match="not a benches/probes.py --out file"):
        main([str(report)])
    with pytest.raises(SystemExit, match="each share is 0 to 1"):
        main([str(path), "--shares", "-0.2"])


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path: Path) -> None:
    """`probe_sureness.py RUN | head -1`: the pipe closes under it; it ends quietly, no
    BrokenPipeError traceback on stderr (the read end is closed before it starts, so its
    first line already meets a closed pipe)."""
    import os
    import subprocess
    import sys

    path = tmp_path / "run.json"
    path.write_text(json.dumps([_row(5.0, False), _row(9.5, True)]))
    script = Path(__file__).parents[2] / "benches" / "probe_sureness.py"
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, str(script), str(path)], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120,
                              env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    finally:
        os.close(write)
    assert done.stderr == "" and done.returncode == 0, done.stderr
