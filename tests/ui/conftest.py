"""A store filled by real offline runs of the demo dataset, shared by the UI tests.

Run A scores the demo as shipped. Run B scores the same evaluation set after a
"generator change": the answers to 8 of the 12 questions are replaced by an unsupported
one, and one answer carries a script and an HTML event handler (the dashboard must
show them as text) under a question full of Markdown.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from ragassay.dataset import demo_dataset_path, iter_samples
from ragassay.metrics import parse_metrics
from ragassay.runner import evaluate
from ragassay.store import Store
from ragassay.types import RunConfig

APP = Path(__file__).resolve().parents[2] / "src" / "ragassay" / "ui" / "app.py"

XSS_ID = "q02-dense-k5"
XSS_ANSWER = ('You are billed monthly. <script>window.__pwned = 1;</script> '
              'Bank transfer <img src=x onerror="window.__pwned = 2"> is not offered.')
MD_QUESTION = "**not bold** [click me](javascript:alert(1)) <b>raw tag</b>?"
CHANGED = ("q03", "q04", "q05", "q06", "q07", "q08", "q09", "q10")
WRONG = "The Standard plan allows 50,000 requests per second and overages are billed at $9."


@dataclass(frozen=True)
class UIStore:
    db: Path
    run_a: str  # the demo as shipped
    run_b: str  # the changed generator, same evaluation set
    dataset: str
    b_data: Path


def _changed_demo(folder: Path) -> Path:
    rows = [json.loads(line) for line in demo_dataset_path().read_text().splitlines() if line]
    for row in rows:
        if row["id"] == XSS_ID:
            row["answer"] = XSS_ANSWER
            row["question"] = MD_QUESTION
        elif row["id"][:3] in CHANGED:
            row["answer"] = WRONG
    out = folder / "demo-v2.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return out


@pytest.fixture(scope="session")
def ui_store(tmp_path_factory: pytest.TempPathFactory) -> UIStore:
    folder = tmp_path_factory.mktemp("ui")
    db = folder / "ragassay.db"
    dataset = str(demo_dataset_path())
    b_data = _changed_demo(folder)
    config = RunConfig(dataset=dataset, metrics=parse_metrics("all"))  # citations: opt-in
    with Store(db) as store:
        a = evaluate(iter_samples(demo_dataset_path()), config, store=store).run_id
        b = evaluate(iter_samples(b_data), config, store=store).run_id
    return UIStore(db=db, run_a=a, run_b=b, dataset=dataset, b_data=b_data)


@pytest.fixture
def app_test(ui_store: UIStore) -> Callable[..., object]:
    """A fresh AppTest of the dashboard on the shared store (optionally another db)."""
    from streamlit.testing.v1 import AppTest

    def make(db: Path | None = None, run_id: str | None = None) -> AppTest:
        at = AppTest.from_file(str(APP), default_timeout=60)
        at.session_state["db"] = str(db or ui_store.db)
        if run_id is not None:
            at.session_state["run_id"] = run_id
        return at

    return make
