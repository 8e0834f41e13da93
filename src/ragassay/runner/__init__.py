"""The runner: a run's life from request to outcome, and the engines that judge it.

Front ends call the run session: `plan_run(RunRequest(...))` checks everything before a
judge call is paid for (`RunPlan`, with its `Note`s), `execute(plan)` / `aexecute(plan)`
judges it and applies the end-of-run rules (`RunOutcome`, with its `Finding`s),
`estimate(plan)` says what it would cost. Below the session, `evaluate` / `run_async`
stream samples through the suites and the judge into the store (local asyncio, or Ray).
"""

from ragassay.metrics import parse_metrics
from ragassay.runner.batch_options import BatchOptions
from ragassay.runner.engine import LocalRun, RunFeed, run_async
from ragassay.runner.entry import evaluate
from ragassay.runner.judging import RunInputs, RunStats, build_judge
from ragassay.runner.plan import Note, RunPlan, plan_run
from ragassay.runner.ray_engine import RayEngineError, RayOptions
from ragassay.runner.request import (
    CLI_NAMES,
    PYTHON_NAMES,
    Engine,
    FileSource,
    LiveSource,
    LocalEngine,
    OptionNames,
    Progress,
    RowsSource,
    RunRequest,
    engine_choice,
)
from ragassay.runner.resume import RunRefused
from ragassay.runner.session import (
    Finding,
    RunOutcome,
    aexecute,
    conclude,
    estimate,
    execute,
    open_feed,
)


def suite_choices() -> tuple[str, ...]:
    """The suites a run can score (what `--metrics all` means), for front ends."""
    return parse_metrics("all")


__all__ = ["CLI_NAMES", "PYTHON_NAMES", "BatchOptions", "Engine", "FileSource", "Finding",
           "LiveSource", "LocalEngine", "LocalRun", "Note", "OptionNames", "Progress",
           "RayEngineError", "RayOptions", "RowsSource", "RunFeed", "RunInputs", "RunOutcome",
           "RunPlan", "RunRefused", "RunRequest", "RunStats", "aexecute", "build_judge",
           "conclude", "engine_choice", "estimate", "evaluate", "execute", "open_feed",
           "plan_run", "run_async", "suite_choices"]
