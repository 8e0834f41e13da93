"""A judged run in a real store for the annotation tests: `n` samples, a judge whose
hallucination verdict, faithfulness (1-10) and context relevance (1-10) follow a hidden
truth with noise, optionally two strategies and labels of the data's own."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from ragassay.store import Store
from ragassay.types import MetricResult, MetricSpec, RunConfig, Sample, SampleResult
from tests.support.specs import linked

SPECS = (
    MetricSpec(name="judge.hallucination", labels=linked("judge.hallucination"), kind="bool",
               higher_is_better=False),
    MetricSpec(name="judge.faithfulness", labels=linked("judge.faithfulness"), low=1, high=10),
    MetricSpec(name="judge.context_relevance", labels=linked("judge.context_relevance"),
               low=1, high=10),
)


@dataclass(frozen=True)
class AnnotatedRun:
    run_id: str
    samples: list[Sample]
    bad: np.ndarray  # the truth: hallucinated or not, per sample
    grade: np.ndarray  # the truth: relevance 0-3, per sample

    def key(self, i: int) -> str:
        return self.samples[i].content_key

    @cached_property
    def _positions(self) -> dict[str, int]:
        return {s.content_key: i for i, s in enumerate(self.samples)}

    def index(self, key: str) -> int:
        return self._positions[key]


def make_run(store: Store, n: int = 60, *, strategies: tuple[str, ...] = ("default",),
             data_labels: dict[int, dict[str, object]] | None = None,
             specs: tuple[MetricSpec, ...] = SPECS, seed: int = 1) -> AnnotatedRun:
    rng = np.random.default_rng(seed)
    run_id = store.create_run(RunConfig(dataset="d.jsonl", metrics=("judge",)),
                              package_version="0", dataset_hash=None, judge_model="m",
                              specs=list(specs))
    bad = rng.random(n) < 0.3
    grade = rng.integers(0, 4, n)
    samples = [Sample(id=f"s{i:03d}", question=f"What is item {i}?",
                      contexts=(f"Item {i} is a widget. It costs {i} euros.",),
                      answer=f"Item {i} is a {'gadget' if bad[i] else 'widget'}.",
                      strategy=strategies[i % len(strategies)],
                      labels=dict((data_labels or {}).get(i, {})))
               for i in range(n)]
    store.add_samples(run_id, samples)
    names = {s.name for s in specs}
    for i, s in enumerate(samples):
        values = {
            "judge.hallucination": bool(bad[i]) if rng.random() < 0.85 else not bad[i],
            "judge.faithfulness": float(np.clip(round(8 - 4 * bad[i] + rng.normal(0, 1)), 1, 10)),
            "judge.context_relevance": float(np.clip(1 + 3 * grade[i] + rng.normal(0, 1), 1, 10)),
        }
        store.save_result(run_id, SampleResult(
            sample_id=s.id, strategy=s.strategy, suite="judge",
            results=tuple(MetricResult(name=k, value=v) for k, v in values.items()
                          if k in names),
            reasoning=f"judged {s.id}"))
    store.finish_run(run_id, "complete")
    return AnnotatedRun(run_id, samples, bad, grade)


def no_reference_run(folder: Path, n: int = 6) -> tuple[Path, str]:
    """A run of the judge suite (offline, through the CLI) on answers without reference
    answers: judge.answer_similarity, which the `correct` label is compared with, is
    unscored on every sample. Returns the store and the run."""
    import json

    from click.testing import CliRunner

    from ragassay.cli import cli

    data, db = folder / "noref.jsonl", folder / "noref.db"
    data.write_text("".join(json.dumps({
        "id": f"q{i}", "question": f"What is fact {i}?", "answer": f"Fact {i} is {i}.",
        "contexts": [f"Fact {i} is {i}."]}) + "\n" for i in range(n)))
    done = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "judge", "-q",
                                    "--db", str(db)])
    assert done.exit_code == 0, done.output
    with Store(db, readonly=True) as store:
        latest = store.latest_run()
    assert latest is not None
    return db, latest.id
