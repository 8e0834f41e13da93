"""A script whose main module worker processes cannot re-run from a file: piped in on
stdin (`python - <<EOF`), or `python <(...)` (a pipe, already read). Workers re-run the
main script from its `__file__`; '<stdin>' is no file, so with several workers each died
starting (FileNotFoundError, a BrokenProcessPool traceback, rc 1, and a failed run of
128 of 144 samples; found 2026-12-05 in a new-user trial). It now judges every row in
one process and says, in a warning at the call's line, why and how to use every core,
guard or no guard. `python -c` and the interactive loop have no `__file__` and keep
their workers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.api.test_unguarded_script import ROWS, SRC

RUN = ("res = ragassay.evaluate(json.load(open('rows.json')), 'judge', store='s.db', "
       "workers=2)\n"
       "df, run = res.to_pandas(), res.store.get_run(res.run_id)\n"
       "print(len(df), (df['status'] == 'ok').sum(), run.status, run.meta.workers)\n")
GUARDED = "if __name__ == '__main__':\n" + "".join(
    "    " + line + "\n" for line in RUN.splitlines())
IN_A_LOOP = ("import asyncio\nasync def main():\n" + "".join(
    "    " + line + "\n" for line in RUN.splitlines()) + "asyncio.run(main())\n")
WHY = ("RuntimeWarning: judging in one process: worker processes re-run the main script "
       "from its file, and {}; save it to a file, with this call under "
       "'if __name__ == \"__main__\":', to judge on 2 cores")
ONE_PROCESS = ["70", "70", "complete", "None"]  # every row judged, no workers


def _python(tmp_path: Path, args: list[str], script: str, *,
            pass_fds: tuple[int, ...] = ()) -> subprocess.CompletedProcess[str]:
    (tmp_path / "rows.json").write_text(json.dumps(ROWS))
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, *args], cwd=tmp_path, env=env, text=True,
                          input=script, capture_output=True, timeout=600,
                          pass_fds=pass_fds)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "BrokenProcessPool" not in done.stderr
    return done


@pytest.mark.parametrize(("body", "line"), [(RUN, 3), (GUARDED, 4), (IN_A_LOOP, 5)],
                         ids=["top level", "guarded", "in a running loop"])
def test_a_script_on_stdin_judges_every_row_in_one_process(tmp_path: Path, body: str,
                                                           line: int) -> None:
    done = _python(tmp_path, ["-"], "import json\nimport ragassay\n" + body)
    assert done.stdout.split() == ONE_PROCESS
    warning = f"<stdin>:{line}: " + WHY.format("this one was read from stdin")
    assert warning in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1  # the warning, one line


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="no /dev/fd")
def test_a_script_read_from_a_pipe_says_so_not_that_it_lacks_a_guard(tmp_path: Path
                                                                     ) -> None:
    read, write = os.pipe()
    with os.fdopen(write, "w") as pipe:
        pipe.write("import json\nimport ragassay\n" + GUARDED)
    try:
        done = _python(tmp_path, [f"/dev/fd/{read}"], "", pass_fds=(read,))
    finally:
        os.close(read)
    assert done.stdout.split() == ONE_PROCESS
    warning = f"/dev/fd/{read}:4: " + WHY.format(f"/dev/fd/{read} is not a file they can read")
    assert warning in done.stderr


@pytest.mark.parametrize("args", [["-c", "import json\nimport ragassay\n" + RUN], ["-i"]],
                         ids=["python -c", "python -i"])
def test_a_main_with_no_file_keeps_its_workers(tmp_path: Path, args: list[str]) -> None:
    done = _python(tmp_path, args, "import json\nimport ragassay\n" + RUN)
    assert done.stdout.split()[-4:] == ["70", "70", "complete", "2"]
    assert "judging in one process" not in done.stderr
