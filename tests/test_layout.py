"""The house rules that code review enforces, checked: metric names live only with their
metrics, modules stay small, and dependencies point one way."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from ragassay.metrics import all_specs

SRC = Path(__file__).resolve().parents[1] / "src" / "ragassay"
NO_METRIC_NAMES = ("stats", "report", "ui", "bench", "annotation")
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def _python_files(*parts: str) -> list[Path]:
    return sorted((SRC.joinpath(*parts)).rglob("*.py"))


def test_no_qualified_metric_name_outside_the_metrics() -> None:
    names = sorted(all_specs(["judge", "trace", "ragas"]))
    pattern = re.compile("|".join(re.escape(n) for n in names))
    found = [f"{p.relative_to(SRC)}: {m.group(0)}" for pkg in NO_METRIC_NAMES
             for p in _python_files(pkg) for m in pattern.finditer(p.read_text())]
    assert not found, found


@pytest.mark.parametrize("path", _python_files(), ids=lambda p: str(p.relative_to(SRC)))
def test_modules_and_functions_are_small(path: Path) -> None:
    text = path.read_text()
    assert text.count("\n") <= MAX_MODULE_LINES
    long = [f"{node.name}: {node.end_lineno - node.lineno + 1} lines"
            for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and (node.end_lineno or 0) - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert not long, long


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


@pytest.mark.parametrize("pkg, forbidden", [
    ("stats", ("ragassay.metrics", "ragassay.judge", "ragassay.report", "ragassay.runner")),
    ("report", ("ragassay.metrics", "ragassay.judge", "ragassay.runner")),
    ("ui", ("ragassay.judge", "ragassay.metrics", "ragassay.report.build")),
    ("annotation", ("ragassay.metrics", "ragassay.judge", "ragassay.runner", "ragassay.ui",
                    "ragassay.cli")),
    ("store", ("ragassay.metrics", "ragassay.judge", "ragassay.stats")),
    ("metrics", ("ragassay.store", "ragassay.runner", "ragassay.report", "ragassay.stats")),
])
def test_dependencies_point_one_way(pkg: str, forbidden: tuple[str, ...]) -> None:
    bad = [f"{p.relative_to(SRC)} imports {m}" for p in _python_files(pkg)
           for m in _imports(p) if m.startswith(forbidden)]
    assert not bad, bad
