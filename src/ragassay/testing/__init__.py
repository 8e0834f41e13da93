"""RAG quality in a test suite: evaluate inside a test, assert with the statistical gate.

    from ragassay.testing import assert_metrics

    def test_answers_are_grounded(ragassay_eval):          # the pytest plugin's fixture
        run = ragassay_eval("tests/data/golden.jsonl", metrics="ragas")
        assert_metrics(run, {"ragas.faithfulness": 0.9}, strict=True)

`strict=True` tests the 95% confidence interval's conservative bound (the lower bound;
the upper one for lower-is-better metrics) instead of the mean: the test passes only
when the data show the threshold is met. A failure lists the failing metrics and the
worst samples. Runs are kept in the store (`--ragassay-db`), for the dashboard.
"""

from ragassay.testing.asserts import MetricsCheck, assert_metrics, check_metrics
from ragassay.testing.evaluator import Evaluator

__all__ = ["Evaluator", "MetricsCheck", "assert_metrics", "check_metrics"]
