"""What the report's `disagreements` (`stats.disagreements`) are read with: the judge's
reasoning of each sample listed, from the store (`with_reasons`: read only for the
listing, a few samples), and the lines that name the command listing them, under the
console's headline and abstentions (trial 66: "misses 16 ..., flags 15 ..." and a false
abstention named no sample)."""

from __future__ import annotations

from ragassay.report.headline_notes import DISAGREE as DISAGREE  # its home: below headline
from ragassay.report.model import Report
from ragassay.stats.abstention import basis_text, false_text, looked_words
from ragassay.stats.calibration import BooleanAgreement
from ragassay.stats.disagreements import SIDES, Disagreements
from ragassay.stats.verdicts import declines_right, judge_declines, marked
from ragassay.store import Store
from ragassay.terminal import counted


def false_said(report: Report) -> str:
    """What the run's abstentions counted false are, with the bases of all its strategies
    (`abstention.false_text`): `the contexts were judged relevant (basis: offline context
    relevance)`."""
    return false_text(_bases(report))


def abstentions_note(report: Report) -> str:
    """What the HTML's and the dashboard's abstentions table says under its title: what
    its columns count (`looked_words`), then what people's labels say of the same
    declines (`people_said`)."""
    yes, no = abstention_columns(report)
    people = people_said(report)
    on_false = people_on_false(report)
    return ("An answer the judge reads as a decline is neither scored nor unscored on the "
            "answer metrics (a decline it does not read as one is scored): "
            f"it is counted here, under \"{yes}\" where {false_said(report)}, under "
            f"\"{no}\" where not: the judge's reading, not people's (docs/citations.md)"
            + (f"; {people}" if people else "")
            + (f"; under \"{yes}\", {on_false}: where people labelled a decline, their "
               "reading wins" if on_false else ""))


def _bases(report: Report) -> list[str]:
    return sorted({b for a in (report.abstentions or {}).values() for b in a.basis})


def abstention_columns(report: Report) -> tuple[str, str]:
    """The heads of the abstentions tables' counts (the console's, the HTML's, the
    dashboard's), the judge's reading in its words (`looked_words`), never "false" and
    "correct" beside people's counts: (counted false, counted correct)."""
    return looked_words(_bases(report))


def people_said(report: Report) -> str:
    """What people's labels say of the declines, the count `right_on` says of the first
    verdict whose declines people marked (`verdicts.declines_right`: one place counts
    it): `people's labels on the 9 answers the judge read as declines: 7 right, 2 marked
    hallucination (as METRIC's right on counts them)` (trial 79 read "7 of the 9 labelled
    declines" as rows labelled to be declines); "" where people marked none."""
    for p in report.calibration.pairs if report.calibration is not None else ():
        if (not isinstance(p, BooleanAgreement) or p.verdicts is None or not p.abstained
                or (right := declines_right(p)) is None):
            continue
        wrong = p.abstained - right
        return (f"people's labels on the {judge_declines(p.abstained)}: "
                f"{right} right, {wrong or 'none'} marked "
                f"{marked(p.label, p.verdicts.problem)} (as {p.metric}'s right on counts them)")
    return ""


def abstentions_said(report: Report) -> str:
    """The console's abstentions line (trial 78: `default 11 of 144 (9 correct, 2 false)`
    opened with the strategy's name and called "false" two declines people's labels
    counted right): per strategy how many answers declined and where the judge read the
    contexts as relevant, said as its reading (`looked_words`) with people's count of
    those (`people_on_false`: theirs wins where they labelled, trial 81), then what
    people's labels say of all the declines (`people_said`): `abstentions: 9 of 33
    answers read as declines by the judge, 6 where the contexts looked relevant (people:
    4 of them right); "looked relevant" is the judge's reading, not people's, and where
    people labelled a decline theirs wins (basis: offline context relevance); people's
    labels on ...` (trial 80: "9 of 33 answers declined" read as every decline in the
    data); `abstentions: (strategy A) ...; (strategy B) ...` for several; "" without
    abstentions."""
    if not (said := _abstention_counts(report)):
        return ""
    bases = _bases(report)
    yes, _ = abstention_columns(report)
    looked = yes.removeprefix("contexts ")
    reading = (f"\"{looked}\" is the judge's reading, not people's, and where people labelled"
               f" a decline theirs wins (basis: {basis_text(bases)})")
    people = people_said(report)
    return f"abstentions: {'; '.join(said)}; {reading}" + (f"; {people}" if people else "")


def _abstention_counts(report: Report) -> list[str]:
    """Per strategy, `8 of 32 answers read as declines by the judge, 6 where the contexts
    looked relevant (people: 4 of them right)`; [] without abstentions."""
    yes, _ = abstention_columns(report)
    several = len(report.abstentions or {}) > 1
    return [f"{'(strategy ' + name + ') ' if several else ''}{a.abstained} of {a.samples} "
            f"answers read as declines by the judge, {a.false or 'none'} where the {yes}"
            + (f" ({p})" if (p := people_on_false(report, name)) else "")
            for name, a in (report.abstentions or {}).items()]


