"""Peak memory of building a run's report from the store, at growing run sizes.

A store is filled with N samples (realistic texts: 5 contexts of ~150 words, a
~100-word answer) and, for each, the results of a real offline `judge`, `trace`
and `ragas` evaluation of the first 50 samples, re-used round-robin under each
sample's id (details and reasoning included). A child process then builds the
summary report (what `ragassay eval` prints) or writes the report file with
per-sample details (what `--out` writes). Its peak RSS is its own high-water mark
(VmHWM in /proc/self/status, read at its end: rusage's ru_maxrss would also count
the parent's pages shared before exec, and the parent here holds the N samples).
Flat means the peak does not grow with N.

    .venv/bin/python benches/report_memory.py [--sizes 10000,30000,100000] [--src DIR]

`--src` points the child at another checkout's `src` (e.g. the revision before a
change, from `git worktree add`), for a side-by-side comparison in one run.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import PY, REPO, machine, md_table  # noqa: E402

sys.path.insert(0, str(REPO / "src"))

_VOCAB = (
    "policy rate limit plan request retry header window token key account region backup "
    "restore latency quota invoice refund tier support channel audit the a of for is in "
    "and to with on by customer service contract payment delivery"
)
WORDS = tuple(_VOCAB.split())


def _text(rng: random.Random, n: int) -> str:
    out, sent = [], []
    for _ in range(n):
        sent.append(rng.choice(WORDS))
        if len(sent) >= rng.randint(12, 20):
            out.append(" ".join(sent).capitalize() + ".")
            sent = []
    if sent:
        out.append(" ".join(sent).capitalize() + ".")
    return " ".join(out)


def fill(db: Path, n: int) -> str:
    """A complete run of n samples in a fresh store; returns its id."""
    from ragassay import __version__
    from ragassay.runner import evaluate
    from ragassay.store import Store
    from ragassay.types import RunConfig, Sample

    rng = random.Random(0)
    samples = [
        Sample(id=f"s{i:07d}", question=f"What is the {rng.choice(WORDS)} for case {i}?",
               contexts=[_text(rng, 150) for _ in range(5)], answer=_text(rng, 100),
               reference=_text(rng, 40))
        for i in range(n)
    ]
    seed_store = Store(db.with_suffix(".seed.db"))
    config = RunConfig(dataset="synthetic", judge="offline", metrics=("judge", "trace", "ragas"))
    stats = evaluate(samples[:50], config, store=seed_store)
    template = list(seed_store.iter_results(stats.run_id))
    store = Store(db)
    run_id = store.create_run(config, package_version=__version__, dataset_hash=None,
                              judge_model="offline")
    batch = 2000
    for start in range(0, n, batch):
        chunk = samples[start:start + batch]
        store.add_samples(run_id, chunk)
        for i, s in enumerate(chunk):
            for r in template[(start + i) % 50 * 3:(start + i) % 50 * 3 + 3]:
                store.save_result(run_id, r.model_copy(update={"sample_id": s.id}))
    store.finish_run(run_id, "complete")
    store.close()
    seed_store.close()
    return run_id


CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
from ragassay.report import build_report
from ragassay.store import Store
store, run_id, details = Store(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
if not details:  # the summary `ragassay eval` prints
    rep = build_report(store, run_id, include_details=False)
    # a dict before the report was typed (#28), a Report since
    meta = rep["evaluation_metadata"] if isinstance(rep, dict) else rep.run.model_dump()
    assert meta["total_samples"] > 0
else:  # the report file of `ragassay eval --out` / `ragassay report --out`
    with open(sys.argv[5], "w", encoding="utf-8") as fh:
        try:
            from ragassay.report import dump_json, iter_details
        except ImportError:  # before the details were streamed
            fh.write(json.dumps(build_report(store, run_id), indent=2, ensure_ascii=False))
        else:
            rep = build_report(store, run_id, include_details=False)
            dump_json(rep, fh, iter_details(store, run_id))
hwm = [x for x in open("/proc/self/status") if x.startswith("VmHWM:")][0]
print("VMHWM_KB", hwm.split()[1])
"""


def measure(src: Path, db: Path, run_id: str, details: bool) -> tuple[float, float]:
    """(seconds, peak RSS MiB) of building the report in a child process."""
    t0 = time.perf_counter()
    out = db.with_suffix(".json")
    proc = subprocess.run(
        [PY, "-c", CHILD, str(src), str(db), run_id, "1" if details else "0", str(out)],
        capture_output=True, text=True, check=False,
    )
    out.unlink(missing_ok=True)
    if proc.returncode != 0:
        raise SystemExit(f"report child failed: {proc.stderr[-2000:]}")
    kb = next(int(x.split()[1]) for x in proc.stdout.splitlines() if x.startswith("VMHWM_KB"))
    return time.perf_counter() - t0, kb / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,30000,100000")
    ap.add_argument("--src", action="append", default=[],
                    help="a src/ folder to measure (repeatable; default: this checkout's)")
    args = ap.parse_args()
    srcs = [Path(s).resolve() for s in args.src] or [REPO / "src"]
    print(machine())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in args.sizes.split(",")):
            db = Path(tmp) / f"run{n}.db"
            t0 = time.perf_counter()
            run_id = fill(db, n)
            mb = db.stat().st_size / 2**20
            print(f"filled {n:,} samples in {time.perf_counter() - t0:.0f} s ({mb:.0f} MiB db)",
                  flush=True)
            for details in (False, True):
                for src in srcs:
                    secs, peak = measure(src, db, run_id, details)
                    label = src.parent.name if len(srcs) > 1 else "this checkout"
                    rows.append([label, f"{n:,}", "yes" if details else "no", f"{secs:.0f}",
                                 f"{peak:.0f}"])
                    print(" | ".join(rows[-1]), flush=True)
    print()
    print(md_table(["code", "samples", "details", "seconds", "peak RSS MiB"], rows))


if __name__ == "__main__":
    main()
