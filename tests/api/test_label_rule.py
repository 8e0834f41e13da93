"""The Python API reads several people's labels by a chosen rule: `evaluate(...,
label_rule=...)` (the options object, `EvalOptions.label_rule`) and
`EvalResult.corrected(label_rule=...)`; the result says which rule it used."""

from __future__ import annotations

from pathlib import Path

import pytest

import ragassay
from ragassay.api.result import EvalResult
from ragassay.store import Store
from ragassay.types import HumanLabel, LabelRule
from tests.support.annotated_run import make_run


def test_the_rule_chooses_whose_labels_the_corrected_figures_read(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        r = make_run(store, 80)
        store.set_labels(HumanLabel(content_key=r.key(i), name="hallucinated",
                                    value=bool(r.bad[i]), annotator="ana") for i in range(60))
        store.set_labels(HumanLabel(content_key=r.key(i), name="hallucinated",
                                    value=not r.bad[i] if i % 4 == 0 else bool(r.bad[i]),
                                    annotator="bo") for i in range(40))
        result = EvalResult(store, r.run_id)
        majority = result.corrected()
        bo = result.corrected(label_rule="annotator:bo")
        assert (majority.label_rule, bo.label_rule) == ("majority", "annotator:bo")
        assert majority.label_sources["hallucinated"].ties == 10
        assert bo.label_sources["hallucinated"].by_count == {"1": 40}
        whole = [next(e for e in c.estimates if e.strategy is None) for c in (majority, bo)]
        assert [e.n_labelled for e in whole] == [50, 40]
        assert whole[0].estimate != whole[1].estimate
        report = EvalResult(store, r.run_id, label_rule=LabelRule(annotator="ana")).report()
        assert report.annotators is not None and report.annotators.rule == "annotator:ana"
        assert report.corrected is not None and report.corrected.label_rule == "annotator:ana"
        with pytest.raises(ValueError, match="label rule 'median' is not"):
            result.corrected(label_rule="median")


def test_evaluate_takes_the_rule_as_an_option_and_refuses_a_bad_one(tmp_path: Path) -> None:
    rows = [{"question": "What plan?", "contexts": ["The Free plan."], "answer": "Free."}]
    db = tmp_path / "r.db"
    result = ragassay.evaluate(rows, "judge", store=db, label_rule="annotator:ana")
    assert result.label_rule == LabelRule(annotator="ana")
    with pytest.raises(ValueError, match="label rule 'anna' is not"):
        ragassay.evaluate(rows, "judge", store=db, label_rule="anna")
    with Store(db, readonly=True) as store:
        assert len(store.list_runs()) == 1  # refused before a run was made
