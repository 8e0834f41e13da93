"""Diagnostics matrix: metric patterns that point at a specific RAG failure.

A `Rule` is a conjunction of `Condition`s on metric values normalised to 0-1
with their spec (a bool metric is 0/1). A finding says each condition on the scale its
metric is shown on as well (`ShownCondition`: `<metric> < 5.5 (on 1-10)` for the declared
0.5 of a 1-10 metric's range; `<verdict> = yes` for a yes/no verdict). It is evaluated

* per sample: samples with every needed metric scored are "evaluated"; those
  meeting all conditions count, unless they meet all of the rule's `unless` conditions
  too (each of its metrics scored: `exempt`, evidence against the failure: an answer
  its contexts support clears retrieval). The worst samples are those furthest into
  the firing region (sum over conditions of the distance past the threshold);
* on the aggregate: the same conditions (and exemption) on the metric means.

A rule's `unless` applies where the table has all its metrics, else the rule is read
without it. A finding's `caveat` is the report's (`report.build`): where the judge a
condition's metric comes from agrees weakly with people on data it was not tuned on.

The rules are declared with the metrics (`MetricSpec.rules`, next to their formulas);
only rules whose metrics are all in the table are reported. Pass your own `rules`
(e.g. `rule.model_copy(...)`) to change them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ragassay.stats.result import Result, omitted
from ragassay.stats.table import Row, ScoreTable
from ragassay.types import Condition, MetricSpec, Rule, at_least, below

__all__ = ["WORST", "Condition", "Finding", "Rule", "ShownCondition", "at_least", "below",
           "diagnose", "evaluate_rule", "rules_of", "shown"]

WORST = 5


class ShownCondition(Condition):
    """A rule's condition as a finding reports it: `threshold` on 0-1 of the metric's
    range, as rules are declared; `on_scale`, the same point on the range the metric is
    shown on; `text`, the condition as people read it (`shown`)."""

    on_scale: float
    text: str


def shown(condition: Condition, spec: MetricSpec) -> ShownCondition:
    """The condition on its metric's own scale: `<metric> < 5.5 (on 1-10)` (declared:
    0.5 of the range); a yes/no verdict's side, `<metric> = yes` (0/1: a threshold inside
    the range parts yes from no)."""
    at = spec.on_scale(condition.threshold)
    if spec.gives_verdict and 0 < condition.threshold <= 1:
        text = f"{spec.name} = {'yes' if condition.op == '>=' else 'no'}"
    else:
        text = f"{spec.name} {condition.op} {at:g} (on {spec.low:g}-{spec.high:g})"
    return ShownCondition(**dict(condition), on_scale=at, text=text)


class Finding(Result):
    """What one rule found: how many of the samples it could evaluate it fires on, whether
    it fires on the means, and the worst samples (`strategy/id` when the run has several
    strategies); for a rule with an exemption (`Rule.unless`) that exemption on its
    metrics' scales and how many samples met the conditions but were cleared by it
    (`exempt`, not in `count`); `caveat`: why the finding may be wrong where its metrics'
    judge agrees weakly with people (set by the report, which knows the judge)."""

    rule: str
    message: str
    fix: str
    metrics: list[str]
    conditions: list[ShownCondition]
    evaluated: int
    count: int
    share_of_samples: float | None
    fires_on_aggregate: bool | None
    fired: bool
    worst_samples: list[str]
    unless: list[ShownCondition] | None = omitted()
    exempt: int | None = omitted()
    caveat: str | None = omitted()

    @property
    def rule_text(self) -> str:
        """The rule on its metrics' scales: `<verdict> = yes and <metric> >= 7.3 (on
        1-10)`; an exemption after it: `<metric> < 5.5 (on 1-10), unless <metric> >= 7.3
        (on 1-10) and <verdict> = no`."""
        text = " and ".join(c.text for c in self.conditions)
        if self.unless:
            text += ", unless " + " and ".join(c.text for c in self.unless)
        return text

    @property
    def samples_text(self) -> str:
        """How many samples it fires on, and those its exemption cleared: `2 (5 exempt)`."""
        return f"{self.count} ({self.exempt} exempt)" if self.exempt else str(self.count)

    @property
    def caveat_text(self) -> str:
        """`caveat: <caveat>` as the HTML report and the dashboard say it beside the
        finding; "" without one."""
        return f"caveat: {self.caveat}" if self.caveat else ""


def rules_of(specs: Mapping[str, MetricSpec]) -> list[Rule]:
    """The diagnostics rules the metrics declare (`MetricSpec.rules`), in spec order."""
    return [rule for spec in specs.values() for rule in spec.rules]


def _norm(spec: MetricSpec, v: float) -> float:
    return spec.normalise(v)


def _excess(conditions: Sequence[Condition], value: Callable[[str], float | None],
            specs: Mapping[str, MetricSpec]) -> float | None:
    """Summed excess when every condition holds on the values (a sample's, or the means),
    else None: a missing value holds no condition."""
    total = 0.0
    for c in conditions:
        v = value(c.metric)
        if v is None:
            return None
        e = c.excess(_norm(specs[c.metric], v))
        if e is None:
            return None
        total += e
    return total


def _unless(rule: Rule, specs: Mapping[str, MetricSpec]) -> tuple[Condition, ...]:
    """The rule's exemption where the table has all its metrics, else none."""
    return rule.unless if all(c.metric in specs for c in rule.unless) else ()


def _evaluated(rule: Rule, row: Row) -> bool:
    return all(row.value(m) is not None for m in rule.metrics)


def evaluate_rule(rule: Rule, table: ScoreTable) -> Finding:
    """The finding of one rule on a table (all its metrics must be present)."""
    specs, unless = table.specs, _unless(rule, table.specs)
    evaluated = [r for r in table.rows if _evaluated(rule, r)]
    hits, exempt = [], 0
    for r in evaluated:
        if (e := _excess(rule.conditions, r.value, specs)) is None:
            continue
        if unless and _excess(unless, r.value, specs) is not None:
            exempt += 1
        else:
            hits.append((e, r))
    hits.sort(key=lambda t: -t[0])  # stable: ties keep table order
    means = table.means()
    aggregate: bool | None = None
    if all(means[m] is not None for m in rule.metrics):
        aggregate = (_excess(rule.conditions, means.get, specs) is not None
                     and not (unless and _excess(unless, means.get, specs) is not None))
    return Finding(
        rule=rule.name,
        message=rule.message,
        fix=rule.fix,
        metrics=list(rule.metrics),
        conditions=[shown(c, table.spec(c.metric)) for c in rule.conditions],
        evaluated=len(evaluated),
        count=len(hits),
        share_of_samples=len(hits) / len(evaluated) if evaluated else None,
        fires_on_aggregate=aggregate,
        fired=bool(hits) or bool(aggregate),
        worst_samples=[_label(r, table) for _, r in hits[:WORST]],
        unless=[shown(c, table.spec(c.metric)) for c in unless] if unless else None,
        exempt=exempt if unless else None,
    )


def _label(row: Row, table: ScoreTable) -> str:
    """Sample id, prefixed by its strategy when the table has several."""
    return row.id if len(table.strategies) <= 1 else f"{row.strategy}/{row.id}"


def diagnose(table: ScoreTable, rules: Sequence[Rule] | None = None) -> list[Finding]:
    """Findings of every applicable rule (the table's specs' own unless `rules` are
    given), fired ones first, then by share (desc)."""
    rules = rules_of(table.specs) if rules is None else rules
    findings = [
        evaluate_rule(rule, table) for rule in rules if all(m in table.specs for m in rule.metrics)
    ]
    findings.sort(key=lambda f: (not f.fired, -(f.share_of_samples or 0.0)))
    return findings
