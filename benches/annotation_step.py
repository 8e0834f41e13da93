"""How long a person waits for each step of an annotation session, at growing run sizes.

A synthetic judged run of N samples (tests/support/annotated_run.py: a judge verdict
and two 1-10 scores per sample) is annotated with a uniform plan: starting the session
(reading the run, drawing the queue), one step (the next sample and recording its
label, the mean over 40 steps), and the progress that the dashboard shows after each
label (labels so far, the corrected intervals). `fresh run_table` is what that progress
would cost if it read the run again instead of laying the stored labels over the
queue's table.

    .venv/bin/python benches/annotation_step.py [--sizes 1000,10000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import REPO, machine, md_table  # noqa: E402

sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO))

from ragassay.annotation import SessionOptions, progress, start  # noqa: E402
from ragassay.report import run_table  # noqa: E402
from ragassay.store import Store  # noqa: E402
from tests.support.annotated_run import make_run  # noqa: E402

STEPS = 40


def measure(n: int, folder: Path) -> list[object]:
    with Store(folder / f"run{n}.db") as store:
        run = make_run(store, n)
        t0 = time.perf_counter()
        session = start(store, run.run_id, SessionOptions(labels=("hallucinated",)))
        t1 = time.perf_counter()
        for _ in range(STEPS):
            item = session.current()
            assert item is not None
            session.record(item, bool(run.bad[run.index(item.entry.content_key)]))
        t2 = time.perf_counter()
        done = progress(store, session.queue)
        t3 = time.perf_counter()
        run_table(store, run.run_id)
        t4 = time.perf_counter()
    assert done.labelled["hallucinated"] == STEPS
    return [f"{n:,}", t1 - t0, 1000 * (t2 - t1) / STEPS, t3 - t2, t4 - t3]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        rows = [measure(n, Path(tmp)) for n in sizes]
    print(machine())
    print(md_table(["samples", "start (s)", "next + record (ms)", "progress (s)",
                    "fresh run_table (s)"], rows))


if __name__ == "__main__":
    main()
