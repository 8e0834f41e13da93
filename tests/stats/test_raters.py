"""Agreement between people: Cohen's kappa and Krippendorff's alpha against worked
textbook examples, their bootstrap intervals' coverage by simulation (fixed seeds), and
the one-line reasons agreement is absent."""

from __future__ import annotations

import numpy as np
import pytest

from ragassay.stats.raters import (
    RaterAgreement,
    alpha_ci,
    cohen_kappa,
    kappa_ci,
    krippendorff_alpha,
    level_of,
    rater_agreement,
)

N = None
# Krippendorff (2011), "Computing Krippendorff's alpha-reliability", section C: four
# observers, twelve units, values 1-5, missing values (N)
OBSERVERS = [[1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],
             [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
             [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],
             [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N]]


def _units(observers: list[list[int | None]]) -> list[list[float]]:
    return [[float(o[u]) for o in observers if o[u] is not None]
            for u in range(len(observers[0]))]


def test_krippendorffs_worked_example_with_missing_values() -> None:
    units = _units(OBSERVERS)
    # the paper's figures: nominal 0.743, interval 0.849
    assert krippendorff_alpha(units, "nominal") == pytest.approx(0.743, abs=5e-4)
    assert krippendorff_alpha(units, "interval") == pytest.approx(0.849, abs=5e-4)
    # by hand, nominal: n = 40 pairable values (unit 12's lone value is not); the units
    # with disagreement: 2 (2,2,3,2): 6 mismatched ordered pairs / (4 - 1) = 2; 6
    # (1,2,3,4): 12 / 3 = 4; 8 (1,1,2,1): 6 / 3 = 2; sum D_u = 8. Values: 1 x9, 2 x13,
    # 3 x10, 4 x5, 5 x3: sum_{c != k} n_c n_k = 40^2 - (81 + 169 + 100 + 25 + 9) = 1216
    assert krippendorff_alpha(units, "nominal") == pytest.approx(1 - 39 * 8 / 1216)


def test_krippendorffs_binary_example_two_observers() -> None:
    # the paper's section A: two observers, ten units, 0/1: alpha = 0.095
    a = [0, 1, 0, 0, 0, 0, 0, 0, 1, 0]
    b = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0]
    assert krippendorff_alpha([[x, y] for x, y in zip(a, b, strict=True)]) == pytest.approx(
        0.095, abs=5e-4)


def test_cohens_kappa_computed_by_hand() -> None:
    # 50 samples: both yes 20, A yes B no 5, A no B yes 10, both no 15
    a = [1] * 20 + [1] * 5 + [0] * 10 + [0] * 15
    b = [1] * 20 + [0] * 5 + [1] * 10 + [0] * 15
    p_o = (20 + 15) / 50  # 0.7
    p_e = (25 / 50) * (30 / 50) + (25 / 50) * (20 / 50)  # 0.3 + 0.2 = 0.5
    assert cohen_kappa(a, b) == pytest.approx((p_o - p_e) / (1 - p_e))  # 0.4
    assert cohen_kappa(a, b) == pytest.approx(0.4)
    assert cohen_kappa(a, a) == pytest.approx(1.0)
    # three categories (a grade), by hand: p_o = 3/6, p_e = (2*2 + 2*1 + 2*3) / 36 = 1/3
    x, y = [0, 0, 1, 1, 2, 2], [0, 2, 1, 2, 2, 0]
    assert cohen_kappa(x, y) == pytest.approx((3 / 6 - 12 / 36) / (1 - 12 / 36))  # 0.25


def test_undefined_figures_are_none_never_nan() -> None:
    assert cohen_kappa([1, 1, 1], [1, 1, 1]) is None  # chance agreement is certain
    assert cohen_kappa([], []) is None
    assert krippendorff_alpha([[1.0, 1.0], [1.0, 1.0]]) is None  # no variation at all
    assert krippendorff_alpha([[1.0], [0.0]]) is None  # nothing pairable
    with pytest.raises(ValueError):
        cohen_kappa([1, 0], [1])


def test_agreement_needs_two_annotators_on_one_sample() -> None:
    one = {"k1": {"ana": 1.0}, "k2": {"ana": 0.0}}
    assert rater_agreement("hallucinated", one) == (
        "one annotator: agreement between people not measurable")
    apart = {"k1": {"ana": 1.0}, "k2": {"bo": 0.0}}
    assert "no sample labelled by two" in str(rater_agreement("hallucinated", apart))


