"""The leaderboard's columns, declared once: every writer of a bench's leaderboard (the
console table of `ragassay bench` and `runs show`, the HTML report, the dashboard's
Leaderboard page) shows these columns, in this order, under these headers, with these
decimals. The JSON report's rows hold the fields the columns are read from (`fields`),
in the columns' order, with the few a table leaves out (retrieval precision and p50,
`n`, `p_adjusted`) beside them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ragassay.report.model import LeaderboardRow
from ragassay.stats import interval_text, magnitude, p_text

Cell = float | int | str | None


@dataclass(frozen=True)
class LeaderboardColumn:
    """One column: its header, its value read from a row (a number, a text, or None for
    none), the row's JSON fields the value comes from, and the decimals a number is
    shown with (None: a text column)."""

    header: str
    value: Callable[[LeaderboardRow], Cell]
    fields: tuple[str, ...]
    digits: int | None = None

    @property
    def numeric(self) -> bool:
        """Whether the column holds numbers (right-aligned)."""
        return self.digits is not None

    def text(self, row: LeaderboardRow) -> str | None:
        """The cell as every table prints it; None when the row has no value."""
        v = self.value(row)
        if v is None or self.digits is None or isinstance(v, str):
            return None if v is None else str(v)
        return f"{v:.{self.digits}f}"


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1000


def _field(name: str, header: str, digits: int | None = None) -> LeaderboardColumn:
    """A column that shows one field of the row as it is."""
    alias = LeaderboardRow.model_fields[name].alias or name
    return LeaderboardColumn(header, lambda r: getattr(r, name), (alias,), digits)


def _interval(row: LeaderboardRow) -> str | None:
    return row.interval.text(none="") or None


def _latency(name: str, header: str) -> LeaderboardColumn:
    """A latency column: the row's seconds, shown in milliseconds."""
    return LeaderboardColumn(header, lambda r: _ms(getattr(r, name)), (name,), 1)


LEADERBOARD_COLUMNS: tuple[LeaderboardColumn, ...] = (
    _field("rank", "#", 0),
    _field("strategy", "strategy"),
    _field("kind", "kind"),
    _field("mean", "mean", 3),
    LeaderboardColumn("95% CI", _interval, ("ci_low", "ci_high")),
    _field("vs_best", "vs best"),
    _field("failed", "failed", 0),
    _field("retrieval_recall", "recall", 2),
    _field("retrieval_mrr", "MRR", 2),
    _field("retrieval_ndcg", "nDCG", 2),
    _field("retrieval_n", "retr. n", 0),
    _field("no_answer_rate", "no answer", 2),
    _field("index_time_s", "index s", 2),
    _latency("retrieval_p95_s", "retr. p95 ms"),
    _latency("answer_p50_s", "ans. p50 ms"),
    _latency("answer_p95_s", "ans. p95 ms"),
    _field("cost_estimate_usd", "est. $", 4),
    _field("cost_measured_usd", "meas. $", 4),
)
"""The leaderboard's columns, in order (see the module's docstring)."""

LEADERBOARD_HEADERS: tuple[str, ...] = tuple(c.header for c in LEADERBOARD_COLUMNS)

LEADERBOARD_NOTE = (
    "Mean of the ranking metric with its 95% bootstrap CI; 'vs best' is the paired verdict "
    "against the top strategy (the next table says how large the gap is). Failed: "
    "questions whose pipeline "
    "call failed (failed rows, left out of the mean). Recall, MRR, nDCG: means over the "
    "retr. n questions with gold labels (gold documents count only for contexts whose "
    "document is named or whose text is found in the corpus). Latencies timed after an "
    "untimed search of every question per index and one warm-up answer per generator. Empty "
    "cost: unpriced, not free.")
"""What the columns mean, said under every table of them."""


