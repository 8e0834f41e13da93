"""The offline judge: answers every prompt from local evidence, with no network and no key.

Evidence (sentence alignment with embeddings plus lexical checks) is computed once
per sample, in batches ahead of the suites, and each prompt's `offline` function maps
it onto the same typed output an LLM would return.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from ragassay.judge.base import Verdict
from ragassay.judge.prompt import Prompt
from ragassay.types import Sample


def _key(sample: Sample) -> tuple[str, str]:
    return (sample.strategy, sample.id)


class OfflineJudge:
    """The embedded default judge."""

    kind: Literal["offline", "llm"] = "offline"
    spec = "offline"

    def __init__(self, analyzer: Any | None = None) -> None:
        if analyzer is None:
            from ragassay.judge.offline import Analyzer

            analyzer = Analyzer()
        self.analyzer = analyzer
        self.model = str(getattr(analyzer, "model_name", "offline"))
        self._evidence: dict[tuple[str, str], Any] = {}

    async def prepare(self, samples: Sequence[Sample]) -> None:
        todo = [s for s in samples if _key(s) not in self._evidence]
        if not todo:
            return
        found = await asyncio.to_thread(self.analyzer.analyze_many, todo)
        for s, ev in zip(todo, found, strict=True):
            self._evidence[_key(s)] = ev

    def release(self, samples: Sequence[Sample]) -> None:
        for s in samples:
            self._evidence.pop(_key(s), None)

    async def aclose(self) -> None:
        self._evidence.clear()

    async def run(self, prompt: Prompt, sample: Sample, values: Mapping[str, Any]) -> Verdict:
        if prompt.offline is None:
            return Verdict(prompt.name, prompt.version, None,
                           unscored_reason=f"prompt {prompt.name} has no offline implementation")
        evidence = self._evidence.get(_key(sample))
        if evidence is None:
            await self.prepare([sample])
            evidence = self._evidence[_key(sample)]
        try:
            output = prompt.offline(sample, evidence, values)
        except (ValueError, ArithmeticError, IndexError, KeyError) as exc:
            return Verdict(prompt.name, prompt.version, None,
                           unscored_reason=f"offline judge failed: {type(exc).__name__}: {exc}")
        return Verdict(prompt.name, prompt.version, output)
