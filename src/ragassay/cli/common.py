"""Shared CLI plumbing: one-line errors with exit code 2, clean terminal output, store
opening, and the checks every command applies to judge specs, metric names, `--map`
and `--header` values."""

from __future__ import annotations

import functools
import math
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ragassay.console import CleanConsole, console  # noqa: F401  (the commands import them from here)
from ragassay.store import DEFAULT_DB_PATH, Store, StoreError, StoreUrl, is_url
from ragassay.terminal import clean
from ragassay.text import did_you_mean
from ragassay.types import LabelRule

if TYPE_CHECKING:
    from ragassay.runner import Progress, RunOutcome, RunPlan, RunRequest
    from ragassay.runner.batch_submit import BatchProgress

F = TypeVar("F", bound=Callable[..., Any])

StoreLocation = Path | StoreUrl
"""Where the run store is: a SQLite file, or a PostgreSQL server's URL."""


class StoreLocationType(click.ParamType):
    """`--db`: a SQLite file, or `postgresql://user@host:5432/name` (a `StoreUrl`: shown
    without its password wherever it is printed)."""

    name = "store"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> StoreLocation:
        if isinstance(value, (Path, StoreUrl)):
            return value
        text = str(value)
        if is_url(text):
            return StoreUrl(text)
        if not text.strip():
            self.fail("the run store's location is empty", param, ctx)
        return Path(text)


db_option = click.option("--db", "db", type=StoreLocationType(), envvar="RAGASSAY_DB",
                         default=Path(DEFAULT_DB_PATH), show_default=True,
                         metavar="FILE|URL",
                         help="The run store: a SQLite file, or a PostgreSQL server "
                              "(postgresql://user@host:5432/name; the password from the "
                              "URL, PGPASSWORD or ~/.pgpass, never shown). Default: "
                              "$RAGASSAY_DB, else this file.")

class LabelRuleType(click.ParamType):
    """`--label-rule`: `majority` or `annotator:NAME` (a `LabelRule`)."""

    name = "rule"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> LabelRule:
        if isinstance(value, LabelRule):
            return value
        try:
            return LabelRule.parse(str(value))
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


label_rule_option = click.option(
    "--label-rule", "label_rule", type=LabelRuleType(), default="majority", show_default=True,
    metavar="majority|annotator:NAME",
    help="How several people's labels of one sample become the one value corrected figures "
         "and the judge's agreement with people read: majority (the value most of its "
         "annotators gave; a tie leaves the sample's label out, counted) or one person's "
         "(annotator:NAME). The output names the rule.")

by_option = click.option(
    "--by", "by", default=None, metavar="KEY",
    help="Also break the run down by a metadata key of its samples (kind or metadata.kind): "
         "per value its samples, each metric's mean (a yes/no verdict's rate) with its 95% "
         "interval, and the judge's agreement with people's labels in it; samples without "
         "the key are the group (none). eval's short summary shows only the judge's "
         "agreement per group (without labels, the headline metrics' figures); eval "
         "--verbose and runs show RUN --by KEY every table.")


JUDGE_SPEC_HELP = ("offline (no LLM, the default), offline:accurate (context relevance from "
                   "the transformer embedder; the embed extra; slower), or BACKEND:MODEL for "
                   "an LLM judge, "
                   "e.g. openai:gpt-4o-mini or litellm:anthropic/claude-3-5-haiku-latest")
ratings_option = click.option(
    "--ratings", type=click.Choice(["expected", "greedy"]), default="expected",
    show_default=True,
    help="How an LLM judge's ratings and yes/no verdicts are read: the probability-weighted "
         "value from the token probabilities (when the backend gives them), or the stated one.")


class UsageProblem(click.ClickException):
    """A user error: printed as one line, exit code 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {clean(' '.join(self.message.splitlines()))}", err=True)


class FiniteFloat(click.FloatRange):
    """A float option in a range that also refuses nan and inf (click's range lets nan
    through: every comparison with it is false)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Any:
        rv = super().convert(value, param, ctx)
        if not math.isfinite(rv):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return rv


class FailedRun(UsageProblem):
    """A run that ended but produced nothing usable: one line, exit code 1."""

    exit_code = 1


def say(message: str, *, err: bool = False) -> None:
    """Print one message line through the terminal sanitiser (user text stays text)."""
    click.echo(clean(message), err=err)


