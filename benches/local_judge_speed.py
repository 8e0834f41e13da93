"""How long the local judge (llama.cpp in process, a packaged GGUF model) takes per sample:
`ragassay eval` on the first N samples of the bundled demo with `--judge llamacpp:MODEL`,
timed end to end as a user runs it (the process start and the model's load included),
with each judge call's own time, tokens and KV-cache reuse from the run's ledger.
Prints the machine, the threads llama.cpp used and the load average before and after
(benches/RESULTS.md, "Local judge: install and speed").

    ragassay models install qwen2.5-coder-1.5b          # once (see its --help for costs)
    nice -n 10 .venv/bin/python benches/local_judge_speed.py --n 4
    RAGASSAY_LLAMA_THREADS=1 .venv/bin/python benches/local_judge_speed.py --n 4
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from ragassay.dataset import demo_dataset_path
from ragassay.llm.llamacpp_backend import threads
from ragassay.llm.packaged import resolve_model
from ragassay.store import Store


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--n", type=int, default=4, help="demo samples to judge")
    parser.add_argument("--metrics", default="all", help="suites (default: all, as eval)")
    parser.add_argument("--timeout", type=float, default=900,
                        help="seconds per judge call (eval's --timeout; a loaded 2-core "
                             "machine needs minutes for a long prompt)")
    args = parser.parse_args()
    path = resolve_model(args.model)  # refuses, naming the install command, when absent
    rows = demo_dataset_path().read_text(encoding="utf-8").splitlines()[:args.n]
    with tempfile.TemporaryDirectory() as tmp:
        data, db = Path(tmp) / "demo.jsonl", Path(tmp) / "r.db"
        data.write_text("\n".join(rows) + "\n", encoding="utf-8")
        command = [sys.executable, "-m", "ragassay", "eval", str(data), "--judge",
                   f"llamacpp:{args.model}", "--metrics", args.metrics, "--db", str(db),
                   "--timeout", f"{args.timeout:g}", "--quiet"]
        print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {os.cpu_count()} CPUs ({_cpu()}); "
              f"llama.cpp threads {threads()}; model {path.name} "
              f"({path.stat().st_size / 1e9:.2f} GB)")
        print(f"load average before: {_load()}")
        started = time.perf_counter()
        cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - started
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (usage.ru_utime - cpu_before.ru_utime) + (usage.ru_stime - cpu_before.ru_stime)
        print(f"load average after:  {_load()}")
        if done.returncode != 0:
            raise SystemExit(f"eval failed ({done.returncode}): {done.stderr.strip()[-500:]}")
        with Store(db, readonly=True) as store:
            run = store.latest_run()
            assert run is not None
            calls = [c for c in store.iter_calls(run.id) if not c.cached]
    latencies = [c.latency_s for c in calls]
    print(f"command: ragassay {' '.join(command[3:])}")
    print(f"{args.n} samples, {len(calls)} judge calls, metrics {args.metrics}: "
          f"{wall:.1f} s wall in all (process start and model load included), "
          f"{wall / args.n:.1f} s per sample; CPU time {cpu:.0f} s "
          f"({cpu / args.n:.1f} s per sample: what the run took of the cores, whatever else "
          "ran beside it)")
    if latencies:
        print(f"per call: median {statistics.median(latencies):.1f} s, max "
              f"{max(latencies):.1f} s; input tokens per call (median) "
              f"{statistics.median(c.input_tokens for c in calls):.0f}, of them reused from "
              f"the KV cache {statistics.median(c.cached_tokens for c in calls):.0f}; "
              f"output {statistics.median(c.output_tokens for c in calls):.0f}")
    print(json.dumps({"samples": args.n, "calls": len(calls), "wall_s": round(wall, 1),
                      "per_sample_s": round(wall / args.n, 1), "cpu_s": round(cpu, 1),
                      "threads": threads(),
                      "metrics": args.metrics}))


if __name__ == "__main__":
    main()