def abstentions_short(report: Report) -> str:
    """`eval`'s abstentions line, one line (trial 87: its paragraph of five lines): the
    counts of `abstentions_said`, and where it is said in full: `abstentions: 8 of 32
    answers read as declines by the judge, 8 where the contexts looked relevant (people:
    4 of them right); what each reading means and people's labels on them: runs show`
    (the summary's last line names the command in full); "" without abstentions."""
    if not (said := _abstention_counts(report)):
        return ""
    return (f"abstentions: {'; '.join(said)}; what each reading means and people's labels "
            "on them: runs show")


def people_on_false(report: Report, strategy: str | None = None) -> str:
    """What people's labels say of the abstentions counted false (one strategy's, or
    all), the one wording of it beside every count of them (trial 81: the headline
    counted a decline right that the abstentions line and `--disagree` called a possible
    false abstention, and no sentence said which to trust; people's reading wins where
    they labelled, `FalseAbstention.people_right`): `people: 2 of them right`, `people:
    1 of the 2 they labelled right`, `people: none of them right`; "" where people
    labelled none of them."""
    found = report.disagreements
    labelled, right = found.false_people(strategy) if found is not None else (0, 0)
    if not labelled:
        return ""
    false = sum(a.false for name, a in (report.abstentions or {}).items()
                if strategy is None or name == strategy)
    of = "them" if labelled == false else f"the {labelled} they labelled"
    return f"people: {right or 'none'} of {of} right"


def one_line(text: str | None) -> str | None:
    """A reasoning on one line (its whitespace runs made one space); None when empty."""
    said = " ".join((text or "").split())
    return said or None


def with_reasons(store: Store, run_id: str, found: Disagreements) -> Disagreements:
    """`found` with each sample's `reason`: the reasoning of the suite that gave the
    metric's value (of a false abstention, of the first metric that says so), on one
    line; None where that suite gave none."""
    reasons: dict[str, dict[str, str | None]] = {}  # sample id -> metric -> reasoning

    def reason(sample_id: str, metric: str) -> str | None:
        if sample_id not in reasons:
            reasons[sample_id] = {m.name: one_line(r.reasoning)
                                  for r in store.results_of(run_id, sample_id)
                                  for m in r.results}
        return reasons[sample_id].get(metric)

    verdicts = [v.model_copy(update={side: [d.model_copy(update={
        "reason": reason(d.id, v.metric)}) for d in v.side(side)]
        for side in SIDES}) for v in found.verdicts]
    false = [a.model_copy(update={"reason": reason(a.id, a.metrics[0]) if a.metrics else None})
             for a in found.false_abstentions]
    return found.model_copy(update={"verdicts": verdicts, "false_abstentions": false})


def declines_marked(n: int, label: str, problem: bool) -> str:
    """The answers a verdict set aside as declines where people marked the problem, in
    plain words (trial 76: "2 declines they marked hallucination" read as if the user's
    decline labels were wrong): `2 answers the judge read as declines were marked
    hallucinated by people (false abstentions by their labels)`; "" for none."""
    if not n:
        return ""
    one = n == 1
    return (f"{judge_declines(n)} {'was' if one else 'were'} marked {marked(label, problem)} "
            f"by people ({'a false abstention' if one else 'false abstentions'} by their "
            "labels)")


def disagree_lines(report: Report) -> tuple[str | None, str | None]:
    """The lines naming the command that lists the samples: under the headline, of the
    verdicts that count some wrong (`METRIC misses 20 and flags 9 of people's labels, and
    2 answers the judge read as declines were marked hallucinated by people (false
    abstentions by their labels): ragassay runs show RUN --disagree lists them`:
    `declines_marked`), and under the abstentions, of those counted false; None where
    there is none."""
    found = report.disagreements
    if found is None:
        return None, None
    command = DISAGREE.format(run=report.run.run_id)
    said = [f"{v.metric} misses {len(v.missed)} and flags {len(v.flagged)} of people's "
            f"{v.label} labels" + (f", and {declines_marked(len(v.declined), v.label, v.problem)}"
                                   if v.declined else "")
            for v in found.verdicts if v.same_as is None and v.wrong()]
    verdicts = f"{'; '.join(said)}: {command} lists them" if said else None
    n = len(found.false_abstentions)
    on_false = people_on_false(report)
    false = (f"{counted(n, 'abstention')} counted false, where {false_said(report)}"
             + (f"; {on_false}" if on_false else "")
             + f": {command} lists {'it' if n == 1 else 'them'}") if n else None
    return verdicts, false
