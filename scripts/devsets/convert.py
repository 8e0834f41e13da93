"""Convert the human-labelled dev sets in shared/data to ragassay JSONL.

Each row: id, question, contexts, answer, reference, labels, metadata. `labels`
names the task with a key that `ragassay meta-eval` links to its metrics:
`faithful` (1 faithful / 0 not: SummEdits, BEGIN, WiCE, Factcheck-GPT, Q2,
DialFact), `correct` (EVOUNA), `relevance` (the TREC DL grade 0-3, context
relevance) and `answer_similarity` (the SAS grade 0-2); a set's own finer label is
kept beside it (`begin_label`, `wice_label`, `stance`, `dialfact_label`, ...).
`metadata.source` names the set; `metadata.split` is a deterministic 50/50
"fit"/"eval" split by a hash of the row's *group* (the SummEdits document, the
BEGIN / Q2 knowledge passage, the EVOUNA question, the WiCE article, the
Factcheck-GPT question or claim, the DialFact dialogue, the TREC query, the SAS
reference answer), so that no group is on both sides. The mapping follows
shared/data/README.md.

    .venv/bin/python scripts/devsets/convert.py [--data ../shared/data] [--out data/devsets]
                                                [--sets wice,q2]
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATA = ROOT.parent / "shared" / "data"
DEFAULT_OUT = ROOT / "data" / "devsets"

# Sets without a question get a fixed, neutral one (a Sample needs a question); it
# names nothing, so it lends no evidence to the hallucination checks.
NO_QUESTION = "What do the sources say?"
NO_QUESTION_QA = "What is the answer?"

Row = dict[str, Any]


def split_of(group: str) -> str:
    """Deterministic 50/50 split by a hash of the group key."""
    return "fit" if hashlib.sha256(group.encode()).digest()[0] % 2 == 0 else "eval"


def _clean(text: str) -> str:
    """Text without NUL bytes (a few web passages carry them; the loader rejects them)."""
    return text.replace("\x00", "")


def _row(
    rid: str,
    question: str,
    contexts: list[str],
    answer: str,
    labels: dict[str, Any],
    source: str,
    group: str,
    reference: str | list[str] | None = None,
    **meta: Any,
) -> Row:
    return {
        "id": rid,
        "question": _clean(question).strip() or NO_QUESTION,  # a first dialogue turn
        "contexts": [_clean(c) for c in contexts],
        "answer": _clean(answer),
        "reference": [_clean(r) for r in reference] if isinstance(reference, list) else reference,
        "labels": labels,
        "metadata": {"source": source, **meta, "split": split_of(group)},
    }


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def summedits(data: Path) -> Iterator[Row]:
    for f in sorted((data / "summedits").glob("*.json")):
        for r in json.loads(f.read_text(encoding="utf-8")):
            yield _row(
                f"summedits/{r['id']}",
                "Summarise the document.",
                [r["doc"]],
                r["summary"],
                {"faithful": int(r["label"])},
                "summedits",
                "summedits:" + r["doc"],
                domain=f.stem,
                edit_types=r.get("edit_types", []),
            )


def begin(data: Path) -> Iterator[Row]:
    path = data / "begin" / "dev_wow.tsv"
    with path.open(encoding="utf-8", newline="") as fh:
        for i, r in enumerate(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)):
            lab = r["begin_label"].strip()
            yield _row(
                f"begin/wow-dev-{i}",
                r["message"],
                [r["knowledge"]],
                r["response"],
                {"faithful": int(lab == "Fully attributable"), "begin_label": lab},
                "begin",
                "begin:" + r["knowledge"],
                model=r["model_name"],
            )


def evouna(data: Path, part: str = "TQ") -> Iterator[Row]:
    rows = json.loads((data / "evouna" / f"{part}.json").read_text(encoding="utf-8"))
    for qi, r in enumerate(rows):
        if r.get("improper"):
            continue
        golds = [g.strip() for g in str(r["golden_answer"]).split("/") if g.strip()]
        for key in sorted(r):
            if not key.startswith("answer_"):
                continue
            system = key[len("answer_") :]
            judged = r.get(f"judge_{system}")
            if judged is None or not isinstance(judged, bool):
                continue
            yield _row(
                f"evouna/{part}-{qi}-{system}",
                r["question"],
                [],
                str(r[key] or ""),
                {"correct": int(judged)},
                f"evouna_{part.lower()}",
                f"evouna:{part}:{r['question']}",
                reference=golds,
                system=system,
            )


WICE_GRADE = {"supported": 2, "partially_supported": 1, "not_supported": 0}


def _wice(data: Path, stem: str, source: str) -> Iterator[tuple[str, Row, dict[str, Any]]]:
    """(file part, raw record, the sample fields) of a WiCE file pair: the cited
    article's sentences joined are the context, the claim the answer."""
    for part in ("dev", "test"):
        for r in _jsonl(data / "wice" / f"{stem}_{part}.jsonl"):
            meta = r["meta"]
            yield (
                part,
                r,
                {
                    "rid": f"{source}/{meta['id']}",
                    "question": NO_QUESTION,
                    "contexts": [" ".join(s.strip() for s in r["evidence"] if s.strip())],
                    "answer": r["claim"],
                    "source": source,
                    "group": "wice:" + meta["claim_title"],
                },
            )


