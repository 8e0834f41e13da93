"""The sentences a headline cell says of a yes/no verdict against people's labels (the
headline's text, headline.py): how often it is people's label, its plain accuracy
counting correct declines, and what people marked the samples left out."""

from __future__ import annotations

from ragassay.labels import problem_value
from ragassay.stats.calibration import Agreement, BooleanAgreement, left_out_text


def pair_text(low: float | None, high: float | None) -> str:
    return "" if low is None or high is None else f" [{low:.2f}, {high:.2f}]"


def _marked(label: str, problem: bool) -> str:
    """What people marked, said from the problem side: `hallucinated`, `not faithful`."""
    return label if problem else f"not {label}"


def verdicts_text(a: BooleanAgreement, label: str) -> str:
    """How often a metric's yes/no verdict is people's label, over the samples compared,
    said from the label's problem side (`Verdicts.problem`): `agrees on 89 of 135 (66%):
    misses 28 of 80 people marked hallucinated, flags 18 of 55 they did not`, `agrees on
    35 of 40 (88%): misses 5 of 10 people marked not faithful, flags 0 of 30 they marked
    faithful` (a side without labels is not said); "" without verdicts."""
    v = a.verdicts
    if v is None:
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


def right_text(a: BooleanAgreement, label: str) -> str:
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


def left_out_said(a: Agreement, label: str) -> str:
    """Why agreement counts fewer labels than people's figure: a labelled sample without
    a value of the metric (its answer abstains, or the metric left it unscored) has
    nothing to compare, while the corrected estimate still counts its label; what people
    marked the abstaining ones (`declined_text`): ` of 144: 13 abstained not counted,
    people marked 0 of them hallucinated`; "" when none is left out."""
    left = left_out_text(a.abstained, a.unscored)
    if not left:
        return ""
    positives = a.abstained_positives if isinstance(a, BooleanAgreement) else None
    said = declined_text(label, a.abstained, positives, a.unscored)
    return f" of {a.labelled}: {left} not counted" + (f", {said}" if said else "")
