"""A run's corrected estimates from the store: labels given by people (stored by content)
join the run's samples, and an annotation plan's inclusion probabilities are used."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ragassay.report import corrected_for, plan_queue, run_table
from ragassay.store import Store
from ragassay.types import (
    AnnotationPlan,
    HumanLabel,
    MetricResult,
    MetricSpec,
    RunConfig,
    Sample,
    SampleResult,
)
from tests.support.specs import linked

SPEC = MetricSpec(name="judge.faithfulness", labels=linked("judge.faithfulness"), low=1, high=10)


def _run(tmp_path: Path, n: int = 120) -> tuple[Store, str, list[Sample], np.ndarray]:
    rng = np.random.default_rng(1)
    store = Store(tmp_path / "r.db")
    run_id = store.create_run(RunConfig(dataset="d.jsonl", metrics=("judge",)),
                              package_version="0", dataset_hash=None, judge_model="m",
                              specs=[SPEC])
    bad = rng.random(n) < 0.3
    samples = [Sample(id=f"s{i}", question=f"q{i}?", contexts=(f"c{i}",), answer=f"a{i}",
                      labels={"hallucination": bool(bad[i])} if i < 5 else {})
               for i in range(n)]
    store.add_samples(run_id, samples)
    for i, s in enumerate(samples):
        score = float(np.clip(round(8 - 4 * bad[i] + rng.normal(0, 1)), 1, 10))
        store.save_result(run_id, SampleResult(sample_id=s.id, strategy=s.strategy,
                                               suite="judge", results=(MetricResult(
                                                   name=SPEC.name, value=score),)))
    store.finish_run(run_id, "complete")
    return store, run_id, samples, bad


def test_stored_labels_join_the_run_and_give_corrected_estimates(tmp_path: Path) -> None:
    store, run_id, samples, bad = _run(tmp_path)
    assert not corrected_for(store, run_id).estimates  # 5 labels from the data: too few
    store.set_labels(HumanLabel(content_key=s.content_key, name="hallucinated",
                                value=bool(bad[i])) for i, s in enumerate(samples[:40]))
    rt = run_table(store, run_id)
    assert rt.stored_labels == 40
    # the data's `hallucination` and a person's `hallucinated` are one label
    assert rt.table.label_names == ("hallucination",)
    out = corrected_for(store, run_id, rt=rt)
    est = out.overall("judge.faithfulness")
    assert est is not None and est.n_labelled == 40 and est.inverted
    assert abs(est.estimate - bad.mean()) < 0.15


def test_a_weighted_plan_gives_its_inclusion_probabilities(tmp_path: Path) -> None:
    store, run_id, samples, bad = _run(tmp_path)
    plan = AnnotationPlan(run_id=run_id, kind="uncertainty", seed=2,
                          metric="judge.faithfulness", labels=("hallucinated",))
    store.save_plan(plan)
    rt = run_table(store, run_id)
    order = plan_queue(rt, plan)
    assert len(order) == 120 and len({k for _, k in order}) == 120
    by_key = {s.content_key: i for i, s in enumerate(samples)}
    store.set_labels(HumanLabel(content_key=k, name="hallucinated", value=bool(bad[by_key[k]]))
                     for _, k in order[:40])
    est = corrected_for(store, run_id).overall("judge.faithfulness")
    assert est is not None and est.design == "uncertainty" and est.n_labelled >= 40


def test_the_html_says_what_more_labels_would_do_as_the_console_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial finding: the console's summary says under the corrected estimates "about N
    more labels narrow the interval to 0.1 wide (now W)" (or that the run cannot get
    there), the HTML report's section did not. Both now say it, from one place
    (`CorrectedEstimate.narrowing`)."""
    from html import escape

    from ragassay.cli.summary import print_summary
    from ragassay.report import build_report, to_html
    from tests.support.annotated_run import make_run

    with Store(tmp_path / "m.db") as store:
        r = make_run(store, 120)
        store.set_labels([HumanLabel(content_key=r.key(i), name="hallucinated",
                                     value=bool(r.bad[i])) for i in range(40)])
        report = build_report(store, r.run_id, include_details=False)
    print_summary(report)
    said = [x for x in capsys.readouterr().out.splitlines() if "narrow" in x and " via " in x]
    assert len(said) == 2, said  # one estimate short of the target, one that cannot reach
    assert any("more labels narrow the interval to 0.1 wide" in x for x in said)
    assert any("even with all 120 samples labelled" in x for x in said)
    section = to_html(report).split('<section id="corrected">')[1].split("</section>")[0]
    for line in said:
        where, _, what = line.partition(": ")
        label, _, metric = where.partition(" via ")
        assert (f"<li>{escape(label)} via {escape(metric)} (all): {escape(what)}</li>"
                in section), (line, section)
