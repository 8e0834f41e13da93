"""TRACe relevance read with the answer (docs/judges.md, "What the answer shows").

Part 1, `benches/data/answered_relevance.jsonl`: 27 short support-bot rows written for
the trial finding (a question answered by one context sentence in other words; one
answer declines; 5 `off_topic` rows whose answer restates a context sentence that does
not answer the question). Printed: on the answering rows, how many have
`trace.completeness` scored, the mean `trace.context_relevance` and the mean
`judge.context_relevance` (1-10; how many below 5.5); on the off-topic rows, the highest
relevance of a context sentence the answer restates (`Evidence.relevance` of each
claim's best match; an answer that does not respond must make nothing relevant: under
0.5), and their `judge.context_relevance` without and with the answer.

Part 1 also prints the off-topic rows' `trace.completeness` (None: unscored): where the
contexts hold what the question asks and the answer leaves it out it should be scored
and low; where nothing answers it (the bakery row), unscored.

Part 3 (`--probes`): the probe batches A-O of `benches/probes.py`, every row whose
contexts hold the answer (every kind but decline): on how many `trace.completeness` is
scored; then each row's question and answer with another domain's contexts (a fixed
shuffle, seed 0), which hold nothing that answers it: on how many it is scored (should
be none).

Part 2 (`--factcheck`, needs `scripts/devsets/convert.py` first): the Factcheck-GPT
question-passage pairs (graded 0-2) with ChatGPT's answer to each question attached,
and without it: Spearman of `trace.context_relevance` and of `judge.context_relevance`
with the grade, and how many pairs have `trace.completeness` scored. The grade is the
passage's stance on a claim of that answer, so it favours any answer-aware reading: no
judge choice was made on it.

    .venv/bin/python benches/answered_relevance.py [--factcheck] [--probes]

Run a tree of another commit with `PYTHONPATH=<that tree>/src` to compare.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROWS = ROOT / "benches" / "data" / "answered_relevance.jsonl"
JUDGE = "judge.context_relevance"


def _rows() -> list[dict]:
    return [json.loads(line) for line in ROWS.open(encoding="utf-8") if line.strip()]


def _product_values():  # type: ignore[no-untyped-def]
    """`scripts/devsets/figures.product_values`: a metric's values as `ragassay eval`
    with the offline judge computes them."""
    sys.path.insert(0, str(ROOT / "scripts" / "devsets"))
    from figures import product_values  # type: ignore[import-not-found]

    return product_values


def trial_rows() -> None:
    from ragassay.judge.offline import Analyzer
    from ragassay.types import Sample

    def sample(r: dict) -> Sample:
        return Sample(id=r["id"], question=r["question"], contexts=tuple(r["contexts"]),
                      answer=r["answer"])

    rows = _rows()
    an = Analyzer()
    answering = [sample(r) for r in rows if r["metadata"]["set"] == "answers"]
    values = _product_values()(an, answering, ["trace.context_relevance",
                                               "trace.completeness", JUDGE])
    complete = sum(v["trace.completeness"] is not None for v in values)
    rel = [v["trace.context_relevance"] for v in values
           if v["trace.context_relevance"] is not None]
    judged = [v[JUDGE] for v in values if v[JUDGE] is not None]
    print(f"answering rows: {len(answering)}; trace.completeness scored on {complete}; "
          f"mean trace.context_relevance {statistics.fmean(rel):.3f}; mean {JUDGE} "
          f"{statistics.fmean(judged):.2f} (below 5.5: {sum(x < 5.5 for x in judged)})")
    off = [sample(r) for r in rows if r["metadata"]["set"] == "off_topic"]
    top = max(_restated_relevance(an.analyze(s)) for s in off)
    print(f"off-topic rows: {len(off)}; highest relevance of a sentence the answer "
          f"restates {top:.3f}")
    done = [v["trace.completeness"] for v in _product_values()(an, off, ["trace.completeness"])]
    print("  their trace.completeness: " + ", ".join("unscored" if x is None else f"{x:.2f}"
                                                  for x in done))
    bare = [s.model_copy(update={"answer": ""}) for s in off]
    for label, group in (("without the answer", bare), ("with it", off)):
        got = [v[JUDGE] for v in _product_values()(an, group, [JUDGE])]
        print(f"  their {JUDGE} {label}: " + ", ".join(f"{x:.2f}" for x in got))


def _restated_relevance(ev) -> float:  # type: ignore[no-untyped-def]
    """The highest relevance of the context sentence each claim restates (its best
    match, the first of `Evidence.match_keys`)."""
    keys = {ks[0] for ks in ev.match_keys if ks}
    return max((r for s, r in zip(ev.context_sentences, ev.relevance, strict=True)
                if s.key in keys), default=0.0)


def factcheck() -> None:
    product_values = _product_values()
    from common import load_rows  # type: ignore[import-not-found]
    from scipy.stats import spearmanr

    from ragassay.judge.offline import Analyzer
    from ragassay.types import Sample

    answers = {r["question"]: r["answer"] for r in load_rows("factcheck_gpt")}
    rows = [r for r in load_rows("factcheck_gpt_questions") if r["question"] in answers]
    an = Analyzer()
    grade = [r["labels"]["relevance"] for r in rows]
    for with_answer in (False, True):
        samples = [Sample(id=r["id"], question=r["question"], contexts=tuple(r["contexts"]),
                          answer=answers[r["question"]] if with_answer else "") for r in rows]
        vals = product_values(an, samples, ["trace.context_relevance", "trace.completeness",
                                            JUDGE])
        rel = [v["trace.context_relevance"] for v in vals]
        judged = [v[JUDGE] for v in vals]
        scored = sum(v["trace.completeness"] is not None for v in vals)
        print(f"factcheck pairs {len(rows)}, answer attached: {with_answer}: Spearman "
              f"{spearmanr(rel, grade).statistic:.3f} (trace), "
              f"{spearmanr(judged, grade).statistic:.3f} ({JUDGE}); "
              f"completeness scored on {scored}")


def probes() -> None:
    import random

    sys.path.insert(0, str(ROOT / "benches"))
    from probes import DECLINE, load  # type: ignore[import-not-found]

    from ragassay.judge.offline import Analyzer
    from ragassay.types import Sample

    rows = [p for b in "abcdefghijklmno" for p in load(b) if p.kind not in DECLINE]
    rng = random.Random(0)
    held = [Sample(id=p.id, question=p.question, contexts=p.contexts, answer=p.answer)
            for p in rows]
    other = [Sample(id=p.id, question=p.question, answer=p.answer,
                    contexts=rng.choice([x for x in rows if x.domain != p.domain]).contexts)
             for p in rows]
    an = Analyzer()
    for what, group in (("contexts that hold the answer", held),
                        ("another domain's contexts", other)):
        values = _product_values()(an, group, ["trace.completeness"])
        scored = sum(v["trace.completeness"] is not None for v in values)
        print(f"probes A-O, {what}: {len(group)} rows; trace.completeness scored on "
              f"{scored}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--factcheck", action="store_true",
                    help="also the Factcheck-GPT question-passage pairs (dev data)")
    ap.add_argument("--probes", action="store_true",
                    help="also the probe batches A-O, and their rows on other contexts")
    args = ap.parse_args()
    trial_rows()
    if args.factcheck:
        factcheck()
    if args.probes:
        probes()


if __name__ == "__main__":
    main()
