"""The sentences a headline cell says of a yes/no verdict against people's labels (the
headline's text, headline.py) and a group's cell under `--by KEY` (`group_cell`): how
often it is people's label, its plain accuracy counting correct declines, and what
people marked the samples left out."""

from __future__ import annotations

from ragassay.labels import problem_value
from ragassay.stats.calibration import Agreement, BooleanAgreement, left_out_text
from ragassay.stats.groups import GroupAgreement

Counted = BooleanAgreement | GroupAgreement
"""What has a yes/no verdict's counts: the run's agreement, or one group's."""


def pair_text(low: float | None, high: float | None) -> str:
    return "" if low is None or high is None else f" [{low:.2f}, {high:.2f}]"


def _marked(label: str, problem: bool) -> str:
    """What people marked, said from the problem side: `hallucinated`, `not faithful`."""
    return label if problem else f"not {label}"


def verdicts_text(a: Counted, label: str) -> str:
    """How often a metric's yes/no verdict is people's label, over the samples compared,
    said from the label's problem side (`Verdicts.problem`): `agrees on 89 of 135 (66%):
    misses 28 of 80 people marked hallucinated, flags 18 of 55 they did not`, `agrees on
    35 of 40 (88%): misses 5 of 10 people marked not faithful, flags 0 of 30 they marked
    faithful` (a side without labels is not said); "" without verdicts."""
    v = a.verdicts
    if v is None or a.positives is None or not a.n:
        return ""
    problems = a.positives if v.problem else a.n - a.positives
    fine = a.n - problems
    marked = _marked(label, v.problem)
    sides = [f"misses {v.missed} of {problems} people marked {marked}"] if problems else []
    if fine:
        if v.problem:
            whom = "they did not" if problems else f"people did not mark {label}"
        else:
            whom = f"{'they' if problems else 'people'} marked {label}"
        sides.append(f"flags {v.flagged} of {fine} {whom}")
    return f"agrees on {v.agree} of {a.n} ({v.agree / a.n:.0%}): {', '.join(sides)}"


def right_text(a: Counted, label: str) -> str:
    """The verdict's plain accuracy over the labelled samples with a verdict or an
    abstention, a correct decline (one people did not mark a problem) counted right, so
    that no one adds the abstentions to `verdicts_text`'s count by hand (trial 57):
    `right on 112 of 144 (abstentions that people did not mark hallucinated count as
    right)`; "" without verdicts or abstentions."""
    v, declined = a.verdicts, a.abstained_positives
    if v is None or not a.abstained or declined is None:
        return ""
    wrong = declined if v.problem else a.abstained - declined  # declines people marked bad
    whom = f"people did not mark {label}" if v.problem else f"people marked {label}"
    return (f"right on {v.agree + a.abstained - wrong} of {a.n + a.abstained} (abstentions "
            f"that {whom} count as right)")


def declined_text(label: str, abstained: int, positives: int | None, unscored: int = 0
                  ) -> str:
    """What people marked the labelled samples whose answer abstained (no verdict to
    compare, so left out of the agreement, never taken for one), from the problem side:
    `people marked 0 of them hallucinated`, `people marked 2 of the 9 abstained not
    faithful` (beside unscored ones); "" without abstained ones or a yes/no label."""
    if not abstained or positives is None:
        return ""
    problem = problem_value(label)
    problems = positives if problem else abstained - positives
    which = f"the {abstained} abstained" if unscored else "them"
    return f"people marked {problems} of {which} {_marked(label, problem)}"


def left_out_said(a: Agreement | GroupAgreement, label: str) -> str:
    """Why agreement counts fewer labels than people's figure: a labelled sample without
    a value of the metric (its answer abstains, or the metric left it unscored) has
    nothing to compare, while the corrected estimate still counts its label; what people
    marked the abstaining ones (`declined_text`): ` of 144: 13 abstained not counted,
    people marked 0 of them hallucinated`; "" when none is left out."""
    left = left_out_text(a.abstained, a.unscored)
    if not left:
        return ""
    positives = a.abstained_positives if isinstance(a, Counted) else None
    said = declined_text(label, a.abstained, positives, a.unscored)
    return f" of {a.labelled}: {left} not counted" + (f", {said}" if said else "")


def group_cell(a: GroupAgreement) -> str:
    """A group's agreement cell (`--by KEY`: console, HTML), in the headline's words: a
    yes/no verdict's `verdicts_text`, else `AUROC 0.81 on 16` (`Spearman 0.40 on 16`),
    else why neither (`16 labels, all one class (all hallucinated)`, `2 labels, too few
    (need 3)`); the labelled samples left out said as the headline does, so that a group
    of declines does not read as 0 of 3 (trial 58): `agrees on 0 of 3 (0%): flags 3 of 3
    people did not mark hallucinated (3 labels of 16: 13 abstained not counted, people
    marked 0 of them hallucinated); right on 13 of 16 (...)`; `all 16 abstained: nothing
    to compare, people marked 0 of them hallucinated`; `no labels`."""
    left = left_out_said(a, a.label)
    counted = f" ({a.n} labels{left})" if left else ""
    if a.verdicts is not None and a.n:
        right = right_text(a, a.label)
        return verdicts_text(a, a.label) + counted + (f"; {right}" if right else "")
    for name, value in (("AUROC", a.auroc), ("Spearman", a.spearman)):
        if value is not None:
            return f"{name} {value:.2f}" + (counted or f" on {a.n}")
    why = a.unmeasured or "no figure computable"
    if a.n:
        return f"{why}{counted}" if left else f"{a.n} labels, {why}"
    if not a.unmeasured:
        return "no labels"
    said = declined_text(a.label, a.abstained, a.abstained_positives, a.unscored)
    return a.unmeasured + (f", {said}" if said else "")
