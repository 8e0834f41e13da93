"""A run's plan: every check made before a judge call is paid for, for every front end.

`plan_run(request)` checks the settings (judge spec, endpoints, `retry_failed` without a
resume), a resume against the run it continues (`runner.resume`: not writable here, another
dataset or the same one changed, another judge, suites or column map), and the data in
full (`runner.sources`); it says what the user should know before the run as `Note`s
(data, not printed: the CLI prints them, the Python API keeps them on its result) and
builds the config the run is stored with. A check that fails raises one line: `RunRefused`
(a ValueError), or the dataset's own `DatasetError`, or `UnknownSuiteError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from ragassay.dataset import DatasetCheck
from ragassay.judge.spec import judge_spec_problem
from ragassay.labels import canonical, linked_metrics, lookup, nearest, unlinked_reason
from ragassay.metrics import all_specs, get_suites, suites_of
from ragassay.report import label_spelling
from ragassay.runner.batch_options import BatchOptions
from ragassay.runner.ray_session import RayOptions
from ragassay.runner.request import (
    CLI_NAMES,
    FileSource,
    LiveSource,
    OptionNames,
    RunRequest,
    StoreHandle,
)
from ragassay.runner.resume import RunRefused, check_rows, resumed_config, retrying
from ragassay.runner.sources import Item, Loaded, Reading, load_file, load_rows
from ragassay.store import RunRecord, Store
from ragassay.terminal import counted
from ragassay.types import RoutingPlan, RunConfig, is_offline
from ragassay.urls import base_url_problem

NoteKind = Literal["endpoints", "skipped", "retrieval-only", "embedder", "retrying",
                   "label-column", "label-name", "label-unlinked", "label-spelling"]

__all__ = ["Note", "RunPlan", "RunRefused", "plan_run"]


@dataclass(frozen=True)
class Note:
    """Something the user should know before the run starts, as one line: the endpoints a
    resume changed, the invalid rows skipped, a retrieval-only set, the embedder answer
    relevancy falls back to, the failed judgments a resume judges again."""

    kind: NoteKind
    text: str


@dataclass
class RunPlan:
    """A checked request: the config the run is stored with (a resumed run's own, with any
    new endpoints), the data read and checked, the failed judgments a resume judges again
    (`retry`: "transport", "all" or None), the provider batch options (`batch`: None for
    direct calls; a resumed batch run's own, with those given over them) and the notes."""

    request: RunRequest
    config: RunConfig
    data: Loaded
    handle: StoreHandle
    resumed: RunRecord | None = None
    retry: str | None = None
    batch: BatchOptions | None = None
    notes: list[Note] = field(default_factory=list)
    run_id: str | None = None  # once the run is opened (a stop names it to resume)

    @property
    def store(self) -> Store:
        """The run store (opened now if the request gave what opens it)."""
        return self.handle.get()

    @property
    def check(self) -> DatasetCheck | None:
        return self.data.check

    @property
    def total(self) -> int | None:
        return self.data.total

    def items(self) -> Iterable[Item]:
        """The run's rows, in input order (a file is streamed again)."""
        return self.data.items()

    def close(self) -> None:
        """Close the run store if the plan opened it."""
        self.handle.close()


def plan_run(request: RunRequest) -> RunPlan:
    """Check everything before the run: the settings, a resume, the data (see the module)."""
    names = request.names
    if request.retry_failed and not request.resume:
        raise RunRefused(f"{names.retry_failed} needs {names.resume} RUN (the run whose "
                         "failed judgments to judge again)")
    judge = _checked_judge(request)
    if request.routing is not None:
        judge = _checked_routing(request.routing, request.names)
    for url in request.endpoints:
        problem = base_url_problem(url, names.base_url)
        if problem is not None:
            raise RunRefused(problem)
    suites = suites_of(request.metrics)
    notes: list[Note] = []
    handle = StoreHandle(request.store)
    resumed = None
    config: RunConfig | None = None
    if request.resume:
        resumed, config, said = resumed_config(request, handle.get(), suites, judge)
        notes += [Note("endpoints", line) for line in said]
    data = _load(request, config)
    if resumed is not None and isinstance(request.source, LiveSource):
        check_rows(request, resumed, data.name, None)
    elif resumed is not None and not isinstance(request.source, FileSource):
        check_rows(request, resumed, data.name, data.fingerprint)
    notes += _data_notes(request, data)
    if config is None:
        config = _new_config(request, data, judge, suites)
    config = _routed(request, config)
    notes += label_notes(data.check, config.metrics)
    line = embedder_note(config.judge, config.metrics)
    if line:
        notes.append(Note("embedder", line))
    plan = RunPlan(request=request, config=config, data=data, handle=handle, resumed=resumed,
                   notes=notes)
    plan.batch = _batch(plan)
    if resumed is not None:
        plan.retry, said = retrying(request, plan.store, resumed)
        notes += [Note("retrying", line) for line in said]
    return plan


def _batch(plan: RunPlan) -> BatchOptions | None:
    """The run's provider batch options: those asked for over a resumed batch run's stored
    ones (None: direct calls); refused with the Ray engine or the offline judge."""
    request, names = plan.request, plan.request.names
    stored = (plan.store.batch_options(plan.resumed.id) if plan.resumed is not None
              else None)
    if request.batch is None and stored is None:
        return None
    if plan.config.routing is not None:
        raise RunRefused(f"{names.batch} with a routed run (--escalate, --jury): not yet; "
                         "the tiers' calls are sent directly")
    if isinstance(request.engine, RayOptions):
        ray = "--engine ray" if names is CLI_NAMES else "engine='ray'"
        raise RunRefused(f"{names.batch} and {ray} do not go together: a batch is judged by "
                         "the provider")
    if is_offline(plan.config.judge):
        judge = ("--judge openai:gpt-4o-mini" if names is CLI_NAMES
                 else "judge='openai:gpt-4o-mini'")
        raise RunRefused(f"{names.batch} needs an LLM judge with a batch API, e.g. {judge} "
                         "(the offline judge makes no call)")
    base = BatchOptions.model_validate_json(stored) if stored else None
    return (request.batch or BatchOptions()).over(base)


def _checked_routing(routing: RoutingPlan, names: OptionNames) -> str:
    """A routing plan's first judge (the run's), or RunRefused for a judge spec that is
    not one."""
    for spec in routing.judges():
        problem = judge_spec_problem(spec, names.judge)
        if problem is not None:
            raise RunRefused(problem)
    return routing.judges()[0].strip()


def _routed(request: RunRequest, config: RunConfig) -> RunConfig:
    """The run's config with its routing: a new run's plan, a resumed one's with the new
    threshold settings; RunRefused for what a routed run cannot do (Ray)."""
    if request.routing is not None and request.resume is None:
        config = config.model_copy(update={"routing": request.routing})
    if request.rerouting is not None and request.rerouting.given():
        if config.routing is None:
            raise RunRefused("the run was not routed (no --escalate or --jury): its routing "
                             "settings cannot be changed on resume")
        config = config.model_copy(update={"routing": config.routing.updated(
            request.rerouting)})
    if config.routing is not None and isinstance(request.engine, RayOptions):
        raise RunRefused("a routed run (--escalate, --jury, --abstain) runs on the local "
                         "engine: leave out the Ray engine")
    return config


def _checked_judge(request: RunRequest) -> str | None:
    """The judge spec given, stripped (None: not given), or RunRefused saying why not."""
    if request.judge is None:
        return None
    problem = judge_spec_problem(request.judge, request.names.judge)
    if problem is not None:
        raise RunRefused(problem)
    return request.judge.strip()


def _load(request: RunRequest, resumed: RunConfig | None) -> Loaded:
    """The data read and checked; a resume reads it with the run's column and trace maps.
    A live source has none yet (its samples are fed to the run as they come)."""
    source = request.source
    if isinstance(source, LiveSource):
        return Loaded(name=source.name, digest=None, check=None, rows=[])
    if isinstance(source, FileSource):
        if resumed is not None:
            reading = Reading(resumed.field_map, resumed.trace_map,
                              source.skip_invalid or resumed.skip_invalid, resumed.read_as)
        else:
            reading = Reading(source.field_map or {}, source.trace_map or {},
                              source.skip_invalid, source.read_as or "auto")
        return load_file(source, reading, request.names)
    return load_rows(source, request.names)


def _data_notes(request: RunRequest, data: Loaded) -> list[Note]:
    """What the first pass found that the user should know: rows skipped, a set without
    answers evaluated for its retrieval only."""
    check, notes = data.check, []
    if check is None:
        return []
    if check.invalid:
        shown = "; ".join(f"{where}: {reason}" for where, reason in check.first_invalid)
        more = (f"; and {check.invalid - len(check.first_invalid)} more"
                if check.invalid > len(check.first_invalid) else "")
        rows = "row" if check.invalid == 1 else "rows"
        notes.append(Note("skipped", f"skipped {check.invalid} invalid {rows} of "
                          f"{check.total} ({request.names.skip_invalid}; listed in the "
                          f"report's invalid_rows): {shown}{more}"))
    if check.retrieval_only:
        label = data.path.name if data.path is not None else data.name
        notes.append(Note("retrieval-only", f"note: {label}: no row has an answer: "
                          "evaluated as a retrieval-only set (its context metrics are "
                          "scored, its answer metrics unscored: no answer)"))
    for column in check.unknown_columns:
        if lookup(column) is not None:
            notes.append(Note("label-column", f"note: column {column!r} is not read as a "
                              f"human label (kept as metadata): name it labels.{column} to "
                              "compare the judge with it"))
    return notes


def label_notes(check: DatasetCheck | None, suites: Iterable[str]) -> list[Note]:
    """One line per label name of the data that no metric of the run is compared with: a
    warning for a near-miss of the vocabulary (`halucinated`: a typo, its labels would
    be lost without a word), a note for a label of the user's own or a vocabulary label
    whose metrics are not in the run. The report lists the
    same labels as skipped, in the same words (`labels.unlinked_reason`)."""
    if check is None or not check.label_rows:
        return []
    specs = list(all_specs(suites).values())
    notes = spelling_notes(check.label_rows)
    for name, rows in check.label_rows.items():
        if linked_metrics(name, specs):
            continue
        typo = nearest(name) is not None
        notes.append(Note("label-name" if typo else "label-unlinked",
                          f"{'warning' if typo else 'note'}: label {name!r} (on "
                          f"{counted(rows, 'row')}) is {unlinked_reason(name)}"))
    return notes


def _new_config(request: RunRequest, data: Loaded, judge: str | None,
                suites: tuple[str, ...]) -> RunConfig:
    """The config a new run is stored with."""
    source = request.source
    traces: dict[str, list[str]] = {}
    read_as: dict[str, str] = {}
    if isinstance(source, FileSource | LiveSource):
        traces = {role: list(attrs) for role, attrs in (source.trace_map or {}).items()}
    if isinstance(source, FileSource):
        read_as = {"read_as": source.read_as} if source.read_as else {}
    return RunConfig.build(
        data.name, urls=request.endpoints, timeout_s=request.timeout_s, price=request.price,
        judge=judge or "offline", metrics=suites, skip_invalid=source.skip_invalid,
        field_map=dict(source.field_map or {}), trace_map=traces, **read_as,
        **request.settings())


def embedder_note(judge_spec: str, suites: Iterable[str]) -> str | None:
    """The line that says an LLM-judged answer relevancy uses the static table, when the
    transformer (the `embed` extra) is not installed; None otherwise."""
    from ragassay.embed import transformer_available
    from ragassay.embed.local import INSTALL_MODEL

    if is_offline(judge_spec) or not any(s.needs_embedder() for s in get_suites(suites)):
        return None
    if transformer_available():
        return None
    return ("note: answer relevancy compares questions with the static embedding table "
            "(all-MiniLM-L6-v2-static; the report names it); for the transformer: "
            f"pip install 'ragassay[embed]' and {INSTALL_MODEL}")


def spelling_notes(label_rows: Mapping[str, int]) -> list[Note]:
    """One line per label the data writes more than one way (`hallucination` on some rows,
    `hallucinated` or `has_hallucination` on others): every spelling is read as the
    data's first (`report.label_spelling`, as every report names it), one label counted
    once, not one per spelling."""
    spelling = label_spelling(label_rows)
    others: dict[str, list[str]] = {}
    for name in label_rows:
        first = spelling[canonical(name)]
        if name != first:
            others.setdefault(first, []).append(name)
    return [Note("label-spelling", "note: label " + ", ".join(
        f"{n!r} (on {counted(label_rows[n], 'row')})" for n in names)
        + f" read as {first!r} (on {counted(label_rows[first], 'row')}), the data's first "
        f"spelling of {canonical(first)}: one label, counted together")
        for first, names in others.items()]
