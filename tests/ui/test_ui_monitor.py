"""The dashboard's Monitor page over a monitor run: live counts, each watched metric's
trend with its interval band and the baseline, the alarms; a window people labelled
shows its corrected estimate."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ragassay.store import Store
from ragassay.types import HumanLabel
from tests.support.monitor_inproc import monitor_run
from tests.ui.conftest import APP

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def monitor_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    db = tmp_path_factory.mktemp("monitor") / "m.db"
    run_id = monitor_run(db, good=140, bad=60, baseline_traces=40, window=40)
    with Store(db) as store:  # people label 35 samples of the first window after the baseline
        labels = [HumanLabel(content_key=s.content_key, name="hallucinated", value=i % 5 == 0,
                             source="test")  # type: ignore[union-attr]
                  for i, s in enumerate(list(store.iter_samples(run_id))[40:75])]
        store.set_labels(labels)
    return db, run_id


def page(db: Path) -> Any:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state["db"] = str(db)
    at.run()
    at.switch_page("screens/monitor.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_monitor_page_shows_counts_trends_and_alarms(monitor_db: tuple[Path, str]
                                                          ) -> None:
    db, run_id = monitor_db
    at = page(db)
    assert [m.value for m in at.metric] == ["200", "200", "0", "0", "0", "0"]
    assert "alarm(s); the newest:" in at.error[0].value
    charts = at.get("plotly_chart")
    assert len(charts) == 7  # one per headline metric of judge and trace
    import json

    faith = next(json.loads(c.proto.spec) for c in charts
                 if "Faithfulness (judge)" in c.proto.spec)
    shapes = faith["layout"]["shapes"]
    assert any(s["type"] == "rect" for s in shapes)  # the baseline's band
    assert any(s.get("x0") == s.get("x1") and s["line"]["color"] == "red" for s in shapes)
    band, means = faith["data"][0], faith["data"][1]
    assert band["fill"] == "toself" and len(means["x"]) == 3  # 3 closed windows
    alarms = at.dataframe[-1].value
    assert "Faithfulness (judge)" in set(alarms["metric"])
    assert any("people's hallucinated" in c.value for c in at.caption)


def test_the_monitor_page_shows_each_baselines_size(monitor_db: tuple[Path, str]) -> None:
    """Trial 69: the baseline's values held of asked and its smallest detectable change,
    in the table and in the console's words (its warning as a warning)."""
    db, _ = monitor_db
    at = page(db)
    table = at.dataframe[0].value
    row = table[table["metric"] == "Hallucination (judge)"].iloc[0]
    assert row["baseline values"] == "40 of 40"
    assert float(row["smallest detectable change"]) > 0.2
    warned = [w.value for w in at.warning]
    assert any(w.startswith("judge.hallucination baseline (first 40 scored traces): 40 "
                            "values; smallest detectable change") and "warning: wider than "
               "0.2" in w for w in warned), warned
    assert any(c.value.startswith("trace.context_relevance baseline") for c in at.caption)


def test_a_store_without_monitors_says_how_to_start_one(tmp_path: Path) -> None:
    Store(tmp_path / "empty.db").close()
    at = page(tmp_path / "empty.db")
    assert "ragassay monitor --listen" in at.info[0].value
