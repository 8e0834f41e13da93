"""How well do the judges agree with people? `ragassay meta-eval` on every labelled dev set.

For each converted dev set (data/devsets/*.jsonl, from scripts/devsets/convert.py) a
seeded, label-balanced sample of `--n` rows of the `eval` split (benches/_devsets.py)
is run through `ragassay meta-eval` for each judge and suite: the offline judge, and
the packaged Qwen2.5-Coder 0.5B / 1.5B judges in-process (llama.cpp), each read two
ways: the probability-weighted (expected) rating and the stated (greedy) one. The
greedy run reads the expected run's cached replies (same calls, no model time), so
both come from identical generations. Per (set, judge, suite, mode) the meta-eval
JSON is kept under `--out-dir`; an existing one is not rerun, and a run interrupted
midway resumes from the judge-call cache in the same store: the whole benchmark is
resumable. Figures: AUROC (0/1 labels) or Spearman (graded labels) with bootstrap
95% CIs, the lexical baseline beside each, seconds per sample (of the expected run).

    .venv/bin/python benches/judge_accuracy.py                 # everything (hours on CPU)
    .venv/bin/python benches/judge_accuracy.py --judges offline,qwen2.5-coder-0.5b --n 20
    .venv/bin/python benches/judge_accuracy.py --table-only    # the table from what is done

`make bench-judges` installs the packaged models and runs the default plan in the
background-friendly way (nice; RAGASSAY_LLAMA_THREADS=1 unless set).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import REPO, machine, md_table  # noqa: E402
from _devsets import (  # noqa: E402
    available_sets,
    balanced_sample,
    lexical_score,
    load_rows,
    write_jsonl,
)

from ragassay.dataset import load_samples  # noqa: E402
from ragassay.stats.agreement import auroc, auroc_ci, correlation, spearman_ci  # noqa: E402

OUT = REPO / "data" / "bench" / "judge_accuracy"
JUDGES = ("offline", "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b")
# the metric each suite is read on, by task label (meta-eval computes every linked pair)
PRIMARY = {
    "faithful": {"judge": "judge.faithfulness", "trace": "trace.adherence_ratio",
                 "ragas": "ragas.faithfulness"},
    "correct": {"judge": "judge.answer_similarity"},
    "answer_similarity": {"judge": "judge.answer_similarity"},
    "relevance": {"judge": "judge.context_relevance", "trace": "trace.context_relevance"},
}
ANCHORS = {
    "summedits": "GPT-4 82.1 balanced accuracy (all 10 domains; Laban et al. 2023)",
    "wice": "LLM-AggreFact (WiCE part in the benchmark): MiniCheck-Flan-T5-L 75.0, "
            "Bespoke-MiniCheck-7B 77.4 balanced accuracy (benchmark averages)",
    "factcheck_gpt_stance": "LLM-AggreFact averages: MiniCheck-Flan-T5-L 75.0, "
                            "Bespoke-MiniCheck-7B 77.4 balanced accuracy",
}


def judge_spec(name: str) -> str:
    return "offline" if name == "offline" else f"llamacpp:{name}"


def modes(judge: str) -> tuple[str, ...]:
    return ("expected",) if judge == "offline" else ("expected", "greedy")


def result_path(out_dir: Path, name: str, judge: str, suite: str, mode: str,
                tag: str) -> Path:
    return out_dir / "runs" / f"{name}__{judge}__{suite}__{mode}__{tag}.json"


def run_one(samples: Path, out: Path, judge: str, suite: str, mode: str, args: Any) -> None:
    cmd = [sys.executable, "-m", "ragassay", "meta-eval", str(samples), "--judge",
           judge_spec(judge), "--metrics", suite, "--ratings", mode, "--db", str(args.db),
           "--out", str(out), "--n-resamples", str(args.n_resamples), "--quiet",
           "--concurrency", "4", "--timeout", "3600",
           "--max-context-tokens", str(args.max_context_tokens)]
    started = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        print(f"  FAILED ({proc.returncode}): {proc.stderr.strip()[-500:]}", file=sys.stderr)
        return
    print(f"  done in {time.monotonic() - started:.0f}s", file=sys.stderr, flush=True)


def lexical(samples: list[Any], label: str) -> dict[str, Any]:
    """The lexical baseline for a set: answer words in the evidence (stats.baseline), or,
    for a set without answers (TREC), question words in the passage."""
    scores, truth = [], []
    for s in samples:
        value = s.labels.get(label)
        v = lexical_score(s)
        if value is None or v is None:
            continue
        scores.append(v)
        truth.append(float(value))
    if label in ("relevance", "answer_similarity"):
        rho = correlation(scores, truth, "spearman")[0]
        return {"figure": rho, "ci": spearman_ci(scores, truth, n_resamples=1000)}
    flags = [bool(t) for t in truth]
    return {"figure": auroc(scores, flags), "ci": auroc_ci(scores, flags, n_resamples=1000)}


def figure(pair: dict[str, Any]) -> tuple[float | None, Any]:
    if pair.get("kind") == "boolean":
        return pair.get("auroc"), pair.get("auroc_ci")
    return pair.get("spearman"), pair.get("spearman_ci")


def fmt(x: float | None, ci: Any = None) -> str:
    if x is None:
        return "-"
    return f"{x:.3f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "")


def table(out_dir: Path, plan: list[tuple[str, str, str, str]], tag: str,
          sample_files: dict[str, Path]) -> str:
    rows = []
    for name, judge, suite, mode in plan:
        path = result_path(out_dir, name, judge, suite, mode, tag)
        if not path.exists():
            continue
        data = json.loads(path.read_text())
        samples = load_samples(sample_files[name])
        label = next(k for k in PRIMARY if k in samples[0].labels)
        metric = PRIMARY[label].get(suite)
        pair = next((p for p in data["calibration"]["pairs"]
                     if p["metric"] == metric and p["label"] == label), None)
        if pair is None:
            continue
        value, ci = figure(pair)
        base = lexical(samples, label)
        timing = json.loads(result_path(out_dir, name, judge, suite, "expected", tag)
                            .read_text()) if mode == "greedy" else data
        per = timing["seconds"] / max(1, timing["samples"])
        rows.append([name, f"{'AUROC' if pair['kind'] == 'boolean' else 'Spearman'} "
                     f"({label})", metric, judge, "-" if judge == "offline" else mode,
                     pair["n"], fmt(value, ci),
                     fmt(pair.get("balanced_accuracy")), fmt(base["figure"], base["ci"]),
                     "yes" if value is not None and base["figure"] is not None
                     and value > base["figure"] else "no", f"{per:.1f}"])
    return md_table(["set", "figure", "metric", "judge", "ratings", "n", "judge [95% CI]",
                     "bal. acc.", "lexical [95% CI]", "above lexical", "s/sample"], rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--split", default="eval")
    ap.add_argument("--sets", default="all")
    ap.add_argument("--judges", default=",".join(JUDGES))
    ap.add_argument("--suites", default="judge,trace,ragas", help="suites for the offline judge")
    ap.add_argument("--llm-suites", default="judge",
                    help="suites for the LLM judges (trace and ragas cost 2-4x the judge suite)")
    ap.add_argument("--max-context-tokens", type=int, default=2000)
    ap.add_argument("--n-resamples", type=int, default=1000)
    ap.add_argument("--out-dir", type=Path, default=OUT)
    ap.add_argument("--table-only", action="store_true")
    args = ap.parse_args()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    args.db = args.out_dir / "store.db"
    os.environ.setdefault("RAGASSAY_LLAMA_THREADS", "1")
    sets = available_sets() if args.sets == "all" else args.sets.split(",")
    tag = hashlib.sha256(json.dumps([args.n, args.seed, args.split, args.max_context_tokens]
                                    ).encode()).hexdigest()[:8]
    sample_files: dict[str, Path] = {}
    for name in sets:
        path = args.out_dir / "samples" / f"{name}__{tag}.jsonl"
        if not path.exists():
            write_jsonl(balanced_sample(load_rows(name, args.split), args.n, args.seed), path)
        sample_files[name] = path
    judges = args.judges.split(",")

    def suites(judge: str) -> list[str]:
        return (args.suites if judge == "offline" else args.llm_suites).split(",")

    # cheap first: every set with the offline judge, then the small model, then the big one
    plan = [(name, judge, suite, mode) for judge in judges for suite in suites(judge)
            for name in sets for mode in modes(judge)]
    if not args.table_only:
        for name, judge, suite, mode in plan:
            out = result_path(args.out_dir, name, judge, suite, mode, tag)
            if out.exists():
                continue
            print(f"{name} / {judge} / {suite} / {mode}", file=sys.stderr, flush=True)
            run_one(sample_files[name], out, judge, suite, mode, args)
    lines = [f"n={args.n} per set (label-balanced, seed {args.seed}, split {args.split}), "
             f"max_context_tokens {args.max_context_tokens}; {machine()}", "",
             table(args.out_dir, plan, tag, sample_files)]
    lines += [f"\n{name}: published anchor {ANCHORS[name]}" for name in sets if name in ANCHORS]
    text = "\n".join(lines)
    print(text)
    (args.out_dir / "table.md").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