def wice(data: Path) -> Iterator[Row]:
    """WiCE claims (dev and test files): supported = faithful, partially / not supported
    = not (the 3-way label is kept as `wice_label` and `support_grade` 2/1/0)."""
    for part, r, fields in _wice(data, "claim", "wice"):
        labels = {
            "faithful": int(r["label"] == "supported"),
            "wice_label": r["label"],
            "support_grade": WICE_GRADE[r["label"]],
        }
        yield _row(
            **fields,
            labels=labels,
            file=part,
            claim_title=r["meta"]["claim_title"],
            supporting_sentences=r["supporting_sentences"],
        )


def wice_subclaims(data: Path) -> Iterator[Row]:
    """WiCE's partially supported sub-claims with token marks (span-level tests only:
    every row is partially supported, so there is no binary label to measure)."""
    for part, r, fields in _wice(data, "non_supported_tokens", "wice_subclaims"):
        yield _row(
            **fields,
            labels={"wice_label": r["label"]},
            file=part,
            claim_tokens=r["claim_tokens"],
            non_supported_spans=r["non_supported_spans"],
        )


def _fc_passages(r: dict[str, Any]) -> Iterator[tuple[str, str | None]]:
    """Each auto-retrieved passage of an answer's claims (stripped, non-empty), in order,
    with its stance on the claim it was retrieved for (None where none is given)."""
    for s in r["sentences"].values():
        stances = s.get("stance_claim_autoEvid", [])
        for k, passages in enumerate(s.get("auto_evidence", [])):
            st = stances[k] if k < len(stances) else []
            for m, p in enumerate(passages):
                if isinstance(p, str) and p.strip():
                    yield p.strip(), st[m] if m < len(st) else None


def _fc_evidence(r: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys(p for p, _ in _fc_passages(r)))


def factcheck_gpt(data: Path) -> Iterator[Row]:
    """Answer level: the question, ChatGPT's answer, the auto-retrieved passages of all
    its claims as contexts; label = response_factuality ("NA" skipped). People judged
    truth with their own evidence too: read it as hallucination, not strict faithfulness."""
    for i, r in enumerate(_jsonl(data / "factcheck_gpt" / "factcheck-GPT-benchmark.jsonl")):
        fact = r["response_factuality"]
        if not isinstance(fact, bool):
            continue
        yield _row(
            f"factcheck_gpt/{i}",
            r["prompt"],
            _fc_evidence(r),
            r["response"],
            {"faithful": int(fact)},
            "factcheck_gpt",
            "factcheck_gpt:" + r["prompt"],
        )


def factcheck_gpt_stance(data: Path) -> Iterator[Row]:
    """Subtask 3: one claim against one evidence passage; completely-support faithful,
    partially-support / refute / irrelevant not (the stance is kept as `stance`)."""
    path = data / "factcheck_gpt" / "subtask3_claim_evidence_stance.jsonl"
    for i, r in enumerate(_jsonl(path)):
        yield _row(
            f"factcheck_gpt_stance/{i}",
            NO_QUESTION,
            [r["evidence"]],
            r["claim"],
            {"faithful": int(r["stance"] == "completely-support"), "stance": r["stance"]},
            "factcheck_gpt_stance",
            "factcheck_gpt:" + r["claim"],
        )


# Stance of a passage on a claim -> relevance of the passage to the claim's question.
QUESTION_GRADE = {"irrelevant": 0, "partially-support": 1, "completely-support": 2, "refute": 2}


def factcheck_gpt_questions(data: Path) -> Iterator[Row]:
    """Question vs one passage (no answer), for choosing the relevance form, never for
    fitting: the passages were retrieved for the claims of ChatGPT's answer to the
    question, and a passage that supports or refutes a claim answers its question.
    Grade 0 (irrelevant to every claim it was retrieved for), 1 (partially supports
    one), 2 (supports or refutes one); a passage retrieved for several claims of the
    same question takes its highest grade."""
    for i, r in enumerate(_jsonl(data / "factcheck_gpt" / "factcheck-GPT-benchmark.jsonl")):
        grade: dict[str, int] = {}
        for p, st in _fc_passages(r):
            if st in QUESTION_GRADE:
                grade[p] = max(grade.get(p, 0), QUESTION_GRADE[st])
        for j, (p, g) in enumerate(grade.items()):
            yield _row(
                f"factcheck_gpt_questions/{i}-{j}",
                r["prompt"],
                [p],
                "",
                {"relevance": g},
                "factcheck_gpt_questions",
                "factcheck_gpt:" + r["prompt"],
            )


