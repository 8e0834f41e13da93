"""The transformer embedder `local` on onnxruntime, side by side with sentence-transformers
on torch (the embedder it replaced; both run the packaged all-MiniLM-L6-v2), in one
process on the same texts, interleaved repeats, medians and ratios.

Texts: the handbook corpus (examples/handbook) as 150-word passages and as sentences,
its questions, and the demo dataset's questions, contexts and answers (about 430 unique
texts). Each repeat embeds all of them with each embedder, batches of 64 sorted by
length (what both do), no cache. Wall and CPU seconds; the CPU figure moves less when
other jobs share the cores. Needs the dev install (torch is a development dependency).

    .venv/bin/python benches/embedder_speed.py [--repeats 5] [--cut 256 128]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from _common import REPO, machine, md_table, median  # noqa: E402

from ragassay.embed import LocalEmbedder, packaged_model_path  # noqa: E402


def texts() -> list[str]:
    out: list[str] = []
    for line in (REPO / "src/ragassay/dataset/samples/demo.jsonl").read_text().splitlines():
        row = json.loads(line)
        out += [row.get("question") or "", row.get("answer") or "", *row.get("contexts", [])]
    for path in sorted((REPO / "examples/handbook/corpus").rglob("*.md")):
        text = path.read_text()
        words = text.split()
        out += [" ".join(words[i : i + 150]) for i in range(0, len(words), 150)]
        out += re.split(r"(?<=[.!?])\s+", text)
    for line in (REPO / "examples/handbook/questions.jsonl").read_text().splitlines():
        out.append(json.loads(line).get("question") or "")
    return [t for t in dict.fromkeys(out) if t.strip()]


def torch_embedder(cut: int) -> Callable[[list[str]], np.ndarray]:
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(packaged_model_path()), device="cpu")
    model.max_seq_length = cut
    return lambda ts: np.asarray(model.encode(ts, batch_size=64, normalize_embeddings=True,
                                              show_progress_bar=False))


def timed(fn: Callable[..., Any], *args: Any) -> tuple[float, float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn(*args)
    return time.perf_counter() - wall, time.process_time() - cpu, out


def compare(batch: list[str], cut: int, repeats: int) -> list[str]:
    """One table row: load times, then interleaved repeats of both embedders."""
    ours = LocalEmbedder(max_seq_length=cut)
    load_ort, _, _ = timed(ours.embed, ["warm up"])  # builds the graph and the session
    load_torch, _, ref = timed(torch_embedder, cut)
    ref(["warm up"])
    walls: dict[str, list[float]] = {"torch": [], "ort": []}
    cpus: dict[str, list[float]] = {"torch": [], "ort": []}
    cos = 1.0
    for _ in range(repeats):
        w, c, a = timed(ref, batch)
        walls["torch"].append(w)
        cpus["torch"].append(c)
        w, c, b = timed(ours.embed, batch)
        walls["ort"].append(w)
        cpus["ort"].append(c)
        cos = min(cos, float((a * b).sum(axis=1).min()))
    print(f"cut {cut}: torch walls {[round(x, 2) for x in walls['torch']]}, "
          f"onnxruntime walls {[round(x, 2) for x in walls['ort']]}")
    tw, ow, tc, oc = (median(walls["torch"]), median(walls["ort"]), median(cpus["torch"]),
                      median(cpus["ort"]))
    return ["local" if cut == 256 else f"local:{cut}", f"{load_torch:.1f}", f"{load_ort:.1f}",
            f"{tw:.2f}", f"{ow:.2f}", f"{tw / ow:.2f}x", f"{tc:.2f}", f"{oc:.2f}",
            f"{tc / oc:.2f}x", f"{cos:.6f}"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--cut", type=int, nargs="+", default=[256, 128])
    args = ap.parse_args()
    batch = texts()
    words = sum(len(t.split()) for t in batch)
    print(f"Machine: {machine()}")
    print(f"{len(batch)} texts, {words} words; {args.repeats} interleaved repeats\n")
    rows = [compare(batch, cut, args.repeats) for cut in args.cut]
    print()
    print(md_table(["spec", "load torch s", "load ort s", "torch wall s", "ort wall s",
                    "speed-up (wall)", "torch CPU s", "ort CPU s", "speed-up (CPU)",
                    "min cosine"], rows))


if __name__ == "__main__":
    main()
