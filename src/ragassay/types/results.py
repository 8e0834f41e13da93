"""A metric's outcome for one sample (`MetricResult`), a suite's for one sample
(`SampleResult`), and the reasons that say why a value is missing."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from ragassay.types.base import Frozen
from ragassay.types.usage import Usage

NO_CONTEXTS, EMPTY_ANSWER, NO_REFERENCE = "no contexts", "empty answer", "no reference answer"
NO_CONTEXTS_OR_REFERENCE = "needs contexts or a reference answer"
NO_REFERENCE_OR_ANSWER = "needs a reference or an answer"
MISSING_INPUT = frozenset({NO_CONTEXTS, EMPTY_ANSWER, NO_REFERENCE, NO_CONTEXTS_OR_REFERENCE,
                           NO_REFERENCE_OR_ANSWER})
"""Unscored reasons that say a sample lacks an input the metric needs: a state of the
data, not a failure of scoring (the strategy summaries' `failed_questions` leave them out)."""
LACKING_INPUT = {NO_CONTEXTS: "contexts", EMPTY_ANSWER: "answer", NO_REFERENCE: "reference",
                 NO_CONTEXTS_OR_REFERENCE: "contexts or reference",
                 NO_REFERENCE_OR_ANSWER: "reference or answer"}
"""What each of those reasons says the sample lacks, in words (`no answer: 1`, `1 sample
has no answer`)."""

TRANSPORT_FAILURES = ("judge call failed: connection error*", "judge call failed: timed out*",
                      "judge call failed: HTTP 429*", "judge call failed: HTTP 5[0-9][0-9]*")
"""Unscored reasons (glob patterns, as SQLite's GLOB and `fnmatch.fnmatchcase` read
them) of a judge call that failed for the endpoint's sake: no connection, a timeout, 429 or
5xx after the retries. `--resume` judges them again; a reply that came but was unusable
(a content failure) is judged again only with `--retry-failed all`."""

Abstention = Literal["correct", "false", "unknown"]
ABSTENTION_OUTCOMES: tuple[Abstention, ...] = ("correct", "false", "unknown")
"""What an abstained value says of declining, as the judge reads the contexts on its basis
(`MetricResult.abstention_basis`): right ("correct": read as not answering), wrong
("false": read as answering), or "unknown" (the judge could not tell)."""


def abstained_reason(outcome: str) -> str:
    """What an export's reason column says for an abstained value ("abstained (false)"),
    beside the unscored reasons: every export and table says it this way."""
    return f"abstained ({outcome})"


Status = Literal["scored", "abstained", "unscored"]


class Message(Frozen):
    """One turn of a prompt as a judge is sent it (`llm.wire` sends it; a failed
    judgment keeps its prompt, `JudgeFailure`)."""

    role: Literal["system", "user", "assistant"]
    content: str


class JudgeFailure(Frozen):
    """What a reviewer needs of a judgment that failed: the prompt as sent and the raw
    reply (None: no reply came)."""

    prompt: tuple[Message, ...] = ()
    raw_reply: str | None = None


class RatingReading(Frozen):
    """How an LLM judge's rating or flag was read: probability-weighted (`mode`
    "expected": a rating's value is its expected rating, `stated` the one the reply gave,
    `distribution` P per option, `mass` the probability of the valid options; a flag
    keeps its stated value with `p_true` beside it), or as stated ("greedy", `fallback`
    saying why when probabilities were asked for and could not be read)."""

    mode: Literal["expected", "greedy"]
    fallback: str | None = None
    stated: float | bool | None = None
    distribution: dict[str, float] | None = None
    mass: float | None = None
    p_true: float | None = None


class CheckedClaim(Frozen):
    """A claim a metric checked against the contexts: its text, whether it is supported,
    and the judge's P(supported) where it gave one (a score over claims averages those,
    not the flags: trial 72 read `supported: true` beside a one-claim answer's 0.60)."""

    text: str
    supported: bool
    probability: float | None = None

    def verdict_text(self) -> str:
        """`supported (0.60)`, `unsupported (0.24)`; the flag alone without a probability."""
        said = "supported" if self.supported else "unsupported"
        return said if self.probability is None else f"{said} ({self.probability:.2f})"


class SentenceMarks(Frozen):
    """The sentences a metric's verdict points at, by the keys the judge saw them under
    (`text.key_sample`: answer `a`, `b`...; context `0a`, `1b`...): answer sentences not
    supported (or supported) by the contexts, context sentences relevant to the question
    or used by the answer, unsupported claims that are not answer sentences (by text),
    and every claim checked with its verdict and probability (`claims`). The HTML report
    and the dashboard highlight them."""

    unsupported: tuple[str, ...] = ()
    supported: tuple[str, ...] = ()
    relevant: tuple[str, ...] = ()
    used: tuple[str, ...] = ()
    unsupported_claims: tuple[str, ...] = ()
    claims: tuple[CheckedClaim, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.unsupported or self.supported or self.relevant or self.used
                    or self.unsupported_claims or self.claims)


class MetricResult(Frozen):
    """One metric's outcome for one sample: a value, unscored with a reason, or abstained
    (the answer declines: no value and no unscored reason; `abstention` says whether
    declining was right). Abstentions are left out of means and counted apart.

    What every reader may use is typed: `abstention` and `abstention_basis` (what decided
    it, e.g. `offline: context relevance`), `suspicious` (the note when a judge
    reply held a verdict copied from the judged text), `truncated` (the texts cut to the
    context budget), `rating` (how an LLM judge's value was read), `marks` (the sentences
    the verdict points at), `failure` (a failed judgment's prompt and raw reply).
    `details` is the suite's own record, for debugging: nothing outside `metrics` reads
    a key of it."""

    name: str
    value: float | bool | None
    unscored_reason: str | None = None
    details: dict[str, Any] = Field(default_factory=dict)
    abstention: Abstention | None = None
    abstention_basis: str | None = None
    suspicious: str | None = None
    truncated: tuple[str, ...] = ()
    rating: RatingReading | None = None
    marks: SentenceMarks | None = None
    failure: JudgeFailure | None = None

    @model_validator(mode="after")
    def _abstained_has_no_value(self) -> MetricResult:
        if self.abstention is not None and (self.value is not None
                                            or self.unscored_reason is not None):
            raise ValueError(f"{self.name}: an abstention has no value and no unscored "
                             "reason")
        return self

    @property
    def scored(self) -> bool:
        return self.value is not None

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
