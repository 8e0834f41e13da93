"""Shared helpers for the dev-set scripts: loading rows, raw features with a disk cache."""

from __future__ import annotations

import hashlib
import json
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
DEVSETS = ROOT / "data" / "devsets"
CACHE = DEVSETS / "cache"
sys.path.insert(0, str(ROOT / "src"))

from ragassay.dataset import sample_from_mapping  # noqa: E402
from ragassay.embed import get_embedder, text_key  # noqa: E402
from ragassay.judge.offline import Analyzer, Calibration, LogisticModel  # noqa: E402
from ragassay.judge.offline.answer import answer_rows, claim_logits  # noqa: E402
from ragassay.judge.offline.features import (  # noqa: E402
    FAITHFULNESS_FEATURES,
    REFERENCE_FEATURES,
    SUPPORT_FEATURES,
)
from ragassay.judge.offline.reference import reference_rows  # noqa: E402
from ragassay.stats.baseline import lexical_support  # noqa: E402
from ragassay.types import Sample  # noqa: E402

FAITH_SETS = (
    "summedits",
    "begin",
    "wice",
    "factcheck_gpt",
    "factcheck_gpt_stance",
    "q2",
    "dialfact",
)
REF_SETS = ("evouna_tq",)


def load_rows(name: str, split: str | None = None) -> list[dict[str, Any]]:
    path = DEVSETS / f"{name}.jsonl"
    if not path.is_file():
        raise SystemExit(f"{path} missing: run scripts/devsets/convert.py first")
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    return [r for r in rows if split is None or r["metadata"]["split"] == split]


def to_sample(r: dict[str, Any]) -> Sample:
    """A converted dev-set row as a Sample, through the loader's one validation path."""
    return sample_from_mapping(r, where=str(r.get("id", "devset")))


def _zero_model(names: tuple[str, ...]) -> LogisticModel:
    n = len(names)
    return LogisticModel(names, np.zeros(n), np.ones(n), np.zeros(n), 0.0)


def blank_calibration() -> Calibration:
    return Calibration(
        _zero_model(SUPPORT_FEATURES),
        _zero_model(FAITHFULNESS_FEATURES),
        _zero_model(REFERENCE_FEATURES),
        {},
    )


class DiskCachedEmbedder:
    """Embeds through get_embedder(spec), persisting rows by text hash under CACHE.

    The transformer embeddings of the dev sets take minutes on two shared
    cores; with this they are computed once, whatever the feature code does.
    """

    def __init__(self, spec: str) -> None:
        self.inner = get_embedder(spec)
        self.name, self.dim = self.inner.name, self.inner.dim
        self.path = CACHE / f"emb-{spec}.pkl"
        self.rows: dict[bytes, np.ndarray] = {}
        if self.path.is_file():
            with self.path.open("rb") as fh:
                self.rows = pickle.load(fh)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        keys = [text_key(t) for t in texts]
        todo = list(dict.fromkeys(k for k in keys if k not in self.rows))
        if todo:
            by_key = {k: t for k, t in zip(keys, texts, strict=True)}
            fresh = self.inner.embed([by_key[k] for k in todo])
            self.rows.update(zip(todo, fresh, strict=True))
            tmp = self.path.with_suffix(".tmp")
            with tmp.open("wb") as fh:
                pickle.dump(self.rows, fh)
            tmp.replace(self.path)
        if not keys:
            return np.zeros((0, self.dim), np.float32)
        return np.stack([self.rows[k] for k in keys])


def _code_hash() -> str:
    src = ROOT / "src" / "ragassay"
    h = hashlib.sha256()
    for p in sorted(
        [
            *(src / "judge" / "offline").glob("*.py"),
            *(src / "embed").glob("*.py"),
            *(src / "embed").glob("*.npz"),  # the static table: a new one changes every row
            *(src / "embed").glob("*.json"),  # ... and its tokenizer
            *(src / "text").glob("*.py"),  # splitting, keying, citation markers
            Path(__file__),  # this file builds the records
        ]
    ):
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def raw_features(name: str, embedder: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-row raw features (support rows per sentence, or reference rows per gold), cached."""
    CACHE.mkdir(parents=True, exist_ok=True)
    ids = hashlib.sha256("\n".join(r["id"] for r in rows).encode()).hexdigest()[:8]
    path = CACHE / f"{name}-{embedder}-{ids}-{_code_hash()}.pkl"
    if path.is_file():
        with path.open("rb") as fh:
            cached: list[dict[str, Any]] = pickle.load(fh)
        return cached
    emb = DiskCachedEmbedder(embedder) if embedder == "local" else embedder
    an = Analyzer(embedder=emb, calibration=blank_calibration())
    out: list[dict[str, Any]] = []
    for i in range(0, len(rows), 256):
        chunk = rows[i : i + 256]
        for r, p in zip(chunk, an.prepare_many([to_sample(r) for r in chunk]), strict=True):
            rec: dict[str, Any] = {
                "id": r["id"],
                "labels": r["labels"],
                "meta": r["metadata"],
                "baseline": lexical_support(p.sample),
            }
            # what the analyzer reads (answer.answer_rows): the claims (abstentions and
            # filler set aside; an answer with nothing else is faithful by rule, not
            # fitted) with their support features and rules
            answer = answer_rows(p) if p.ctx.infos and p.answer_infos else None
            kept = answer.claims if answer is not None else []
            if answer is not None and kept:
                rec["support"] = [answer.features[i] for i in kept]
                rec["copied"] = [answer.copied[i] for i in kept]
                rec["contradicts"] = [answer.contradicts[i] for i in kept]
                rec["missing_each"] = [answer.missing[i] for i in kept]
                rec["told"] = [answer.told[i] for i in kept]
                rec["paraphrased"] = [answer.paraphrased[i] for i in kept]
                rec["novel_terms"] = len(answer.hallucinated)
            references = reference_rows(p, an.limits)  # each reference cut as the analyzer cuts it
            if references:
                rec["reference"] = references
            out.append(rec)
    with path.open("wb") as fh:
        pickle.dump(out, fh)
    return out


def support_logits(rec: dict[str, Any], model: LogisticModel) -> list[float]:
    """A record's per-sentence support logits, as the analyzer computes them
    (answer.claim_logits)."""
    logits: list[float] = model.logits(np.asarray(rec["support"])).tolist()
    told = rec.get("told", [False] * len(logits))  # records cached before it was kept
    return claim_logits(logits, rec["copied"], rec["contradicts"], rec["missing_each"], told,
                        rec.get("paraphrased"))
