import pytest

from ragassay.stats.baseline import baseline_agreement, lexical_share, lexical_support
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
