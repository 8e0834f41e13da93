"""Trial 72, finding 2: docs/judges.md called `ragas.faithfulness` "the share of claims
supported" where docs/metrics.md (and the code) make it, under the offline judge, the
mean support probability of the claims. docs/metrics.md's "Three support figures" is
now the one definition of `judge.faithfulness`, `ragas.faithfulness` and
`trace.adherence_ratio`: each offline formula it states is checked against the suites'
values on the demo set, and judges.md names the same definitions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragassay.dataset import demo_dataset_path, iter_samples
from ragassay.judge.offline import Analyzer
from ragassay.metrics.base import SuiteOptions
from ragassay.metrics.judge import JudgeSuite
from ragassay.metrics.ragas import RagasSuite
from ragassay.metrics.trace import TraceSuite
from ragassay.text import key_sample
from ragassay.types import Sample

DOCS = Path(__file__).resolve().parents[2] / "docs"
SECTION = "## Three support figures"


def _flat(text: str) -> str:
    return " ".join(text.split())


def _definitions() -> dict[str, list[str]]:
    """metrics.md's table: metric -> its cells (scale, unit, LLM judge, offline judge)."""
    text = (DOCS / "metrics.md").read_text(encoding="utf-8")
    assert text.count(SECTION) == 1
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split("|")]
            for line in section.splitlines() if line.startswith("| `")]
    return {row[0].strip("`"): row[1:] for row in rows}


def test_metrics_md_defines_the_three_once_in_one_table() -> None:
    table = _definitions()
    assert list(table) == ["judge.faithfulness", "ragas.faithfulness", "trace.adherence_ratio"]
    assert [cells[0] for cells in table.values()] == ["1-10", "0-1", "0-1"]
    offline = {m: cells[3] for m, cells in table.items()}
    assert offline["judge.faithfulness"].startswith("`1 + 9p`, `p` the probability that "
                                                    "the whole answer is supported")
    assert offline["ragas.faithfulness"].startswith("the mean support probability of the "
                                                    "claims")
    assert offline["trace.adherence_ratio"].startswith("the mean support probability of "
                                                       "the answer sentences")


def test_judges_md_says_what_metrics_md_says() -> None:
    judges = _flat((DOCS / "judges.md").read_text(encoding="utf-8"))
    assert "share of claims supported" not in judges
    for said in ("`ragas.faithfulness` (the mean support probability of the claims)",
                 "not ragas.faithfulness, the mean support probability of the claims",
                 "`judge.faithfulness` (1 + 9 x the probability the whole answer is "
                 "supported)"):
        assert said in judges, said
    assert len(re.findall(r'docs/metrics\.md, "Three support figures"', judges)) >= 2


@pytest.fixture(scope="module")
def scored() -> list[tuple[object, dict[str, float | None]]]:
    samples = [s for s in iter_samples(demo_dataset_path()) if isinstance(s, Sample)]
    out = []
    for sample, ev in zip(samples, Analyzer().analyze_many(samples), strict=True):
        item, values = key_sample(sample), {}
        for suite in (JudgeSuite(), RagasSuite(), TraceSuite()):
            for r in suite.evaluate_offline(item, ev, SuiteOptions()).result.results:
                values[r.name] = r.value
        out.append((ev, values))
    return out


def test_the_offline_values_are_what_the_table_says(scored) -> None:  # type: ignore[no-untyped-def]
    checked = 0
    for ev, values in scored:
        if values["ragas.faithfulness"] is None:
            continue
        checked += 1
        claims = [ev.support[i] for i in ev.claim_indices()]
        assert values["judge.faithfulness"] == pytest.approx(1 + 9 * ev.faithfulness)
        assert values["ragas.faithfulness"] == pytest.approx(sum(claims) / len(claims))
        assert values["trace.adherence_ratio"] == pytest.approx(
            sum(ev.support) / len(ev.support))
        if any(p < 0.5 for p in claims):  # one unsupported claim: a rating below 5.5
            assert values["judge.faithfulness"] < 5.5 and values["judge.hallucination"]
    assert checked >= 20
