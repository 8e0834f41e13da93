"""The offline judge: typed evidence for keyed samples, with no network and no key.

Evidence (sentence alignment with embeddings plus lexical checks) is computed once per
sample, a batch at a time (one embedder call for the whole batch), and each suite maps
it onto its own verdicts (`Suite.evaluate_offline`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ragassay.judge.reliability import Reliability, load_reliability
from ragassay.text import KeyedSample
from ragassay.types import OFFLINE_SPECS

RELIABILITY_PATH = Path(__file__).resolve().parent / "offline" / "reliability.json"
"""Written by scripts/devsets/loo.py (leave-one-dataset-out on ../shared/data)."""
ACCURATE_RELIABILITY_PATH = RELIABILITY_PATH.with_name("reliability-accurate.json")
"""The accurate mode's relevance figures (loo.py --relevance-embedder local:128), over the
default table."""
ACCURATE_RELEVANCE = "local:128"
"""The accurate mode's relevance embedder: the transformer on each document's first 128
word pieces, the length all-MiniLM-L6-v2 was trained on: 1.5x the throughput of the
256-piece cut on 150-word documents, with the same TREC DL 2020 values (docs/judges.md)."""

if TYPE_CHECKING:
    from ragassay.judge.offline import Analyzer, Evidence


class OfflineJudge:
    """The embedded default judge."""

    kind: Literal["offline", "llm"] = "offline"

    def __init__(self, analyzer: Analyzer | None = None, *, accurate: bool = False) -> None:
        """`accurate`: relevance from the transformer, and its restatement floor on
        support (restated.py; needs the `embed` extra; without it a one-line
        `MissingExtra`)."""
        if analyzer is None:
            from ragassay.judge.offline import Analyzer

            mode = ACCURATE_RELEVANCE if accurate else None
            analyzer = Analyzer(relevance_embedder=mode, restatement_embedder=mode)
        self.analyzer = analyzer
        self.accurate = accurate
        self.spec = OFFLINE_SPECS[1] if accurate else OFFLINE_SPECS[0]
        self.model = str(getattr(analyzer, "model_name", "offline"))

    @property
    def reliability(self) -> Reliability:
        """Its agreement with people on unseen sets, shipped with the package."""
        return load_reliability(RELIABILITY_PATH, self.spec,
                                ACCURATE_RELIABILITY_PATH if self.accurate else None)

    @property
    def embedder_name(self) -> str:
        """The embedders the evidence uses, as reports name them (the accurate mode's
        relevance embedder too)."""
        main = getattr(self.analyzer, "embedder", None)
        rel = getattr(self.analyzer, "relevance_embedder", main)
        name = str(getattr(main, "name", "none"))
        return name if rel is main else f"{name}; relevance: {getattr(rel, 'name', 'none')}"

    def analyze(self, items: Sequence[KeyedSample]) -> list[Evidence]:
        """Evidence for each keyed sample (CPU-bound: the runner calls it in a thread)."""
        return list(self.analyzer.analyze_many(items))

    async def aclose(self) -> None:
        return None
