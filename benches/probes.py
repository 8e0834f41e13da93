"""The judge probes of issue #38: right / total per kind, for `judge.hallucination` and the
1-10 `judge.faithfulness`, for the offline judge or any `--judge`.

The probes are data (benches/probes/batch_*.toml): a question, contexts, an answer and a
kind, in 6-8 domains. Batch A is the development batch; batch B was written before any
result on it was seen, by other documents and wordings, and was held out until
2026-12-03 (its first figure is in benches/RESULTS.md; the judge has since been extended
with its failures in view, so the held-out check is the project's hidden probes of the
same kinds).

What counts as right, per kind:
- faithful kinds (paraphrase, cited, unrelated_negation): hallucination False and
  faithfulness at least the scale's midpoint (5.5; the offline judge flags a
  hallucination below it);
- unfaithful kinds (negation_flip, entity_swap, number_change, quantifier, invented):
  hallucination True and faithfulness below 5.5;
- decline: not flagged: hallucination False or the answer read as an abstention (no
  value), and faithfulness at least 5.5 or abstained.

Every probe goes the product's way (`ragassay.evaluate`, metrics "judge"), into a
throw-away store unless `--db` is given.

    .venv/bin/python benches/probes.py                          # offline judge, A and B
    .venv/bin/python benches/probes.py --batches a --show-wrong # what batch A gets wrong
    .venv/bin/python benches/probes.py --judge openai:gpt-4o-mini --base-url URL
    .venv/bin/python benches/probes.py --check                  # lint the probe data only
    .venv/bin/python benches/probes.py --batches n --relevance  # also judge.context_relevance

`--relevance` adds, per batch, the mean `judge.context_relevance` (1-10) of the rows whose
contexts hold the answer (every kind but decline: the probes are written so) and how
many of them are below the scale's midpoint, and the declines' mean (docs/metrics.md,
"What `judge.context_relevance` reads").
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import tomllib
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SRC = str(Path(__file__).resolve().parents[1] / "src")
sys.path.insert(0, SRC)
# ... and in the judge's worker processes, which import ragassay afresh: without it they
# took the installed copy (an editable install of another checkout), not this one's
os.environ["PYTHONPATH"] = os.pathsep.join(
    x for x in (SRC, os.environ.get("PYTHONPATH")) if x)

PROBES = Path(__file__).resolve().parent / "probes"
FAITHFUL = ("paraphrase", "cited", "unrelated_negation")
UNFAITHFUL = ("negation_flip", "entity_swap", "number_change", "quantifier", "invented")
DECLINE = ("decline",)
KINDS = FAITHFUL + UNFAITHFUL + DECLINE
BUILT_FROM_CONTEXT = ("negation_flip", "entity_swap", "number_change", "quantifier")
MIDPOINT = 5.5  # of the 1-10 scale: the offline judge's hallucination line (faithfulness 0.5)
HALLUCINATION = "judge.hallucination"
FAITHFULNESS = "judge.faithfulness"
RELEVANCE = "judge.context_relevance"


@dataclass(frozen=True)
class Probe:
    id: str
    batch: str
    kind: str
    domain: str
    question: str
    contexts: tuple[str, ...]
    answer: str

    def row(self) -> dict[str, Any]:
        return {"id": self.id, "question": self.question, "contexts": list(self.contexts),
                "answer": self.answer}


def load(batch: str) -> list[Probe]:
    """The probes of one batch file, contexts resolved, each with a stable id."""
    path = PROBES / f"batch_{batch}.toml"
    if not path.is_file():
        have = ",".join(sorted(f.stem.removeprefix("batch_") for f in PROBES.glob("batch_*.toml")))
        raise SystemExit(f"probes: no batch {batch!r} (benches/probes has {have})")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    docs: dict[str, str] = data["documents"]
    out = []
    for i, p in enumerate(data["probe"], 1):
        if p["kind"] not in KINDS:
            raise SystemExit(f"{path.name} probe {i}: unknown kind {p['kind']!r}")
        missing = [c for c in p["contexts"] if c not in docs]
        if missing:
            raise SystemExit(f"{path.name} probe {i}: unknown document(s) {missing}")
        out.append(Probe(f"{batch.upper()}{i:03d}-{p['domain']}-{p['kind']}", batch.upper(),
                         p["kind"], p["domain"], p["question"],
                         tuple(docs[c] for c in p["contexts"]), p["answer"]))
    return out


def check(probes: list[Probe]) -> list[str]:
    """Problems with the data: a contradiction meant to be built from the contexts' own
    words that states a number or name no context has (it would be caught for that
    alone), or a faithful answer that does (a citation marker aside)."""
    from ragassay.judge.offline.lexical import TermPool, missing_terms

    problems = []
    for p in probes:
        pool = TermPool.of(" ".join(p.contexts))
        new = missing_terms(p.answer, pool, p.question)
        if new and (p.kind in BUILT_FROM_CONTEXT or p.kind in FAITHFUL and p.kind != "cited"):
            problems.append(f"{p.id}: {new} not in the contexts")
    return problems


def right(kind: str, hallucination: Any, faithfulness: Any) -> tuple[bool, bool]:
    """Whether the hallucination flag and the faithfulness rating are right for the kind
    (module docstring). `None` is no value (abstained or unscored)."""
    if kind in DECLINE:
        return hallucination is not True, faithfulness is None or faithfulness >= MIDPOINT
    if kind in FAITHFUL:
        return hallucination is False, faithfulness is not None and faithfulness >= MIDPOINT
    return hallucination is True, faithfulness is not None and faithfulness < MIDPOINT


def _value(x: Any) -> Any:
    import pandas as pd

    return None if x is None or x is pd.NA else (bool(x) if isinstance(x, bool) else x)


def judge_probes(probes: list[Probe], judge: str, db: str | None,
                 options: dict[str, Any]) -> list[dict[str, Any]]:
    """Each probe's hallucination, faithfulness, reason and reasoning from one run."""
    import ragassay

    with tempfile.TemporaryDirectory() as tmp:
        store = db or str(Path(tmp) / "probes.db")
        result = ragassay.evaluate([p.row() for p in probes], metrics="judge", judge=judge,
                                   store=store, progress=False, **options)
        frame = result.to_pandas()
    by_id = {row["id"]: row for row in frame.to_dict("records")}
    out = []
    for p in probes:
        row = by_id[p.id]
        hall, faith = _value(row[HALLUCINATION]), _value(row[FAITHFULNESS])
        rel = _value(row[RELEVANCE])
        hall = None if hall is None else bool(hall)
        faith = None if faith is None else float(faith)
        ok_h, ok_f = right(p.kind, hall, faith)
        out.append({"id": p.id, "batch": p.batch, "kind": p.kind, "domain": p.domain,
                    "hallucination": hall, "faithfulness": faith,
                    "context_relevance": None if rel is None else float(rel),
                    "reason": _value(row[FAITHFULNESS + "_reason"]),
                    "reasoning": _value(row["reasoning"]),
                    "right_hallucination": ok_h, "right_faithfulness": ok_f})
    return out


