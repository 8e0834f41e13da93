"""Prompt shapes for the `judge` suite, measured on small seeded dev-set samples.

Each variant is a prompt TOML (benches/prompts/*.toml, or "current" = the shipped
src/ragassay/metrics/judge/scores.toml) with the output fields it asks for, in order.
Every variant sees the same label-balanced samples (`--n` rows per set from the `fit`
split, seeded), is run through the LLM judge layer (cache in `--db`: a rerun costs
nothing, an interrupted one resumes), and is scored per set on the rating that the
set's label is about: faithful -> faithfulness, correct / answer_similarity ->
answer_similarity, relevance -> context_relevance. Figures: AUROC (0/1 labels) or
Spearman (graded labels) of the expected (probability-weighted) and of the stated
(greedy) rating, the lexical baseline, seconds per sample; and, leave one dataset
out, which variant the other sets would pick (best mean of the expected figure).

    .venv/bin/python benches/judge_prompts.py --judge llamacpp:qwen2.5-coder-0.5b \\
        --variants current,rubric --n 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import REPO, machine, md_table  # noqa: E402
from _devsets import (  # noqa: E402
    available_sets,
    balanced_sample,
    lexical_score,
    load_rows,
    task_label,
)

from ragassay.dataset.schema import sample_from_mapping  # noqa: E402
from ragassay.judge import Flag, Reasoning, Score10, load_prompt, make_judge  # noqa: E402
from ragassay.judge.prompt import Prompt  # noqa: E402
from ragassay.llm import BackendOptions  # noqa: E402
from ragassay.metrics.base import number_contexts  # noqa: E402
from ragassay.stats.agreement import auroc, balanced_accuracy, correlation  # noqa: E402
from ragassay.store import Store  # noqa: E402
from ragassay.text import key_sample  # noqa: E402
from ragassay.types import Sample  # noqa: E402

PROMPTS = Path(__file__).resolve().parent / "prompts"
CURRENT = REPO / "src" / "ragassay" / "metrics" / "judge" / "scores.toml"
RATING_OF = {"faithful": "faithfulness", "correct": "answer_similarity",
             "answer_similarity": "answer_similarity", "relevance": "context_relevance"}
DEFAULT_SETS = ("begin", "dialfact", "q2", "summedits", "factcheck_gpt_stance", "trec_dl2020",
                "evouna_tq", "sas")


def output_model(fields: list[str], name: str) -> type[Any]:
    """A pydantic model with the variant's fields, in order (all of them required)."""
    from pydantic import ConfigDict, create_model

    types: dict[str, Any] = {
        "context_relevance": (Score10, ...), "faithfulness": (Score10, ...),
        "answer_similarity": (Score10 | None, ...), "hallucination": (Flag, ...),
        "reasoning": (Reasoning, ...)}
    unknown = [f for f in fields if f not in types]
    if unknown:
        raise SystemExit(f"{name}: unknown fields {unknown}")
    return create_model(name, __config__=ConfigDict(extra="ignore"),
                        **{f: types[f] for f in fields})  # type: ignore[call-overload]


def load_variant(name: str) -> Prompt:
    if name == "current":
        from ragassay.metrics.judge.suite import PROMPT

        return PROMPT
    path = PROMPTS / f"{name}.toml"
    fields = tomllib.loads(path.read_text(encoding="utf-8"))["fields"]
    return load_prompt(path, output_model(fields, f"Variant_{name.replace('-', '_')}"))


def values(sample: Sample, max_context_tokens: int) -> dict[str, str]:
    """The judge suite's prompt values for a sample, keyed and cut as the suite does."""
    item = key_sample(sample, max_context_tokens)
    return {"question": item.question, "contexts": number_contexts(item.documents),
            "answer": item.answer_text or "(empty answer)",
            "reference": " | ".join(sample.references) or "(none given)"}


async def run_variant(judge: Any, prompt: Prompt, samples: list[Sample], rating: str,
                      max_context_tokens: int) -> list[dict[str, Any]]:
    out = []
    for s in samples:
        started = time.monotonic()
        verdict = await judge.ask(prompt, values(s, max_context_tokens))
        stated = getattr(verdict.output, rating, None) if verdict.ok else None
        soft = verdict.soft.get(rating)
        hall = verdict.soft.get("hallucination")
        out.append({
            "id": s.id, "stated": stated,
            "expected": soft.value if soft is not None else stated,
            "hallucination": getattr(verdict.output, "hallucination", None),
            "p_hallucination": hall.value if hall is not None else None,
            "seconds": time.monotonic() - started, "cached": verdict.usage.cache_hits > 0,
            "unscored": verdict.unscored_reason,
            "cached_tokens": sum(c.usage.cached_tokens for c in verdict.calls),
            "input_tokens": verdict.usage.input_tokens})
    return out


def agreement(scores: list[float | None], labels: list[float], graded: bool) -> float | None:
    pairs = [(s, y) for s, y in zip(scores, labels, strict=True) if s is not None]
    if len(pairs) < 4:
        return None
    xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
    if graded:
        return correlation(xs, ys, "spearman")[0]
    return auroc(xs, [bool(y) for y in ys])


