"""Metric suites (`judge`, `trace`, `ragas`): declared metrics and pure scoring over verdicts.

A suite is a folder here whose `__init__` exports `SUITE` (its class): the folder is the
suite's one home, found by name and imported lazily, so that `--metrics judge` never
loads what the other suites need. Other packages add suites with `register_suite` or
the `ragassay.suites` entry-point group ("name = package.module:Class").
"""

from __future__ import annotations

import importlib
import importlib.metadata
import pkgutil
from collections.abc import Iterable, Sequence
from pathlib import Path

from ragassay.metrics.base import Outcome, Suite, SuiteOptions
from ragassay.types import MetricSpec

ENTRY_POINT_GROUP = "ragassay.suites"
_BUILTIN_ORDER = ("judge", "trace", "ragas", "citations")  # the default order of `all`
OPT_IN = frozenset({"citations"})
"""Built-in suites that run only when named: `citations` scores cited answers (an answer
without markers would read as uncited claims), so `all` leaves it out."""

__all__ = ["ENTRY_POINT_GROUP", "OPT_IN", "Outcome", "Suite", "SuiteOptions", "UnknownSuiteError",
           "all_specs", "available", "get_suites", "parse_metrics", "register_suite",
           "suite_names", "suites_of"]

_registered: dict[str, type[Suite] | str] = {}


class UnknownSuiteError(ValueError):
    pass


def _folders() -> list[str]:
    here = str(Path(__file__).parent)
    found = [m.name for m in pkgutil.iter_modules([here]) if m.ispkg]
    return sorted(found, key=lambda n: (_BUILTIN_ORDER.index(n) if n in _BUILTIN_ORDER
                                        else len(_BUILTIN_ORDER), n))


def _entry_points() -> dict[str, importlib.metadata.EntryPoint]:
    try:
        return {ep.name: ep for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    except Exception:  # a broken distribution must not break the built-ins
        return {}


def suite_names() -> list[str]:
    """Every known suite: the folders here, then entry points, then registrations."""
    names = _folders()
    names += [n for n in _entry_points() if n not in names]
    names += [n for n in _registered if n not in names]
    return names


def register_suite(name: str, suite: type[Suite] | str) -> None:
    """Add (or replace) a suite: a Suite class, or a "package.module:Class" string. A
    class whose declaration is unsound (its name, its specs' names) is refused here, a
    string when it is loaded; its results are checked against its specs as it scores."""
    if not name or "." in name or "," in name:
        raise ValueError(f"invalid suite name {name!r}")
    if isinstance(suite, type) and issubclass(suite, Suite):  # a string: checked on load
        problem = suite.declaration_problem(name)
        if problem:
            raise ValueError(problem)
    _registered[name] = suite


def _load(name: str) -> type[Suite]:
    target: type[Suite] | str | importlib.metadata.EntryPoint | None = _registered.get(name)
    if target is None and name in _entry_points():
        target = _entry_points()[name]
    if target is None:
        if name not in _folders():
            raise UnknownSuiteError(
                f"unknown metric suite {name!r}; choose from {', '.join(suite_names())}")
        cls = importlib.import_module(f"{__name__}.{name}").SUITE
    elif isinstance(target, importlib.metadata.EntryPoint):
        cls = target.load()
    elif isinstance(target, str):
        module, _, attr = target.partition(":")
        cls = getattr(importlib.import_module(module), attr)
    else:
        cls = target
    if not (isinstance(cls, type) and issubclass(cls, Suite)):
        raise UnknownSuiteError(f"suite {name!r} is not a ragassay.metrics.Suite")
    problem = cls.declaration_problem(name)
    if problem:
        raise UnknownSuiteError(problem)
    return cls


def available() -> list[str]:
    """Known suites whose module is importable."""
    out = []
    for name in suite_names():
        try:
            _load(name)
        except (ImportError, UnknownSuiteError):
            continue
        out.append(name)
    return out


def parse_metrics(text: str | Sequence[str] | None) -> tuple[str, ...]:
    """`"judge,trace"` -> ("judge", "trace"); None or "all" -> every built-in suite but
    the opt-in ones (`OPT_IN`). A qualified metric name ("ragas.faithfulness") selects
    that metric alone: its suite runs only the judge calls it needs."""
    if text is None or text == "all" or text == ("all",):
        return tuple(n for n in available() if n in _folders() and n not in OPT_IN)
    parts = text.split(",") if isinstance(text, str) else list(text)
    names = tuple(dict.fromkeys(str(p).strip() for p in parts if str(p).strip()))
    known = suite_names()
    if not names:
        raise UnknownSuiteError(f"no metric suite named; choose from {', '.join(known)} (or all)")
    for name in names:
        suite, dot, _ = name.partition(".")
        if suite not in known:
            raise UnknownSuiteError(
                f"unknown metric suite {suite!r}; choose from {', '.join(known)}")
        if dot and name not in _load(suite).names():
            raise UnknownSuiteError(f"unknown metric {name!r}; {suite} has "
                                    f"{', '.join(_load(suite).names())}")
    # a whole suite named covers its metrics named besides it
    return tuple(n for n in names if "." not in n or n.partition(".")[0] not in names)


def suites_of(metrics: str | Sequence[str] | None) -> tuple[str, ...]:
    """What the runner takes (RunConfig.metrics), from "all", "judge,ragas", ["ragas"]
    or qualified metric names ("ragas.faithfulness": that metric of its suite alone)."""
    if metrics is not None and not isinstance(metrics, str) and \
            [str(m).strip() for m in metrics] == ["all"]:
        return parse_metrics("all")
    return parse_metrics(metrics)


def get_suites(names: Iterable[str]) -> list[Suite]:
    """The suites of `names` (suite or qualified metric names, as `parse_metrics` gives),
    each narrowed to the metrics named, in the order first named."""
    whole: set[str] = set()
    some: dict[str, set[str]] = {}
    for name in names:
        suite, dot, _ = name.partition(".")
        some.setdefault(suite, set())
        if dot:
            some[suite].add(name)
        else:
            whole.add(suite)
    return [_load(s)().choose(None if s in whole else m) for s, m in some.items()]


def all_specs(names: Iterable[str]) -> dict[str, MetricSpec]:
    """Every metric declaration of the named suites, by qualified name."""
    return {spec.name: spec for suite in get_suites(names) for spec in suite.chosen_specs}
