"""A batch file for benches/probes.py from a trial's probes: JSON lines of `id`, `kind`,
`domain`, `question`, `contexts` (the passages' texts) and `answer`, written by someone new
to the tool (benches/probes/README.md), turned into benches/probes/batch_X.toml unread:
each distinct passage becomes a document (PREFIX001, ...), the probes keep the order of
their ids, and the header says where the batch came from.

    .venv/bin/python benches/probe_batch.py probes.jsonl --header header.txt --prefix u \\
        > benches/probes/batch_u.toml
    .venv/bin/python benches/probes.py --batches u --check
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

FIELDS = ("id", "kind", "domain", "question", "contexts", "answer")


def batch_toml(rows: list[dict[str, Any]], header: str, prefix: str) -> str:
    """The TOML text of one batch: the header's comment lines, [documents], [[probe]]s."""
    for n, row in enumerate(rows, 1):
        missing = [f for f in FIELDS if f not in row]
        if missing:
            raise ValueError(f"probe {n}: missing {', '.join(missing)}")
    ids: dict[str, str] = {}
    for row in sorted(rows, key=lambda r: r["id"]):
        for passage in row["contexts"]:
            ids.setdefault(passage, f"{prefix}{len(ids) + 1:03d}")

    def q(text: str) -> str:
        return json.dumps(text, ensure_ascii=False)  # a TOML basic string is a JSON one

    lines = [f"# {line}".rstrip() if not line.startswith("#") else line
             for line in header.strip().splitlines()]
    lines += ["", "[documents]"] + [f"{k} = {q(text)}" for text, k in ids.items()]
    for row in sorted(rows, key=lambda r: r["id"]):
        lines += ["", "[[probe]]", f"kind = {q(row['kind'])}", f"domain = {q(row['domain'])}",
                  f"question = {q(row['question'])}",
                  "contexts = [" + ", ".join(q(ids[c]) for c in row["contexts"]) + "]",
                  f"answer = {q(row['answer'])}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("probes", type=Path, help="the trial's JSON lines")
    ap.add_argument("--header", type=Path, required=True, help="where the batch came from")
    ap.add_argument("--prefix", required=True, help="the documents' id prefix: the batch letter")
    args = ap.parse_args(argv)
    try:
        rows = [json.loads(line) for line in args.probes.read_text(encoding="utf-8")
                .splitlines() if line.strip()]
        text = batch_toml(rows, args.header.read_text(encoding="utf-8"), args.prefix)
    except (OSError, ValueError) as e:
        raise SystemExit(f"probe_batch: {e}") from None
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
