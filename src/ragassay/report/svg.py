"""Small, dependency-free SVG charts for the self-contained HTML report.

Every label passes through `html.escape`; the charts carry no script.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape


def histogram(values: Sequence[float], low: float, high: float, *, bins: int = 10,
              width: int = 320, height: int = 120, title: str = "") -> str:
    span = (high - low) or 1.0
    counts = [0] * bins
    for v in values:
        i = min(bins - 1, max(0, int((v - low) / span * bins)))
        counts[i] += 1
    top = max(counts) or 1
    bw = width / bins
    bars = []
    for i, c in enumerate(counts):
        h = (height - 20) * c / top
        bars.append(f'<rect x="{i * bw + 1:.1f}" y="{height - 15 - h:.1f}" '
                    f'width="{bw - 2:.1f}" height="{h:.1f}" fill="#4c78a8">'
                    f'<title>{c}</title></rect>')
    axis = (f'<text x="0" y="{height - 2}" font-size="10">{low:g}</text>'
            f'<text x="{width - 20}" y="{height - 2}" font-size="10">{high:g}</text>')
    return (f'<svg role="img" aria-label="{escape(title)}" width="{width}" height="{height}" '
            f'xmlns="http://www.w3.org/2000/svg">{"".join(bars)}{axis}</svg>')


def interval_bars(rows: Sequence[tuple[str, float, float | None, float | None]], low: float,
                  high: float, *, width: int = 480, title: str = "") -> str:
    """Horizontal bars (label, mean, ci_low, ci_high) with interval whiskers."""
    row_h, label_w = 26, 160
    height = row_h * len(rows) + 10
    span = (high - low) or 1.0
    plot_w = width - label_w - 50

    def x(v: float) -> float:
        return label_w + plot_w * (min(high, max(low, v)) - low) / span

    parts = []
    for i, (label, mean, lo, hi) in enumerate(rows):
        y = 5 + i * row_h
        parts.append(f'<text x="0" y="{y + 16}" font-size="12">{escape(label[:24])}</text>')
        parts.append(f'<rect x="{label_w}" y="{y + 4}" width="{x(mean) - label_w:.1f}" '
                     f'height="14" fill="#72b7b2"/>')
        if lo is not None and hi is not None:
            parts.append(f'<line x1="{x(lo):.1f}" x2="{x(hi):.1f}" y1="{y + 11}" '
                         f'y2="{y + 11}" stroke="#333" stroke-width="2"/>')
        parts.append(f'<text x="{x(mean) + 4:.1f}" y="{y + 16}" font-size="11">'
                     f'{mean:.2f}</text>')
    return (f'<svg role="img" aria-label="{escape(title)}" width="{width}" height="{height}" '
            f'xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>')


def heatmap(names: Sequence[str], matrix: Sequence[Sequence[float | None]], *,
            cell: int = 34) -> str:
    """A correlation heatmap: blue positive, red negative, grey undefined."""
    label_w = 190
    n = len(names)
    width, height = label_w + cell * n + 10, cell * n + label_w
    parts = []
    for i, name in enumerate(names):
        parts.append(f'<text x="0" y="{i * cell + cell * 0.65:.1f}" font-size="11">'
                     f'{escape(name[:28])}</text>')
        parts.append(f'<text transform="translate({label_w + i * cell + cell * 0.6:.1f},'
                     f'{n * cell + 6}) rotate(60)" font-size="11">{escape(name[:28])}</text>')
        for j in range(n):
            v = matrix[i][j]
            if v is None:
                color, text = "#dddddd", "-"
            else:
                a = min(1.0, abs(v))
                color = (f"rgba(76,120,168,{a:.2f})" if v >= 0 else f"rgba(228,87,86,{a:.2f})")
                text = f"{v:.2f}"
            parts.append(f'<rect x="{label_w + j * cell}" y="{i * cell}" width="{cell - 1}" '
                         f'height="{cell - 1}" fill="{color}"><title>{text}</title></rect>')
            parts.append(f'<text x="{label_w + j * cell + 3}" y="{i * cell + cell * 0.6:.1f}" '
                         f'font-size="9">{text}</text>')
    return (f'<svg role="img" aria-label="correlations" width="{width}" height="{height}" '
            f'xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>')
