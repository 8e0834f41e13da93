"""Peak memory streaming N samples through ragassay: offline judge and scripted LLM judge.

Two modes, each in a child process that reports its own peak RSS (VmHWM, see
_common.HWM_PRELUDE), on a generated JSONL of short, distinct samples (3 contexts of ~12
words); the elapsed time gives samples/s. Flat means the peak does not grow with N.
  * runner - `ragassay.runner.evaluate(iter_samples(FILE), ...)`: the streaming part;
  * cli    - `ragassay eval FILE --metrics judge -q`: the same plus the CLI's row check
             and the report that it builds at the end.

    .venv/bin/python benches/memory_flat.py                          # 10k, 30k, 100k
    .venv/bin/python benches/memory_flat.py --sizes 1000,3000 --quick
    .venv/bin/python benches/memory_flat.py --judges scripted
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
    HWM_PRELUDE,
    PY,
    REPO,
    hwm_mib,
    machine,
    md_table,
    scripted_server,
    synthetic_rows,
)


def write_rows(path: Path, n: int) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for row in synthetic_rows(n, words=12):
            fh.write(json.dumps(row) + "\n")


RUNNER = """
import sys
from ragassay.dataset import iter_samples
from ragassay.runner import evaluate
from ragassay.store import Store
from ragassay.types import RunConfig
data, db, judge, base, conc = sys.argv[1:6]
config = RunConfig(dataset=data, judge=judge, base_url=base or None, metrics=("judge",),
                   concurrency=int(conc))
stats = evaluate(iter_samples(data), config, store=Store(db))
assert stats.samples > 0
"""


def run_eval(data: Path, db: Path, judge: str, base_url: str | None,
             concurrency: int, mode: str) -> tuple[float, float, int]:
    """(seconds, peak RSS MiB, exit code) of one child process."""
    if mode == "runner":
        cmd = [PY, "-c", HWM_PRELUDE + RUNNER, str(data), str(db), judge, base_url or "",
               str(concurrency)]
    else:
        cmd = [PY, "-c", HWM_PRELUDE + "from ragassay.cli import main; main()", "eval", str(data),
               "--judge", judge, "--metrics", "judge", "--db", str(db), "-q",
               "--concurrency", str(concurrency)]
        if base_url:
            cmd += ["--base-url", base_url]
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
               TOKENIZERS_PARALLELISM="false")
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, errors="replace", check=False)
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        print(proc.stderr[-2000:], file=sys.stderr)
    return seconds, hwm_mib(proc.stderr), proc.returncode


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10000,30000,100000")
    ap.add_argument("--judges", default="offline,scripted",
                    help="offline and/or scripted (the instant scripted LLM server)")
    ap.add_argument("--modes", default="runner,cli")
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--quick", action="store_true", help="sizes 1000 and 3000")
    args = ap.parse_args(argv)
    sizes = [1000, 3000] if args.quick else [int(s) for s in args.sizes.split(",")]
    judges = args.judges.split(",")
    rows = []
    with tempfile.TemporaryDirectory() as tmpdir, scripted_server() as url:
        tmp = Path(tmpdir)
        for n in sizes:
            data = tmp / f"d{n}.jsonl"
            write_rows(data, n)
            for judge in judges:
                spec, base = ("offline", None) if judge == "offline" else \
                    ("openai:scripted", url)
                for mode in args.modes.split(","):
                    db = tmp / f"{judge}-{mode}-{n}.db"
                    seconds, peak, rc = run_eval(data, db, spec, base, args.concurrency, mode)
                    size_mb = data.stat().st_size / 2**20
                    rows.append([judge, mode, f"{n:,}", f"{size_mb:.0f}", f"{seconds:.0f}",
                                 f"{n / seconds:.0f}", f"{peak:.0f}", rc])
                    print(f"{judge} {mode} n={n}: {seconds:.0f}s, peak RSS {peak:.0f} MiB, "
                          f"exit {rc}", file=sys.stderr)
                    db.unlink(missing_ok=True)
            data.unlink()
    table = md_table(["judge", "mode", "samples", "input MiB", "seconds", "samples/s",
                      "peak RSS MiB", "exit"], rows)
    print(f"Machine: {machine()}\n\njudge suite, concurrency {args.concurrency}, one child "
          f"process per row\n\n{table}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
