"""A plain script that calls `ragassay.evaluate` at its top level, with no
`if __name__ == "__main__":` guard: worker processes re-run the main script when they
start, so with several workers it died with a BrokenProcessPool traceback (found
2026-12-04 running a 430-row dev set from such a script). It now judges in one process
and says, in one warning line, how to use every core."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
ROWS = [{"id": f"r{i}", "question": "How long do refunds take?",
         "contexts": ["Refunds take 30 days."], "answer": f"Refunds take {20 + i % 20} days."}
        for i in range(70)]  # three batches: enough for two workers


def _run(tmp_path: Path, script: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "score.py"
    path.write_text(script)
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.run([sys.executable, str(path)], cwd=tmp_path, env=env, text=True,
                          capture_output=True, timeout=600)


def test_an_unguarded_script_judges_in_one_process_and_says_why(tmp_path: Path) -> None:
    (tmp_path / "rows.json").write_text(json.dumps(ROWS))
    done = _run(tmp_path, (
        "import json, ragassay\n"
        "rows = json.load(open('rows.json'))\n"
        "res = ragassay.evaluate(rows, 'judge', store='s.db', workers=2)\n"
        "print(len(res.to_pandas()))\n"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "70"
    assert "judging in one process: score.py has no 'if __name__ == \"__main__\":' guard" \
        in done.stderr
    assert "BrokenProcessPool" not in done.stderr


def test_only_a_script_without_the_guard_is_named(tmp_path: Path) -> None:
    ask = "from ragassay.runner.processes import unguarded_main\nprint(unguarded_main())\n"
    bare = _run(tmp_path, ask)
    assert bare.stdout.strip().endswith("score.py"), bare.stderr
    guarded = _run(tmp_path, "if __name__ == '__main__':\n" + "".join(
        "    " + line + "\n" for line in ask.splitlines()))
    assert guarded.stdout.strip() == "None", guarded.stderr
