"""How a run's judgments ended, read from the store: the ones a resume judges again, the
replies that copied a verdict from the judged text, and what decided its abstentions.
Mixed into `Store`."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from ragassay.store.rows import FAILED_SQL
from ragassay.types import MISSING_INPUT, TRANSPORT_FAILURES


class OutcomesMixin:
    """Reads of the results' outcomes; `Store` provides `_read`."""

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        raise NotImplementedError

    def failed_keys(self, run_id: str, retry: str | None) -> set[tuple[str, str]]:
        """(sample_id, suite) judgments with a value unscored by a failed judge call:
        "transport" for the endpoint's failures (`types.TRANSPORT_FAILURES`), "all" for
        any reason but a missing input (`types.MISSING_INPUT`), None for none."""
        if retry == "transport":
            cond = " OR ".join(["unscored_reason GLOB ?"] * len(TRANSPORT_FAILURES))
            params: tuple[str, ...] = TRANSPORT_FAILURES
        elif retry == "all":
            params = tuple(sorted(MISSING_INPUT))
            cond = f"unscored_reason NOT IN ({', '.join('?' * len(params))})"
        else:
            return set()
        rows = self._read(FAILED_SQL.format(cond=cond), (run_id, *params))
        return {(r["sample_id"], r["suite"]) for r in rows}

    def suspicious_replies(self, run_id: str) -> int:
        """How many of the run's (sample, suite) results had a judge reply holding a
        verdict copied from the judged text (`MetricResult.suspicious`, kept as the
        result's `suspicious` column)."""
        rows = self._read("SELECT COUNT(*) FROM results WHERE run_id = ? AND suspicious != 0",
                          (run_id,))
        return int(rows[0][0] or 0)

    def abstention_bases(self, run_id: str) -> dict[str, list[str]]:
        """Per strategy, what decided its abstentions false or correct: each basis its
        abstained values record (`MetricResult.abstention_basis`, beside the outcome;
        m0022 moved old results' onto it), sorted; a strategy whose values record none is
        left out."""
        rows = self._read(
            "SELECT DISTINCT r.strategy, json_extract(j.value, '$.abstention_basis')"
            " FROM results r, json_each(r.results) j WHERE r.run_id = ? AND"
            " json_extract(j.value, '$.abstention') IS NOT NULL", (run_id,))
        out: dict[str, list[str]] = {}
        for strategy, basis in sorted((r[0], r[1]) for r in rows if r[1]):
            out.setdefault(strategy, []).append(basis)
        return out
