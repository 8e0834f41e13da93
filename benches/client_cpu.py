"""Client CPU per judge call: the local engine against the scripted server.

The judge suite (one call per sample) at --concurrency in flight against
`benches/scripted_judge_server.py` (--latency per call); prints this process's CPU
seconds per call (process_time: the runner, the judge layer, the OpenAI SDK and the
HTTP client; not the server, which is a child process). CPU time, not wall time, so it
is a fair comparison on a shared machine; compare two checkouts side by side:

    .venv/bin/python benches/client_cpu.py --n 800 --repeats 3
    PYTHONPATH=<other checkout>/src .venv/bin/python benches/client_cpu.py --n 800
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine, median, scripted_server, synthetic_rows  # noqa: E402


def one(url: str, data: Path, db: Path, concurrency: int) -> tuple[int, float]:
    from ragassay.dataset import iter_samples
    from ragassay.runner import evaluate
    from ragassay.store import Store
    from ragassay.types import BackendOptions, RunConfig

    config = RunConfig(dataset=str(data), judge="openai:scripted", base_url=url,
                       metrics=("judge",), concurrency=concurrency,
                       backend=BackendOptions(timeout_s=60.0, max_retries=2))
    cpu = time.process_time()
    stats = evaluate(iter_samples(str(data)), config, store=Store(str(db)))
    return stats.usage.calls, time.process_time() - cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=800, help="samples (= judge calls) per repeat")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--latency", type=float, default=0.05)
    args = ap.parse_args()
    import ragassay

    tmp = Path(tempfile.mkdtemp(prefix="client-cpu-"))
    data = tmp / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in
                            synthetic_rows(args.n, n_contexts=5, words=100)), encoding="utf-8")
    per_call = []
    with scripted_server(args.latency) as url:
        for rep in range(args.repeats):
            calls, cpu = one(url, data, tmp / f"run{rep}.db", args.concurrency)
            if calls != args.n:
                raise SystemExit(f"expected {args.n} calls, made {calls}")
            per_call.append(1000 * cpu / calls)
            print(f"repeat {rep + 1}: {per_call[-1]:.2f} ms CPU per call", file=sys.stderr)
    print(machine())
    print(f"ragassay from {Path(ragassay.__file__).parent}")
    print(f"client CPU per judge call: median {median(per_call):.2f} ms "
          f"(raw {', '.join(f'{v:.2f}' for v in per_call)}; n={args.n}, "
          f"concurrency {args.concurrency}, latency {args.latency:g}s)")


if __name__ == "__main__":
    main()
