"""The run store's reads for statistics and the dashboard, mixed into `Store`.

What every sample's statistics need, and none of its texts: its metric values (the
`metric_values` table) and three fields of the sample (question, question id, labels)
read by SQLite's JSON functions, a page at a time: a run of 100,000 samples is read
without parsing a single result or sample document. And one page of a run's samples
for a table that shows a few hundred rows at once, filtered and sorted in SQL.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ragassay.types import InvalidRow, content_key

SCORE_PAGE = 5000  # samples per read when streaming scores


@dataclass(frozen=True)
class ScoreRecord:
    """One valid sample as the statistics see it: identity, labels, values.

    `values` holds every metric the sample has a stored value for (booleans as 1.0/0.0,
    None when unscored); `reasons` why each None is unscored."""

    sample_id: str
    strategy: str
    question: str
    question_id: str | None
    labels: dict[str, Any]
    values: dict[str, float | None] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    abstained: dict[str, str] = field(default_factory=dict)  # metric -> abstention outcome
    content_key: str = ""  # read only when asked (`iter_scores(keys=True)`): it needs texts
    # answer, contexts and references, read only when asked (`iter_scores(texts=True)`): what
    # the lexical baseline reads (`report.run_table`), dropped once it is computed
    texts: tuple[str, list[str], list[str]] | None = None


_SAMPLES_SQL = (
    "SELECT ordinal, sample_id, strategy, invalid, CASE WHEN invalid THEN sample END,"
    " json_extract(sample, '$.question'), json_extract(sample, '$.metadata.question_id'),"
    " json_extract(sample, '$.labels'){texts} FROM samples WHERE run_id = ?"
    " AND (ordinal, sample_id) > (?, ?) ORDER BY ordinal, sample_id LIMIT ?")
_TEXTS = (", json_extract(sample, '$.contexts'), json_extract(sample, '$.answer'),"
          " json_extract(sample, '$.reference'), json_type(sample, '$.reference')")
_VALUES_SQL = (
    "SELECT m.sample_id, m.metric, m.value, m.unscored_reason, m.abstention FROM samples s"
    " JOIN metric_values m ON m.run_id = s.run_id AND m.sample_id = s.sample_id"
    " WHERE s.run_id = ? AND (s.ordinal, s.sample_id) > (?, ?)"
    " AND (s.ordinal, s.sample_id) <= (?, ?) ORDER BY s.ordinal, m.suite")


class ScoresMixin:
    """Per-sample values without texts; `Store` provides `_read`."""

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        raise NotImplementedError

    def metrics_present(self, run_id: str) -> dict[str, bool]:
        """The metrics the run has values for, in the order they were first stored, each
        with whether it is boolean (its first stored value was true or false: the
        values table keeps booleans as 1.0/0.0)."""
        rows = self._read("SELECT metric FROM metric_values WHERE run_id = ?"
                          " GROUP BY metric ORDER BY MIN(rowid)", (run_id,))
        return {str(r[0]): self._is_bool(run_id, str(r[0])) for r in rows}

    def _is_bool(self, run_id: str, metric: str) -> bool:
        rows = self._read(
            "SELECT json_type(j.value, '$.value') FROM metric_values m JOIN results r"
            " ON r.run_id = m.run_id AND r.sample_id = m.sample_id AND r.suite = m.suite,"
            " json_each(r.results) j WHERE m.run_id = ? AND m.metric = ?"
            " AND m.value IS NOT NULL AND json_extract(j.value, '$.name') = m.metric LIMIT 1",
            (run_id, metric))
        return bool(rows) and rows[0][0] in ("true", "false")

    def iter_scores(self, run_id: str, keys: bool = False, texts: bool = False
                    ) -> Iterator[ScoreRecord | InvalidRow]:
        """The run's samples in input order, each as its values (`ScoreRecord`) or as
        the invalid row it was; results without a stored sample are not read. `keys`:
        with each sample's content key (its contexts and answer are read for it);
        `texts`: with its answer, contexts and references (`ScoreRecord.texts`)."""
        sql = _SAMPLES_SQL.format(texts=_TEXTS if keys or texts else "")
        last: tuple[int, str] = (-1, "")
        known: dict[str, str] = {}  # repeated strings (metrics, strategies, reasons) once

        def one(text: str) -> str:
            return known.setdefault(text, text)

        while True:
            rows = self._read(sql, (run_id, *last, SCORE_PAGE))
            if not rows:
                return
            end = (rows[-1][0], rows[-1][1])
            values: dict[str, list[tuple[str, float | None, str | None, str | None]]] = {}
            for sid, metric, value, reason, abst in self._read(_VALUES_SQL,
                                                                (run_id, *last, *end)):
                values.setdefault(sid, []).append((one(metric), value, reason, abst))
            for row in rows:
                _, sid, strategy, invalid, raw, question, qid, labels = row[:8]
                if invalid:
                    yield InvalidRow.model_validate_json(raw)
                    continue
                read = ((row[9] or "", json.loads(row[8] or "[]"), _references(row[10], row[11]))
                        if keys or texts else None)
                key = content_key(question or "", read[1], read[0]) if read and keys else ""
                record = ScoreRecord(sample_id=sid, strategy=one(strategy),
                                     question=question or "",
                                     question_id=None if qid is None else str(qid),
                                     labels=json.loads(labels) if labels else {},
                                     content_key=key, texts=read if texts else None)
                for metric, value, reason, abst in values.get(sid, ()):
                    record.values[metric] = value
                    if value is None and abst is not None and reason is None:
                        record.abstained[metric] = one(abst)
                    elif value is None:
                        record.reasons[metric] = one(reason or "unscored")
                yield record
            if len(rows) < SCORE_PAGE:
                return
            last = end


def _references(raw: str | None, kind: str | None) -> list[str]:
    """A stored sample's `reference` (null, a string, or a JSON list: `kind`, its
    json_type) as its non-blank reference answers (`Sample.references`)."""
    found = ([raw] if kind in ("text", "string")  # SQLite's json_type, Postgres's
             else json.loads(raw or "[]") if kind == "array" else [])
    return [r for r in found if isinstance(r, str) and r.strip()]


@dataclass(frozen=True)
class MetricSummary:
    """One metric of a run, aggregated by SQLite: scored and unscored counts (stored
    values), mean, lowest and highest value."""

    metric: str
    scored: int
    unscored: int
    mean: float | None
    low: float | None
    high: float | None


@dataclass(frozen=True)
class SampleQuery:
    """Which of a run's valid samples a page shows, in which order.

    `scored` True keeps samples scored on every metric of the run, False those with an
    unscored (or missing) value; `reason` those with a value unscored for that reason;
    `text` those whose stored texts or id contain it (case-insensitive); `value_range`
    bounds the `sort_metric` (unscored values stay, sorted last)."""

    strategies: tuple[str, ...] = ()
    scored: bool | None = None
    reason: str | None = None
    text: str = ""
    sort_metric: str | None = None
    ascending: bool = True
    value_range: tuple[float, float] | None = None
    offset: int = 0
    limit: int = 200


@dataclass(frozen=True)
class SamplePage:
    """One page of samples (`rows`, without contexts or answers) and how many match."""

    total: int
    rows: list[ScoreRecord]


_SCORED = ("(SELECT COUNT(*) FROM metric_values u WHERE u.run_id = s.run_id AND"
           " u.sample_id = s.sample_id AND u.value IS NOT NULL)")


def _where(run_id: str, q: SampleQuery, metrics: int) -> tuple[str, list[Any]]:
    where: list[str] = ["s.run_id = ?", "s.invalid = 0"]
    params: list[Any] = [run_id]
    if q.strategies:
        where.append(f"s.strategy IN ({', '.join('?' * len(q.strategies))})")
        params += q.strategies
    if q.scored is not None:
        where.append(f"{_SCORED} {'=' if q.scored else '<'} ?")
        params.append(metrics)
    if q.reason is not None:
        where.append("EXISTS (SELECT 1 FROM metric_values u WHERE u.run_id = s.run_id AND"
                     " u.sample_id = s.sample_id AND u.value IS NULL AND"
                     " u.unscored_reason = ?)")
        params.append(q.reason)
    if q.text.strip():
        where.append("instr(lower(s.sample), ?) > 0")
        params.append(q.text.strip().casefold())
    if q.sort_metric is not None and q.value_range is not None:
        where.append("(o.value IS NULL OR o.value BETWEEN ? AND ?)")
        params += q.value_range
    return " AND ".join(where), params


class PagesMixin:
    """Aggregates and pages of a run's samples, computed by SQLite; `Store` provides
    `_read` (and `ScoresMixin` `metrics_present`)."""

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        raise NotImplementedError

    def metric_summary(self, run_id: str) -> list[MetricSummary]:
        """Each metric's counts, mean and range, in the order first stored."""
        rows = self._read(
            "SELECT metric, COUNT(value), SUM(value IS NULL AND abstention IS NULL),"
            " AVG(value), MIN(value),"
            " MAX(value) FROM metric_values WHERE run_id = ? GROUP BY metric"
            " ORDER BY MIN(rowid)", (run_id,))
        return [MetricSummary(str(r[0]), int(r[1]), int(r[2]), r[3], r[4], r[5])
                for r in rows]

    def unscored_reason_names(self, run_id: str) -> list[str]:
        """The distinct reasons the run's values are unscored for, sorted."""
        rows = self._read("SELECT DISTINCT unscored_reason FROM metric_values WHERE"
                          " run_id = ? AND value IS NULL AND unscored_reason IS NOT NULL"
                          " ORDER BY 1", (run_id,))
        return [str(r[0]) for r in rows]

    def sample_page(self, run_id: str, query: SampleQuery) -> SamplePage:
        """The samples `query` selects: how many, and one page of them (their question
        cut to 200 characters, their values and reasons)."""
        metrics = len(self._read("SELECT DISTINCT metric FROM metric_values WHERE"
                                 " run_id = ?", (run_id,)))
        # `+o.metric`: looked up by the primary key (run, sample), not by the metric
        # index, which the planner prefers and which makes the join quadratic
        join = ("LEFT JOIN metric_values o ON o.run_id = s.run_id AND o.sample_id ="
                " s.sample_id AND +o.metric = ?" if query.sort_metric is not None else "")
        head = [query.sort_metric] if query.sort_metric is not None else []
        where, params = _where(run_id, query, metrics)
        total = self._read(f"SELECT COUNT(*) FROM samples s {join} WHERE {where}",
                           [*head, *params])[0][0]
        order = "s.ordinal, s.sample_id"
        if query.sort_metric is not None:
            order = f"o.value IS NULL, o.value {'ASC' if query.ascending else 'DESC'}, {order}"
        ids = [(str(r[0]), str(r[1])) for r in self._read(
            f"SELECT s.sample_id, s.strategy FROM samples s {join} WHERE {where}"
            f" ORDER BY {order} LIMIT ? OFFSET ?",
            [*head, *params, max(0, query.limit), max(0, query.offset)])]
        if not ids:
            return SamplePage(total=int(total), rows=[])
        marks = ", ".join("?" * len(ids))
        names = [sid for sid, _ in ids]
        texts = {str(r[0]): r[1] or "" for r in self._read(
            "SELECT sample_id, substr(json_extract(sample, '$.question'), 1, 200) FROM"
            f" samples WHERE run_id = ? AND sample_id IN ({marks})", [run_id, *names])}
        rows = {sid: ScoreRecord(sample_id=sid, strategy=strategy, question=texts.get(sid, ""),
                                 question_id=None, labels={}) for sid, strategy in ids}
        for sid, metric, value, reason, abst in self._read(
                "SELECT sample_id, metric, value, unscored_reason, abstention FROM"
                f" metric_values WHERE run_id = ? AND sample_id IN ({marks}) ORDER BY rowid",
                [run_id, *names]):
            rows[sid].values[metric] = value
            if value is None and abst is not None and reason is None:
                rows[sid].abstained[metric] = abst
            elif value is None:
                rows[sid].reasons[metric] = reason or "unscored"
        return SamplePage(total=int(total), rows=[rows[sid] for sid in names])
