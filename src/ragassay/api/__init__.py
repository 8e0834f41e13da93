"""The Python API for scripts and notebooks: `evaluate`, `aevaluate`, `EvalResult`.

    import ragassay
    result = ragassay.evaluate(df, metrics=["judge", "ragas"], judge="offline")
    result.to_pandas()      # one row per sample: inputs, labels, reasoning, metrics (nullable)
    result.summary()        # mean, 95% CI, scored and unscored counts per metric
    result.report("html", out="report.html")

`evaluate` works in plain Python and inside a running event loop (Jupyter): the run then
gets a loop of its own in a helper thread. `await ragassay.aevaluate(...)` runs on the
caller's loop.
"""

from ragassay.api.options import EvalOptions
from ragassay.api.result import EvalResult
from ragassay.api.run import aevaluate, evaluate
from ragassay.types import RoutingPlan, Tier

__all__ = ["EvalOptions", "EvalResult", "RoutingPlan", "Tier", "aevaluate", "evaluate"]
