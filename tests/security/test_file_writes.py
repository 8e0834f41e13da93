"""A planted symlink never redirects a write (issue 17, item 7).

Reports used to be written to `NAME.part` and renamed: a `report.json.part` symlink
planted next to `--out` was followed and its target overwritten. Every atomic write now
goes through `ragassay.files.atomic_write`, which creates a fresh temporary file
exclusively (mkstemp, O_EXCL, random name) in the target folder and renames it.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.files import atomic_write

VICTIM_TEXT = "precious data, must survive\n"


def _plant(folder: Path, name: str) -> Path:
    """A victim file elsewhere and a `NAME.part` symlink to it beside the output."""
    victim = folder / "elsewhere" / "victim.txt"
    victim.parent.mkdir()
    victim.write_text(VICTIM_TEXT, encoding="utf-8")
    (folder / f"{name}.part").symlink_to(victim)
    return victim


def _data(folder: Path) -> Path:
    path = folder / "d.jsonl"
    path.write_text("\n".join(json.dumps({"id": f"s{i}", "question": f"Q{i}?",
                                          "contexts": [f"C{i}."], "answer": f"A{i}."})
                              for i in range(3)) + "\n", encoding="utf-8")
    return path


def test_eval_out_never_follows_a_planted_part_link(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    victim = _plant(tmp_path, out.name)
    result = CliRunner().invoke(cli, ["eval", str(_data(tmp_path)), "--metrics", "judge",
                                      "--db", str(tmp_path / "r.db"), "-q", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert victim.read_text(encoding="utf-8") == VICTIM_TEXT
    assert (tmp_path / "report.json.part").is_symlink()  # left alone, not removed
    assert json.loads(out.read_text(encoding="utf-8"))["evaluation_metadata"]["complete"]
    assert not out.is_symlink()


@pytest.mark.parametrize("fmt", ["json", "csv", "html"])
def test_report_out_never_follows_a_planted_part_link(tmp_path: Path, fmt: str) -> None:
    db = tmp_path / "r.db"
    made = CliRunner().invoke(cli, ["eval", str(_data(tmp_path)), "--metrics", "judge",
                                    "--db", str(db), "-q"])
    assert made.exit_code == 0, made.output
    out = tmp_path / f"report.{fmt}"
    victim = _plant(tmp_path, out.name)
    result = CliRunner().invoke(cli, ["report", "--db", str(db), "--format", fmt,
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert victim.read_text(encoding="utf-8") == VICTIM_TEXT
    assert out.stat().st_size > 100 and not out.is_symlink()


def test_a_symlink_at_the_target_itself_is_replaced_not_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text(VICTIM_TEXT, encoding="utf-8")
    out = tmp_path / "out.txt"
    out.symlink_to(victim)
    with atomic_write(out) as fh:
        fh.write("new")
    assert victim.read_text(encoding="utf-8") == VICTIM_TEXT
    assert not out.is_symlink() and out.read_text(encoding="utf-8") == "new"


def test_atomic_write_leaves_nothing_on_failure_and_uses_normal_permissions(
        tmp_path: Path) -> None:
    out = tmp_path / "sub" / "out.txt"
    with pytest.raises(RuntimeError), atomic_write(out) as fh:
        fh.write("half")
        raise RuntimeError("boom")
    assert list(out.parent.iterdir()) == []
    old = os.umask(0o022)
    try:
        with atomic_write(out, binary=True) as fh:
            fh.write(b"\x00\x01")
    finally:
        os.umask(old)
    assert out.read_bytes() == b"\x00\x01"
    assert stat.S_IMODE(out.stat().st_mode) == 0o644  # not mkstemp's 0600
    assert [p.name for p in out.parent.iterdir()] == ["out.txt"]
