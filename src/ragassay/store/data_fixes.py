"""Named migrations that mend stored data, not the schema (`migrations.MIGRATIONS` runs
them in their place): a sample's lost hops counted from 1, old runs' verdict declarations,
old runs' retrieval-problem and unsupported-sentences rules with their exemptions, an
abstention's basis moved out of its result's details.
"""

from __future__ import annotations

import json
import sqlite3


def m0015_lost_hops_one_based(conn: sqlite3.Connection) -> None:
    """A traced sample's lost documents name their hop from 1, as the console, the report's
    `hops.lost` and the dashboard always said it (`LostDocument.hop`); samples stored
    before counted from 0 in `metadata.trace.lost`."""
    rows = conn.execute(
        "SELECT run_id, sample_id, sample FROM samples WHERE json_valid(sample) AND "
        "json_array_length(sample, '$.metadata.trace.lost') > 0").fetchall()
    for run_id, sample_id, text in rows:
        data = json.loads(text)
        for doc in data["metadata"]["trace"]["lost"]:
            if isinstance(doc, dict) and isinstance(doc.get("hop"), int):
                doc["hop"] += 1
        conn.execute("UPDATE samples SET sample = ? WHERE run_id = ? AND sample_id = ?",
                     (json.dumps(data, ensure_ascii=False), run_id, sample_id))


VERDICT_METRICS = ("trace.adherence",)
"""The metrics that declared `MetricSpec.verdict` when it was introduced (a34be99),
frozen: a later declaration is stored with the runs scored under it."""


def m0019_spec_verdicts(conn: sqlite3.Connection) -> None:
    """A 0/1 score may declare that each value is a yes/no verdict (`MetricSpec.verdict`),
    which counts its verdicts against people's labels ("right on 30 of 36 ..."); the
    specs of runs stored before this lack the field, so an old trace.adherence gave AUROC
    and kappa only. They get the declaration of that time (`VERDICT_METRICS`)."""
    for run_id, raw in conn.execute("SELECT id, specs FROM runs").fetchall():
        specs = json.loads(raw or "[]")
        changed = False
        for spec in specs:
            if (isinstance(spec, dict) and "verdict" not in spec
                    and spec.get("name") in VERDICT_METRICS):
                spec["verdict"] = True
                changed = True
        if changed:
            conn.execute("UPDATE runs SET specs = ? WHERE id = ?", (json.dumps(specs), run_id))


RETRIEVAL_RULE = ("judge.context_relevance", "retrieval_problem")
"""The metric and the diagnostics rule that declared an exemption (`Rule.unless`) when it
was introduced, frozen with that exemption (`RETRIEVAL_EXEMPTION`)."""
RETRIEVAL_EXEMPTION = [{"metric": "judge.faithfulness", "op": ">=", "threshold": 0.7},
                       {"metric": "judge.hallucination", "op": "<", "threshold": 0.5}]


def _rule_exemption(conn: sqlite3.Connection, metric: str, rule_name: str,
                    unless: list[dict[str, object]], message: str | None = None) -> None:
    """Every stored run's rule `rule_name` of `metric` without an exemption gets `unless`
    (and `message`, where given): the report reads a run's stored specs."""
    for run_id, raw in conn.execute("SELECT id, specs FROM runs").fetchall():
        specs = json.loads(raw or "[]")
        changed = False
        for spec in specs:
            if not isinstance(spec, dict) or spec.get("name") != metric:
                continue
            for rule in spec.get("rules") or ():
                if isinstance(rule, dict) and rule.get("name") == rule_name and \
                        not rule.get("unless"):
                    rule["unless"] = unless
                    if message is not None:
                        rule["message"] = message
                    changed = True
        if changed:
            conn.execute("UPDATE runs SET specs = ? WHERE id = ?", (json.dumps(specs), run_id))


def m0020_retrieval_rule_exemption(conn: sqlite3.Connection) -> None:
    """judge.context_relevance's `retrieval_problem` rule does not count a sample whose
    answer its contexts support (faithful, not flagged: `Rule.unless`); runs stored before
    kept the rule without it, and the report reads the run's stored specs, so an old
    run's report went on blaming retrieval on answerable samples (issue #38). A rule of
    a diagnosis, not of a score: they get the exemption, no value changes."""
    _rule_exemption(conn, *RETRIEVAL_RULE, RETRIEVAL_EXEMPTION)


ADHERENCE_RULE = ("trace.adherence_ratio", "unsupported_sentences")
"""The metric and the rule that declared an exemption in trial 65, frozen with that
exemption and its message (`ADHERENCE_EXEMPTION`, `ADHERENCE_MESSAGE`)."""
ADHERENCE_EXEMPTION = [{"metric": "trace.adherence", "op": ">=", "threshold": 0.5}]
ADHERENCE_MESSAGE = ("Adherence failures: the judge calls answer sentences unsupported by "
                     "the context, and the answer's share of supported sentences (with a "
                     "judge that gives probabilities, their mean support) is below 0.8.")


def m0021_adherence_rule_exemption(conn: sqlite3.Connection) -> None:
    """trace.adherence_ratio's `unsupported_sentences` rule does not count a sample whose
    every sentence the judge calls supported (trace.adherence = yes), and says the ratio
    as what it measures (under the offline judge a mean probability: trial 65, it fired
    on 37 answers the same verdicts call supported). Old runs get the same; no value
    changes."""
    _rule_exemption(conn, *ADHERENCE_RULE, ADHERENCE_EXEMPTION, ADHERENCE_MESSAGE)


def m0022_abstention_basis_typed(conn: sqlite3.Connection) -> None:
    """What decided an abstention is a typed field of the stored result
    (`MetricResult.abstention_basis`, which `Store.abstention_bases` reads); results stored
    before kept it in their details (`details.abstention_basis`): it moves there."""
    rows = conn.execute("SELECT rowid, results FROM results WHERE instr(results, "
                        "'abstention_basis') > 0").fetchall()
    for rowid, raw in rows:
        results = json.loads(raw)
        for r in results:
            details = r.get("details") if isinstance(r, dict) else None
            if isinstance(details, dict) and "abstention_basis" in details:
                basis = details.pop("abstention_basis")
                if r.get("abstention") is not None and isinstance(basis, str) and basis:
                    r["abstention_basis"] = basis
        conn.execute("UPDATE results SET results = ? WHERE rowid = ?",
                     (json.dumps(results, ensure_ascii=False), rowid))