def _p(name: str) -> Callable[[LeaderboardRow], Cell]:
    """A p-value column's cell (`stats.p_text`)."""
    def text(row: LeaderboardRow) -> str | None:
        p = getattr(row, name)
        return None if p is None else p_text(p)
    return text


def _effect(row: LeaderboardRow) -> str | None:
    if row.constant:
        return "identical"
    return magnitude(row.effect_size)


def _diff_interval(row: LeaderboardRow) -> str | None:
    return None if row.diff_ci_low is None else interval_text(row.diff_ci_low,
                                                              row.diff_ci_high)


VERSUS_COLUMNS: tuple[LeaderboardColumn, ...] = (
    _field("strategy", "strategy"),
    _field("vs_best", "vs best"),
    _field("diff", "difference", 3),
    LeaderboardColumn("95% CI of the difference", _diff_interval,
                      ("diff_ci_low", "diff_ci_high")),
    _field("effect_size", "d", 2),
    LeaderboardColumn("effect", _effect, ("effect_size", "constant")),
    LeaderboardColumn("p (Holm)", _p("p_adjusted"), ("p_adjusted",)),
    _field("margin", "margin", 3),
    LeaderboardColumn("p equiv. (Holm)", _p("tost_p_adjusted"), ("tost_p_adjusted",)),
)
"""Each strategy against the best on the ranking metric (rows tested against it): the
verdict, how large the gap is, its p-values (see VERSUS_NOTE). Every writer of the
leaderboard shows this table beside it."""

VERSUS_HEADERS: tuple[str, ...] = tuple(c.header for c in VERSUS_COLUMNS)

VERSUS_NOTE = (
    "Each strategy minus the best, paired by question: the mean difference with its 95% "
    "bootstrap CI and Cohen's d (the difference over the two strategies' average SD; "
    "|d| < 0.2 negligible, < 0.5 small, < 0.8 medium). 'equivalent': the two one-sided "
    "tests put the difference within +-margin (the metric's declared equivalence margin, "
    "or --equivalence); 'worse': a difference beyond chance (Wilcoxon) whose CI excludes "
    "0, not shown equivalent; 'unclear': neither. p-values are Holm-adjusted over the "
    "strategies.")
"""What the versus table's columns mean, said under it."""


def versus_rows(rows: list[LeaderboardRow]) -> list[LeaderboardRow]:
    """The rows tested against the best (the versus table's rows)."""
    return [r for r in rows if r.vs_best not in (None, "best")]


def leaderboard_notes(rows: list[LeaderboardRow]) -> list[str]:
    """What every writer says under the leaderboard beyond its columns: a ranking metric
    on which every strategy scores each question alike cannot separate them; retrieval
    metrics of strategies over different numbers of questions are not alike."""
    notes: list[str] = []
    tested = versus_rows(rows)
    if len(tested) and all(r.constant for r in tested):
        best = rows[0]
        notes.append(f"{best.metric} is constant across strategies: every strategy scores "
                     f"each question as {best.strategy} does (mean {best.mean:.3f}), so it "
                     "cannot separate them; rank by another metric (rank_by).")
    if (line := _retrieval_coverage(rows)) is not None:
        notes.append(line)
    return notes


def _retrieval_coverage(rows: list[LeaderboardRow]) -> str | None:
    """One line when the strategies' retrieval metrics are means over different numbers
    of questions (a pipeline whose contexts name no document and are not found in the
    corpus is scored on the gold-passage questions only)."""
    ns = [(r.strategy, r.retrieval_n) for r in rows if r.retrieval_n is not None]
    most = max((n for _, n in ns), default=0)
    shown = ", ".join(f"{strategy} {n}" for strategy, n in ns if n < most)
    if not shown:
        return None
    return (f"retrieval metrics over fewer questions than others' {most} (retr. n): {shown}; "
            "their recall, MRR and nDCG are means over other questions and do not compare "
            "with the rest (name each context's document, or return text found in the "
            "corpus, to score every question with gold labels).")
