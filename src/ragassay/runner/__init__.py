"""The runner: streams samples through the suites and the judge into the store."""

from ragassay.runner.engine import Progress, RunStats, build_judge, evaluate, run_async

__all__ = ["Progress", "RunStats", "build_judge", "evaluate", "run_async"]
