"""What every surface says of corrected estimates, in words: the heading of people's
column, the figures of every sample labelled said apart (nothing corrected there), a run
too small for a corrected estimate, and labels all of one value (no figure, or one not
corrected). Pure text over `CorrectedEstimate`s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from ragassay.terminal import counted


class _Scale(Protocol):
    @property
    def kind(self) -> str: ...


class _Estimate(Protocol):
    """What these words read of a `corrected.CorrectedEstimate` (which imports them)."""

    @property
    def label(self) -> str: ...
    @property
    def strategy(self) -> str | None: ...
    @property
    def all_labelled(self) -> bool: ...
    @property
    def n_total(self) -> int: ...
    @property
    def scale(self) -> _Scale: ...


E = TypeVar("E", bound=_Estimate)


def people_column(estimates: Sequence[_Estimate]) -> str:
    """What a column of people's figures holds, to head it: `people (all labelled)` when
    every one is of samples all labelled (nothing corrected), else `people (corrected)`
    (every surface's headline and table of corrected estimates)."""
    whole = bool(estimates) and all(e.all_labelled for e in estimates)
    return f"people ({'all labelled' if whole else 'corrected'})"


EXACT_TITLE = "people's labels: every sample labelled, nothing corrected"
"""The title of the figures of every sample labelled, on every surface (`split_exact`)."""


def split_exact(estimates: Sequence[E]) -> tuple[list[E], list[E]]:
    """`estimates` apart: those of every sample labelled (`all_labelled`: the labels' own
    figure, nothing corrected), one per label and strategy, since people's figure is then
    the same through whichever metric the label is linked to (trial 59: five identical
    rows with gain x1.00 under a title about a random sample); and the corrected ones.
    What every surface's section of corrected estimates shows apart."""
    exact: dict[tuple[str, str | None], E] = {}
    for e in estimates:
        if e.all_labelled:
            exact.setdefault((e.label, e.strategy), e)
    return list(exact.values()), [e for e in estimates if not e.all_labelled]


def exact_text(exact: Sequence[_Estimate]) -> str:
    """What the figures of every sample labelled are, said once above them: `all 144
    samples are labelled: people's rate is exact for this data and nothing is corrected,
    whichever metric the label is linked to (its 95% interval is of the population the
    samples come from)` ("rate" of yes/no labels, "mean" of grades, else "figure")."""
    n = max((e.n_total for e in exact), default=0)
    kinds = {e.scale.kind == "bool" for e in exact}
    what = "rate" if kinds == {True} else "mean" if kinds == {False} else "figure"
    return (f"all {n} samples are labelled: people's {what} is exact for this data and "
            "nothing is corrected, whichever metric the label is linked to (its 95% "
            "interval is of the population the samples come from)")


def too_small_text(samples: int, strategy: str | None = None) -> str:
    """What a run (or a strategy) of fewer samples than a corrected estimate needs
    labelled says instead of asking for labels, on every surface: `the run has 3 samples
    in all, so labelling cannot give one`."""
    whose = f"{strategy} has" if strategy else "the run has"
    return f"{whose} {counted(samples, 'sample')} in all, so labelling cannot give one"


def no_variation_text(labels: int, value: object, every: bool) -> str:
    """Why labels all of one value give no corrected estimate (a grade's, or a yes/no
    label's drawn by a weighted plan: no interval holds for them), and what would: more
    labels, or, with `every` sample labelled (none left to label), a larger run: `all 32
    labels are 3: no variation to estimate from; every sample is labelled, so only a
    larger run can give one`."""
    more = ("every sample is labelled, so only a larger run can give one" if every
            else "label more samples")
    return f"all {labels} labels are {value}: no variation to estimate from; {more}"


def rare_text(rare: int, min_rare: int) -> str | None:
    """The caution of a yes/no label's normal interval with fewer than `min_rare` labels
    of its rarer value (None with enough): `only 3 labels of the rarer value: the interval
    may be too narrow (label more, until at least 10 of each)`. Not said of the labels'
    exact interval (`ppi.labels_interval`), which holds there."""
    if rare >= min_rare:
        return None
    return (f"only {rare} label{'s' if rare != 1 else ''} of the rarer value: the interval "
            f"may be too narrow (label more, until at least {min_rare} of each)")


def uncorrected_text(labels: int, value: object) -> str:
    """What a yes/no label's estimate says when its labels all agree and some samples are
    unlabelled: the judge was not weighed, the figure is the labels' own exact interval
    (`ppi.labels_interval`): `nothing corrected: all 40 labels are False, so the judge's
    scores cannot be weighed against them; the figure is the labels' own, with its exact
    interval`."""
    return (f"nothing corrected: all {labels} labels are {value}, so the judge's scores "
            "cannot be weighed against them; the figure is the labels' own, with its exact "
            "interval")
