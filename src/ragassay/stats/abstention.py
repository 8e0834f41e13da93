"""Abstentions as an outcome: how often each strategy's answers decline, and how often
they decline where the judge read the contexts as answering (a "false" abstention).

A metric value is an abstention when the answer declines ("I don't know based on the
context"): neither a number nor unscored (`MetricResult.abstention`). Per strategy, over
the samples with any scored or abstained value:

- abstention_rate = samples that abstained / samples;
- false_abstention_rate = samples that abstained where the judge read the contexts as
  answering (outcome "false") / samples.

"False" is the judge's reading, not a fact: each suite decides it on its own basis
(`metrics.base.abstain` records it with each abstained value; the offline judge's is
the contexts' relevance, and `--judge offline:accurate` may count otherwise), so every
surface says it with its basis (`false_text`: trial 68 read "the contexts held the answer" where the
judge had only rated them relevant).

Both are rates of 0/1 values with the exact (Clopper-Pearson) interval of every rate
(`describe.mean_ci`): 0 false of 144 is [0, 0.025], not [0, 0]. The section is present
when some sample abstained. The gate reads the run's two rates (all strategies) under
the names in `RATE_NAMES` (lower is better).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

from ragassay.stats.describe import Interval, MetricAggregate, mean_ci
from ragassay.stats.result import Result
from ragassay.stats.table import Row, ScoreTable
from ragassay.types import MetricSpec

ABSTENTION_RATE = "abstentions.abstention_rate"
FALSE_ABSTENTION_RATE = "abstentions.false_abstention_rate"
RATE_NAMES = (ABSTENTION_RATE, FALSE_ABSTENTION_RATE)
"""What a gate's [thresholds] table and a comparison call the run's two rates."""
RATE_SPECS = {
    ABSTENTION_RATE: MetricSpec(name=ABSTENTION_RATE, kind="bool", higher_is_better=False,
                                equivalence=0.03,
                                description="Share of samples whose answer abstained"),
    FALSE_ABSTENTION_RATE: MetricSpec(
        name=FALSE_ABSTENTION_RATE, kind="bool", higher_is_better=False, equivalence=0.03,
        description="Share of samples whose answer abstained where the judge read the "
        "contexts as answering (its basis: abstentions.*.basis)"),
}


class AbstentionRates(Result):
    """One strategy's abstentions: counts and the two rates with their intervals."""

    samples: int
    abstained: int
    correct: int
    false: int
    unknown: int = 0
    abstention_rate: Interval
    false_abstention_rate: Interval
    basis: list[str] = []
    """What decided its abstentions false or correct, each suite's basis as recorded
    (`offline: context relevance`); read from the store (`report.build`), [] unread."""


def basis_text(bases: list[str]) -> str:
    """The bases as a sentence says them: `offline context relevance`; `not recorded`."""
    return "; ".join(b.replace(": ", " ", 1) for b in bases) or "not recorded"


def _judged(bases: list[str]) -> str:
    """What the judge read of the contexts of an abstention it counted false: `relevant`
    where every basis is their relevance, else `to answer the question`."""
    relevance = bool(bases) and all(b.endswith("context relevance") for b in bases)
    return "relevant" if relevance else "to answer the question"


def false_text(bases: list[str]) -> str:
    """What an abstention counted false is, with its basis, as every surface says it:
    `the contexts were judged relevant (basis: offline context relevance)`; where some
    basis is not their relevance, `the contexts were judged to answer the question (...)`."""
    return f"the contexts were judged {_judged(bases)} (basis: {basis_text(bases)})"


def looked_words(bases: list[str]) -> tuple[str, str]:
    """The words a count of abstentions goes by where it is the judge's reading of the
    contexts, never people's verdict (trial 78: "2 false" beside people's "right on 11 of
    16" of the same declines), a table's column heads and a sentence's: (counted false,
    counted correct) = (`contexts looked relevant`, `contexts did not look relevant`)."""
    what = _judged(bases)
    return f"contexts looked {what}", f"contexts did not look {what}"


def _answered(row: Row) -> bool:
    return bool(row.abstained) or any(v is not None for v in row.values.values())


def rates_of(rows: list[Row], *, seed: int = 0, n_resamples: int = 2000) -> AbstentionRates:
    """The rates over rows (those without any value or abstention left out)."""
    kept = [r for r in rows if _answered(r)]
    outcomes = [r.abstention for r in kept]
    abst = [1.0 if o is not None else 0.0 for o in outcomes]
    false = [1.0 if o == "false" else 0.0 for o in outcomes]
    return AbstentionRates(
        samples=len(kept), abstained=int(sum(abst)),
        correct=sum(o == "correct" for o in outcomes), false=int(sum(false)),
        unknown=sum(o == "unknown" for o in outcomes),
        abstention_rate=mean_ci(abst, rate=True, seed=seed, n_resamples=n_resamples),
        false_abstention_rate=mean_ci(false, rate=True, seed=seed, n_resamples=n_resamples))


def abstention_rates(table: ScoreTable, *, seed: int = 0, n_resamples: int = 2000
                     ) -> dict[str, AbstentionRates] | None:
    """Per strategy (in the table's order), or None when no sample abstained."""
    if not any(r.abstained for r in table.rows):
        return None
    return {s: rates_of([r for r in table.rows if r.strategy == s], seed=seed,
                        n_resamples=n_resamples)
            for s in table.strategies if any(r.strategy == s for r in table.rows)}


def rate_aggregates(table: ScoreTable, *, seed: int = 0, n_resamples: int = 2000
                    ) -> dict[str, MetricAggregate]:
    """The run's two rates over all its samples as the gate reads a metric (lower is
    better); {} for a table without rows."""
    if not table.rows:
        return {}
    r = rates_of(list(table.rows), seed=seed, n_resamples=n_resamples)
    return {name: MetricAggregate(**dict(rate), higher_is_better=False)
            for name, rate in ((ABSTENTION_RATE, r.abstention_rate),
                               (FALSE_ABSTENTION_RATE, r.false_abstention_rate))}


def rate_column(rows: Mapping[Hashable, Row], name: str) -> dict[Hashable, float]:
    """Per row with any value or abstention: 1.0 when it abstained (falsely, for
    FALSE_ABSTENTION_RATE), else 0.0; a comparison pairs these like a metric's values."""
    want = ("false",) if name == FALSE_ABSTENTION_RATE else ("correct", "false", "unknown")
    return {k: 1.0 if r.abstention in want else 0.0 for k, r in rows.items() if _answered(r)}
