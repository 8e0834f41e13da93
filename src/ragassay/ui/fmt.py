"""Plain formatting for the dashboard: metric labels, numbers and report summaries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ragassay.stats import Distribution, Spread
from ragassay.stats.describe import interval_text
from ragassay.types import MetricSpec, default_label


def metric_label(name: str, specs: Mapping[str, MetricSpec] | None = None) -> str:
    """The metric's declared label, else `Context relevance (judge)` from its name."""
    spec = (specs or {}).get(name)
    return spec.display_label if spec is not None else default_label(name)


def metric_range(spec: MetricSpec | None) -> str:
    """`1-10`: the metric's declared range (dashes when it has no spec)."""
    low, high = (spec.low, spec.high) if spec is not None else (None, None)
    return f"{num(low, 0)}-{num(high, 0)}"


def num(value: Any, digits: int = 3) -> str:
    """A number with fixed decimals; booleans as 0/1; missing as an em dash."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    try:
        return f"{float(value):.{digits}f}"
    except (TypeError, ValueError):
        return str(value)


def interval(low: Any, high: Any, digits: int = 3, n: int | None = None) -> str:
    """`[0.412, 0.733]`; `n=1, no interval` for a single value (`n`); an em dash if none."""
    return interval_text(_float(low), _float(high), n, digits, none="—")


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def _position(spec: MetricSpec | None) -> int | None:
    return None if spec is None else spec.headline


def headline(metrics: Sequence[str], specs: Mapping[str, MetricSpec], limit: int = 4
             ) -> list[str]:
    """The metrics to show in a narrow summary: those their specs place in the headline
    (`MetricSpec.headline`, lower first), then the others in order."""
    placed = sorted((p, i, m) for i, m in enumerate(metrics)
                    if (p := _position(specs.get(m))) is not None)
    chosen = [m for _, _, m in placed]
    chosen += [m for m in metrics if m not in chosen]
    return chosen[:limit]


def consistency_lines(rmse_metrics: Mapping[str, Spread]) -> list[str]:
    """`Faithfulness (judge) 0.350 +/- 0.123` per metric (mean +/- standard deviation)."""
    out = []
    for name, entry in rmse_metrics.items():
        if entry.mean is None:
            out.append(f"{metric_label(name)} unscored")
        else:
            out.append(f"{metric_label(name)} {num(entry.mean)} +/- {num(entry.std_dev)}")
    return out


def distribution_line(name: str, entry: Distribution) -> str:
    """`Faithfulness (judge): mean 0.350, median 0.400 (n=23, 1 unscored)`."""
    n, unscored = entry.sample_count, entry.unscored_count
    tail = f"n={n}" + (f", {unscored} unscored" if unscored else "")
    return (f"{metric_label(name)}: mean {num(entry.mean)}, "
            f"median {num(entry.median)} ({tail})")


def distribution_details(entry: Distribution) -> list[tuple[str, str]]:
    """(label, value) rows for a metric's distribution expander."""
    rows = [
        ("25th percentile", num(entry.percentile_25)),
        ("median", num(entry.median)),
        ("75th percentile", num(entry.percentile_75)),
        ("min", num(entry.min)),
        ("max", num(entry.max)),
        ("standard deviation", num(entry.std_dev)),
        ("perfect count", num(entry.perfect_count)),
        ("poor count", num(entry.poor_count)),
        ("scored samples", num(entry.sample_count)),
        ("unscored samples", num(entry.unscored_count)),
    ]
    for reason, count in (entry.unscored_reasons or {}).items():
        rows.append((f"unscored: {reason}", num(count)))
    return rows


def sample_key(strategy: str, sample_id: str) -> str:
    """How the dashboard (and the diagnostics' worst_samples) name a sample."""
    return f"{strategy}/{sample_id}"


def rows_height(n: int, cap: int = 30) -> int:
    """Pixel height that shows `n` dataframe rows (up to `cap`) without scrolling."""
    return 35 * (min(n, cap) + 1) + 3
