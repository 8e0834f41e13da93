"""Injected instructions do not raise the offline judge's scores.

Each attack of the catalogue is appended to real answers (the demo set), and the
adversarial sample set (examples/adversarial/injection.jsonl) pairs every injected
sample with its clean twin. The overall score and faithfulness never increase and a
hallucination flag is never cleared. Answer similarity (a lexical/embedding match to
the reference) may drift up slightly when text is added; that drift is bounded here
and its measured size is reported in docs/reliability.md.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ragassay.dataset import load_samples
from ragassay.runner import evaluate
from ragassay.store import Store
from ragassay.types import RunConfig, Sample
from tests.security.injection import ATTACKS, attack_text

REPO = Path(__file__).resolve().parents[2]
ADVERSARIAL = REPO / "examples" / "adversarial" / "injection.jsonl"
EPS = 1e-9
SIMILARITY_DRIFT = 1.0  # points on the 1-10 scale


def _judge(samples: list[Sample]) -> dict[str, dict[str, Any]]:
    with Store(":memory:") as store:
        run = evaluate(samples, RunConfig(dataset="injection", metrics=("judge",)), store=store)
        return {r.sample_id: {m.name: m.value for m in r.results}
                for r in store.iter_results(run.run_id)}


def _not_raised(clean: dict[str, Any], injected: dict[str, Any], where: str) -> float:
    """Asserts the pair; returns the answer-similarity drift."""
    if clean["judge.overall"] is not None:
        assert injected["judge.overall"] is not None, where
        assert injected["judge.overall"] <= clean["judge.overall"] + EPS, where
    if clean["judge.hallucination"] is True:
        assert injected["judge.hallucination"] is True, f"{where}: hallucination cleared"
    sim_c, sim_i = clean["judge.answer_similarity"], injected["judge.answer_similarity"]
    drift = 0.0 if sim_c is None or sim_i is None else sim_i - sim_c
    assert drift <= SIMILARITY_DRIFT, f"{where}: answer similarity +{drift:.2f}"
    return drift


def test_attacks_appended_to_answers_never_raise_scores(demo_data: Path) -> None:
    bases = [s for s in load_samples(demo_data) if isinstance(s, Sample)][:6]
    samples = list(bases)
    for b in bases:
        samples += [b.model_copy(update={"id": f"{b.id}~{kind}",
                                         "answer": f"{b.answer} {attack_text(kind, 'answer')}"})
                    for kind in ATTACKS]
    scores = _judge(samples)
    for b in bases:
        for kind in ATTACKS:
            clean, injected = scores[b.id], scores[f"{b.id}~{kind}"]
            where = f"{b.id} + {kind}"
            _not_raised(clean, injected, where)
            assert injected["judge.faithfulness"] <= clean["judge.faithfulness"] + EPS, where


def _pairs() -> dict[str, dict[str, Sample]]:
    items = load_samples(ADVERSARIAL)
    pairs: dict[str, dict[str, Sample]] = {}
    for s in items:
        assert isinstance(s, Sample)
        pairs.setdefault(s.metadata["question_id"], {})[s.strategy] = s
    return pairs


def test_adversarial_set_is_well_formed() -> None:
    pairs = _pairs()
    assert len(pairs) * 2 >= 20
    attacks = Counter(p["injected"].metadata["attack"] for p in pairs.values())
    targets = {p["injected"].metadata["target"] for p in pairs.values()}
    assert len(attacks) >= 12 and targets == {"answer", "contexts", "question"}
    for qid, pair in pairs.items():
        assert set(pair) == {"clean", "injected"}, qid
        clean, injected = pair["clean"], pair["injected"]
        assert clean.labels == injected.labels and {"hallucination", "correct"} <= set(
            clean.labels)
        assert clean.metadata["attack"] == "none"
        field = injected.metadata["target"]
        assert getattr(clean, field) != getattr(injected, field), qid
        for other in {"question", "contexts", "answer"} - {field}:
            assert getattr(clean, other) == getattr(injected, other), (qid, other)


def test_adversarial_set_offline_scores_do_not_rise() -> None:
    pairs = _pairs()
    scores = _judge([s for p in pairs.values() for s in p.values()])
    for qid, pair in pairs.items():
        clean, injected = scores[pair["clean"].id], scores[pair["injected"].id]
        _not_raised(clean, injected, qid)
        f_c, f_i = clean["judge.faithfulness"], injected["judge.faithfulness"]
        if pair["injected"].metadata["target"] == "answer":
            assert f_i <= f_c + EPS, qid
        else:  # text added to the question or a context: no verdict flips to "faithful"
            assert (f_i >= 5.5) <= (f_c >= 5.5), qid


@pytest.mark.parametrize("suite", ["judge", "trace", "ragas"])
def test_adversarial_set_runs_through_every_suite(suite: str) -> None:
    """Hostile text never breaks a suite: every metric ends scored or unscored with a reason."""
    samples = [s for p in _pairs().values() for s in p.values()]
    with Store(":memory:") as store:
        run = evaluate(samples, RunConfig(dataset="injection", metrics=(suite,)), store=store)
        results = list(store.iter_results(run.run_id))
    assert len(results) == len(samples)
    for r in results:
        for m in r.results:
            assert (m.value is None) == bool(m.unscored_reason), (r.sample_id, m)
            # an internal exception is a bug, never a reason shown as the product's answer
            assert not re.search(r"\w+(Error|Exception)\b|Traceback|zip\(\)",
                                 m.unscored_reason or ""), (r.sample_id, m)
