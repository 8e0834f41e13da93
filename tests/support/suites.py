"""Scoring one sample with one suite, as the runner does: keyed once, then either asking
an LLM judge or mapping the offline judge's evidence."""

from __future__ import annotations

import asyncio
from typing import Any

from ragassay.judge.offline_judge import OfflineJudge
from ragassay.metrics import Outcome, Suite, SuiteOptions
from ragassay.text import key_sample
from ragassay.types import Sample


def score(suite: Suite, sample: Sample, judge: Any = None, *, max_context_tokens: int = 6000,
          **options: Any) -> Outcome:
    """`judge` None or an OfflineJudge: the offline path; anything with `ask`: the LLM path."""
    item = key_sample(sample, max_context_tokens)
    opts = SuiteOptions(**options)
    if judge is None or isinstance(judge, OfflineJudge):
        judge = judge or OfflineJudge()
        return suite.evaluate_offline(item, judge.analyze([item])[0], opts)
    return asyncio.run(suite.evaluate(item, judge, opts))


async def ascore(suite: Suite, sample: Sample, judge: Any, *, max_context_tokens: int = 6000,
                 **options: Any) -> Outcome:
    """The LLM path inside a running loop."""
    return await suite.evaluate(key_sample(sample, max_context_tokens), judge,
                                SuiteOptions(**options))
