import pytest

from ragassay.stats.baseline import (
    RankAgreement,
    baseline_agreement,
    lexical_share,
    lexical_support,
)
from ragassay.types import Sample


def test_share_of_answer_words_in_the_evidence():
    # answer words: the, cat, sat, on, mats -> 3 of 5 in the context
    assert lexical_share("The cat sat on mats", "the cat sat here") == pytest.approx(3 / 5)
    assert lexical_share("", "anything") == 0.0


def test_contexts_first_then_best_reference():
    with_ctx = Sample(id="a", question="q", contexts=("paris is big",), answer="paris",
                      reference="london")
    assert lexical_support(with_ctx) == 1.0
    no_ctx = Sample(id="b", question="q", answer="david seville",
                    reference=("alvin", "david seville"))
    assert lexical_support(no_ctx) == 1.0
    assert lexical_support(Sample(id="c", question="q", answer="x")) is None


def test_baseline_auroc_against_a_label():
    samples = [
        Sample(id=str(i), question="q", contexts=("red green blue",), answer=a,
               labels={"faithful": lab})
        for i, (a, lab) in enumerate([("red green", True), ("red", True), ("red pink", False),
                                      ("pink gold", False)])
    ]
    result = baseline_agreement(samples, "faithful", n_resamples=200)
    assert result.n == 4 and result.auroc == 1.0
    inverted = baseline_agreement(samples, "faithful", inverted=True, n_resamples=200)
    assert inverted.auroc == 0.0


def test_a_baseline_below_chance_is_said_not_flipped():
    """A new-user trial: meta-eval said a judge "beats baseline: yes" against a lexical
    baseline of AUROC 0.276, worse than a coin; its direction stays fixed (flipping it
    after seeing the labels would be tuning), and a note says what beating it is worth."""
    below = RankAgreement(n=40, auroc=0.276, auroc_ci=(0.12, 0.43))
    assert below.below_chance() == (
        "the lexical baseline ranks below chance on this data (AUROC 0.276; reversed "
        "0.724): beating it says little")
    assert RankAgreement(n=40, auroc=0.5, auroc_ci=(0.3, 0.7)).below_chance() is None
    assert RankAgreement(n=40, auroc=0.81, auroc_ci=(0.7, 0.9)).below_chance() is None
    assert RankAgreement(n=0, auroc=None, auroc_ci=None).below_chance() is None


def test_beating_a_baseline_below_chance_says_whether_the_reversed_one_is_beaten():
    """New-user trial 58: "beats baseline: yes" for a judge at 0.729 [0.652, 0.804] beside
    a baseline of 0.306, whose reversed 0.694 the judge's interval overlaps."""
    below = RankAgreement(n=144, auroc=0.306, auroc_ci=(0.22, 0.39))
    assert below.beaten_by(0.729, 0.652) == (
        "unclear: lower bound 0.652 <= reversed baseline 0.694 < AUROC 0.729")
    assert below.beaten_by(0.78, 0.71) == "yes: lower bound 0.710 > reversed baseline 0.694"
    assert below.beaten_by(0.40, 0.30) == "no: AUROC 0.400 <= reversed baseline 0.694"
    above = RankAgreement(n=144, auroc=0.62, auroc_ci=(0.55, 0.69))
    assert above.beaten_by(0.72, 0.652) == "yes: lower bound 0.652 > baseline 0.620"
    assert above.beaten_by(0.68, 0.6) == (
        "unclear: lower bound 0.600 <= baseline 0.620 < AUROC 0.680")
    assert above.beaten_by(0.61, 0.5) == "no: AUROC 0.610 <= baseline 0.620"
    assert above.beaten_by(0.7, None) == "-" and above.beaten_by(None, None) == "-"


def test_the_beats_baseline_cell_names_the_bound_it_compares():
    """New-user trial 63: "yes, but not the reversed baseline 0.733" beside an AUROC of
    0.755, which is higher: the cell compares the judge's lower 95% bound (0.680), which
    only docs/judges.md said. The cell says the bound and the figure it is compared with."""
    below = RankAgreement(n=144, auroc=0.267, auroc_ci=(0.19, 0.35))
    assert below.beaten_by(0.755, 0.680) == (
        "unclear: lower bound 0.680 <= reversed baseline 0.733 < AUROC 0.755")


def test_the_beats_baseline_cells_first_word_is_what_the_interval_shows():
    """New-user trial 66: a judge at 0.756 [0.681, 0.834] beside a baseline of 0.276
    (reversed 0.724) read `yes, but lower bound 0.681 <= reversed baseline 0.724`; a user
    skimming the column reads "yes". The first word is `yes` only when the lower bound
    clears the baseline in its meaningful direction, `unclear` when only the point
    estimate does, `no` otherwise, and the verdict and the cell come from one place."""
    below = RankAgreement(n=144, auroc=0.276, auroc_ci=(0.2, 0.35))
    cell = below.beaten_by(0.756, 0.681)
    assert cell.split(":")[0] == "unclear" == below.verdict(0.756, 0.681)
    assert cell == "unclear: lower bound 0.681 <= reversed baseline 0.724 < AUROC 0.756"
    # no bare "yes" against the raw figure when the reversed one is not cleared
    assert below.verdict(0.70, 0.60) == "no"
    assert below.verdict(0.80, 0.73) == "yes"
    above = RankAgreement(n=144, auroc=0.637, auroc_ci=(0.55, 0.7))
    assert above.verdict(0.70, 0.60) == "unclear" and above.verdict(0.6, 0.5) == "no"
    assert above.verdict(None, None) == "-"
