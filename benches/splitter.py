"""How closely ragassay.text.split_sentences (a rule-based splitter) agrees with pysbd.

pysbd was most of the offline judge's time on unseen contexts, so ragassay splits with
a linear-time rule instead. This prints how often the two give exactly the same
sentences on the dev sets' texts, and both speeds.

    .venv/bin/python scripts/devsets/convert.py   # once: data/devsets/
    .venv/bin/python benches/splitter.py
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from ragassay.text import split_sentences  # noqa: E402

fast_split = split_sentences

_SEGMENTER = None


def pysbd_split(text: str) -> list[str]:
    """The reference: pysbd (a dev dependency), paragraph-aware like ragassay.text."""
    global _SEGMENTER
    import pysbd

    if _SEGMENTER is None:
        _SEGMENTER = pysbd.Segmenter(language="en", clean=False)
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        block = block.strip()
        if block:
            out += [" ".join(s.split()) for s in _SEGMENTER.segment(block) if s.strip()]
    return out


def main() -> None:
    docs: list[str] = []
    for name in ("summedits", "begin"):
        with (ROOT / "data" / "devsets" / f"{name}.jsonl").open(encoding="utf-8") as fh:
            for line in fh:
                r = json.loads(line)
                docs += [*r["contexts"], r["answer"]]
    docs = list(dict.fromkeys(docs))[:3000]
    t = time.perf_counter()
    fast = [fast_split(d) for d in docs]
    t_fast = (time.perf_counter() - t) * 1000 / len(docs)
    t = time.perf_counter()
    ref = [pysbd_split(d) for d in docs]
    t_ref = (time.perf_counter() - t) * 1000 / len(docs)
    same = sum(a == b for a, b in zip(fast, ref, strict=True)) / len(docs)
    print(f"{len(docs)} texts: identical splits {same:.3f}")
    print(f"ragassay.text {t_fast:.3f} ms/text, pysbd {t_ref:.2f} ms/text")


if __name__ == "__main__":
    main()
