"""Convert the human-labelled dev sets in shared/data to ragassay JSONL.

Each row: id, question, contexts, answer, reference, labels, metadata (source
set, split "fit"/"eval"). The split is a deterministic 50/50 by a hash of the
row's *group* (the SummEdits document, the BEGIN knowledge passage, the
EVOUNA question) so that no document or question is on both sides.

    .venv/bin/python scripts/devsets/convert.py [--data ../shared/data] [--out data/devsets]
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATA = ROOT.parent / "shared" / "data"
DEFAULT_OUT = ROOT / "data" / "devsets"


def split_of(group: str) -> str:
    """Deterministic 50/50 split by a hash of the group key."""
    return "fit" if hashlib.sha256(group.encode()).digest()[0] % 2 == 0 else "eval"


def summedits(data: Path) -> Iterator[dict[str, Any]]:
    for f in sorted((data / "summedits").glob("*.json")):
        for r in json.loads(f.read_text(encoding="utf-8")):
            yield {
                "id": f"summedits/{r['id']}",
                "question": "Summarise the document.",
                "contexts": [r["doc"]],
                "answer": r["summary"],
                "reference": None,
                "labels": {"faithful": int(r["label"])},
                "metadata": {
                    "source": "summedits",
                    "domain": f.stem,
                    "edit_types": r.get("edit_types", []),
                    "split": split_of("summedits:" + r["doc"]),
                },
            }


def begin(data: Path) -> Iterator[dict[str, Any]]:
    path = data / "begin" / "dev_wow.tsv"
    with path.open(encoding="utf-8", newline="") as fh:
        for i, r in enumerate(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)):
            lab = r["begin_label"].strip()
            yield {
                "id": f"begin/wow-dev-{i}",
                "question": r["message"],
                "contexts": [r["knowledge"]],
                "answer": r["response"],
                "reference": None,
                "labels": {"faithful": int(lab == "Fully attributable"), "begin_label": lab},
                "metadata": {
                    "source": "begin",
                    "model": r["model_name"],
                    "split": split_of("begin:" + r["knowledge"]),
                },
            }


def evouna(data: Path, part: str = "TQ") -> Iterator[dict[str, Any]]:
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
            yield {
                "id": f"evouna/{part}-{qi}-{system}",
                "question": r["question"],
                "contexts": [],
                "answer": str(r[key] or ""),
                "reference": golds,
                "labels": {"correct": int(judged)},
                "metadata": {
                    "source": f"evouna_{part.lower()}",
                    "system": system,
                    "split": split_of(f"evouna:{part}:{r['question']}"),
                },
            }


SETS = {"summedits": summedits, "begin": begin, "evouna_tq": evouna}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, fn in SETS.items():
        rows = list(fn(args.data))
        path = args.out / f"{name}.jsonl"
        with path.open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        n_fit = sum(r["metadata"]["split"] == "fit" for r in rows)
        print(f"{path}: {len(rows)} rows ({n_fit} fit, {len(rows) - n_fit} eval)")


if __name__ == "__main__":
    main()
