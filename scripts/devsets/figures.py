"""What the dev-set scripts report, computed from the product's Evidence and stats code.

The metric values are derived from `Evidence` exactly as the suites derive them:
- judge.faithfulness = to_ten_point(Evidence.faithfulness) (1 + 9p);
- ragas.faithfulness = mean support over Evidence.claim_indices();
- trace.adherence_ratio = mean support over all answer sentences (the soft ratio);
- judge.context_relevance = to_ten_point(Evidence.context_relevance);
- trace.context_relevance = length-weighted mean relevance of the context sentences;
- judge.answer_similarity = to_ten_point(Evidence.reference_match).
Agreement figures come from `ragassay.stats` (AUROC, Spearman, the seeded bootstrap);
the lexical baseline is `ragassay.stats.baseline.lexical_support`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ragassay.judge.offline import Evidence, to_ten_point
from ragassay.stats.agreement import _auroc_weighted, auroc, auroc_ci, correlation, spearman_ci
from ragassay.stats.bootstrap import bootstrap_weighted

Metric = Callable[[Evidence], float | None]


def _mean(xs: Sequence[float]) -> float | None:
    return float(np.mean(xs)) if len(xs) else None


def judge_faithfulness(ev: Evidence) -> float | None:
    return to_ten_point(ev.faithfulness) if ev.faithfulness is not None else None


def ragas_faithfulness(ev: Evidence) -> float | None:
    if ev.faithfulness is None or not ev.support:
        return None
    return _mean([ev.support[i] for i in ev.claim_indices()])


def trace_adherence_ratio(ev: Evidence) -> float | None:
    return _mean(ev.support) if ev.faithfulness is not None else None


def judge_context_relevance(ev: Evidence) -> float | None:
    return to_ten_point(ev.context_relevance) if ev.context_relevance is not None else None


def trace_context_relevance(ev: Evidence) -> float | None:
    lengths = [len(s.text) for s in ev.context_sentences]
    if not lengths or len(ev.relevance) != len(lengths) or sum(lengths) == 0:
        return None
    return float(np.dot(lengths, ev.relevance) / sum(lengths))


def judge_answer_similarity(ev: Evidence) -> float | None:
    return to_ten_point(ev.reference_match) if ev.reference_match is not None else None


FAITHFULNESS: dict[str, Metric] = {
    "judge.faithfulness": judge_faithfulness,
    "ragas.faithfulness": ragas_faithfulness,
    "trace.adherence_ratio": trace_adherence_ratio,
}
RELEVANCE: dict[str, Metric] = {
    "judge.context_relevance": judge_context_relevance,
    "trace.context_relevance": trace_context_relevance,
}
CORRECTNESS: dict[str, Metric] = {"judge.answer_similarity": judge_answer_similarity}


@dataclass
class Figure:
    """One agreement figure: value and 95% CI, with the lexical baseline beside it."""

    metric: str
    n: int
    value: float | None
    ci: tuple[float, float] | None
    baseline: float | None
    diff_ci: tuple[float, float] | None = None  # paired bootstrap CI of value - baseline

    def as_dict(self) -> dict[str, object]:
        return self.__dict__.copy()


def auroc_figure(
    metric: str, scores: Sequence[float], truth: Sequence[bool], base: Sequence[float], n_res: int
) -> Figure:
    """AUROC with its CI, the baseline's AUROC and the paired CI of the difference
    (the same seeded resamples for both)."""
    s, b, y = (np.asarray(x, dtype=float) for x in (scores, base, truth))
    yb = y.astype(bool)
    fs, fb = _auroc_weighted(s, yb), _auroc_weighted(b, yb)
    diff = bootstrap_weighted(len(s), lambda w: fs(w) - fb(w), n_resamples=n_res, seed=0)
    return Figure(
        metric,
        len(s),
        auroc(list(s), list(yb)),
        auroc_ci(list(s), list(yb), n_resamples=n_res),
        auroc(list(b), list(yb)),
        diff,
    )


def spearman_figure(
    metric: str, scores: Sequence[float], grades: Sequence[float], base: Sequence[float], n_res: int
) -> Figure:
    rho, _ = correlation(scores, grades, "spearman")
    b_rho, _ = correlation(base, grades, "spearman")
    return Figure(
        metric, len(scores), rho, spearman_ci(scores, grades, n_resamples=n_res), b_rho, None
    )


def fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def fmt_ci(ci: tuple[float, float] | None, signed: bool = False) -> str:
    if ci is None:
        return "-"
    return f"[{ci[0]:+.3f}, {ci[1]:+.3f}]" if signed else f"[{ci[0]:.3f}, {ci[1]:.3f}]"


def target(f: Figure, kind: str) -> str:
    """The issue's criterion: AUROC >= baseline + 0.02 where the baseline is below 0.90,
    not below it where it is above; Spearman > 0.25 for context relevance."""
    if f.value is None or f.baseline is None:
        return "-"
    if kind == "spearman":
        return "met" if f.value > 0.25 else "NOT met"
    need = f.baseline + 0.02 if f.baseline < 0.90 else f.baseline
    return "met" if f.value >= need else f"NOT met ({f.value - need:+.3f})"


def table(rows: list[tuple[str, Figure, str]]) -> str:
    """A markdown table of (set, figure, kind) rows."""
    out = [
        "| set | metric | n | value [95% CI] | lexical baseline | difference [95% CI] | target |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, f, kind in rows:
        stat = "Spearman" if kind == "spearman" else "AUROC"
        out.append(
            f"| {name} | {f.metric} ({stat}) | {f.n} | {fmt(f.value)} {fmt_ci(f.ci)} "
            f"| {fmt(f.baseline)} | {fmt_ci(f.diff_ci, signed=True)} | {target(f, kind)} |"
        )
    return "\n".join(out)
