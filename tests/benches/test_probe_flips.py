"""benches/probe_flips.py: which probes two runs of benches/probes.py judge differently."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benches.probe_flips import flips, main


def _row(pid: str, right: bool, faith: float, half: bool | None = None) -> dict[str, Any]:
    return {"id": pid, "batch": pid[0], "kind": "paraphrase", "faithfulness": faith,
            "right_hallucination": right, "right_faithfulness": right if half is None else half}


def test_flips_each_way_and_per_batch() -> None:
    before = [_row("A001", True, 8.0), _row("A002", False, 3.0), _row("B001", True, 7.0),
              _row("B002", True, 9.0, half=False), _row("B003", True, 6.0)]
    after = [_row("A001", False, 4.0), _row("A002", True, 7.0), _row("B001", True, 7.5),
             _row("B002", True, 9.0), _row("C001", True, 9.0)]
    out = flips(before, after)
    assert out["up"] == ["A002", "B002"]  # B002: one metric wrong before, both right after
    assert out["down"] == ["A001"]
    assert out["moved"] == 1  # B001
    assert out["batches"] == {"A": (1, 1, 2), "B": (1, 2, 2)}
    assert out["only_before"] == ["B003"] and out["only_after"] == ["C001"]


def test_the_command_prints_them_and_an_unreadable_file_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps([_row("A001", True, 8.0)]), encoding="utf-8")
    b.write_text(json.dumps([_row("A001", False, 2.0)]), encoding="utf-8")
    assert main([str(a), str(b)]) == 0
    printed = capsys.readouterr().out
    assert "right -> wrong 1: A001" in printed and "A 1 -> 0/1" in printed
    with pytest.raises(SystemExit, match=r"^probe_flips: cannot read .*missing\.json"):
        main([str(a), str(tmp_path / "missing.json")])
