"""Teach the static token table to mimic the transformer on whole texts (label-free).

The shipped table (distill_static.py) holds each token's vector from a forward pass of
the token alone. A text's static embedding, the SIF-weighted sum of its tokens'
vectors, is then a rough copy of what all-MiniLM-L6-v2 makes of the text, worst on
passages (where the accurate mode's relevance, from the transformer, is far better).
This script fits the table so that the static embedding of a text points where the
transformer's does (cosine loss), the tokenlearn recipe of model2vec:

1. corpus: sentences and passages (windows of whole sentences, up to 100 words) of the
   dev sets' questions, answers and contexts, no labels; TREC DL 2020's texts are left
   out, so the relevance figure measured on it stays an unseen-set figure;
2. teacher: the transformer's embedding of each text (cut at 256 word pieces, as
   `local`), cached under data/devsets/cache;
3. student: table rows (initialised from the shipped table) summed with the fixed SIF
   weights, times a learned 256 x 384 map; Adam on 1 - cosine, early stopping on a
   held-out tenth of the texts, an L2 pull towards the initial table;
4. the map is folded into the table (an exact rotation back to 256 dimensions: the
   map's SVD), so the product's embedder is unchanged: a lookup and a weighted sum.

    .venv/bin/python scripts/devsets/learn_static.py [--texts 40000] [--out PATH]

By default it writes data/devsets/static_learned.npz; docs/judges.md says how it was
measured (written over the shipped table, refitted, LOO, then restored).

Deterministic for a given corpus (seeded sampling, seeded initialisation).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import time
from pathlib import Path

import numpy as np
from common import CACHE, DEVSETS

from ragassay.embed.static import _WORD, MAX_TOKENS, TABLE_PATH, StaticEmbedder
from ragassay.text import split_sentences

LEFT_OUT = {"trec_dl2020"}  # the graded-relevance set: measured on, never learned from
WINDOW_WORDS = 100


def corpus(n_texts: int, seed: int = 0) -> list[str]:
    """Half sentences, half passages, sampled from every dev set but LEFT_OUT."""
    sentences: set[str] = set()
    passages: set[str] = set()
    for path in sorted(DEVSETS.glob("*.jsonl")):
        if path.stem in LEFT_OUT:
            continue
        for line in path.open(encoding="utf-8"):
            r = json.loads(line)
            texts = [r.get("question") or "", r.get("answer") or "", *(r.get("contexts") or [])]
            for t in texts:
                sents = [s for s in split_sentences(t) if 3 <= len(s.split()) <= 80]
                sentences.update(sents)
                window: list[str] = []
                words = 0
                for s in sents:
                    n = len(s.split())
                    if window and words + n > WINDOW_WORDS:
                        passages.add(" ".join(window))
                        window, words = [], 0
                    window.append(s)
                    words += n
                if len(window) > 1:
                    passages.add(" ".join(window))
    rng = random.Random(seed)
    half = n_texts // 2
    pick_s = rng.sample(sorted(sentences), min(half, len(sentences)))
    pick_p = rng.sample(sorted(passages), min(n_texts - len(pick_s), len(passages)))
    texts = pick_s + pick_p
    rng.shuffle(texts)
    print(
        f"corpus: {len(pick_s)} sentences of {len(sentences)}, {len(pick_p)} passages of "
        f"{len(passages)}"
    )
    return texts


def teacher(texts: list[str]) -> np.ndarray:
    """The transformer's embeddings of the texts, computed once and cached on disk."""
    from ragassay.embed import LocalEmbedder

    emb = LocalEmbedder(batch_size=128)  # the model loads on the first embed() only
    key = hashlib.sha256("\n".join([emb.name, *texts]).encode()).hexdigest()[:16]
    path = CACHE / f"teacher-{key}.npy"
    if path.is_file():
        return np.load(path)
    out = []
    t0 = time.time()
    for i in range(0, len(texts), 2000):
        out.append(emb.embed(texts[i : i + 2000]))
        done = i + len(out[-1])
        print(
            f"\r  teacher: {done}/{len(texts)}, {done / (time.time() - t0):.0f} texts/s",
            end="",
            flush=True,
        )
    print()
    vecs = np.concatenate(out).astype(np.float32)
    CACHE.mkdir(parents=True, exist_ok=True)
    np.save(path, vecs)
    return vecs


