"""A run scored before specs and typed configs were stored reads the same after the
migrations: tests/fixtures/store_v1 holds a store written by ragassay at commit e97eae3
(the demo, offline, all suites; and the judge suite alone) and the reports that code
built from it (`build_report`, with details)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from ragassay.report import build_report, report_json
from ragassay.store import Store
from ragassay.store.typed_results import typed_result

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "store_v1"
CHANGED_META = {"generated", "report_version", "embedding_model"}
# Sections whose lists have no meaning in their order beyond "fired first": compared by name.
BY_NAME = {"diagnostics": "rule"}
# A strategy's figure renamed since (issue #29: the formula of the averages is not the
# strategy's overall, which is the mean of its samples' scores): old name -> new name.
RENAMED_FIGURES = {"overall": "overall_of_averages"}
EXEMPTED = ("unsupported_sentences",)
"""Rules whose stored declaration a migration changed after the fixture was written
(m0021_adherence_rule_exemption): their findings are checked in their own test."""
RATES = ("judge.hallucination", "trace.adherence")
"""The old runs' metrics whose every value is 0 or 1: their rates' intervals are exact."""


def _renamed(strategies: dict[str, Any]) -> dict[str, Any]:
    """The old report's strategies with their figures under today's names."""
    def one(entry: dict[str, Any]) -> dict[str, Any]:
        out = {RENAMED_FIGURES.get(k, k): v for k, v in entry.items()}
        if "intervals" in out:
            out["intervals"] = {RENAMED_FIGURES.get(k, k): v
                                for k, v in out["intervals"].items()}
        return out
    return {name: one(entry) for name, entry in strategies.items()}


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("v1") / "ragassay.db"
    shutil.copy(FIXTURE / "ragassay.db", db)
    return db


def _old_reports() -> dict[str, dict[str, Any]]:
    return json.loads((FIXTURE / "reports.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("run_id", sorted(_old_reports()))
def test_an_old_run_reads_the_same(migrated: Path, run_id: str) -> None:
    before = _old_reports()[run_id]
    with Store(migrated) as store:
        after = json.loads(json.dumps(report_json(build_report(store, run_id))))
    assert set(before) <= set(after)
    for section, value in before.items():
        if section == "evaluation_metadata":
            for key, v in value.items():
                assert key in CHANGED_META or after[section][key] == v, key
        elif section == "metric_specs":  # the old fields, same values; new ones added
            for name, spec in value.items():
                assert {k: after[section][name][k] for k in spec} == spec, name
        elif section == "per_metric_statistics":
            for name, stats in value.items():
                got = dict(after[section][name])
                if not after["metric_specs"][name]["higher_is_better"]:
                    # perfect/poor now count from the right end (a fix of 2026-12-02): for
                    # judge.hallucination (0/1) the two counts trade places
                    swap = got["poor_count"], got["perfect_count"]
                    got["perfect_count"], got["poor_count"] = swap
                assert got == stats, name
        elif section == "aggregate_metrics":  # a 0/1 rate's interval is exact (trial 65)
            metrics = _resampled(value["metrics"], after[section]["metrics"])
            assert after[section] == {**value, "metrics": _exact_rates(metrics)}
        elif section == "strategies":  # `failed` per suite is new (report 1.2.0)
            assert {n: {k: v for k, v in e.items() if k != "failed"}
                    for n, e in after[section].items()} == {
                        n: _exact_strategy(_resampled_strategy(e, after[section][n]))
                        for n, e in _renamed(value).items()}
        elif section == "interpretation":
            # the same verdicts; a target is now said on its metric's scale (judge.overall:
            # `target >= 8`, was `target >= 0.8 ... on 0-1` beside its 0-10 mean)
            drop = "message"
            assert [{k: v for k, v in f.items() if k != drop} for f in after[section]] == [
                {k: v for k, v in f.items() if k != drop} for f in value]
            assert not any("0-1" in f["message"] for f in after[section])
        elif section == "detailed_results":  # typed readings moved out of the details
            # each sample's metadata is new (report 2.5.0): the demo's, as stored
            assert [e.pop("metadata")["question_id"] for e in after[section]] == [
                e["id"].split("-")[0] for e in value]
            assert after[section] == [_typed_entry(e) for e in value]
        elif section == "calibration":  # a boolean pair's `kappa_ci` is new (report 1.5.0);
            # the labels left out (`abstained`, `unscored`) and a verdict's `verdicts` (2.6.0),
            # the lexical baseline on the pair's samples (`baseline`, 2.24.0), a score's
            # reading as the label at its line (`read_as`, 2.25.0)
            new = {"kappa_ci", "abstained", "unscored", "verdicts", "baseline", "read_as"}
            assert {**after[section], "pairs": [{k: v for k, v in p.items() if k not in new}
                                                for p in after[section]["pairs"]]} == {
                **value, "pairs": [_resampled_cis(p, q) for p, q in
                                   zip(value["pairs"], after[section]["pairs"], strict=True)]}
        elif section in BY_NAME:  # (a rule given its exemption since: its own test)
            key = BY_NAME[section]
            assert {x[key]: _old_fields(x) for x in after[section]
                    if x[key] not in EXEMPTED} == {
                x[key]: x for x in value if x[key] not in EXEMPTED}
        else:
            assert after[section] == value, section


def _near(old: list[float] | tuple[float, float], new: list[float] | tuple[float, float]
          ) -> bool:
    """Two bootstrap intervals of the same values, resampled in another order: each bound
    within a fifth of the old interval's width (resampling noise, not another figure)."""
    width = max(old[1] - old[0], 1e-9)
    return all(abs(a - b) <= 0.2 * width for a, b in zip(old, new, strict=True))


