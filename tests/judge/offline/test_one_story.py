"""One verdict, one story: the per-sentence labels, the cited keys, the reasoning and the
faithfulness agree, on the demo set and the adversarial set."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragassay.dataset import iter_samples
from ragassay.judge.offline import HALLUCINATION_THRESHOLD, SUPPORT_THRESHOLD, Analyzer, reasoning
from ragassay.judge.offline.injection import addresses_evaluator
from ragassay.types import Sample

ROOT = Path(__file__).resolve().parents[3]
SETS = [
    ROOT / "src" / "ragassay" / "dataset" / "samples" / "demo.jsonl",
    ROOT / "examples" / "adversarial" / "injection.jsonl",
]


def _samples() -> list[Sample]:
    out: list[Sample] = []
    for path in SETS:
        out += [s for s in iter_samples(path) if isinstance(s, Sample)]
    return out


@pytest.fixture(scope="module")
def scored() -> list[tuple[Sample, object]]:
    samples = _samples()
    assert len(samples) > 10
    return list(zip(samples, Analyzer().analyze_many(samples), strict=True))


def test_an_unsupported_sentence_never_cites_support(scored) -> None:  # type: ignore[no-untyped-def]
    for _, ev in scored:
        for p, keys in zip(ev.support, ev.support_keys, strict=True):
            assert not keys or p >= SUPPORT_THRESHOLD
        assert len(ev.match_keys) == len(ev.support)


def test_reasoning_counts_agree_with_the_claims(scored) -> None:  # type: ignore[no-untyped-def]
    for _, ev in scored:
        text = reasoning(ev)
        m = re.search(r"(\d+) of (\d+) claims supported", text)
        if ev.faithfulness is None or not any(ev.asserts):
            assert m is None
            continue
        assert m is not None, text
        claims = ev.claim_indices()
        ok = sum(ev.support[i] >= SUPPORT_THRESHOLD for i in claims)
        assert (int(m.group(1)), int(m.group(2))) == (ok, len(claims))


def test_faithfulness_never_contradicts_the_claims(scored) -> None:  # type: ignore[no-untyped-def]
    """An unsupported claim is a hallucination (never a 10/10); every claim supported and
    no key term missing is never flagged."""
    for _, ev in scored:
        if ev.faithfulness is None or not any(ev.asserts):
            continue
        claims = ev.claim_indices()
        n_ok = sum(ev.support[i] >= SUPPORT_THRESHOLD for i in claims)
        if n_ok < len(claims):
            assert ev.faithfulness < HALLUCINATION_THRESHOLD
        elif not ev.hallucinated_terms:
            assert ev.faithfulness >= HALLUCINATION_THRESHOLD


def test_verbatim_copies_are_never_flagged() -> None:
    """An answer made of sentences copied from the retrieved chunks is not a hallucination
    (the bench's offline generator writes such answers). Sentences addressed to the
    evaluator are left out: copied or not, an instruction to the judge is no claim
    (test_injection.py)."""
    an = Analyzer()
    copies = []
    for s in _samples():
        if not s.contexts:
            continue
        sents = [x for x in an.analyze(s).context_sentences if not addresses_evaluator(x.text)]
        for k in range(1, 4):
            answer = " ".join(x.text for x in sents[:k])
            copies.append(s.model_copy(update={"answer": answer}))
    assert len(copies) > 20
    for s, ev in zip(copies, an.analyze_many(copies), strict=True):
        assert ev.faithfulness is not None and ev.faithfulness >= HALLUCINATION_THRESHOLD, s.answer


def test_the_suites_tell_the_same_story() -> None:
    """Through `ragassay eval` (judge, trace, ragas): a claim labelled unsupported never
    cites support, a supported one always does, a 10/10 faithfulness never comes with an
    unsupported claim, and the judge's reasoning counts what ragas labels."""
    from ragassay.runner import evaluate
    from ragassay.store import Store
    from ragassay.types import RunConfig

    samples = _samples()
    config = RunConfig(dataset="story", metrics=("judge", "trace", "ragas"))
    with Store(":memory:") as store:
        run = evaluate(samples, config, store=store)
        rows = list(store.iter_results(run.run_id))
    by_sample: dict[str, dict[str, object]] = {}
    for row in rows:
        by_sample.setdefault(row.sample_id, {}).update({m.name: m for m in row.results})
    checked = 0
    for sample_id, by in by_sample.items():
        claims = (getattr(by["ragas.faithfulness"], "details", None) or {}).get("claims", [])
        for c in claims:
            if c["reason"].startswith("asserts nothing"):
                continue  # an answer of declines only: its sentences stand in as claims
            assert c["reason"].startswith("supported by") == c["supported"], (sample_id, c)
        faith = getattr(by["judge.faithfulness"], "value", None)
        if faith is None or not claims:
            continue
        checked += 1
        n_ok = sum(c["supported"] for c in claims)
        if faith >= 10.0 - 1e-9:
            assert n_ok == len(claims), sample_id
        if n_ok < len(claims):
            assert getattr(by["judge.hallucination"], "value", None) is True, sample_id
    assert checked > 10
