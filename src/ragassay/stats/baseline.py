"""The lexical baseline a judge must beat: the share of answer words found in the evidence.

Evidence is the contexts, or the best of the reference answers when a sample has no
contexts (answer-correctness sets such as EVOUNA). Words are `ragassay.text.tokens`,
stopwords included, exactly as the issue defines the baseline; an empty answer scores 0.
`scripts/devsets/measure.py` uses the same function, so its figures and
`ragassay meta-eval`'s agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from ragassay.stats.result import Pair, Result
from ragassay.text import tokens
from ragassay.types import Sample

BeatsVerdict = Literal["yes", "unclear", "no", "-"]
"""What a judge's AUROC interval shows against the lexical baseline (`RankAgreement.verdict`)."""


class BeatsBaseline(Result):
    """A pair's `beats baseline`: the verdict (`yes`, `unclear`, `no`, `-`) and the cell
    that says it with the figures compared (what the console's column and meta-eval's
    `--out` read)."""

    verdict: BeatsVerdict
    beats: str


NO_BASELINE = BeatsBaseline(verdict="-", beats="-")
"""A graded label's, or a pair's without a baseline."""


class RankAgreement(Result):
    """How well a score ranks a boolean label: AUROC with its bootstrap interval."""

    n: int
    auroc: float | None
    auroc_ci: Pair | None

    def below_chance(self) -> str | None:
        """What to say when the baseline ranks the label worse than a coin on this data (its
        AUROC below 0.5, the point estimate a judge's lower bound is compared with): its
        direction is fixed beforehand, never flipped after seeing the labels (that would be
        tuning it), so beating it says little; None otherwise."""
        if self.auroc is None or self.auroc >= 0.5:
            return None
        return (f"the lexical baseline ranks below chance on this data (AUROC {self.auroc:.3f}; "
                f"reversed {1 - self.auroc:.3f}): beating it says little")

    def target(self) -> tuple[float, str] | None:
        """The baseline in its meaningful direction, the one rule `verdict` and
        `beaten_by` read: its AUROC, or the reversed figure when it ranks below chance
        (a baseline below chance still ranks, backwards), and how that figure is named
        (`baseline 0.637`, `reversed baseline 0.724`); None without an AUROC."""
        if self.auroc is None:
            return None
        if self.auroc >= 0.5:
            return self.auroc, f"baseline {self.auroc:.3f}"
        return 1 - self.auroc, f"reversed baseline {1 - self.auroc:.3f}"

    def beaten_by(self, auroc: float | None, low: float | None) -> str:
        """The `beats baseline` cell for a judge at `auroc` whose interval starts at `low`:
        its first word is what the interval shows against the baseline in its meaningful
        direction (`target`), then what is compared. `yes: lower bound 0.690 > baseline
        0.637`; `unclear: lower bound 0.681 <= reversed baseline 0.724 < AUROC 0.756`
        (the point estimate above, the interval not: trial 66 read "yes, but lower bound
        ..." as yes); `no: AUROC 0.600 <= baseline 0.637`; `-` without figures (trials
        58, 63: the bound and the figure it is compared with are named, so an AUROC above
        a baseline beside `unclear` is not read as a contradiction)."""
        word, target = self.verdict(auroc, low), self.target()
        if word == "-" or target is None or auroc is None or low is None:
            return "-"
        base = target[1]
        if word == "yes":
            return f"yes: lower bound {low:.3f} > {base}"
        if word == "unclear":
            return f"unclear: lower bound {low:.3f} <= {base} < AUROC {auroc:.3f}"
        return f"no: AUROC {auroc:.3f} <= {base}"

    def verdict(self, auroc: float | None, low: float | None) -> BeatsVerdict:
        """`yes` when a judge's AUROC lower bound `low` clears the baseline in its
        meaningful direction (`target`), `unclear` when only its point estimate `auroc`
        does, `no` when neither does; `-` without figures."""
        target = self.target()
        if low is None or auroc is None or target is None:
            return "-"
        return "yes" if low > target[0] else "unclear" if auroc > target[0] else "no"

    def beats(self, auroc: float | None, low: float | None) -> BeatsBaseline:
        """The verdict and the cell together (`verdict`, `beaten_by`)."""
        return BeatsBaseline(verdict=self.verdict(auroc, low), beats=self.beaten_by(auroc, low))


def lexical_share(answer: str, evidence: str) -> float:
    """Share of the answer's words that occur in the evidence text."""
    words = tokens(answer)
    if not words:
        return 0.0
    vocab = set(tokens(evidence))
    return sum(w in vocab for w in words) / len(words)


def lexical_support(sample: Sample) -> float | None:
    """The baseline score of a sample; None when it has neither contexts nor references."""
    if sample.contexts:
        return lexical_share(sample.answer, " ".join(sample.contexts))
    if sample.references:
        return max(lexical_share(sample.answer, r) for r in sample.references)
    return None


def baseline_agreement(samples: Iterable[Sample], label: str, *, inverted: bool = False,
                       seed: int = 0, n_resamples: int = 2000) -> RankAgreement:
    """AUROC (with a bootstrap CI) of the lexical baseline against a boolean label."""
    from ragassay.stats.agreement import auroc, auroc_ci

    scores: list[float] = []
    truth: list[bool] = []
    for s in samples:
        value = s.labels.get(label)
        v = lexical_support(s)
        if value is None or v is None or not isinstance(value, bool | int | float):
            continue
        scores.append(1.0 - v if inverted else v)
        truth.append(bool(value))
    ci = auroc_ci(scores, truth, seed=seed, n_resamples=n_resamples) if scores else None
    return RankAgreement(n=len(scores), auroc=auroc(scores, truth) if scores else None,
                         auroc_ci=ci)