def friendly(func: F) -> F:
    """Turn expected failures into one-line errors (exit 2) instead of tracebacks."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        resumable(None)  # a run named by an earlier command of this process is not this one's
        from ragassay.dataset import DatasetError
        from ragassay.embed import EmbedderUnavailable
        from ragassay.extras import MissingExtra
        from ragassay.judge import JudgeAborted, PromptError
        from ragassay.labels import LabelFileError
        from ragassay.llm import BackendError
        from ragassay.metrics import UnknownSuiteError
        from ragassay.routing import RoutingError
        from ragassay.stats import UnknownGroupKey

        try:
            return func(*args, **kwargs)
        except (DatasetError, StoreError, PromptError, UnknownSuiteError, MissingExtra,
                EmbedderUnavailable, LabelFileError, RoutingError, UnknownGroupKey) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise UsageProblem(first) from None
        except BackendError as exc:
            raise UsageProblem(exc.stop or exc.reason) from None
        except JudgeAborted as exc:
            raise UsageProblem(f"{exc.reason}; finished judgments are saved: fix the cause "
                               f"and continue with --resume {_resumable or 'RUN'}") from None
        except KeyboardInterrupt:
            what = "terminated" if _terminated else "interrupted"
            run = f" {_resumable}" if _resumable else ""
            say(f"{what}: finished judgments are saved; continue with --resume{run}", err=True)
            sys.exit(143 if what == "terminated" else 130)

    return wrapper  # type: ignore[return-value]


_terminated = False
_resumable: str | None = None  # the run a stopped command can be resumed as, once known


def resumable(run_id: str | None) -> None:
    """Name the run that a stop (Ctrl-C, SIGTERM, an aborted judge) leaves to resume."""
    global _resumable
    _resumable = run_id


@contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """While the body runs, SIGTERM stops it the way Ctrl-C does.

    The signal is handed to the current SIGINT handler: inside `asyncio.run` that
    cancels the run's main task, so the runner marks the run `interrupted` and
    keeps every finished judgment, exactly as for Ctrl-C; elsewhere it raises
    KeyboardInterrupt. `friendly` then exits 143 (128 + SIGTERM) instead of 130.
    """
    global _terminated
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:  # someone else's handler
        yield
        return

    def on_term(signum: int, frame: Any) -> None:
        global _terminated
        _terminated = True
        handler = signal.getsignal(signal.SIGINT)
        if callable(handler):
            handler(signal.SIGINT, frame)
        else:
            # SIGINT ignored (a background job of a non-interactive shell): raise what
            # Ctrl-C would, which the runners (the Ray driver too) already handle;
            # `_terminated` makes `friendly` say "terminated" and exit 143
            raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, on_term)
    except ValueError:  # not the main thread: nothing to install
        yield
        return
    _terminated = False
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def planned(request: RunRequest) -> RunPlan:
    """The run session's plan of a request; a refused run (a resume that would mix two
    runs, a setting that cannot work) is one line."""
    from ragassay.runner import RunRefused, plan_run

    try:
        return plan_run(request)
    except RunRefused as exc:
        raise UsageProblem(str(exc)) from None


def executed(plan: RunPlan, progress: Progress | None = None,
             batch_progress: BatchProgress | None = None) -> RunOutcome:
    """Run a plan (`runner.execute`); a Ray or batch setup problem is one line."""
    from ragassay.runner import RayEngineError, execute
    from ragassay.runner.batch_engine import BatchSetupError

    try:
        return execute(plan, progress, batch_progress)
    except (RayEngineError, BatchSetupError) as exc:
        raise UsageProblem(str(exc)) from None


def open_store(db: StoreLocation, *, readonly: bool = False) -> Store:
    """The run store; when a read command ends, one note names the runs it read whose
    config has fields this version does not know (shown without them; a write command
    refuses such a run in its own line)."""
    if readonly and isinstance(db, Path) and not db.exists():
        raise UsageProblem(f"no run store at {db} (run `ragassay eval` first, or pass --db)")
    store = Store(db, readonly=readonly)
    ctx = click.get_current_context(silent=True)
    if ctx is not None and readonly:
        ctx.call_on_close(lambda: _note_unknown_configs(store))
    return store


def _note_unknown_configs(store: Store) -> None:
    runs = store.unknown_configs
    if not runs:
        return
    fields = "; ".join(f"{run}: {', '.join(names)}" for run, names in runs.items())
    which = "run was" if len(runs) == 1 else f"{len(runs)} runs were"
    say(f"note: {which} written by a newer ragassay (config fields this version does not "
        f"know: {fields}): shown without them; writing to "
        f"{'it' if len(runs) == 1 else 'them'} is refused", err=True)


# --- checks shared by the commands ----------------------------------------------------

PARQUET_PARTS = "part-*.parquet"
"""The files a Parquet results folder gets (and loses: stale parts are removed)."""


def refuse_overwrites(outputs: Iterable[tuple[str, Path | str | None]], *,
                      db: StoreLocation | None = None,
                      inputs: Iterable[tuple[str, Path | str | None]] = (),
                      folders: Iterable[tuple[str, Path | None]] = ()) -> None:
    """The one check every command that writes a file makes before it starts: no output
    (`(option, path)`; a folder of Parquet parts in `folders`) may be the run store at
    `db` or one of its SQLite files (-wal, -shm, -journal), an input (`(what, path)`),
    or another output. Compared by resolved path and by inode (`files.replaced_input`);
    a clash is one line, exit 2, before anything is read, judged or written."""
    from ragassay.files import STORE_COMPANIONS, replaced_input, store_files

    protected: list[tuple[str, Path | str]] = []
    if isinstance(db, Path):  # a PostgreSQL store has no file here
        protected += [(f"the run store's {s[1:]} file ({f})" if s else f"the run store ({f})",
                       f) for s, f in zip(STORE_COMPANIONS, store_files(db), strict=True)]
    protected += [(what, path) for what, path in inputs if path is not None]
    for option, path, parts in ([(o, p, None) for o, p in outputs]
                                + [(o, p, PARQUET_PARTS) for o, p in folders]):
        if path is None:
            continue
        hit = replaced_input(path, protected, parts)
        if hit is not None:
            raise UsageProblem(f"{option} {clean(str(path))} would overwrite {clean(hit)}: "
                               "write it elsewhere")
        protected.append((f"the output of {option}", path))


def check_judge_spec(spec: str) -> str:
    """The judge spec, stripped, or UsageProblem saying what is wrong and what to type."""
    from ragassay.judge.spec import judge_spec_problem

    problem = judge_spec_problem(spec, "--judge")
    if problem is not None:
        raise UsageProblem(problem)
    return (spec or "").strip()


def check_spec(option: str) -> Callable[[str], str]:
    """`check_judge_spec` for another option (`--escalate`, `--jury`), named in its line."""
    def check(spec: str) -> str:
        from ragassay.judge.spec import judge_spec_problem

        problem = judge_spec_problem(spec, option)
        if problem is not None:
            raise UsageProblem(problem)
        return (spec or "").strip()
    return check


def run_or_latest(store: Store, run_id: str | None) -> str:
    """The run named (its full id), else the store's latest; one line when it has none."""
    if run_id:
        return str(store.get_run(run_id).id)
    run = store.latest_run()
    if run is None:
        raise UsageProblem("the store has no runs yet (run `ragassay eval` first)")
    return str(run.id)


