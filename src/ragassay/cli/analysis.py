"""Commands that read runs: report, compare, calibrate, gate, meta-eval."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.markup import escape
from rich.table import Table

from ragassay.cli.app import cli, write_report, write_text
from ragassay.cli.common import (
    FiniteFloat,
    StoreLocation,
    UsageProblem,
    check_metric_names,
    console,
    db_option,
    export_otlp_option,
    export_scores,
    friendly,
    known_metrics,
    open_store,
    say,
)
from ragassay.cli.fmt import ci_text, num

if TYPE_CHECKING:
    from ragassay.report import Format
    from ragassay.stats import Comparison, GateResult, ScoreTable, TrendPoint
    from ragassay.store import RunRecord, Store
    from ragassay.types import MetricSpec


@cli.command("report")
@click.argument("run_id", metavar="RUN", required=False)
@click.option("--format", "fmt", type=click.Choice(["json", "csv", "html"]), default="json",
              show_default=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Output file (default: stdout).")
@click.option("--schema", "show_schema", is_flag=True,
              help="Print the JSON Schema of the JSON report (its report_version) instead.")
@export_otlp_option
@db_option
@friendly
def report_cmd(run_id: str | None, fmt: Format, out: Path | None, show_schema: bool,
               export_otlp: str | None, db: StoreLocation) -> None:
    """Export a run (the latest when RUN is omitted) as JSON, CSV or HTML; with
    --export-otlp, its scores as OpenTelemetry spans instead."""
    from ragassay.report import build_report, export, iter_details, schema
    from ragassay.terminal import CleanWriter

    if show_schema:
        text = json.dumps(schema(), indent=2) + "\n"
        if out is None:
            click.echo(text, nl=False)
        else:
            write_text(out, text, what="schema ")
        return
    store = open_store(db, readonly=True)
    run_id = run_id or _latest(store)
    if export_otlp:
        export_scores(store, run_id, export_otlp)
        return
    # JSON and CSV stream the per-sample entries (never whole in memory); HTML draws them
    report = build_report(store, run_id, include_details=fmt == "html")
    details = None if fmt == "html" else iter_details(store, run_id)
    if out is not None:
        write_report(report, out, fmt, details)
        return
    # printed to a terminal (not redirected), user text is shown, never obeyed
    stdout: Any = CleanWriter(sys.stdout) if sys.stdout.isatty() else sys.stdout
    export(report, fmt, stdout, details)
    if fmt == "json":
        click.echo()
    stdout.flush()


def _latest(store: Store) -> str:
    run = store.latest_run()
    if run is None:
        raise UsageProblem("the store has no runs yet (run `ragassay eval` first)")
    return str(run.id)


def _table_for(store: Store, run_id: str) -> ScoreTable:
    from ragassay.report import run_table

    return run_table(store, run_id).table


CI_COLUMN = "95% CI of B - A (unadjusted)"
P_COLUMN = "p (Holm-adjusted)"


def _print_comparison(result: Comparison, title: str) -> None:
    t = Table(title=escape(title))
    for col in ("metric", "A", "B", "B - A", CI_COLUMN, P_COLUMN, "verdict"):
        t.add_column(col, justify="left" if col in ("metric", "verdict") else "right")
    for metric, r in result.metrics.items():
        style = {"better": "green", "worse": "red"}.get(r.verdict, "")
        t.add_row(metric, num(r.mean_a), num(r.mean_b), num(r.diff),
                  ci_text((r.ci_low, r.ci_high)), num(r.p_adjusted, 4),
                  f"[{style}]{r.verdict}[/{style}]" if style else str(r.verdict))
    console().print(t)
    m = sum(r.p_adjusted is not None for r in result.metrics.values())
    say(f"paired samples: {result.paired_samples} (paired by {result.paired_by})")
    say(f"verdict: better or worse only when the Holm-adjusted Wilcoxon p (adjusted over "
        f"{m} metrics) is below alpha {result.alpha} and the per-metric 95% CI of B - A "
        "excludes 0; the intervals are not adjusted for multiple metrics")


def _refuse_unpaired(result: Comparison, what: str) -> None:
    if not result.paired_samples:
        raise UsageProblem(f"{what}: no paired samples (paired by "
                           f"{result.paired_by}), so nothing can be compared")


@cli.command("compare", help="Paired comparison of two runs, or of two strategies within a "
             "run. Verdicts use Holm-adjusted p-values across metrics; the intervals shown "
             "are per-metric (unadjusted), labelled so. Refused when no sample pairs.")
@click.argument("run_a", metavar="RUN_A")
@click.argument("run_b", metavar="RUN_B", required=False)
@click.option("--strategy", "strategies", multiple=True,
              help="Compare two strategies (give it twice); within RUN_A when RUN_B is omitted.")
@click.option("--alpha", type=FiniteFloat(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="Significance level of a verdict, in (0, 1).")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
@db_option
@friendly
def compare_cmd(run_a: str, run_b: str | None, strategies: tuple[str, ...], alpha: float,
                as_json: bool, db: StoreLocation) -> None:
    from ragassay.stats import CompareOptions, compare_strategies, compare_tables

    store = open_store(db, readonly=True)
    options = CompareOptions(alpha=alpha)
    table_a = _table_for(store, store.get_run(run_a).id)
    if run_b is None:
        if len(strategies) != 2:
            raise UsageProblem("give RUN_B, or two --strategy options to compare within RUN_A")
        for s in strategies:
            if s not in table_a.strategies:
                raise UsageProblem(f"no strategy {s!r} in run {run_a}; it has "
                                   f"{', '.join(table_a.strategies)}")
        result = compare_strategies(table_a, strategies[0], strategies[1], options)
        _refuse_unpaired(result, f"strategies {strategies[0]!r} and {strategies[1]!r} of run "
                                 f"{run_a} answer no common question")
        title = f"{strategies[1]} (B) vs {strategies[0]} (A)"
    else:
        table_b = _table_for(store, store.get_run(run_b).id)
        if strategies:
            table_a = table_a.for_strategy(strategies[0])
            table_b = table_b.for_strategy(strategies[-1])
        result = compare_tables(table_a, table_b, options)
        run_a_rec, run_b_rec = store.get_run(run_a), store.get_run(run_b)
        _refuse_unpaired(result, f"runs {run_a_rec.id} ({run_a_rec.dataset}) and {run_b_rec.id} "
                                 f"({run_b_rec.dataset}) share no sample")
        title = f"run {run_b} (B) vs run {run_a} (A)"
    if as_json:
        click.echo(json.dumps({**result.model_dump(),
                               "intervals": "per metric, not adjusted for multiple comparisons",
                               "p_adjustment": "holm"}, indent=2, allow_nan=False))
    else:
        _print_comparison(result, title)


def _config(config_path: Path | None) -> tuple[Path | None, str]:
    """The gate config to read (--config, else ./ragassay.toml) and how it was found."""
    if config_path is None and Path("ragassay.toml").exists():
        return Path("ragassay.toml"), "found in the current folder"
    return config_path, "--config"


def _thresholds(config_path: Path | None, table: ScoreTable, *, optional: bool = False
                ) -> tuple[dict[str, float], str]:
    """The thresholds to apply and where they come from (said on the console); with
    `optional` (a corrected gate, which may check labels only) none is no error."""
    from ragassay.stats import (
        ThresholdsError,
        default_thresholds,
        load_thresholds,
        threshold_out_of_range,
    )

    config_path, source = _config(config_path)
    if config_path is not None:
        if not config_path.exists():
            raise UsageProblem(f"{config_path}: no such file")
        try:
            thresholds = load_thresholds(config_path)
        except ThresholdsError as exc:
            raise UsageProblem(str(exc)) from None
        if not thresholds and not optional:
            raise UsageProblem(f"{config_path}: no [thresholds] table")
        from ragassay.stats.abstention import RATE_NAMES

        check_metric_names(thresholds, known_metrics(table.metrics, RATE_NAMES),
                           what=f"{config_path} [thresholds]")
        problem = threshold_out_of_range(thresholds, table.specs)
        if problem:
            raise UsageProblem(f"{config_path} [thresholds]: {problem}")
        return thresholds, f"thresholds from {config_path} ({source})"
    thresholds = default_thresholds(table.specs)
    if not thresholds and optional:
        return {}, "no metric thresholds"
    if not thresholds:
        raise UsageProblem("no --config, no ./ragassay.toml, and no metric of this run declares "
                           "a default threshold; pass --config with a [thresholds] table")
    return thresholds, (f"no --config and no ./ragassay.toml: applying the default thresholds "
                        f"the run's metrics declare, their targets: "
                        f"{default_bars_text(table.specs, thresholds)}; set your own in a "
                        f"[thresholds] table")


def default_bars_text(specs: Mapping[str, MetricSpec], thresholds: dict[str, float]) -> str:
    """`ragas.faithfulness >= 0.9, ...`: the default bars, each one that is not its metric's
    target said so (a bar declared as a number: a run stored before the gate took its bars
    from the targets, or a suite of a user's)."""
    from ragassay.stats import target_for

    out = []
    for m, v in thresholds.items():
        spec = specs[m]
        line = f"{m} {'>=' if spec.higher_is_better else '<='} {v:g}"
        good = target_for(spec).good
        if abs(good - v) > 1e-9 * max(1.0, abs(v)):
            line += f" (the run's declared bar, apart from its target {good:g})"
        out.append(line)
    return ", ".join(out)


@cli.command("gate")
@click.argument("run_id", metavar="RUN", required=False)
@click.option("--config", "config_path", type=click.Path(path_type=Path), default=None,
              help="TOML with a [thresholds] table (default: ./ragassay.toml if present, "
                   "else the built-in defaults, which the command names).")
@click.option("--strict", is_flag=True, help="Test the lower 95% confidence bound, not the mean.")
@click.option("--corrected", is_flag=True,
              help="Decide each check on the corrected 95% interval of the human label linked "
                   "to its metric (a config's [corrected] table turns this on and sets label "
                   "thresholds); checks without enough labels fall back to the judge's values.")
@click.option("--require-labels", is_flag=True,
              help="Fail a [corrected] label threshold that cannot be checked (too few labels, "
                   "or no linked metric in the run) instead of showing it NOT CHECKED.")
@db_option
@friendly
def gate_cmd(run_id: str | None, config_path: Path | None, strict: bool, corrected: bool,
             require_labels: bool, db: StoreLocation) -> None:
    """PASS/FAIL per metric against thresholds; exit 1 when NOT READY.

    Says which thresholds it applied and where they come from (--config, ./ragassay.toml,
    or the built-in defaults); an unknown metric name in a thresholds file is refused.
    A run that is not complete (interrupted, failed, still running) is NOT READY.
    """
    from ragassay.judge import gate_warnings
    from ragassay.stats import gate

    store = open_store(db, readonly=True)
    run_id = store.get_run(run_id).id if run_id else _latest(store)
    table = _table_for(store, run_id)
    labels = _label_thresholds(config_path, table.label_names)
    corrected = corrected or labels is not None or require_labels
    thresholds, source = _thresholds(config_path, table, optional=corrected)
    say(source, err=True)
    run = store.get_run(run_id)
    unfinished = run.status != "complete"  # its figures are of the samples judged so far
    if unfinished:
        finish = ("rerun the bench" if run.config.kind == "bench" else
                  f"finish it with ragassay eval {run.config.dataset} --resume {run_id}")
        say(f"warning: run {run_id} is {run.status}, not complete: the gate does not pass it "
            f"({finish})", err=True)
    result = (_corrected_gate(store, run_id, table, thresholds, labels, strict, require_labels)
              if corrected else gate(table, thresholds, strict=strict))
    by_people = {c.metric for c in result.checks if c.label is not None}
    judged = [m for m in thresholds if m not in by_people]  # decided on the judge's values
    for line in gate_warnings(run.meta.reliability, judged):
        say(line, err=True)
    bound = (" (human labels' corrected 95% bounds where linked)" if corrected
             else " (lower 95% bound)" if strict else "")
    t = Table(title=f"gate for run {run_id}{bound}")
    for c in ("metric", "threshold", "value", "result"):
        t.add_column(c)
    colour = {"PASS": "green", "FAIL": "red", "NOT CHECKED": "yellow"}
    for check in result.checks:
        status = f"[{colour[check.status]}]{check.status}[/{colour[check.status]}]"
        name = " -> ".join(x for x in (check.metric, check.label and f"people's {check.label}")
                           if x)
        t.add_row(escape(name), num(check.threshold), num(check.value),
                  status + (f" ({escape(check.reason)})" if check.reason else ""))
    console().print(t)
    ready = result.ready and not unfinished
    nothing = not any(c.status != "NOT CHECKED" for c in result.checks)
    say("READY" if ready else f"NOT READY (run {run.status})" if unfinished
        else "NOT READY (nothing was checked)" if nothing else "NOT READY")
    if not ready:
        raise SystemExit(1)


def _label_thresholds(config_path: Path | None, present: Sequence[str]
                      ) -> dict[str, float] | None:
    """The config's [corrected] table (None when it has none); UsageProblem for a label
    that is neither the vocabulary's nor the run's, or a threshold off its label's scale."""
    from ragassay.stats import ThresholdsError
    from ragassay.stats.gate_corrected import label_threshold_problem, load_corrected_thresholds

    path, _ = _config(config_path)
    if path is None or not path.exists():
        return None
    try:
        labels = load_corrected_thresholds(path)
    except ThresholdsError as exc:
        raise UsageProblem(str(exc)) from None
    problem = label_threshold_problem(labels or {}, present)
    if problem:
        raise UsageProblem(f"{path} [corrected]: {problem}")
    return labels


def _corrected_gate(store: Store, run_id: str, table: ScoreTable,
                    thresholds: dict[str, float], labels: dict[str, float] | None,
                    strict: bool, require_labels: bool) -> GateResult:
    """The gate on corrected intervals, its fall-backs said one line each."""
    from ragassay.report import corrected_for
    from ragassay.stats.gate_corrected import default_label_thresholds, gate_corrected

    cor = corrected_for(store, run_id)
    given = labels or ({} if thresholds else default_label_thresholds(cor))
    if not thresholds and not given:
        raise UsageProblem("nothing to gate: no metric thresholds, and no human label with "
                           f"enough labels for a corrected estimate (at least {cor.min_labels}"
                           "; see ragassay labels import)")
    out = gate_corrected(table, thresholds, cor, given, strict=strict,
                         require_labels=require_labels)
    for note in out.notes:
        say(note, err=True)
    return out.result


def _trend_runs(store: Store, dataset: str) -> tuple[list[RunRecord], str | None]:
    """Complete runs of one dataset, oldest first, and the file's content hash.

    A run belongs when it judged the same content (its dataset hash equals the file's,
    however the path was typed), or the same file in another version (the path it
    recorded resolves to this file), or the same content as one of those runs (a copy
    of an earlier version); when DATASET is not a file here, a file of that name.
    """
    from ragassay.dataset import dataset_fingerprint

    path = Path(dataset)
    is_file = path.is_file()
    digest = dataset_fingerprint(path) if is_file else None
    target = str(path.resolve()) if is_file else None
    complete = [r for r in store.list_runs() if r.status == "complete"]

    def direct(r: RunRecord) -> bool:
        recorded = r.meta.dataset_path or str(Path(r.dataset).resolve())
        if is_file:
            return (digest is not None and r.dataset_hash == digest) or recorded == target
        return r.dataset == dataset or Path(r.dataset).name == path.name

    members = [r for r in complete if direct(r)]
    hashes = {r.dataset_hash for r in members if r.dataset_hash}
    chosen = [r for r in complete if r in members or r.dataset_hash in hashes]
    chosen.sort(key=lambda r: (r.created, r.id))
    return chosen, digest


def _changes(points: list[TrendPoint], runs: list[Any]) -> list[tuple[str | None, bool]]:
    """Each point's dataset hash, and whether it differs from the previous point's."""
    hashes = {r.id: r.dataset_hash for r in runs}
    out: list[tuple[str | None, bool]] = []
    for i, p in enumerate(points):
        h = hashes.get(p.run_id)
        out.append((h, i > 0 and h != out[-1][0]))
    return out


@cli.command("trend")
@click.argument("dataset")
@click.option("--metric", "metrics", multiple=True,
              help="Metric(s) to follow (default: every metric of the runs); an unknown "
                   "name is refused with the list of known ones.")
@click.option("--json", "as_json", is_flag=True)
@db_option
@friendly
def trend_cmd(dataset: str, metrics: tuple[str, ...], as_json: bool, db: StoreLocation) -> None:
    """A metric's mean (with 95% CI) over successive runs of the same dataset.

    Runs are grouped by the dataset's content (its hash), however its path was typed,
    together with earlier versions of the same file; a point whose dataset content
    changed since the previous point is marked.
    """
    from ragassay.stats import trends

    store = open_store(db, readonly=True)
    runs, digest = _trend_runs(store, dataset)
    if not runs:
        raise UsageProblem(f"no complete run of dataset {dataset!r} in {db}")
    tables = [(r.id, r.created, _table_for(store, r.id)) for r in runs]
    present = list(dict.fromkeys(m for _, _, t in tables for m in t.metrics))
    chosen = check_metric_names(metrics, present, what="--metric") if metrics else None
    result = trends(tables, chosen)
    marks = {m: _changes(points, runs) for m, points in result.items()}
    if as_json:
        click.echo(json.dumps({m: [{**p.model_dump(), "dataset_hash": h, "dataset_changed": c}
                                   for p, (h, c) in zip(points, marks[m], strict=True)]
                               for m, points in result.items()}, indent=2, allow_nan=False))
        return
    changes = sum(c for _, c in next(iter(marks.values()), []))
    say(f"{Path(dataset).name}: {len(runs)} complete runs"
        + (f" (content {digest[:12]})" if digest else "")
        + (f"; the dataset changed at {changes} point(s), marked 'changed'" if changes else ""))
    for metric, points in result.items():
        t = Table(title=escape(metric))
        for col in ("run", "created", "mean", "95% CI", "change", "n", "dataset"):
            t.add_column(col)
        for p, (digest_of, changed) in zip(points, marks[metric], strict=True):
            data = (digest_of or "?")[:12] + (" changed" if changed else "")
            t.add_row(p.run_id, p.created, num(p.mean), ci_text((p.ci_low, p.ci_high), p.count),
                      num(p.delta), str(p.count), data)
        console().print(t)
