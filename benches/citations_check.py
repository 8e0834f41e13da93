"""Citation and abstention checks on labelled sets built from ../shared/data (issue #30).

Citations: Factcheck-GPT's claim-passage stances (subtask3; Apache-2.0). Each claim
with a "completely-support" passage and a non-supporting one ("irrelevant" or
"refute") becomes one answer sentence whose marker is injected, seeded, as one of:

- correct:   cites the supporting passage              (supported; the citation relevant)
- wrong:     cites a non-supporting passage            (unsupported; irrelevant)
- extra:     cites the supporting and a non-supporting (supported; 1 of 2 relevant)
- uncited:   no marker                                 (unsupported: recall fails)
- fabricated: cites a passage number past the contexts  (unsupported; fabricated)
- quote:     the sentence is a sentence of the supporting passage, cited (supported)

Answers are 1-3 such sentences over a shuffled pool of their passages; the truth of
citations.recall / precision / fabricated follows from the construction (ALCE rules).
"partially-support" passages are left out (their truth is ambiguous).

Abstentions: TREC DL 2020 queries (NIST qrels; research use). For each query, contexts
that hold the answer (one grade-3 passage among two grade-0 ones) or do not (three
grade-0 passages), an answer from a set of abstention phrasings, or a hedged answer that
does answer ("I'm not sure, but <first sentence of the grade-3 passage>"). Truth: an
abstention is false when the contexts hold the answer, correct when not; the hedged
answer is no abstention. Run with the grade-3 passage's first sentence as the reference
and without a reference (the offline judge then reads context relevance).

Prints markdown tables (the offline judge; `--n` samples per set, seeded).

    .venv/bin/python benches/citations_check.py [--n 200] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ragassay.judge.offline_judge import OfflineJudge  # noqa: E402
from ragassay.metrics.base import SuiteOptions  # noqa: E402
from ragassay.metrics.citations import CitationsSuite  # noqa: E402
from ragassay.metrics.judge import JudgeSuite  # noqa: E402
from ragassay.text import key_sample, split_sentences  # noqa: E402
from ragassay.types import Sample  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
KINDS = ("correct", "wrong", "extra", "uncited", "fabricated", "quote")
ABSTAIN = ("I don't know.", "I don't know based on the provided context.",
           "The documents do not say.", "The context does not mention this.",
           "I'm sorry, but the provided information does not answer that question.",
           "There is no information about this in the given context.")


def _claims(data: Path) -> list[dict[str, Any]]:
    by: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    path = data / "factcheck_gpt" / "subtask3_claim_evidence_stance.jsonl"
    for line in path.open(encoding="utf-8"):
        r = json.loads(line)
        by[r["claim"]][r["stance"]].append(r["evidence"])
    out = []
    for claim, stances in sorted(by.items()):
        bad = stances.get("irrelevant", []) + stances.get("refute", [])
        if stances.get("completely-support") and bad:
            out.append({"claim": claim, "good": stances["completely-support"][0], "bad": bad[0]})
    return out


def _quote(passage: str) -> str | None:
    sents = [s for s in split_sentences(passage) if 8 <= len(s.split()) <= 40]
    return sents[0] if sents else None


def citation_samples(n: int, seed: int, data: Path) -> list[tuple[Sample, dict[str, Any]]]:
    """Samples with their constructed truth: per sentence supported, per citation relevant."""
    rng = random.Random(seed)
    claims = _claims(data)
    rng.shuffle(claims)
    out = []
    i = 0
    while len(out) < n and i < len(claims):
        group = claims[i: i + rng.randint(1, 3)]
        i += len(group)
        passages = [p for c in group for p in (c["good"], c["bad"])]
        order = list(range(len(passages)))
        rng.shuffle(order)
        pos = {p: order.index(j) + 1 for j, p in enumerate(range(len(passages)))}
        contexts = tuple(passages[j] for j in order)
        sentences, truth = [], {"supported": [], "citations": [], "kinds": []}
        for k, c in enumerate(group):
            kind = rng.choice(KINDS)
            text = c["claim"].rstrip(".")
            text = text[:1].upper() + text[1:]
            good, bad = pos[2 * k], pos[2 * k + 1]
            if kind == "quote" and (q := _quote(c["good"])):
                text = q.rstrip(".")
            elif kind == "quote":
                kind = "correct"
            marks, sup, rel = {
                "correct": ([good], True, [True]), "quote": ([good], True, [True]),
                "wrong": ([bad], False, [False]), "extra": ([good, bad], True, [True, False]),
                "uncited": ([], False, []),
                "fabricated": ([len(passages) + 5], False, [False]),
            }[kind]
            marker = f" [{', '.join(map(str, marks))}]" if marks else ""
            sentences.append(f"{text}{marker}.")
            truth["supported"].append(sup)
            truth["citations"].append(list(zip(marks, rel, strict=True)))
            truth["kinds"].append(kind)
        out.append((Sample(id=f"cite-{len(out)}", question="Tell me about this.",
                           contexts=contexts, answer=" ".join(sentences)), truth))
    return out


def _trec(data: Path) -> list[dict[str, Any]]:
    hits = json.loads((data / "trec_dl2020" / "retrieve_results_dl20.json").read_text())
    qrels = json.loads((data / "trec_dl2020" / "qrels_dl20.json").read_text())
    out = []
    for q in hits:
        grade = {h["docid"]: qrels.get(str(h["qid"]), {}).get(h["docid"]) for h in q["hits"]}
        top = [h["content"] for h in q["hits"] if grade[h["docid"]] == "3"]
        zero = [h["content"] for h in q["hits"] if grade[h["docid"]] == "0"]
        if top and len(zero) >= 3 and _quote(top[0]):
            out.append({"query": q["query"], "top": top[0], "zero": zero[:3]})
    return out


def abstention_samples(n: int, seed: int, data: Path, reference: bool
                       ) -> list[tuple[Sample, str | None]]:
    """Samples with their truth: "false", "correct" or None (no abstention)."""
    rng = random.Random(seed)
    out: list[tuple[Sample, str | None]] = []
    queries = _trec(data)
    while len(out) < n:
        q = queries[len(out) % len(queries)]
        holds = rng.random() < 0.5
        ctx = [q["top"], *q["zero"][:2]] if holds else list(q["zero"])
        rng.shuffle(ctx)
        hedged = rng.random() < 0.25
        first = _quote(q["top"]) or ""
        answer = f"I'm not sure, but {first[0].lower()}{first[1:]}" if hedged and holds \
            else rng.choice(ABSTAIN)
        truth = None if hedged and holds else ("false" if holds else "correct")
        out.append((Sample(id=f"abst-{len(out)}", question=q["query"], contexts=tuple(ctx),
                           answer=answer, reference=first if reference else None), truth))
    return out


def _mae(pairs: list[tuple[float, float]]) -> float:
    return sum(abs(a - b) for a, b in pairs) / len(pairs) if pairs else float("nan")


def run_citations(samples: list[tuple[Sample, dict[str, Any]]], judge: OfflineJudge
                  ) -> dict[str, Any]:
    suite, opts = CitationsSuite(), SuiteOptions(analyzer=judge.analyzer)
    sent = defaultdict(lambda: [0, 0])  # kind -> [agree, total]
    cit = [0, 0]
    rec, prec, fab = [], [], []
    quote_decided = [0, 0]
    skipped = 0
    for s, truth in samples:
        item = key_sample(s)
        [ev] = judge.analyze([item])
        res = {r.name.split(".")[1]: r for r in
               suite.evaluate_offline(item, ev, opts).result.results}
        rows = res["recall"].details["sentences"]
        if len(rows) != len(truth["supported"]):  # a claim the splitter cut in two
            skipped += 1
            continue
        for row, want, kind, marks in zip(rows, truth["supported"], truth["kinds"],
                                          truth["citations"], strict=True):
            got = bool(row.get("supported"))
            sent[kind][0] += got == want
            sent[kind][1] += 1
            if row.get("decided_by") == "quote":
                quote_decided[0] += got == want
                quote_decided[1] += 1
            for number, relevant in marks:
                cit[0] += (number in row.get("relevant", [])) == relevant
                cit[1] += 1
        true_rec = sum(truth["supported"]) / len(truth["supported"])
        if res["recall"].value is not None:
            rec.append((res["recall"].value, true_rec))
        flat = [r for marks in truth["citations"] for _, r in marks]
        if flat:
            if res["precision"].value is not None:
                prec.append((res["precision"].value, sum(flat) / len(flat)))
            fab_true = sum(k == "fabricated" for k in truth["kinds"]) / len(flat)
            if res["fabricated"].value is not None:
                fab.append((res["fabricated"].value, fab_true))
    return {"sent": dict(sent), "cit": cit, "rec": rec, "prec": prec, "fab": fab,
            "quote": quote_decided, "skipped": skipped}


def run_abstentions(samples: list[tuple[Sample, str | None]], judge: OfflineJudge
                    ) -> dict[str, list[int]]:
    suite = JudgeSuite()
    items = [key_sample(s) for s, _ in samples]
    evidence = judge.analyze(items)
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for item, ev, (_, truth) in zip(items, evidence, samples, strict=True):
        out = suite.evaluate_offline(item, ev, SuiteOptions()).result.results
        got = next((r.abstention for r in out if r.abstention), None)
        key = truth or "no abstention (hedged answer)"
        tally[key][0] += got == truth
        tally[key][1] += 1
        tally["all"][0] += got == truth
        tally["all"][1] += 1
    return dict(tally)


def _pct(a: int, b: int) -> str:
    return f"{a / b:.3f} ({a}/{b})" if b else "-"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args()
    judge = OfflineJudge()
    t0 = time.perf_counter()
    built = citation_samples(args.n, args.seed, args.data)
    c = run_citations(built, judge)
    print(f"### Citations (Factcheck-GPT subtask3, {len(built)} answers of 1-3 claims, "
          f"seed {args.seed}, offline judge)\n")
    print("| injected marker | sentences | supported-by-its-citations agrees with the truth |")
    print("|---|---:|---:|")
    for kind in KINDS:
        a, b = c["sent"].get(kind, [0, 0])
        print(f"| {kind} | {b} | {_pct(a, b)} |")
    total = [sum(v[0] for v in c["sent"].values()), sum(v[1] for v in c["sent"].values())]
    print(f"| all | {total[1]} | {_pct(*total)} |")
    print(f"\nanswers left out (a claim split into two sentences): {c['skipped']}")
    print(f"quote pass: decided {c['quote'][1]} sentences without a judge, "
          f"{_pct(*c['quote'])} right")
    print(f"citation-level relevant/irrelevant agreement: {_pct(*c['cit'])}")
    for name in ("rec", "prec", "fab"):
        pairs = c[name]
        label = {"rec": "recall", "prec": "precision", "fab": "fabricated"}[name]
        exact = sum(abs(a - b) < 1e-9 for a, b in pairs)
        print(f"citations.{label}: mean absolute error {_mae(pairs):.3f} over {len(pairs)} "
              f"answers, exact on {_pct(exact, len(pairs))}")
    for reference in (True, False):
        tally = run_abstentions(abstention_samples(args.n, args.seed, args.data, reference),
                                judge)
        print(f"\n### Abstentions (TREC DL 2020, {args.n} answers, "
              f"{'with' if reference else 'without'} a reference, offline judge)\n")
        print("| truth | answers | outcome agrees |")
        print("|---|---:|---:|")
        for key in ("correct", "false", "no abstention (hedged answer)", "all"):
            a, b = tally.get(key, [0, 0])
            print(f"| {key} | {b} | {_pct(a, b)} |")
    print(f"\n({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