def token_matrix(texts: list[str], weights: np.ndarray, vocab: int):  # type: ignore[no-untyped-def]
    """texts x vocab, the SIF weight of each token occurrence (as StaticEmbedder sums)."""
    from scipy.sparse import csr_matrix

    tok = StaticEmbedder()._tokenizer()  # the product's WordPiece set-up, unpadded
    rows, cols, vals = [], [], []
    cache: dict[str, list[int]] = {}
    for i, t in enumerate(texts):
        words = _WORD.findall(t.lower())[:MAX_TOKENS]
        new = [w for w in dict.fromkeys(words) if w not in cache]
        if new:
            for w, e in zip(new, tok.encode_batch_fast(new, add_special_tokens=False), strict=True):
                cache[w] = list(e.ids)
        for w in words:
            for j in cache[w]:
                rows.append(i)
                cols.append(j)
                vals.append(float(weights[j]))
    return csr_matrix((vals, (rows, cols)), shape=(len(texts), vocab), dtype=np.float32)


def _torch_rows(x, rows: np.ndarray):  # type: ignore[no-untyped-def]
    import torch

    sub = x[rows].tocoo()
    idx = torch.from_numpy(np.vstack([sub.row, sub.col]).astype(np.int64))
    return torch.sparse_coo_tensor(idx, torch.from_numpy(sub.data), size=sub.shape)


def learn(table: np.ndarray, x, target: np.ndarray, args: argparse.Namespace) -> np.ndarray:  # type: ignore[no-untyped-def]
    import torch
    from torch.nn.functional import cosine_similarity, normalize

    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    n = x.shape[0]
    val_rows, train_rows = np.arange(n // 10), np.arange(n // 10, n)
    y = normalize(torch.from_numpy(target), dim=1)
    init = torch.from_numpy(table.astype(np.float32))
    t = torch.nn.Parameter(init.clone())
    xv, xt = _torch_rows(x, val_rows), _torch_rows(x, train_rows)
    with torch.no_grad():  # the initial map: least squares, initial student -> teacher
        w0 = torch.linalg.lstsq(normalize(torch.sparse.mm(xt, init), dim=1), y[train_rows]).solution
    w = torch.nn.Parameter(w0.clone())
    opt = torch.optim.Adam([t, w], lr=args.lr)

    def distance(xs, rows: np.ndarray) -> torch.Tensor:  # type: ignore[no-untyped-def]
        s = torch.sparse.mm(xs, t) @ w
        return 1.0 - cosine_similarity(s, y[rows], dim=1).mean()

    with torch.no_grad():
        best = float(distance(xv, val_rows))
    print(f"  start: validation 1-cos {best:.4f}", flush=True)
    best_t, best_w, stale = t.detach().clone(), w.detach().clone(), 0
    for epoch in range(args.epochs):
        perm = rng.permutation(train_rows)
        for i in range(0, len(perm), args.batch):
            rows = perm[i : i + args.batch]
            opt.zero_grad()
            loss = distance(_torch_rows(x, rows), rows)
            loss = loss + args.pull * ((t - init) ** 2).sum(dim=1).mean()
            loss.backward()
            opt.step()
        with torch.no_grad():
            val = float(distance(xv, val_rows))
        print(f"  epoch {epoch + 1}: validation 1-cos {val:.4f}", flush=True)
        if val < best - 1e-4:
            best, best_t, best_w, stale = val, t.detach().clone(), w.detach().clone(), 0
        else:
            stale += 1
            if stale >= 2:
                break
    # fold the map in: T W = T U S V^T, and V^T has orthonormal rows, so T U S (256-d)
    # has the same dot products as T W (384-d)
    u, sv, _ = torch.linalg.svd(best_w, full_matrices=False)
    return (best_t @ u @ torch.diag(sv)).numpy()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--texts", type=int, default=40_000)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--pull", type=float, default=1e-3, help="L2 pull towards the initial table")
    ap.add_argument("--base", type=Path, default=TABLE_PATH, help="the table to start from")
    ap.add_argument(
        "--out",
        type=Path,
        default=DEVSETS / "static_learned.npz",
        help="where to write the table (the shipped one is embed/static_minilm.npz)",
    )
    args = ap.parse_args()
    texts = corpus(args.texts)
    target = teacher(texts)
    with np.load(args.base) as z:
        table = z["table"].astype(np.float32)
        weights = z["weights"].astype(np.float32)
        source = str(z["source"])
    x = token_matrix(texts, weights, table.shape[0])
    learned = learn(table, x, target, args)
    learned /= float(np.abs(learned).max())  # cosines ignore the scale; float16 keeps it
    np.savez(
        args.out,
        table=learned.astype(np.float16),
        weights=weights,
        source=np.array(
            re.sub(r"; learned.*", "", source) + "; learned on dev-set texts "
            "(scripts/devsets/learn_static.py)"
        ),
    )
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