def _resampled(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """An old report's figures with a score's bootstrap interval as today's, where it is
    near the old one (`_near`): the samples are resampled sorted by value since trial 69
    (`stats.bootstrap.canonical_order`), so the same values give the same interval
    whatever their order; the old one came from the rows' stored order."""
    out = {}
    for name, figure in old.items():
        now = new.get(name, {})
        if figure.get("ci_low") is not None and now.get("ci_low") is not None:
            assert _near((figure["ci_low"], figure["ci_high"]),
                         (now["ci_low"], now["ci_high"])), (name, figure, now)
            figure = {**figure, "ci_low": now["ci_low"], "ci_high": now["ci_high"]}
        out[name] = figure
    return out


def _resampled_strategy(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """An old strategy entry with its bootstrap intervals as today's (`_resampled`)."""
    if "metrics" not in old:
        return old
    out = {**old, "metrics": _resampled(old["metrics"], new["metrics"])}
    if "intervals" in old:
        intervals = {}
        for name, ci in old["intervals"].items():
            now = new.get("intervals", {}).get(name)
            assert ci is None or now is None or _near(ci, now), (name, ci, now)
            intervals[name] = now if ci is not None and now is not None else ci
        out["intervals"] = intervals
    return out


def _resampled_cis(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """An old calibration pair with its bootstrap intervals (`*_ci`) as today's, where
    near the old ones (`_resampled`)."""
    out = dict(old)
    for key, ci in old.items():
        if key.endswith("_ci") and ci is not None and new.get(key) is not None:
            assert _near(ci, new[key]), (key, ci, new[key])
            out[key] = new[key]
    return out


def _exact_rates(metrics: dict[str, Any]) -> dict[str, Any]:
    """An old report's figures with a 0/1 rate's interval as today's (Clopper-Pearson's,
    `describe.mean_ci`, where a bootstrap was: trial 65), rounded as the report rounds."""
    from ragassay.stats.ppi import clopper_pearson

    out = {}
    for name, figure in metrics.items():
        if name in RATES and figure.get("count", 0) >= 2:
            n = figure["count"]
            low, high = clopper_pearson(round(figure["mean"] * n), n)
            figure = {**figure, "ci_low": round(low, 6), "ci_high": round(high, 6)}
        out[name] = figure
    return out


def _exact_strategy(entry: dict[str, Any]) -> dict[str, Any]:
    """An old strategy entry with its rates' intervals exact (`_exact_rates`), its
    hallucination rate's among the judge suite's figures too."""
    if "metrics" not in entry:
        return entry
    metrics = _exact_rates(entry["metrics"])
    out = {**entry, "metrics": metrics}
    rate = metrics.get("judge.hallucination")
    if rate is not None and "hallucination_rate" in entry.get("intervals", {}):
        out["intervals"] = {**entry["intervals"],
                            "hallucination_rate": [rate["ci_low"], rate["ci_high"]]}
    return out


def _old_fields(finding: dict[str, Any]) -> dict[str, Any]:
    """A diagnostics finding without what report 2.10.0 added, each condition on its
    metric's own scale (`on_scale`, `text`), and what 2.16.0 did: a rule's exemption and
    the samples it cleared (`unless`, `exempt`; the old runs have no judge reliability
    stored, so no `caveat`)."""
    new = {"on_scale", "text"}
    return {**{k: v for k, v in finding.items() if k not in ("unless", "exempt")},
            "conditions": [{k: v for k, v in c.items() if k not in new}
                           for c in finding["conditions"]]}


def test_an_old_runs_retrieval_rule_gets_its_exemption(migrated: Path) -> None:
    """Issue #38: the retrieval-problem rule blamed retrieval on samples whose answer the
    contexts support; it no longer counts them (`Rule.unless`), and the report reads a
    run's stored specs, so m0020_retrieval_rule_exemption gives the old runs the same
    exemption: their reports stop blaming retrieval there too."""
    from ragassay.metrics import all_specs
    from ragassay.store.data_fixes import RETRIEVAL_EXEMPTION
    from ragassay.store.migrations import applied

    rule = all_specs(["judge"])["judge.context_relevance"].rules[0]
    assert rule.name == "retrieval_problem" and rule.unless  # what the metric declares today
    # (the migration gives the exemption frozen when it was introduced, whatever the rule
    # declares later: compared with that, not with today's rule)
    frozen = [(c["metric"], c["op"], c["threshold"]) for c in RETRIEVAL_EXEMPTION]
    with Store(migrated, readonly=True) as store:
        assert "m0020_retrieval_rule_exemption" in applied(store.conn)
        for run in store.list_runs():
            (stored,) = run.spec_map()["judge.context_relevance"].rules
            assert stored.name == rule.name
            assert [(c.metric, c.op, c.threshold) for c in stored.unless] == frozen
            finding = next(f for f in build_report(store, run.id, include_details=False)
                           .diagnostics if f.rule == "retrieval_problem")
            assert finding.unless is not None and finding.exempt is not None
            assert finding.rule_text == (
                "judge.context_relevance < 5.5 (on 1-10), unless judge.faithfulness >= 7.3 "
                "(on 1-10) and judge.hallucination = no")


def test_an_old_runs_adherence_rule_gets_its_exemption(migrated: Path) -> None:
    """Trial 65: `unsupported_sentences` (trace.adherence_ratio < 0.8) fired on answers
    the judge calls fully supported, the ratio under the offline judge being a mean
    probability; it no longer counts them, and m0021_adherence_rule_exemption gives the
    old runs' stored rule the same exemption and wording: their findings agree with
    their verdicts too."""
    from ragassay.store.data_fixes import ADHERENCE_EXEMPTION, ADHERENCE_MESSAGE
    from ragassay.store.migrations import applied

    frozen = [(c["metric"], c["op"], c["threshold"]) for c in ADHERENCE_EXEMPTION]
    with Store(migrated, readonly=True) as store:
        assert "m0021_adherence_rule_exemption" in applied(store.conn)
        runs = [r for r in store.list_runs() if "trace.adherence_ratio" in r.spec_map()]
        assert runs  # the demo's, all suites
        for run in runs:
            (stored,) = run.spec_map()["trace.adherence_ratio"].rules
            assert [(c.metric, c.op, c.threshold) for c in stored.unless] == frozen
            assert stored.message == ADHERENCE_MESSAGE
            report = build_report(store, run.id, include_details=False)
            found = {f.rule: f for f in report.diagnostics}
            finding = found["unsupported_sentences"]
            assert finding.rule_text == ("trace.adherence_ratio < 0.8 (on 0-1), unless "
                                         "trace.adherence = yes")
            assert finding.count <= found["answer_not_adherent"].count


def _typed_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """An old report's sample entry as today's reads it: what m0009_typed_results moved
    out of each metric's details (`store/typed_results.py`) on the entry's typed fields,
    every other byte the same."""
    details, marks, ratings, failures = {}, {}, {}, {}
    cut: set[str] = set()
    suspicious = None
    for metric, d in entry.get("details", {}).items():
        typed = typed_result({"name": metric, "value": entry["metrics"].get(metric),
                              "details": d})
        if typed["details"]:
            details[metric] = typed["details"]
        marks.update({metric: typed["marks"]} if "marks" in typed else {})
        ratings.update({metric: {k: v for k, v in typed["rating"].items() if v is not None}}
                       if "rating" in typed else {})
        failures.update({metric: typed["failure"]} if "failure" in typed else {})
        cut.update(typed.get("truncated", ()))
        suspicious = suspicious or typed.get("suspicious")
    out = {**entry, "details": details}
    for key, value in (("marks", marks), ("ratings", ratings), ("failures", failures),
                       ("truncated", sorted(cut)), ("suspicious", suspicious)):
        if value:
            out[key] = value
    return out


def test_old_runs_get_typed_configs_specs_and_their_embedders(migrated: Path) -> None:
    with Store(migrated, readonly=True) as store:
        runs = {r.id: r for r in store.list_runs()}
        for run in runs.values():
            suites = set(run.config.metrics)
            assert {s.suite for s in run.specs} == suites
            assert run.config.backend.timeout_s == 60.0  # was extra["backend"]["timeout_s"]
            assert run.meta.embedders == ("offline judge: all-MiniLM-L6-v2-static",)
        full = next(r for r in runs.values() if len(r.config.metrics) == 3)
        report = report_json(build_report(store, full.id, include_details=False))
    assert report["evaluation_metadata"]["embedding_model"] == (
        "offline judge: all-MiniLM-L6-v2-static")  # not the transformer it used to name


def test_old_runs_specs_get_the_label_links_of_their_time(migrated: Path) -> None:
    """m0009_label_links: a stored spec declares the labels its metric is compared with,
    as the metrics declared them then, so calibration of an old run links as it did."""
    from ragassay.labels import linked_metrics

    with Store(migrated, readonly=True) as store:
        for run in store.list_runs():
            specs = run.spec_map()
            assert [(lk.label, lk.inverted) for lk in specs["judge.faithfulness"].labels] == [
                ("faithful", False), ("hallucinated", True)]
            assert specs["judge.overall"].labels == ()
            assert linked_metrics("hallucinated", run.specs)[0] == ("judge.hallucination",
                                                                    False)


def test_an_old_runs_adherence_gives_its_verdict_counts(migrated: Path) -> None:
    """Runs stored before `MetricSpec.verdict` (a34be99) have a trace.adherence spec
    without it, and the report reads the run's stored specs: the headline gave AUROC and
    kappa only. m0019_spec_verdicts gives them the declaration of that time, so the
    verdicts are counted as for a new run ("right on X of N ...")."""
    from ragassay.metrics import all_specs
    from ragassay.report import headline
    from ragassay.store.migrations import applied

    assert all_specs(["trace"])["trace.adherence"].verdict  # what the metric declares today
    with Store(migrated, readonly=True) as store:
        run = next(r for r in store.list_runs() if "trace" in r.config.metrics)
        specs = run.spec_map()
        assert specs["trace.adherence"].verdict
        assert not specs["trace.adherence_ratio"].verdict  # a score, not a verdict
        report = build_report(store, run.id, include_details=False)
        assert "m0019_spec_verdicts" in applied(store.conn)
    row = next(r for r in headline(report).rows if r.metric == "trace.adherence")
    a = row.agreement
    assert a is not None and row.shows_verdicts()
    assert "right on" in row.agreement_text and "AUROC" in row.agreement_text
    pair = next(p for p in report_json(report)["calibration"]["pairs"]
                if p["metric"] == "trace.adherence")
    assert pair["verdicts"]["agree"] + pair["verdicts"]["missed"] + \
        pair["verdicts"]["flagged"] == pair["n"]
