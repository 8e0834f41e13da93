"""The notebook example runs, cell by cell, inside a running event loop, as Jupyter runs
it (top-level await included)."""

from __future__ import annotations

import ast
import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "notebook.ipynb"


async def run_cells(cells: list[str], namespace: dict[str, Any]) -> list[Any]:
    """Each cell compiled like IPython does: top-level await allowed; the value of a
    last expression is kept."""
    shown = []
    for source in cells:
        tree = ast.parse(source, mode="exec")
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
        for part, mode in ((ast.Module(tree.body, []), "exec"),
                           (ast.Expression(last.value) if last else None, "eval")):
            if part is None:
                continue
            value = eval(compile(part, str(NOTEBOOK), mode, flags=flags), namespace)
            if asyncio.iscoroutine(value):
                value = await value
            if mode == "eval":
                shown.append(value)
    return shown


def test_the_notebook_runs_inside_an_event_loop(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    nb = json.loads(NOTEBOOK.read_text())
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    assert any("await " in c for c in cells)
    namespace: dict[str, Any] = {}
    shown = asyncio.run(run_cells(cells, namespace))
    result, mine, again = namespace["result"], namespace["mine"], namespace["again"]
    assert shown[0] == result.run_id
    assert len(namespace["frame"]) == 24
    assert list(shown[2].index)[:2] == ["judge.context_relevance", "judge.answer_similarity"]
    assert mine.to_pandas()["ragas.faithfulness"].iloc[0] is not None
    assert again.summary().loc["judge.faithfulness", "scored"] == 1
    assert shown[-1] is True
    assert (tmp_path / "notebook-runs.db").exists()
