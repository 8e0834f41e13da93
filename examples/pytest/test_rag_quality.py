"""RAG quality as tests: what a team puts in its own suite (`pip install ragassay` brings the
pytest plugin; no conftest needed).

Run with `pytest examples/pytest` (the runs land in .ragassay/ragassay.db; `ragassay ui`
shows them), or with another store and judge:
`pytest examples/pytest --ragassay-db /tmp/qa.db --ragassay-judge openai:gpt-4o-mini`.
"""

from ragassay.dataset import demo_dataset_path
from ragassay.testing import assert_metrics


def test_golden_set_meets_the_release_bar(ragassay_eval):
    # the bundled demo: 12 questions answered by two retrieval strategies
    run = ragassay_eval(demo_dataset_path(), metrics=["ragas", "judge"])
    # strict: the lower bound of each 95% CI must clear the bar, not just the mean (the
    # bar sits under the offline judge's demo figures: 0.47, 0.61 and 4.35 at the bound)
    assert_metrics(run, {"ragas.faithfulness": 0.45, "ragas.context_recall": 0.55,
                         "judge.faithfulness": 4.0}, strict=True)


def test_one_grounded_answer(ragassay_eval):
    run = ragassay_eval.sample(
        question="How many days of annual leave do employees get?",
        answer="Employees get 27 days of paid annual leave.",
        contexts=["Employees get 27 days of paid annual leave per calendar year."],
        reference="27 days.",
        metrics="ragas",
    )
    assert_metrics(run, {"ragas.faithfulness": 0.8})


def test_the_results_are_a_table(ragassay_eval):
    frame = ragassay_eval(demo_dataset_path(), metrics="judge").to_pandas()
    assert len(frame) == 24
    # an unscored value is None with its reason beside it, never a number
    unscored = frame[frame["judge.overall"].isna()]
    assert unscored["judge.overall_reason"].notna().all()
