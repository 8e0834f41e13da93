"""What a metric linked to a label says of each labelled sample, and when two linked
metrics say the same: a `LabelLink` (which label, which metric, which way), each labelled
sample's value on 0-1 oriented to the label or why it has none (`value_marks`), a
verdict's yes/no (`verdict_marks`), which verdicts repeat an earlier one's
(`same_verdicts`), on how many samples two scores' values are alike (`alike_count`) and
which scores' values repeat an earlier one's (`same_values`). The calibration marks a
later metric that repeats an earlier one (`calibration.same_readings`), and so do a run's
groups (`groups.group_by`), so that no surface shows one reading as two measurements."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ragassay.stats.table import ScoreTable

SAME_SHARE = 0.95
"""Two scores linked to one label read as one when their values are alike on at least
this share of its labelled samples, rounded up (trial 63: 143 of 144; of 10, all)."""

_M = TypeVar("_M", float | str, bool | str)


@dataclass(frozen=True)
class LabelLink:
    """Compare label `label` (a Sample.labels key; a "labels." prefix is accepted)
    with metric `metric`. `inverted`: a high metric means a False / low label."""

    label: str
    metric: str
    inverted: bool = False
    label_range: tuple[float, float] | None = None
    # the line a score is cut at into yes/no, on the metric's own 0-1 (the middle of its
    # range: 5.5 of 1-10, the offline judge's HALLUCINATION_THRESHOLD); at it the metric's yes
    threshold: float = 0.5

    @property
    def label_key(self) -> str:
        return self.label.removeprefix("labels.")


def value_marks(table: ScoreTable, link: LabelLink) -> tuple[float | str, ...]:
    """Per labelled sample, in the table's order, what the link's metric says of it: its
    value on 0-1 oriented to the label (1 - x for an inverted link), or why it has none
    ("abstained", "unscored")."""
    key, spec = link.label_key, table.spec(link.metric)
    marks: list[float | str] = []
    for r in table.rows:
        if r.labels.get(key) is None:
            continue
        v = r.value(link.metric)
        if v is None:
            marks.append("abstained" if link.metric in r.abstained else "unscored")
        else:
            x = spec.normalise(v)
            marks.append(1.0 - x if link.inverted else x)
    return tuple(marks)


def verdict_marks(table: ScoreTable, link: LabelLink) -> tuple[bool | str, ...]:
    """Per labelled sample, in the table's order, what the link's metric says of it: its
    verdict oriented to the label (True: the label's True; a 0-1 value cut at 0.5, as
    `calibration.verdicts_of` counts it), or why it has none ("abstained", "unscored").
    Two links of one label with equal marks say the same of every labelled sample."""
    return tuple(m if isinstance(m, str) else m >= 0.5 for m in value_marks(table, link))


def same_verdicts(table: ScoreTable, links: Sequence[LabelLink]) -> dict[tuple[str, str], str]:
    """Per link (label, metric) whose verdicts (`verdict_marks`) are those of an earlier
    link of the same label on every labelled sample, that earlier link's metric (the
    first): `(LABEL, METRIC) -> OTHER`. `links`: those
    of metrics that give a verdict, in the order their rows are shown."""
    found = _repeats([(link, verdict_marks(table, link)) for link in links],
                     lambda a, b: len(a) if a == b else None)
    return {key: metric for key, (metric, _) in found.items()}


def same_values(table: ScoreTable, links: Sequence[LabelLink]
                ) -> dict[tuple[str, str], tuple[str, int]]:
    """Per link (label, metric) whose values (`value_marks`) are those of an earlier link
    of the same label on all but a few labelled samples (`alike_count`), that earlier
    link's metric (the first) and on how many samples: `(LABEL, METRIC) -> (OTHER, K)`.
    `links`: those of scores (metrics that give no verdict), in the order their rows are
    shown, so that the calibration's rows and a run's groups drop the same one."""
    return _repeats([(link, value_marks(table, link)) for link in links], alike_count)


def _repeats(marked: Sequence[tuple[LabelLink, tuple[_M, ...]]],
             alike: Callable[[tuple[_M, ...], tuple[_M, ...]], int | None]
             ) -> dict[tuple[str, str], tuple[str, int]]:
    """Per link whose marks are `alike` (on how many samples, else None) an earlier
    link's of the same label, the first such link's metric and that count."""
    seen: dict[str, list[tuple[str, tuple[_M, ...]]]] = {}
    out: dict[tuple[str, str], tuple[str, int]] = {}
    for link, marks in marked:
        earlier = seen.setdefault(link.label_key, [])
        same = next(((metric, k) for metric, m in earlier if (k := alike(m, marks)) is not None),
                    None)
        earlier.append((link.metric, marks))
        if same is not None:
            out[(link.label_key, link.metric)] = same
    return out


def alike_count(a: Sequence[float | str], b: Sequence[float | str]) -> int | None:
    """On how many samples two links' `value_marks` say the same (values equal up to
    float rounding, or no value for the same reason), when that is at least SAME_SHARE
    of them; None when fewer."""
    alike = sum(_alike(x, y) for x, y in zip(a, b, strict=True))
    return alike if a and alike >= math.ceil(SAME_SHARE * len(a)) else None


def _alike(a: float | str, b: float | str) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
