"""Cost: estimated calls, tokens and dollars before a run, measured figures after.

Tokens are estimated as characters / 4 of the prompts (ragassay.text.approx_tokens).
The judge makes `calls_per_sample[suite]` calls per sample for each LLM suite (1 by
default); the offline judge and the offline generator cost nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ragassay.bench.config import BenchSection
from ragassay.report.bench import CostFigures, CostReport
from ragassay.types import Price, Usage, is_offline


def model_of(name: str) -> str:
    """`openai:gpt-4o-mini` -> `gpt-4o-mini`; `offline` stays `offline`."""
    return name.split(":", 1)[1] if ":" in name else name


def listed(model: str, prices: Mapping[str, Price]) -> Price | None:
    """The model's price in the [prices] table (by full name or bare model)."""
    return prices.get(model) or prices.get(model_of(model))


def price(model: str, calls: int, inp: int, out: int, prices: Mapping[str, Price],
          cached: int = 0) -> CostFigures:
    """Figures for one role, priced from the [prices] table (full name or bare model);
    `cached` of the `inp` input tokens are priced at the cached-input rate."""
    p = listed(model, prices)
    cached = max(0, min(cached, inp))
    if is_offline(model) or calls == 0:  # the offline judge or generator
        usd: float | None = 0.0
    else:
        usd = None if p is None else p.cost(inp, out, cached)
    return CostFigures(model=model, calls=calls, input_tokens=inp, output_tokens=out,
                       cached_tokens=cached, usd=usd)


def judge_calls_per_sample(bench: BenchSection) -> int:
    """LLM judge calls per sample: the sum over the metric suites of their call counts."""
    if is_offline(bench.judge):
        return 0
    suites = dict.fromkeys(m.split(".", 1)[0] for m in bench.metrics)  # once per suite
    return sum(bench.calls_per_sample.get(s, 1) for s in suites)


def estimate(
    bench: BenchSection,
    generator: str,
    questions: Sequence[str],
    references: Sequence[str],
    context_chars: int,
    prices: Mapping[str, Price],
) -> CostReport:
    """Estimate one strategy's cost: `context_chars` is the expected retrieved context
    size (k x mean chunk length) in characters."""
    n = len(questions)
    q_chars = sum(len(q) for q in questions)
    gen_prompt = 400 * n + q_chars + context_chars * n  # ~400 chars of instructions
    if is_offline(generator):
        gen = price("offline", 0, 0, 0, prices)
    else:
        gen = price(generator, n, gen_prompt // 4, bench.answer_tokens * n, prices)
    per = judge_calls_per_sample(bench)
    answer_chars = bench.answer_tokens * 4
    sample_chars = q_chars + sum(len(r) for r in references) + n * (context_chars + answer_chars)
    judge_in = per * (n * bench.judge_prompt_tokens + sample_chars // 4)
    judge = price(bench.judge, per * n, judge_in, per * n * bench.judge_output_tokens, prices)
    return CostReport(generator=gen, judge=judge)


def measured(
    generator: str,
    gen_usage: Usage,
    judge: str,
    judge_usage: Usage | None,
    prices: Mapping[str, Price],
) -> CostReport:
    """Measured figures from the generator's and the runner's usage counters; a cost
    the backend reported from the provider's usage wins over the [prices] table."""
    ju = judge_usage or Usage()
    judged = price(judge, ju.calls, ju.input_tokens, ju.output_tokens, prices,
                   ju.cached_tokens)
    if ju.cost_usd is not None:
        judged = judged.model_copy(update={"usd": ju.cost_usd})
    generated = price(generator, gen_usage.calls, gen_usage.input_tokens,
                      gen_usage.output_tokens, prices, gen_usage.cached_tokens)
    if gen_usage.cost_usd is not None:
        generated = generated.model_copy(update={"usd": gen_usage.cost_usd})
    return CostReport(generator=generated, judge=judged)
