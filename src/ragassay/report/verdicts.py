"""The sentences a headline cell says of a yes/no verdict against people's labels (the
headline's text, headline.py) and a group's cell under `--by KEY` (`group_cell`): how
often it is right, a correct decline counted right, first; then what it misses and
flags, and what people marked the samples left out."""

from __future__ import annotations

from ragassay.labels import problem_value
from ragassay.stats.calibration import Agreement, BooleanAgreement, Verdicts, left_out_text
from ragassay.stats.groups import GroupAgreement

Counted = BooleanAgreement | GroupAgreement
"""What has a yes/no verdict's counts: the run's agreement, or one group's."""


def pair_text(low: float | None, high: float | None) -> str:
    return "" if low is None or high is None else f" [{low:.2f}, {high:.2f}]"


def _marked(label: str, problem: bool) -> str:
    """What people marked, said from the problem side: `hallucinated`, `not faithful`."""
    return label if problem else f"not {label}"


def _sides(v: Verdicts, n: int, positives: int, label: str) -> str:
    """What a verdict misses of the problems people marked and flags of the rest, over the
    samples compared, from the label's problem side (`Verdicts.problem`): `misses 28 of 80
    people marked hallucinated, flags 18 of 55 they did not`, `misses 5 of 10 people
    marked not faithful, flags 0 of 30 they marked faithful` (a side without labels is
    not said)."""
    problems = positives if v.problem else n - positives
    fine = n - problems
    sides = [f"misses {v.missed} of {problems} people marked {_marked(label, v.problem)}"
             ] if problems else []
    if fine:
        if v.problem:
            whom = "they did not" if problems else f"people did not mark {label}"
        else:
            whom = f"{'they' if problems else 'people'} marked {label}"
        sides.append(f"flags {v.flagged} of {fine} {whom}")
    return ", ".join(sides)


def verdict_cell(a: Counted, label: str) -> str:
    """How often a metric's yes/no verdict is right by people's labels, that figure first
    (trial 59: it ended a cell of 14 lines), then what it rests on. An answer that
    abstained gets no verdict and counts right where people marked no problem in it;
    an unscored sample is not counted: `right on 116 of 144 (81%): 100 of 128 verdicts
    (misses 15 of 80 people marked hallucinated, flags 13 of 48 they did not) and 16 of
    16 abstentions (people marked 0 of them hallucinated)`; without abstentions `right on
    100 of 128 (78%): misses ..., flags ...`; `; 2 unscored not counted` after. A run
    stored before what people marked the abstained was counted says them apart (`; 9
    abstained not counted`). "" without verdicts or samples compared."""
    v, declined = a.verdicts, a.abstained_positives
    if v is None or a.positives is None or not a.n:
        return ""
    sides = _sides(v, a.n, a.positives, label)
    right, total, body = v.agree, a.n, sides
    if a.abstained and declined is not None:
        wrong = declined if v.problem else a.abstained - declined  # declines marked bad
        right, total = v.agree + a.abstained - wrong, a.n + a.abstained
        body = (f"{v.agree} of {a.n} verdicts ({sides}) and {a.abstained - wrong} of "
                f"{a.abstained} abstentions ({declined_text(label, a.abstained, declined)})")
    left = left_out_text(0 if declined is not None else a.abstained, a.unscored)
    return (f"right on {right} of {total} ({right / total:.0%}): {body}"
            + (f"; {left} not counted" if left else ""))


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
    yes/no verdict's `verdict_cell`, so that a group of declines does not read as 0 of 3
    (trial 58): `right on 13 of 16 (81%): 0 of 3 verdicts (flags 3 of 3 people did not
    mark hallucinated) and 13 of 13 abstentions (people marked 0 of them hallucinated)`;
    else `AUROC 0.81 on 16` (`Spearman 0.40 on 16`), else why neither (`16 labels, all
    one class (all hallucinated)`, `2 labels, too few (need 3)`), the labelled samples
    left out said as the headline does (`AUROC 0.81 (12 labels of 16: 4 abstained not
    counted, ...)`); `all 16 abstained: nothing to compare, people marked 0 of them
    hallucinated`; `no labels`."""
    if a.verdicts is not None and a.n:
        return verdict_cell(a, a.label)
    left = left_out_said(a, a.label)
    counted = f" ({a.n} labels{left})" if left else ""
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
