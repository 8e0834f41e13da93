"""A headline row's agreement measured on this run's labels, a figure a part (`InRun`):
the JSON's `agreement_text` joins the parts in one cell (`HeadlineRow.in_run_text`), the
narrow console says each on a line of its own with what it means (trial 78: the
agreement, kappa, lexical baseline and offsets in one wrapped paragraph took several
reads)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ragassay.stats.calibration import BooleanAgreement, NumericAgreement
from ragassay.stats.verdicts import Declines, left_out_said, pair_text, verdict_cell

RANK_MEANINGS = {
    "AUROC": "how well its scores rank people's labels (0.5 is chance, 1 is perfect)",
    "kappa": "how far its yes/no agrees with people's beyond chance (0 is chance, 1 is "
             "perfect)",
    "Spearman": "how well its scores follow people's grades (0 is none, 1 is perfect)",
}
"""What each ranking figure of the agreement means, said beside it where the console gives
it a line of its own (`InRun.ranks`' names)."""


@dataclass(frozen=True)
class InRun:
    """The agreement measured on this run's labels: a yes/no verdict's `verdict_cell` (or
    its abstentions counted alone), the ranking figures as (name, text), `("AUROC",
    "AUROC 0.63 [0.50, 0.78]")`, `("kappa", "kappa 0.27 [...] (a score below 5.5 read as
    hallucinated)")`, the samples they rest on where no verdict says them (`labels`:
    `30 labels`, `130 labels of 144: 14 abstained not counted, ...`), and the lexical
    baseline's statement (`LexicalComparison.text`); "" where absent."""

    verdict: str = ""
    ranks: tuple[tuple[str, str], ...] = ()
    labels: str = ""
    lexical: str = ""

    def text(self) -> str:
        """The parts in one cell: `right on ...; in this run: AUROC ..., kappa ...;
        above the lexical baseline ...`, `in this run: AUROC ..., kappa ... (30 labels)`."""
        rank = ", ".join(t for _, t in self.ranks) + (f" ({self.labels})" if self.labels
                                                      else "")
        return "; ".join(x for x in (self.verdict, rank and f"in this run: {rank}",
                                     self.lexical) if x)

    def lines(self) -> list[str]:
        """A part a line, each ranking figure with its meaning (`RANK_MEANINGS`)."""
        ranks = [f"in this run: {t}: {RANK_MEANINGS[name]}" for name, t in self.ranks]
        return [x for x in (self.verdict, *ranks, self.labels and f"on {self.labels}",
                            self.lexical) if x]


class _Row(Protocol):
    @property
    def agreement(self) -> BooleanAgreement | NumericAgreement | None: ...
    @property
    def declines(self) -> Declines | None: ...
    @property
    def label(self) -> str: ...

    def shows_verdicts(self) -> bool: ...

    def kappa_cut(self) -> str: ...


def in_run(row: _Row) -> InRun | None:
    """A headline row's agreement measured on this run's labels (`InRun`), or None: for a
    yes/no verdict how often it is right first (`verdict_cell`), then how far its scores
    rank the labels (AUROC, kappa), against the lexical baseline's; with no verdict
    compared, its abstentions counted alone (`declines`); a grade's Spearman."""
    a, label = row.agreement, row.label
    if a is None and row.declines is not None:
        said = verdict_cell(row.declines, label)
        return InRun(verdict=said) if said else None
    if isinstance(a, BooleanAgreement) and (a.auroc is not None or row.shows_verdicts()):
        ranks: list[tuple[str, str]] = []
        if a.auroc is not None:
            ranks.append(("AUROC", f"AUROC {a.auroc:.2f}"
                                   f"{pair_text(*(a.auroc_ci or (None, None)))}"))
            if a.kappa is not None:
                ranks.append(("kappa", f"kappa {a.kappa:.2f}"
                                       f"{pair_text(*(a.kappa_ci or (None, None)))}"
                                       f"{row.kappa_cut()}"))
        verdict = verdict_cell(a, label) if row.shows_verdicts() else ""
        rests = f"{a.n} labels{left_out_said(a, label)}" if ranks and not verdict else ""
        return InRun(verdict=verdict, ranks=tuple(ranks), labels=rests,  # else the verdicts'
                     lexical=a.baseline.text if a.baseline is not None else "")
    if isinstance(a, NumericAgreement) and a.spearman is not None:
        return InRun(ranks=(("Spearman", f"Spearman {a.spearman:.2f}"
                                         f"{pair_text(*(a.spearman_ci or (None, None)))}"),),
                     labels=f"{a.n} labels{left_out_said(a, label)}")
    return None
