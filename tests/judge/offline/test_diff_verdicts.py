"""scripts/devsets/diff_verdicts.py --without CHECK (session 16: what one alignment check
does on the dev sets' web passages, which the LOO showed for the parallel rule): a check
alignment does not have is a one-line error, before any dev set is read."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_an_unknown_check_is_one_line_and_a_nonzero_exit() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "devsets" / "diff_verdicts.py"),
         "no_such_set", "--without", "no_such_check"],
        capture_output=True, text=True, check=False)
    assert out.returncode != 0
    assert out.stderr.strip() == "diff_verdicts: alignment has no check 'no_such_check'"
