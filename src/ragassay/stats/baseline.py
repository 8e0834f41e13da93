"""The lexical baseline a judge must beat: the share of answer words found in the evidence.

Its score (`lexical.py`, below the score table, which reads it for each labelled row):
the contexts, or the best of the reference answers when a sample has no contexts
(answer-correctness sets such as EVOUNA). Words are `ragassay.text.tokens`, stopwords
included, exactly as the issue defines the baseline; an empty answer scores 0.
`scripts/devsets/measure.py` uses the same function, so its figures and the calibration's
(`against_baseline`: eval's headline, calibrate, meta-eval, the gate) agree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from ragassay.labels import lookup
from ragassay.stats.lexical import lexical_score, lexical_share, lexical_support
from ragassay.stats.result import Pair, Result
from ragassay.types import Sample

__all__ = ["BEATS_WORDS", "NO_BASELINE", "BeatsBaseline", "BeatsVerdict", "LexicalComparison",
           "RankAgreement", "against_baseline", "baseline_agreement", "baseline_lines",
           "lexical_score", "lexical_share", "lexical_support", "reads_inverted"]

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

    @classmethod
    def of(cls, lexical: Sequence[float], truth: Sequence[bool], *, inverted: bool,
           seed: int, n_resamples: int) -> RankAgreement:
        """The lexical baseline's scores (`lexical_score`, unoriented) against people's
        labels `truth`, read as 1 - share where `inverted` (`reads_inverted`): the one
        computation `baseline_agreement` and `against_baseline` share."""
        from ragassay.stats.agreement import auroc, auroc_ci

        scores = [1.0 - v if inverted else v for v in lexical]
        if not scores:
            return cls(n=0, auroc=None, auroc_ci=None)
        return cls(n=len(scores), auroc=auroc(scores, list(truth)),
                   auroc_ci=auroc_ci(scores, list(truth), seed=seed, n_resamples=n_resamples))

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


def reads_inverted(label: str) -> bool:
    """Whether the baseline reads a label inverted: a vocabulary label whose True is the
    problem (`hallucinated`: many answer words in the evidence means False). Fixed by the
    label before any label is seen; a figure below chance is then compared reversed
    (`RankAgreement.target`: `reversed baseline`), not this direction changed."""
    kind = lookup(label)
    return kind is not None and not kind.higher_is_better


def baseline_agreement(samples: Iterable[Sample], label: str, *, inverted: bool = False,
                       seed: int = 0, n_resamples: int = 2000) -> RankAgreement:
    """AUROC (with a bootstrap CI) of the lexical baseline against a boolean label."""
    lexical: list[float] = []
    truth: list[bool] = []
    for s in samples:
        value = s.labels.get(label)
        v = lexical_support(s)
        if value is None or v is None or not isinstance(value, bool | int | float):
            continue
        lexical.append(v)
        truth.append(bool(value))
    return RankAgreement.of(lexical, truth, inverted=inverted, seed=seed,
                            n_resamples=n_resamples)



class LexicalComparison(Result):
    """A judge's ranking of a yes/no label against the lexical baseline's on the same
    samples (the pair's n; since report_version 2.24.0): the baseline's AUROC in its fixed
    direction with its interval, the verdict and cell (`RankAgreement.beats`), `text`, the
    one statement every screen that shows the judge's agreement with people says (eval's
    headline in the console, JSON and HTML, calibrate, meta-eval, the gate's notes), and
    `meaning`, what a baseline below chance says of the data (None above chance)."""

    auroc: float | None
    auroc_ci: Pair | None
    verdict: BeatsVerdict
    beats: str
    text: str
    meaning: str | None = None


BEATS_WORDS = {"yes": "above", "unclear": "not clearly above", "no": "not above"}
REVERSED_WORDS = {"yes": "better than", "unclear": "not clearly better than",
                  "no": "no better than"}
"""The same, against a baseline below chance read the other way round (trial 70: "not
above the reversed lexical baseline" read as "worse than word counting")."""
REVERSED_SAID = ("word overlap points the wrong way here: the answers people marked as a "
                 "problem reuse more of their passages' words, so the judge is compared with "
                 "high overlap read as a sign of a problem")
"""What a reversed baseline is, said in the statement itself after the judge's verdict
against it (trial 73: "the lexical baseline read the other way round" was hard to parse;
trial 82: "reversed (word overlap ranks these labels backwards)" did not say whether
reversed is good or bad): what the baseline is, that word overlap alone gets the labels
wrong, and how the judge is compared with it; trial 88: "the wrong way round" took two
reads): what it measured, then what that means here, plainly; trial 89: still read
twice, so it leads with what it means: overlap points the wrong way)."""


REVERSED_SHORT = "word overlap points the wrong way here (see above)"
"""What a later line of one screen says in place of `REVERSED_SAID` (`SaidOnce`)."""

_MEANING_WHY = re.compile(r" \(it points the wrong way: answers people marked [^()]* than the "
                          r"rest\)")
"""The reason in a `LexicalComparison.meaning`, left out once one line of the screen has
said why the baseline points the wrong way (trial 89: three sentences of one reason)."""


class SaidOnce:
    """One screen's lexical baseline statements: `REVERSED_SAID` in full the first time,
    `REVERSED_SHORT` after (trial 84: the same sentence five times on one screen); each
    line keeps its own metrics, verdict and figures. A baseline's `meaning` says its
    reason (`_MEANING_WHY`) only where no line before it said why (trial 89)."""

    def __init__(self) -> None:
        self.said = False

    def __call__(self, text: str) -> str:
        if REVERSED_SAID not in text:
            if _MEANING_WHY.search(text) is None:
                return text
            if self.said:
                return _MEANING_WHY.sub("", text)
            self.said = True
            return text
        if self.said:
            return text.replace(REVERSED_SAID, REVERSED_SHORT)
        self.said = True
        return text


def against_baseline(label: str, auroc: float | None, auroc_ci: Pair | None,
                     lexical: Sequence[float | None], truth: Sequence[bool], *, seed: int = 0,
                     n_resamples: int = 2000) -> LexicalComparison | None:
    """A judge at `auroc` (interval `auroc_ci`) on samples whose baseline scores are
    `lexical` (`lexical_score`, unoriented) and people's labels `truth`, against the
    baseline on those same samples; None when a sample has no baseline score (a stored run
    read without its texts) or the judge no AUROC. A baseline below chance is compared in
    its meaningful direction (`RankAgreement.target`), and its `meaning` says why that
    comparison is informative (trial 67: "beating it says little" under a "no" verdict
    against that very figure read as a contradiction): the answers people marked the
    problem share more of their contexts' words than the rest, so wording alone, read
    backwards, ranks them; a judge not above it is not shown to read more than wording
    (trial 78: "read its agreement with people as no more than that" was hard to follow:
    the figure first, in plain words, then what to read the judge's against)."""
    if auroc is None or not lexical or any(v is None for v in lexical):
        return None
    inverted = reads_inverted(label)
    base = RankAgreement.of([v for v in lexical if v is not None], truth, inverted=inverted,
                            seed=seed, n_resamples=n_resamples)
    got = base.beats(auroc, auroc_ci[0] if auroc_ci else None)
    if got.verdict == "-" or base.auroc is None:
        return None
    text = (f"{BEATS_WORDS[got.verdict]} the lexical baseline on the same "
            f"{base.n} samples ({got.beats})")
    meaning = None
    if base.auroc < 0.5:  # reversed: said in the line itself (trial 70) and what it means
        text = (f"{REVERSED_WORDS[got.verdict]} the lexical baseline on the same {base.n} "
                f"samples ({got.beats}) - {REVERSED_SAID}")
        problem = label if inverted else f"not {label}"  # the side word overlap ranks up
        meaning = (f"{label}: word overlap alone tells people's labels apart "
                   f"{1 - base.auroc:.2f} of the time here (it points the wrong way: answers "
                   f"people marked {problem} reuse more of their passages' words than the "
                   "rest), so read the judge's agreement against that, not against 0.5")
    return LexicalComparison(auroc=base.auroc, auroc_ci=base.auroc_ci, verdict=got.verdict,
                             beats=got.beats, text=text, meaning=meaning)


def baseline_lines(pairs: Iterable[Any]) -> list[str]:
    """What a baseline below chance means, once per distinct line over the agreement
    pairs (`LexicalComparison.meaning`): said under every agreement table."""
    found = [m for p in pairs if (b := getattr(p, "baseline", None)) is not None
             and (m := b.meaning) is not None]
    return list(dict.fromkeys(found))