def test_rater_agreement_gives_alpha_and_kappa_per_pair_with_intervals() -> None:
    rng = np.random.default_rng(3)
    truth = rng.random(80) < 0.4
    ratings = {}
    for i, t in enumerate(truth):
        ratings[f"k{i}"] = {who: float(t if rng.random() < acc else not t)
                            for who, acc in (("ana", 0.9), ("bo", 0.85), ("cy", 0.8))
                            if who != "cy" or i % 2 == 0}  # cy labelled half
    got = rater_agreement("hallucinated", ratings, n_resamples=300)
    assert isinstance(got, RaterAgreement) and got.level == "nominal"
    assert got.annotators == ["ana", "bo", "cy"] and got.samples == 80
    assert got.values == 80 * 2 + 40
    assert [(p.first, p.second, p.samples) for p in got.pairs] == [
        ("ana", "bo", 80), ("ana", "cy", 40), ("bo", "cy", 40)]
    assert got.alpha is not None and got.ci_low is not None and got.ci_high is not None
    assert got.ci_low < got.alpha < got.ci_high
    assert all(p.ci_low is not None and p.ci_low <= (p.kappa or 0) <= (p.ci_high or 0)
               for p in got.pairs)
    # the same seed, the same interval
    again = rater_agreement("hallucinated", ratings, n_resamples=300)
    assert (again.ci_low, again.ci_high) == (got.ci_low, got.ci_high)  # type: ignore[union-attr]


def test_the_level_follows_the_labels_kind() -> None:
    assert level_of("hallucinated", [0.0, 1.0]) == "nominal"
    assert level_of("relevance", [0.0, 1.0]) == "interval"  # a grade 0-3
    assert level_of("my_flag", [0.0, 1.0, 1.0]) == "nominal"
    assert level_of("my_score", [0.5, 4.0]) == "interval"


# -- coverage of the bootstrap intervals, by simulation ----------------------------------

REPS = 200
SIZE = 150
RESAMPLES = 400


def _population(seed: int, graded: bool) -> tuple[list[list[float]], np.ndarray, np.ndarray]:
    """20,000 samples: a true value, two raters who err at their own rates, and a third
    who labels about half of them; returns every sample's values and raters A, B."""
    rng = np.random.default_rng(seed)
    n = 20_000
    if graded:
        truth = rng.integers(0, 4, n).astype(float)
        noise = [np.clip(truth + rng.choice([-1, 0, 0, 0, 1], n), 0, 3) for _ in range(3)]
    else:
        truth = (rng.random(n) < 0.3).astype(float)
        noise = [np.where(rng.random(n) < acc, truth, 1 - truth) for acc in (0.88, 0.8, 0.75)]
    third = rng.random(n) < 0.5
    units = [[noise[0][i], noise[1][i], *([noise[2][i]] if third[i] else [])]
             for i in range(n)]
    return units, noise[0], noise[1]


@pytest.mark.parametrize("graded", [False, True], ids=["nominal", "interval"])
def test_alpha_interval_covers_the_true_alpha_at_about_its_rate(graded: bool) -> None:
    level = "interval" if graded else "nominal"
    units, _, _ = _population(11, graded)
    true = krippendorff_alpha(units, level)
    assert true is not None
    rng = np.random.default_rng(12)
    hits = 0
    for rep in range(REPS):
        pick = rng.integers(0, len(units), SIZE)
        low, high = alpha_ci([units[i] for i in pick], level, n_resamples=RESAMPLES, seed=rep)
        assert low is not None and high is not None
        hits += low <= true <= high
    assert 0.90 <= hits / REPS <= 0.99, hits / REPS


def test_kappa_interval_covers_the_true_kappa_at_about_its_rate() -> None:
    _, a, b = _population(21, graded=False)
    true = cohen_kappa(list(a), list(b))
    assert true is not None
    rng = np.random.default_rng(22)
    hits = 0
    for rep in range(REPS):
        pick = rng.integers(0, len(a), SIZE)
        low, high = kappa_ci(list(a[pick]), list(b[pick]), n_resamples=RESAMPLES, seed=rep)
        assert low is not None and high is not None
        hits += low <= true <= high
    assert 0.90 <= hits / REPS <= 0.99, hits / REPS


def test_the_interval_is_the_same_in_blocks_as_in_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A large run's replicates are drawn a block at a time (memory bounded): the same
    draws, the same interval."""
    import ragassay.stats.raters as raters

    units = _units(OBSERVERS) * 5
    whole = alpha_ci(units, "nominal", n_resamples=300, seed=4)
    monkeypatch.setattr(raters, "CELLS", 7 * len(units))  # 7 replicates per block
    assert alpha_ci(units, "nominal", n_resamples=300, seed=4) == whole
