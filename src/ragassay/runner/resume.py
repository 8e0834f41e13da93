"""A resume's integrity: a run continues only with the data and the settings its finished
judgments were made with, and says which failed judgments it judges again.

A resume is refused (`RunRefused`, one line) when this version may not write to the run,
when the data is another dataset or the same one changed since the run started (a file's
sha256, in-memory rows' content), or when a judge, suites or column map given differs
from the run's: its finished judgments would be mixed with new ones of another thing.
Settings left out are the run's own; endpoints given anew are used, and said so. The
engines hold the same line at their level (`check_same_run`), so that no caller of the
runner mixes two runs' judgments.
"""

from __future__ import annotations

from pathlib import Path

from ragassay.runner.request import CLI_NAMES, FileSource, OptionNames, RunRequest
from ragassay.store import RunRecord, Store
from ragassay.types import RunConfig
from ragassay.urls import redact_url


class RunRefused(ValueError):
    """A run that cannot start as asked: one line saying why and what to do."""


def resumed_config(request: RunRequest, store: Store, suites: tuple[str, ...],
                   judge: str | None) -> tuple[RunRecord, RunConfig, list[str]]:
    """The run to resume, its stored config (with newly given endpoints) and the lines to
    say; RunRefused when the resume would mix two runs (see the module)."""
    assert request.resume is not None
    names = request.names
    run = store.get_run(request.resume)
    read_only = run.read_only_reason()
    if read_only:
        raise RunRefused(read_only)
    config = run.config
    _same_data(request, run)
    source = request.source
    given_map = dict(source.field_map) if source.field_map else {}
    read_as = source.read_as if isinstance(source, FileSource) else None
    stored_map = (" ".join(f"{names.field_map} {f}={c}" for f, c in config.field_map.items())
                  or f"no {names.field_map}")
    for option, differs, stored in (
        (names.judge, judge is not None and judge != config.judge,
         f"{names.judge} {config.judge}"),
        (names.metrics, request.metrics is not None and set(suites) != set(config.metrics),
         f"{names.metrics} {','.join(config.metrics)}"),
        (names.field_map, bool(given_map) and given_map != config.field_map, stored_map),
        (names.read_as, read_as is not None and read_as != config.read_as,
         f"{names.read_as} {config.read_as}"),
    ):
        if differs:
            raise RunRefused(f"run {run.id} was evaluated with {stored}: resume with the "
                             f"same (or without {option}, which reuses it)")
    said = []
    urls = request.endpoints
    if urls and urls != config.endpoints():
        now = " ".join(redact_url(u) for u in urls)
        before = " ".join(config.endpoints()) or "the default endpoint"
        said.append(f"resuming run {run.id} against {names.base_url} {now} (it was started "
                    f"with {before})")
        config = config.with_endpoints(urls)
    return run, config, said


def _same_data(request: RunRequest, run: RunRecord) -> None:
    """RunRefused unless the data is the run's, unchanged."""
    from ragassay.dataset import dataset_fingerprint

    source, stored = request.source, run.config.dataset
    if isinstance(source, FileSource):
        data = source.path
        same = (stored == source.name if source.name is not None
                else Path(stored).resolve() == data.resolve())
        if not same:
            raise RunRefused(f"run {run.id} evaluated {stored}, not {source.name or data}")
        if run.dataset_hash and data.is_file() and dataset_fingerprint(data) != run.dataset_hash:
            raise RunRefused(changed(str(data), run.id, request.names))


def changed(data: str, run_id: str, names: OptionNames) -> str:
    """The line that refuses to resume a run on data that changed since it started."""
    return (f"{data} changed since run {run_id} started: its finished judgments are of the "
            f"old rows; start a new run (without {names.resume})")


def check_rows(request: RunRequest, run: RunRecord, name: str, fingerprint: str | None
               ) -> None:
    """In-memory data resumed: RunRefused when its content changed since the run started
    (its fingerprint), or when it names another dataset."""
    if run.dataset_hash and fingerprint and fingerprint != run.dataset_hash:
        raise RunRefused(changed(run.config.dataset, run.id, request.names))
    if name != run.config.dataset:
        raise RunRefused(f"run {run.id} evaluated {run.config.dataset}, not {name}")


def retrying(request: RunRequest, store: Store, run: RunRecord
             ) -> tuple[str | None, list[str]]:
    """What this resume judges again (`retry_mode`) and the line that says how many."""
    mode = retry_mode(run.status, request.retry_failed or "auto")
    n = len(store.failed_keys(run.id, mode))
    if not n:
        return mode, []
    what = ("failed for the endpoint's sake (no connection, timeout, 429, 5xx)"
            if mode == "transport" else "failed (any judge failure)")
    return mode, [f"judging again {n} judgment{'s' if n != 1 else ''} that {what}"]


def retry_mode(status: str, retry: str | None) -> str | None:
    """What a resume judges again: `retry` "auto" is the transport failures of a run that
    did not complete (a finished run's are retried only when asked: "transport", or "all"
    for content failures too); None nothing."""
    if retry == "auto":
        return "transport" if status != "complete" else None
    return retry


def check_same_run(run: RunRecord, config: RunConfig, dataset_hash: str | None) -> None:
    """The engines' own line: a resumed run is judged only with its own judge, suites,
    column and trace maps and data (RunRefused naming what differs)."""
    stored = run.config
    for what, mine, theirs in (
        ("judge", config.judge, stored.judge),
        ("metrics", sorted(config.metrics), sorted(stored.metrics)),
        ("column map", config.field_map, stored.field_map),
        ("trace map", config.trace_map, stored.trace_map),
        ("reading (rows or traces)", config.read_as, stored.read_as),
        ("dataset", config.dataset, stored.dataset),
    ):
        if mine != theirs:
            raise RunRefused(f"run {run.id} was evaluated with another {what} ({theirs}, "
                             f"not {mine}): its finished judgments would be mixed with new "
                             "ones; start a new run")
    if run.dataset_hash and dataset_hash and dataset_hash != run.dataset_hash:
        raise RunRefused(changed(stored.dataset, run.id, CLI_NAMES))
