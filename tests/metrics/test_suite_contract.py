"""A suite's results are exactly its declared metrics: its declaration is checked where
it is registered (or loaded), its results where it scores."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest

import ragassay.metrics as metrics
from ragassay.judge import Asker
from ragassay.judge.offline import Evidence
from ragassay.metrics import Outcome, Suite, SuiteOptions, UnknownSuiteError, get_suites
from ragassay.metrics.base import outcome
from ragassay.runner import evaluate
from ragassay.store import Store
from ragassay.text import KeyedSample
from ragassay.types import MetricResult, MetricSpec, RunConfig, Sample


def _suite(suite_name: str, declared: tuple[str, ...], returned: tuple[str, ...]) -> type[Suite]:
    class Made(Suite):
        name: ClassVar[str] = suite_name
        specs: ClassVar[tuple[MetricSpec, ...]] = tuple(MetricSpec(name=n) for n in declared)

        def _score(self, item: KeyedSample) -> Outcome:
            return outcome(self.name, item.sample, [MetricResult(name=n, value=0.5)
                                                    for n in returned])

        async def evaluate(self, item: KeyedSample, judge: Asker, options: SuiteOptions
                           ) -> Outcome:
            return self._score(item)

        def evaluate_offline(self, item: KeyedSample, evidence: Evidence,
                             options: SuiteOptions) -> Outcome:
            return self._score(item)

    return Made


@pytest.mark.parametrize("declared, message", [
    (("other.score",), "declares 'other.score': its metrics are named 'toy.<metric>'"),
    (("toy",), "declares 'toy': its metrics are named 'toy.<metric>'"),
    (("toy.a", "toy.a"), "declares 'toy.a' twice"),
    ((), "declares no metric"),
])
def test_an_unsound_declaration_is_refused_at_registration(declared: tuple[str, ...],
                                                           message: str) -> None:
    with pytest.raises(ValueError, match=message.replace(".", r"\.").replace("<", ".")):
        metrics.register_suite("toy", _suite("toy", declared, declared))


def test_a_suite_registered_under_another_name_is_refused(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    with pytest.raises(ValueError, match="suite 'toy' declares the name 'brevity'"):
        metrics.register_suite("toy", _suite("brevity", ("brevity.a",), ("brevity.a",)))
    monkeypatch.setitem(metrics._registered, "toy", "tests.nowhere:Suite")  # a string
    monkeypatch.setitem(metrics._registered, "late", _suite("early", ("early.a",), ()))
    with pytest.raises(UnknownSuiteError, match="suite 'late' declares the name 'early'"):
        get_suites(["late"])  # checked when it is loaded


@pytest.mark.parametrize("returned, message", [
    (("toy.a", "toy.b", "toy.c"), "returned undeclared metrics toy.c"),
    (("toy.a",), "returned no result for toy.b"),
])
def test_results_other_than_the_specs_stop_the_run(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   returned: tuple[str, ...],
                                                   message: str) -> None:
    monkeypatch.setitem(metrics._registered, "toy", _suite("toy", ("toy.a", "toy.b"), returned))
    with Store(tmp_path / "r.db") as store, pytest.raises(ValueError, match=message):
        evaluate([Sample(id="s", question="q", contexts=["c"], answer="a")],
                 RunConfig(dataset="d", metrics=("toy",)), store=store)


def test_the_built_in_suites_are_sound() -> None:
    for suite in get_suites(["judge", "trace", "ragas"]):
        assert type(suite).declaration_problem(suite.name) is None
