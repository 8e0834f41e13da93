"""Judges: prompt templates with typed outputs, and the judges that answer them.

`make_judge("offline")` gives the embedded offline judge; `make_judge("openai:MODEL")`
an LLM judge over any registered backend.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ragassay.judge.base import Asker, CallLog, Judge, JudgeAborted, Verdict
from ragassay.judge.prompt import Prompt, PromptError, fence, load_prompt
from ragassay.judge.reliability import (
    Agreement,
    Reliability,
    gate_warning_summary,
    gate_warnings,
    held_apart_context,
    weak_held_apart,
)
from ragassay.judge.scales import Flag, Reasoning, Score10, Unit, item_number
from ragassay.llm.logprobs import SoftValue
from ragassay.types import OFFLINE_SPECS, BackendOptions, is_offline

if TYPE_CHECKING:
    from ragassay.judge.llm_judge import Cache

__all__ = [
    "Agreement", "Asker", "CallLog", "Flag", "Judge", "JudgeAborted", "Prompt", "PromptError",
    "Reasoning", "Reliability", "Score10", "SoftValue", "Unit", "Verdict", "fence",
    "OFFLINE_SPECS", "gate_warning_summary", "gate_warnings", "held_apart_context", "is_offline",
    "load_prompt", "weak_held_apart",
    "item_number", "make_judge",
]


def make_judge(spec: str, *, cache: Cache | None = None, use_cache: bool = True,
               backend_options: BackendOptions | None = None,
               ratings: str = "expected") -> Judge:
    """Build a judge from a spec: `offline` (default), `offline:accurate` or
    `BACKEND:MODEL`; `ratings` ("expected" or "greedy") says how an LLM judge reads
    ratings and flags."""
    if is_offline(spec):
        from ragassay.judge.offline_judge import OfflineJudge

        return OfflineJudge(accurate=spec.strip() == "offline:accurate")
    from ragassay.judge.llm_judge import LLMJudge
    from ragassay.llm import BackendOptions, get_backend

    backend = get_backend(spec, backend_options or BackendOptions())
    return LLMJudge(backend, cache=cache, use_cache=use_cache, spec=spec, ratings=ratings)
