"""A metric's outcome for one sample (`MetricResult`), a suite's for one sample
(`SampleResult`), and the reasons that say why a value is missing."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ragassay.types.base import Frozen
from ragassay.types.usage import Usage

NO_CONTEXTS, EMPTY_ANSWER, NO_REFERENCE = "no contexts", "empty answer", "no reference answer"
NO_CONTEXTS_OR_REFERENCE = "needs contexts or a reference answer"
NO_REFERENCE_OR_ANSWER = "needs a reference or an answer"
MISSING_INPUT = frozenset({NO_CONTEXTS, EMPTY_ANSWER, NO_REFERENCE, NO_CONTEXTS_OR_REFERENCE,
                           NO_REFERENCE_OR_ANSWER})
"""Unscored reasons that say a sample lacks an input the metric needs: a state of the
data, not a failure of scoring (the strategy summaries' `failed_questions` leave them out)."""

TRANSPORT_FAILURES = ("judge call failed: connection error*", "judge call failed: timed out*",
                      "judge call failed: HTTP 429*", "judge call failed: HTTP 5[0-9][0-9]*")
"""Unscored reasons (glob patterns, as SQLite's GLOB and `fnmatch.fnmatchcase` read
them) of a judge call that failed for the endpoint's sake: no connection, a timeout, 429 or
5xx after the retries. `--resume` judges them again; a reply that came but was unusable
(a content failure) is judged again only with `--retry-failed all`."""

ABSTENTION = "abstention"
"""The details key of an abstained value: "correct" (the contexts do not hold the answer),
"false" (they do) or "unknown" (the judge could not tell)."""
ABSTENTION_OUTCOMES = ("correct", "false", "unknown")


def abstained_reason(outcome: str) -> str:
    """What an export's reason column says for an abstained value ("abstained (false)"),
    beside the unscored reasons: every export and table says it this way."""
    return f"abstained ({outcome})"


Status = Literal["scored", "abstained", "unscored"]


class MetricResult(Frozen):
    """One metric's outcome for one sample: a value, unscored with a reason, or abstained
    (the answer declines: no value and no unscored reason; `details["abstention"]` says
    whether declining was right). Abstentions are left out of means and counted apart."""

    name: str
    value: float | bool | None
    unscored_reason: str | None = None
    details: dict[str, Any] = Field(default_factory=dict)

    @property
    def scored(self) -> bool:
        return self.value is not None

    @property
    def abstention(self) -> str | None:
        """"correct", "false" or "unknown" when the value is an abstention, else None."""
        if self.value is not None or self.unscored_reason is not None:
            return None
        got = self.details.get(ABSTENTION)
        return got if got in ABSTENTION_OUTCOMES else None

    @property
    def status(self) -> Status:
        if self.value is not None:
            return "scored"
        return "abstained" if self.abstention is not None else "unscored"


class SampleResult(Frozen):
    """Everything one suite produced for one sample."""

    sample_id: str
    strategy: str = "default"
    suite: str
    results: tuple[MetricResult, ...]
    reasoning: str | None = None
    usage: Usage = Usage()