def q2(data: Path) -> Iterator[Row]:
    """Q2 cross-annotation: both systems' responses; label 0 = faithful (consistent)."""
    with (data / "q2" / "cross_annotation.csv").open(encoding="utf-8", newline="") as fh:
        for r in csv.DictReader(fh):
            for system in ("dodeca", "memnet"):
                label = int(r[f"{system}_label"])
                yield _row(
                    f"q2/{r['']}-{system}",
                    r["message"],
                    [r["knowledge"]],
                    r[f"{system}_response"],
                    {"faithful": 1 - label, "q2_label": label},
                    "q2",
                    "q2:" + r["knowledge"],
                    reference=r["gold"] or None,
                    system=system,
                    topic=r["topic"],
                )


def dialfact(data: Path) -> Iterator[Row]:
    """DialFact sample: the dialogue turns are the question, the Wikipedia evidence
    snippets the contexts; SUPPORTS faithful, REFUTES / NOT ENOUGH INFO not."""
    for r in _jsonl(data / "dialfact" / "testsmall.jsonl"):
        snippets = [e[2].strip() for e in r["evidence_list"] if len(e) > 2 and e[2].strip()]
        contexts = list(dict.fromkeys(snippets)) or [r["evidence_touse"]]
        yield _row(
            f"dialfact/{r['id']}",
            "\n".join(t.strip() for t in r["context"] if t.strip()),
            contexts,
            r["response"],
            {
                "faithful": int(r["response_label"] == "SUPPORTS"),
                "dialfact_label": r["response_label"],
                "type_label": r["type_label"],
            },
            "dialfact",
            "dialfact:" + r["context_id"].split("___")[0],
            data_type=r["data_type"],
        )


def trec_dl2020(data: Path) -> Iterator[Row]:
    """Query vs one retrieved passage, no answer; label the NIST grade 0-3 (judged hits only)."""
    root = data / "trec_dl2020"
    qrels = json.loads((root / "qrels_dl20.json").read_text(encoding="utf-8"))
    for q in json.loads((root / "retrieve_results_dl20.json").read_text(encoding="utf-8")):
        for h in q["hits"]:
            grade = qrels.get(str(h["qid"]), {}).get(str(h["docid"]))
            if grade is None:
                continue
            yield _row(
                f"trec_dl2020/{h['qid']}-{h['docid']}",
                q["query"],
                [h["content"]],
                "",
                {"relevance": int(grade)},
                "trec_dl2020",
                f"trec:{h['qid']}",
                qid=h["qid"],
                docid=str(h["docid"]),
                rank=h["rank"],
            )


def sas(data: Path) -> Iterator[Row]:
    """SAS pairs: answer1 the reference, answer2 the answer; grade 2 / 1 / 0 (empty skipped)."""
    for name, lang in (("SQuAD_SAS", "en"), ("GermanQuAD_SAS", "de")):
        with (data / "sas" / f"{name}.csv").open(encoding="utf-8", newline="") as fh:
            for i, r in enumerate(csv.DictReader(fh)):
                if not r["label"].strip():
                    continue
                yield _row(
                    f"sas/{lang}-{i}",
                    NO_QUESTION_QA,
                    [],
                    r["answer2"],
                    {"answer_similarity": int(float(r["label"]))},
                    "sas",
                    f"sas:{lang}:{r['answer1']}",
                    reference=r["answer1"],
                    language=lang,
                )


SETS: dict[str, Callable[[Path], Iterator[Row]]] = {
    "summedits": summedits,
    "begin": begin,
    "evouna_tq": evouna,
    "wice": wice,
    "wice_subclaims": wice_subclaims,
    "factcheck_gpt": factcheck_gpt,
    "factcheck_gpt_stance": factcheck_gpt_stance,
    "factcheck_gpt_questions": factcheck_gpt_questions,
    "q2": q2,
    "dialfact": dialfact,
    "trec_dl2020": trec_dl2020,
    "sas": sas,
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--sets", default=",".join(SETS), help="comma-separated (default: all)")
    args = ap.parse_args()
    if not args.data.is_dir():
        raise SystemExit(f"{args.data}: no such folder (the dev data, see its README.md)")
    unknown = sorted(set(args.sets.split(",")) - set(SETS))
    if unknown:
        raise SystemExit(f"unknown set(s) {', '.join(unknown)}; known: {', '.join(SETS)}")
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.sets.split(","):
        rows = list(SETS[name](args.data))
        path = args.out / f"{name}.jsonl"
        tmp = path.with_suffix(".tmp")
        with tmp.open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        tmp.replace(path)
        n_fit = sum(r["metadata"]["split"] == "fit" for r in rows)
        print(f"{path}: {len(rows)} rows ({n_fit} fit, {len(rows) - n_fit} eval)")


if __name__ == "__main__":
    main()
