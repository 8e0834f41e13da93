"""What a run would cost, before it runs (`ragassay eval --dry-run`): judge calls, tokens
and dollars, with nothing sent and no key needed.

Each sample is keyed as the run keys it and every chosen suite scores it against a
recording judge: the suite asks exactly the prompts a real judge would get (the same
rendering, the same metric choice, the same skipped samples), the recorder notes each
one and answers "not judged". Input tokens are the rendered messages and the output
schema, at about 4 characters a token (`text.approx_tokens`, no tokenizer download);
output tokens are guessed at a quarter of each prompt's `max_tokens` (the upper bound is
the whole budget). Not counted: cache hits (which cost nothing) and repair calls (at
most one per unusable reply).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel

from ragassay.aio import run_sync
from ragassay.judge.base import Verdict
from ragassay.judge.prompt import Prompt
from ragassay.llm.pricing import resolve_price
from ragassay.metrics import get_suites
from ragassay.metrics.base import SuiteOptions
from ragassay.text import approx_tokens, key_sample
from ragassay.types import InvalidRow, Price, RunConfig, Sample, is_offline

OUTPUT_SHARE = 4
"""A reply is guessed at 1/OUTPUT_SHARE of its prompt's `max_tokens`."""
NOT_JUDGED = "dry run: not judged"


class SuiteEstimate(BaseModel):
    """The calls and tokens one suite would need."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    output_tokens_max: int = 0


class RunEstimate(BaseModel):
    """What a run would need: per suite and in total; dollars when a price is known
    (`usd`, and `usd_max` with every reply at its budget), else None and `price_note`
    says why."""

    judge: str
    samples: int
    invalid: int
    suites: dict[str, SuiteEstimate]
    price: Price | None
    price_note: str

    @property
    def total(self) -> SuiteEstimate:
        out = SuiteEstimate()
        for s in self.suites.values():
            out = SuiteEstimate(calls=out.calls + s.calls,
                                input_tokens=out.input_tokens + s.input_tokens,
                                output_tokens=out.output_tokens + s.output_tokens,
                                output_tokens_max=out.output_tokens_max + s.output_tokens_max)
        return out

    @property
    def usd(self) -> float | None:
        t = self.total
        return None if self.price is None else self.price.cost(t.input_tokens,
                                                               t.output_tokens)

    @property
    def usd_max(self) -> float | None:
        t = self.total
        return None if self.price is None else self.price.cost(t.input_tokens,
                                                               t.output_tokens_max)


class _Recorder:
    """An `Asker` that notes what it is asked and answers nothing."""

    def __init__(self) -> None:
        self.asked: list[tuple[Prompt, int]] = []  # prompt, input tokens

    async def ask(self, prompt: Prompt, values: Mapping[str, Any]) -> Verdict:
        messages = prompt.render(values)
        text = "".join(m.content for m in messages) + json.dumps(prompt.schema)
        self.asked.append((prompt, approx_tokens(text)))
        return Verdict(prompt=prompt.name, version=prompt.version, output=None,
                       unscored_reason=NOT_JUDGED)


def estimate_run(samples: Iterable[Sample | InvalidRow], config: RunConfig,
                 price: Price | None = None) -> RunEstimate:
    """The calls, tokens and cost of judging `samples` with `config` (`price` per 1M
    tokens, else LiteLLM's table; the offline judge costs nothing and calls nothing)."""
    suites = get_suites(config.metrics)
    found, note = resolve_price(config.judge, price)
    out = {s.name: SuiteEstimate() for s in suites}
    counts = {"samples": 0, "invalid": 0}
    options = SuiteOptions(n_questions=config.n_questions)

    async def walk() -> None:
        for sample in samples:
            if isinstance(sample, InvalidRow):
                counts["invalid"] += 1
                continue
            counts["samples"] += 1
            if is_offline(config.judge):
                continue
            item = key_sample(sample, config.max_context_tokens)
            for suite in suites:
                if not suite.applicable(sample):
                    continue
                recorder = _Recorder()
                await suite.evaluate(item, recorder, options)
                mine = out[suite.name]
                for prompt, tokens in recorder.asked:
                    mine.calls += 1
                    mine.input_tokens += tokens
                    mine.output_tokens += prompt.max_tokens // OUTPUT_SHARE
                    mine.output_tokens_max += prompt.max_tokens

    run_sync(walk())
    return RunEstimate(judge=config.judge, samples=counts["samples"],
                       invalid=counts["invalid"], suites=out, price=found, price_note=note)