def table(rows: list[dict[str, Any]]) -> str:
    """Right / total per kind for both metrics, one column pair per batch."""
    batches = sorted({r["batch"] for r in rows})
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in rows:
        for key in ((r["batch"], r["kind"]), (r["batch"], "all")):
            c = counts[key]
            c[0] += r["right_hallucination"]
            c[1] += r["right_faithfulness"]
            c[2] += 1
    head = "| kind | " + " | ".join(
        f"{b}: hallucination | {b}: faithfulness" for b in batches) + " |"
    lines = [head, "|---|" + "---|---|" * len(batches)]
    for kind in (*KINDS, "all"):
        cells = []
        for b in batches:
            h, f, n = counts[(b, kind)]
            cells += [f"{x}/{n} ({x / n:.0%})" if n else "-" for x in (h, f)]
        label = f"**{kind}**" if kind == "all" else kind
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def relevance_table(rows: list[dict[str, Any]]) -> str:
    """Per batch, judge.context_relevance of the rows whose contexts hold the answer
    (mean, how many below the midpoint) and of the declines (mean)."""
    lines = ["| batch | answerable: n | mean | below 5.5 | decline: n | mean |",
             "|---|---|---|---|---|---|"]
    for b in sorted({r["batch"] for r in rows}):
        scored = [r for r in rows if r["batch"] == b and r["context_relevance"] is not None]
        held = [r["context_relevance"] for r in scored if r["kind"] not in DECLINE]
        declines = [r["context_relevance"] for r in scored if r["kind"] in DECLINE]
        cells = [str(len(held)), f"{sum(held) / len(held):.2f}" if held else "-",
                 str(sum(x < MIDPOINT for x in held)), str(len(declines)),
                 f"{sum(declines) / len(declines):.2f}" if declines else "-"]
        lines.append(f"| {b} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--batches", default="a,b",
                    help="batch letters, comma-separated: a,b,...,f (benches/probes/batch_*.toml)")
    ap.add_argument("--judge", default="offline", help="offline or BACKEND:MODEL")
    ap.add_argument("--base-url", default=None, help="the LLM judge's endpoint")
    ap.add_argument("--db", default=None, help="keep the run in this store")
    ap.add_argument("--kinds", default=None, help="only these kinds (comma-separated)")
    ap.add_argument("--show-wrong", action="store_true", help="list the probes judged wrong")
    ap.add_argument("--check", action="store_true", help="lint the probe data and stop")
    ap.add_argument("--out", default=None, help="write every probe's verdict as JSON")
    ap.add_argument("--relevance", action="store_true",
                    help="also judge.context_relevance per batch (answerable rows, declines)")
    args = ap.parse_args()
    probes = [p for b in args.batches.split(",") for p in load(b.strip().lower())]
    if args.kinds:
        probes = [p for p in probes if p.kind in args.kinds.split(",")]
    problems = check(probes)
    for line in problems:
        print("probe data:", line, file=sys.stderr)
    if args.check:
        domains = sorted({p.domain for p in probes})
        print(f"{len(probes)} probes, {len(domains)} domains ({', '.join(domains)}), "
              f"{len(problems)} problem(s)")
        raise SystemExit(1 if problems else 0)
    options = {"base_url": args.base_url} if args.base_url else {}
    t0 = time.time()
    rows = judge_probes(probes, args.judge, args.db, options)
    print(f"judge={args.judge}  probes={len(rows)}  {time.time() - t0:.1f} s\n")
    print(table(rows))
    if args.relevance:
        print()
        print(relevance_table(rows))
    if args.show_wrong:
        print()
        for r in rows:
            if not (r["right_hallucination"] and r["right_faithfulness"]):
                p = next(p for p in probes if p.id == r["id"])
                print(f"- {r['id']}: hallucination={r['hallucination']} "
                      f"faithfulness={r['faithfulness']} | {p.answer}\n    {r['reasoning']}")
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