def bal_acc(scores: list[float | None], labels: list[float]) -> float | None:
    pairs = [(s, y) for s, y in zip(scores, labels, strict=True) if s is not None]
    if not pairs:
        return None
    return balanced_accuracy([s >= 5.5 for s, _ in pairs], [bool(y) for _, y in pairs])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--judge", default="llamacpp:qwen2.5-coder-0.5b")
    ap.add_argument("--variants", default="current")
    ap.add_argument("--sets", default=",".join(DEFAULT_SETS))
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--split", default="fit")
    ap.add_argument("--max-context-tokens", type=int, default=2000)
    ap.add_argument("--db", type=Path, default=REPO / "data" / "bench" / "judge_prompts.db")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    sets = [s for s in args.sets.split(",") if s in available_sets()]
    args.db.parent.mkdir(parents=True, exist_ok=True)
    store = Store(args.db)
    judge = make_judge(args.judge, cache=store, backend_options=BackendOptions(timeout_s=3600))
    results: dict[str, dict[str, Any]] = {}
    # a rerun answered from the cache keeps the seconds per sample its first run measured
    before = json.loads(args.out.read_text())["results"] if args.out and args.out.exists() \
        else {}
    for variant in args.variants.split(","):
        prompt = load_variant(variant)
        for name in sets:
            rows = balanced_sample(load_rows(name, args.split), args.n, args.seed)
            label = task_label(rows[0])
            assert label is not None
            samples = [sample_from_mapping(r, where=f"{name}:{r['id']}") for r in rows]
            got = asyncio.run(run_variant(judge, prompt, samples, RATING_OF[label],
                                          args.max_context_tokens))
            truth = [float(r["labels"][label]) for r in rows]
            graded = label in ("relevance", "answer_similarity")
            base = [lexical_score(s) for s in samples]
            fresh = [g["seconds"] for g in got if not g["cached"]]
            res = {
                "label": label, "n": len(rows), "metric": "spearman" if graded else "auroc",
                "expected": agreement([g["expected"] for g in got], truth, graded),
                "greedy": agreement([g["stated"] for g in got], truth, graded),
                "lexical": agreement(base, truth, graded),
                "unscored": sum(g["unscored"] is not None for g in got),
                "stated_values": sorted({g["stated"] for g in got if g["stated"] is not None}),
                "s_per_sample": sum(fresh) / len(fresh) if fresh else
                before.get(variant, {}).get(name, {}).get("s_per_sample"),
                "cached_share": (sum(g["cached_tokens"] for g in got)
                                 / max(1, sum(g["input_tokens"] for g in got))),
            }
            if not graded:  # the rating as a decision at its scale's midpoint (5.5)
                res["expected_bal_acc"] = bal_acc([g["expected"] for g in got], truth)
                res["greedy_bal_acc"] = bal_acc([g["stated"] for g in got], truth)
            if label == "faithful":
                res["not_hallucination"] = agreement(
                    [None if g["p_hallucination"] is None else 1 - g["p_hallucination"]
                     for g in got], truth, graded)
            results.setdefault(variant, {})[name] = res
            print(f"{variant:>14} {name:>22}: {json.dumps(res)}", file=sys.stderr, flush=True)
    report(results, sets, args)


def fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def report(results: dict[str, dict[str, Any]], sets: list[str], args: Any) -> None:
    variants = list(results)
    rows = []
    for v in variants:
        for name in sets:
            r = results[v][name]
            rows.append([v, name, f"{r['metric']} ({r['label']})", r["n"], fmt(r["expected"]),
                         fmt(r["greedy"]), fmt(r["lexical"]), fmt(r.get("expected_bal_acc")),
                         fmt(r.get("greedy_bal_acc")), fmt(r.get("not_hallucination")),
                         ", ".join(f"{x:g}" for x in r["stated_values"]),
                         r["unscored"], fmt(r["s_per_sample"])])
    print(f"judge {args.judge}, n={args.n} per set, split {args.split}, seed {args.seed}, "
          f"max_context_tokens {args.max_context_tokens}; {machine()}")
    print(md_table(["variant", "set", "figure", "n", "expected", "greedy", "lexical",
                    "bal. acc. expected", "bal. acc. greedy", "1-P(halluc.)",
                    "stated values", "unscored", "s/sample"], rows))
    if len(variants) > 1:
        print("\nLeave one dataset out: the variant with the best mean expected figure on the "
              "other sets, and its figure on the held-out set")
        lodo = []
        for held in sets:
            def mean(v: str, held: str = held) -> float:
                xs = [results[v][s]["expected"] for s in sets if s != held]
                return sum(x for x in xs if x is not None) / max(1, len(xs))
            best = max(variants, key=mean)
            lodo.append([held, best, fmt(results[best][held]["expected"])])
        print(md_table(["held-out set", "chosen on the others", "its figure there"], lodo))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"judge": args.judge, "n": args.n, "seed": args.seed,
                                        "results": results}, indent=1))


if __name__ == "__main__":
    main()
