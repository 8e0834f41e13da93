"""The runner: streams samples through the suites and the judge into the store."""

from ragassay.metrics import parse_metrics
from ragassay.runner.engine import RunFeed, run_async
from ragassay.runner.entry import evaluate
from ragassay.runner.judging import Progress, RunInputs, RunStats, build_judge
from ragassay.runner.ray_engine import RayEngineError, RayOptions


def suite_choices() -> tuple[str, ...]:
    """The suites a run can score (what `--metrics all` means), for front ends."""
    return parse_metrics("all")


__all__ = ["Progress", "RayEngineError", "RayOptions", "RunFeed", "RunInputs", "RunStats",
           "build_judge", "evaluate", "run_async", "suite_choices"]
