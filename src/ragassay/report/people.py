"""Annotators as people in a report: who labelled what, the rule that made their labels
one value per sample for the corrected figures (and how many samples each label count
gave), and the agreement between them (`stats.raters`: Krippendorff's alpha over all
annotators, Cohen's kappa per pair, bootstrap intervals over samples), shown only where
two annotators labelled a sample in common, else one line saying why not."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ragassay.report.table import RunTable
from ragassay.stats.raters import N_RESAMPLES, RaterAgreement, rater_agreement
from ragassay.stats.result import Result, omitted
from ragassay.terminal import counted
from ragassay.types import LabelSource

if TYPE_CHECKING:
    from ragassay.report.facts import Report


class PeopleLabel(Result):
    """One label's people: who labelled it, how many of the run's samples (each
    interaction once), where the rule's values came from (`source`), and their
    agreement (`agreement`), or why it is not measurable (`absent`)."""

    annotators: list[str]
    samples: int
    source: LabelSource
    agreement: RaterAgreement | None = omitted()
    absent: str | None = omitted()

    def describe(self, name: str, rule: str) -> str:
        """`hallucinated: 2 annotators (ana, bo), 30 samples; majority: 30 samples: ...`."""
        return (f"{name}: {counted(len(self.annotators), 'annotator')} "
                f"({', '.join(self.annotators)}),"
                f" {counted(self.samples, 'sample')}; {rule}: {self.source.describe()}")


class PeopleSection(Result):
    """The report's `annotators` section (only when the store holds people's labels of
    the run's samples): the rule (`majority` or `annotator:NAME`) and each label's
    people (`PeopleLabel`)."""

    rule: str
    labels: dict[str, PeopleLabel]


def agreement_text(a: RaterAgreement) -> list[str]:
    """The agreement as the terminal and the HTML say it: alpha with its interval, then
    one line per pair's kappa."""
    def fig(x: float | None) -> str:
        return "undefined" if x is None else f"{x:.3f}"

    def ci(low: float | None, high: float | None) -> str:
        return "" if low is None or high is None else f" (95% CI {low:.3f} to {high:.3f})"

    out = [f"Krippendorff's alpha ({a.level}) {fig(a.alpha)}{ci(a.ci_low, a.ci_high)} on "
           f"{counted(a.samples, 'sample')} labelled by two or more "
           f"({counted(a.values, 'label')})"]
    out += [f"Cohen's kappa {p.first} vs {p.second}: {fig(p.kappa)}{ci(p.ci_low, p.ci_high)}"
            f" on {counted(p.samples, 'sample')} both labelled" for p in a.pairs]
    return out


def people_section(rt: RunTable, *, seed: int = 0,
                   n_resamples: int = N_RESAMPLES) -> PeopleSection | None:
    """The run's `annotators` section from its table's people (None: no sample of the run
    has a label from the store)."""
    people = rt.people
    if not people.ratings:
        return None
    sources = people.sources()
    out: dict[str, PeopleLabel] = {}
    for name, ratings in sorted(people.ratings.items()):
        found = rater_agreement(name, ratings, seed=seed, n_resamples=n_resamples)
        out[name] = PeopleLabel(
            annotators=people.annotators(name), samples=len(ratings),
            source=sources.get(name, LabelSource()),
            agreement=found if isinstance(found, RaterAgreement) else None,
            absent=found if isinstance(found, str) else None)
    return PeopleSection(rule=str(people.rule), labels=out)


def label_names(report: Report) -> list[str]:
    """The run's labels as its statistics read them (each is in the calibration, linked
    or skipped; people's stored labels on top of the samples' own): the one rule for the
    CSV's `label.<name>` columns (since trial 66: the CSV had no label beside the judge's
    values) and the HTML's people's labels; [] when no sample has a label."""
    cal = report.calibration
    return list(dict.fromkeys(x.label for x in [*cal.pairs, *cal.skipped])) if cal else []
