"""A script that calls `ragassay.evaluate` at its top level outside an
`if __name__ == "__main__":` block: worker processes re-run the main script when they
start, so with several workers it died with a BrokenProcessPool traceback (found
2026-12-04 running a 430-row dev set from such a script). It now judges in one process
and says, in a warning at the script's line, how to use every core; a call under the
guard (however the guard is written) keeps its workers. Under the default worker count
a small input is judged in one process quietly: the README's example, run as a plain
script on 144 rows, warned (found 2026-12-04 in new-user trial 54), although one process
is the right choice there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from ragassay.runner import engine

SRC = Path(__file__).resolve().parents[2] / "src"
ROWS = [{"id": f"r{i}", "question": "How long do refunds take?",
         "contexts": ["Refunds take 30 days."], "answer": f"Refunds take {20 + i % 20} days."}
        for i in range(70)]  # three batches: enough for two workers
CALL = ("res = ragassay.evaluate(json.load(open('rows.json')), 'judge', store='s.db', "
        "workers=2)\nprint(len(res.to_pandas()), res.store.get_run(res.run_id).meta.workers)\n")
WARNING = "judging in one process: this call is outside an 'if __name__ == \"__main__\":' block"


def _run(tmp_path: Path, script: str, *, module: bool = False
         ) -> subprocess.CompletedProcess[str]:
    (tmp_path / "rows.json").write_text(json.dumps(ROWS))
    (tmp_path / "score.py").write_text("import json\nimport ragassay\n" + script)
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{tmp_path}"}
    how = ["-m", "score"] if module else [str(tmp_path / "score.py")]
    done = subprocess.run([sys.executable, *how], cwd=tmp_path, env=env, text=True,
                          capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "BrokenProcessPool" not in done.stderr
    return done


@pytest.mark.parametrize("module", [False, True], ids=["script", "python -m"])
def test_a_top_level_call_judges_in_one_process_and_says_where(tmp_path: Path,
                                                               module: bool) -> None:
    done = _run(tmp_path, CALL, module=module)
    assert done.stdout.split() == ["70", "None"]
    assert f"score.py:3: RuntimeWarning: {WARNING}" in done.stderr


def test_a_guard_for_something_else_does_not_cover_the_call(tmp_path: Path) -> None:
    done = _run(tmp_path, CALL + "if __name__ == '__main__':\n    print('done')\n")
    assert done.stdout.split() == ["70", "None", "done"]
    assert WARNING in done.stderr


def test_a_call_under_the_guard_keeps_its_workers(tmp_path: Path) -> None:
    body = "".join("        " + line + "\n" for line in CALL.splitlines())
    done = _run(tmp_path, "try:\n    if '__main__' == __name__:\n" + body +
                "except KeyboardInterrupt:\n    pass\n")
    assert done.stdout.split() == ["70", "2"]
    assert WARNING not in done.stderr


@pytest.mark.parametrize("guarded", [False, True], ids=["unguarded", "guarded"])
def test_a_call_inside_a_running_loop_is_seen_from_the_script_line_that_waits(
        tmp_path: Path, guarded: bool) -> None:
    """`evaluate` inside `asyncio.run(main())` judges in a helper thread, whose stack has
    no line of the script: an unguarded `asyncio.run` died like a top-level call."""
    body = "".join("    " + line + "\n" for line in CALL.splitlines())
    start = "if __name__ == '__main__':\n    asyncio.run(main())\n" if guarded else \
        "asyncio.run(main())\n"
    done = _run(tmp_path, "import asyncio\nasync def main():\n" + body + start)
    assert done.stdout.split() == ["70", "2" if guarded else "None"]
    assert (f"score.py:7: RuntimeWarning: {WARNING}" in done.stderr) is not guarded


def test_the_readme_example_as_a_plain_script_judges_a_small_input_quietly(
        tmp_path: Path) -> None:
    """Default workers, no guard, 70 rows: one process, no warning (it warned before on
    any machine with two usable CPUs)."""
    done = _run(tmp_path, "res = ragassay.evaluate(json.load(open('rows.json')), "
                "metrics=['judge'], judge='offline', store='s.db')\n"
                "print(len(res.to_pandas()), res.store.get_run(res.run_id).meta.workers)\n")
    assert done.stdout.split() == ["70", "None"]
    assert "RuntimeWarning" not in done.stderr


@pytest.mark.parametrize(("asked", "total", "warns"), [
    (False, engine.QUIET_UP_TO, False),  # the default count, a small input: quiet
    (False, engine.QUIET_UP_TO + 1, True),  # a large one costs time: said
    (False, None, True),  # of unknown size: said
    (True, 70, True),  # workers asked for by name: said, whatever the size
])
def test_one_process_is_said_where_it_costs_time(monkeypatch: pytest.MonkeyPatch,
                                                 asked: bool, total: int | None,
                                                 warns: bool) -> None:
    monkeypatch.setattr(engine, "one_process_why",
                        lambda workers: ("score.py", 3, f"no {workers} workers here"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert engine.startable_workers(2, asked=asked, total=total) == 1
    assert [str(w.message) for w in caught] == (["no 2 workers here"] if warns else [])
    monkeypatch.setattr(engine, "one_process_why", lambda workers: None)
    assert engine.startable_workers(2, asked=asked, total=total) == 2