def check_metric_names(names: Iterable[str], known: Sequence[str], *, what: str) -> list[str]:
    """The names, each a known metric, or UsageProblem naming the first unknown one, the
    closest known name and the list of known ones (`what` says where names come from).

    The one rule for every command that takes a metric name (`trend --metric`, `gate`
    thresholds, `calibrate --link`, the bench's `rank_by`).
    """
    out = list(dict.fromkeys(names))
    for name in out:
        if name not in known:
            raise UsageProblem(f"{what}: unknown metric {name!r}{did_you_mean(name, known)}; "
                               f"known metrics: "
                               f"{', '.join(known) or 'none'}")
    return out


def known_metrics(*present: Iterable[str]) -> list[str]:
    """Every metric a name may refer to: those declared by the installed suites, then
    any others present in the given runs (an older or plugin suite)."""
    from ragassay.metrics import all_specs, available

    names = list(all_specs(available()))
    for group in present:
        names += [m for m in group if m not in names]
    return names


def parse_pairs(values: Sequence[str], option: str, *, syntax: str,
                unique: bool = True) -> list[tuple[str, str]]:
    """`NAME=VALUE` option values as pairs; UsageProblem for a malformed one, or (with
    `unique`) a name given twice."""
    out: list[tuple[str, str]] = []
    for item in values:
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise UsageProblem(f"{option} {clean(item)!r}: expected {syntax}")
        if unique and any(name == seen for seen, _ in out):
            raise UsageProblem(f"{option} {clean(name)!r} is given twice")
        out.append((name, value))
    return out


def field_map(values: Sequence[str]) -> dict[str, str]:
    """`--map FIELD=COLUMN` values, checked against the dataset's field names."""
    from ragassay.dataset import DatasetError, check_field_map

    mapping = dict(parse_pairs(values, "--map",
                               syntax="FIELD=COLUMN, e.g. answer=generated_answer"))
    try:
        return check_field_map(mapping)
    except DatasetError as exc:
        raise UsageProblem(f"--map: {exc}") from None


