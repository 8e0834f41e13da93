"""A large `ragassay eval --batch` run through the real CLI, against the loopback fake of
OpenAI's batch endpoints (tests/support/batch_server.py), which answers at once: how the
run's calls are split into batches at the provider's limits (50,000 requests, 200 MB)
and what the client's two passes over the samples cost.

    .venv/bin/python benches/batch_scale.py                  # 120,000 calls (judge suite)
    .venv/bin/python benches/batch_scale.py --n 6000 --max-requests 2500

It prints the batches (requests and input bytes each), the wall time, the process CPU
time and CPU ms per call (the fake's work included: it runs in this process).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=120_000, help="samples (one call each)")
    parser.add_argument("--max-requests", type=int, default=None,
                        help="--batch-max-requests (default: the provider's 50,000)")
    args = parser.parse_args()

    from click.testing import CliRunner

    from ragassay.cli import cli
    from tests.support.batch_server import BatchServer
    from tests.support.judge_replies import content_replies, shaped_rows

    with tempfile.TemporaryDirectory(prefix="batch-scale-") as tmp:
        data, db = shaped_rows(Path(tmp) / "d.jsonl", args.n), Path(tmp) / "b.db"
        extra = ["--batch-max-requests", str(args.max_requests)] if args.max_requests else []
        with BatchServer(content_replies) as server:
            wall, cpu = time.perf_counter(), time.process_time()
            done = CliRunner().invoke(cli, [
                "eval", str(data), "--judge", "openai:gpt-4o-mini", "--base-url",
                server.base_url, "--metrics", "judge", "--ratings", "greedy", "--db", str(db),
                "-q", "--batch", "--batch-poll", "0.05", "--out", str(Path(tmp) / "r.json"),
                *extra], env={"OPENAI_API_KEY": "sk-bench"})
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            sizes = [(len(b.lines), len(server.files[b.input_file_id]))
                     for b in server.created()]
        if done.exit_code != 0:
            raise SystemExit(f"the run failed: {done.output[-2000:]}")
        report = json.loads((Path(tmp) / "r.json").read_text())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    calls = sum(n for n, _ in sizes)
    print(f"{args.n:,} samples, {calls:,} batch requests in {len(sizes)} batches:")
    for i, (n, size) in enumerate(sizes, 1):
        print(f"  batch {i}: {n:,} requests, {size / 1e6:.1f} MB input")
    scored = report["aggregate_metrics"]["metrics"]["judge.faithfulness"]["count"]
    print(f"scored samples {scored:,}; usage.batch {report['usage']['batch']['statuses']}")
    print(f"wall {wall:.0f} s, CPU {cpu:.0f} s ({1000 * cpu / max(calls, 1):.1f} ms per call, "
          f"fake server included); peak RSS {peak:.0f} MiB")


if __name__ == "__main__":
    main()