def trace_map(values: Sequence[str]) -> dict[str, list[str]]:
    """`--trace-map ROLE=ATTR[,ATTR...]` values, checked against the trace roles."""
    from ragassay.dataset.traces import parse_trace_map

    pairs = parse_pairs(values, "--trace-map", syntax="ROLE=ATTR[,ATTR...], e.g. "
                        "question=my.input")
    try:
        return parse_trace_map([f"{role}={attrs}" for role, attrs in pairs])
    except ValueError as exc:
        raise UsageProblem(f"--trace-map: {exc}") from None


export_otlp_option = click.option(
    "--export-otlp", "export_otlp", default=None, metavar="FILE|URL",
    help="Send each judged sample's scores back as OpenTelemetry evaluation spans linked "
         "to its source trace (samples read from a trace file): a FILE gets OTLP JSON (no "
         "collector needed), an http(s) URL an OTLP/HTTP JSON export, e.g. "
         "http://127.0.0.1:4318/v1/traces (headers from OTEL_EXPORTER_OTLP_HEADERS). "
         "docs/traces.md.")


def otlp_file(target: str | None) -> Path | None:
    """The file `--export-otlp` writes: None for no export or an http(s) URL; one line
    (exit 2) for a target that is neither (`grpc://...`, `host:4318/v1/traces`)."""
    from ragassay.report.otlp import ExportError, target_url

    if target is None:
        return None
    try:
        return None if target_url(target) else Path(target)
    except ExportError as exc:
        raise UsageProblem(f"--export-otlp {clean(target)}: {exc}") from None


def export_scores(store: Store, run_id: str, target: str, quiet: bool = False) -> None:
    """Export a run's scores as OTLP (`report.otlp`); a refused export is one line, exit 1
    (the run stays stored: `ragassay report RUN --export-otlp` sends it again)."""
    from ragassay.report import iter_details
    from ragassay.report.otlp import ExportError, export_otlp, is_url
    from ragassay.urls import redact_url

    try:
        done = export_otlp(iter_details(store, run_id), run_id, target)
    except ExportError as exc:
        raise FailedRun(f"--export-otlp: {exc} (run {run_id} is stored: send it again with "
                        f"ragassay report {run_id} --export-otlp TARGET)") from None
    if done.untraced:
        say(f"--export-otlp: {done.untraced} sample{'s' if done.untraced != 1 else ''} "
            "not read from a trace left out (nothing to link them to)", err=True)
    if not quiet:
        where = f"sent to {redact_url(target)}" if is_url(target) else f"written to {target}"
        say(f"scores of {done.samples} traced samples ({done.spans} spans) {where} (OTLP)",
            err=True)


trace_map_option = click.option(
    "--trace-map", "trace_map_given", multiple=True, metavar="ROLE=ATTR[,ATTR...]",
    help="For a trace file: read these span attributes first for a role, e.g. --trace-map "
         "question=app.user_query (repeatable; roles: kind, question, answer, query, "
         "documents, strategy, reference; docs/traces.md).")

map_option = click.option(
    "--map", "mapping_given", multiple=True, metavar="FIELD=COLUMN",
    help="Read a field from a column of another name, e.g. --map answer=generated_answer "
         "--map contexts=retrieved_docs (repeatable; fields: question, contexts, answer, "
         "reference, id, strategy, labels, metadata).")

header_option = click.option(
    "--header", "headers_given", multiple=True, metavar="NAME=VALUE",
    help="Extra HTTP header for every judge request, e.g. for a gateway or Azure "
         "(repeatable). Values are sent, never stored or printed.")


def headers(values: Sequence[str]) -> dict[str, str]:
    """`--header NAME=VALUE` values; names must be valid HTTP header names."""
    out = dict(parse_pairs(values, "--header", syntax="NAME=VALUE, e.g. api-key=..."))
    for name in out:
        if not name.replace("-", "").replace("_", "").isalnum() or not name.isascii():
            raise UsageProblem(f"--header {clean(name)!r}: not a valid header name")
    return out


def check_base_url(url: str | None, option: str = "--base-url") -> str | None:
    """Refuse a URL that carries credentials (userinfo, a key or token in the query)."""
    from ragassay.urls import base_url_problem

    problem = base_url_problem(url, option)
    if problem is not None:
        raise UsageProblem(problem)
    return url


def top_reasons(reasons: Mapping[str, int], limit: int = 3) -> str:
    """`no contexts (12), empty answer (3)`: the most frequent reasons first."""
    ordered = sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    return ", ".join(f"{r} ({n})" for r, n in ordered)
