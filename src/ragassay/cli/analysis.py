"""Commands that read runs: report, compare, calibrate, gate, meta-eval."""

from __future__ import annotations

import json
import sys
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.markup import escape
from rich.table import Table

from ragassay.cli.app import cli, metadata_note, write_report, write_text
from ragassay.cli.common import (
    StoreLocation,
    UsageProblem,
    by_option,
    check_metric_names,
    console,
    db_option,
    export_otlp_option,
    export_scores,
    friendly,
    known_metrics,
    label_rule_option,
    open_store,
    otlp_file,
    refuse_overwrites,
    run_or_latest,
    say,
)
from ragassay.cli.fmt import ci_text, created_text, num
from ragassay.cli.gate_guide import (
    agreement_in_run,
    judge_check_first,
    row_figures,
    say_guidance,
)
from ragassay.terminal import counted

if TYPE_CHECKING:
    from ragassay.report import Format
    from ragassay.stats import GateResult, ScoreTable
    from ragassay.store import Store
    from ragassay.types import LabelRule, MetricSpec


@cli.command("report")
@click.argument("run_id", metavar="[RUN]", required=False)
@click.option("--format", "fmt", type=click.Choice(["json", "csv", "html", "parquet"]),
              default="json", show_default=True,
              help="parquet: the CSV's rows as a folder of part files (needs --out FOLDER).")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Output file, or folder for parquet (default: stdout).")
@click.option("--schema", "show_schema", is_flag=True,
              help="Print the JSON Schema of the JSON report (its report_version) instead.")
@by_option
@export_otlp_option
@label_rule_option
@db_option
@friendly
def report_cmd(run_id: str | None, fmt: Format, out: Path | None, show_schema: bool,
               by: str | None, export_otlp: str | None, label_rule: LabelRule,
               db: StoreLocation) -> None:
    """Export a run (the latest when RUN is omitted) as JSON, CSV, HTML or Parquet (a
    folder, as `export(report, "parquet", FOLDER)` and `eval --results-parquet`); with --by KEY,
    the JSON's `groups` and the HTML's section hold the run by a metadata key (`ragassay
    runs show RUN --by KEY` prints it); with --export-otlp, its scores as OpenTelemetry
    spans instead."""
    from ragassay.report import build_report, export, iter_details, schema
    from ragassay.terminal import CleanWriter

    if by is not None and (fmt in ("csv", "parquet") or export_otlp or show_schema):
        raise UsageProblem(f"--by {by} breaks the JSON or HTML report down: the CSV has each "
                           f"sample's metadata.<key> columns to group by, --export-otlp and "
                           f"--schema no figures")
    folder = fmt == "parquet" and not show_schema and not export_otlp
    if folder and out is None:
        raise UsageProblem("--format parquet writes a folder of part files: give --out "
                           "FOLDER (e.g. ragassay report RUN --format parquet --out results/)")
    if out is not None and not folder and out.is_dir():
        raise UsageProblem(f"--out {out} is a folder; give a file name")
    refuse_overwrites([("--out", None if folder else out),
                       ("--export-otlp", otlp_file(export_otlp))], db=db,
                      folders=[("--out", out if folder else None)])
    if show_schema:
        text = json.dumps(schema(), indent=2) + "\n"
        if out is None:
            click.echo(text, nl=False)
        else:
            write_text(out, text, what="schema ")
        return
    store = open_store(db, readonly=True)
    run_id = run_or_latest(store, run_id)
    if export_otlp:
        export_scores(store, run_id, export_otlp)
        return
    # JSON and CSV stream the per-sample entries (never whole in memory); HTML draws them
    # (and needs no metadata keys: it has no per-sample table)
    report = build_report(store, run_id, include_details=fmt == "html", rule=label_rule,
                          per_sample=fmt != "html", by=by)
    details = None if fmt == "html" else iter_details(store, run_id, label_rule)
    if out is not None:
        write_report(report, out, fmt, details)
        say(f"{fmt.upper()} report of run {run_id} written to {out}", err=True)
        return
    # printed to a terminal (not redirected), user text is shown, never obeyed
    stdout: Any = CleanWriter(sys.stdout) if sys.stdout.isatty() else sys.stdout
    export(report, fmt, stdout, details)
    if fmt == "json":
        click.echo()
    stdout.flush()
    metadata_note(report, fmt)


def _table_for(store: Store, run_id: str, rule: LabelRule | None = None) -> ScoreTable:
    from ragassay.report import run_table

    return run_table(store, run_id, rule=rule).table


def _config(config_path: Path | None) -> tuple[Path | None, str]:
    """The gate config to read (--config, else ./ragassay.toml) and how it was found."""
    if config_path is None and Path("ragassay.toml").exists():
        return Path("ragassay.toml"), "found in the current folder"
    return config_path, "--config"


def _thresholds(config_path: Path | None, table: ScoreTable, *, optional: bool = False
                ) -> tuple[dict[str, float], str, bool]:
    """The thresholds to apply, where they come from (said on the console) and whether
    they are the defaults. A config's [thresholds] bars are the ones gated; a config
    without bars (no [thresholds] table, or an empty one: a [corrected]-only config) keeps
    every default bar, its [corrected] rows come on top. With `optional` (a corrected
    gate, which may check labels only) a run without default bars is no error."""
    from ragassay.stats import (
        ThresholdsError,
        default_thresholds,
        load_thresholds,
        threshold_out_of_range,
    )

    config_path, source = _config(config_path)
    where = "no --config and no ./ragassay.toml"
    if config_path is not None:
        if not config_path.exists():
            raise UsageProblem(f"{config_path}: no such file")
        try:
            thresholds = load_thresholds(config_path)
        except ThresholdsError as exc:
            raise UsageProblem(str(exc)) from None
        if thresholds:
            from ragassay.stats.abstention import RATE_NAMES

            check_metric_names(thresholds, known_metrics(table.metrics, RATE_NAMES),
                               what=f"{config_path} [thresholds]")
            problem = threshold_out_of_range(thresholds, table.specs)
            if problem:
                raise UsageProblem(f"{config_path} [thresholds]: {problem}")
            return thresholds, f"thresholds from {config_path} ({source})", False
        where = f"{config_path} ({source}) sets no [thresholds] bar"
    thresholds = default_thresholds(table.specs)
    if not thresholds and optional:
        return {}, f"{where}, and the run has no metric values: no metric thresholds", True
    if not thresholds:
        raise UsageProblem("nothing to gate: the run has no metric values; pass --config "
                           "with a [thresholds] table")
    return thresholds, (f"{where}: applying every metric's default "
                        f"threshold, the target the report shows: "
                        f"{default_bars_text(table.specs, thresholds)}; set your own in a "
                        f"[thresholds] table"), True


def soft_note(specs: Mapping[str, MetricSpec], bars: Iterable[str]) -> str | None:
    """The line that says why default bars of scores are the offline judge's own line
    (`MetricSpec.soft`: a run of the offline judge), not an LLM judge's target; None
    where no bar is one."""
    soft = [m for m in bars if m in specs and specs[m].soft]
    if not soft:
        return None
    return ("note: the offline judge's scores are soft (a mean of its probabilities), so "
            f"the default bar of {'each score' if len(soft) > 1 else soft[0]} is the judge's "
            "own line, where it says supported, relevant or used, not an LLM judge's target "
            "(docs/metrics.md, \"Targets under the offline judge\")")


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
@click.argument("run_id", metavar="[RUN]", required=False)
@click.option("--config", "config_path", type=click.Path(path_type=Path), default=None,
              help="TOML with a [thresholds] table, whose bars are the ones gated, and/or "
                   "a [corrected] table, which adds rows (without [thresholds] bars every "
                   "default bar stays); default: ./ragassay.toml if present, else the "
                   "built-in defaults, which the command names.")
@click.option("--strict", is_flag=True,
              help="Test the 95% CI's conservative bound, not the mean: the lower one, the "
                   "upper one for a metric where lower is better (a hallucination rate).")
@click.option("--corrected", is_flag=True,
              help="Also check people's labels: each label linked to a gated metric gets one "
                   "row, after the first metric it is linked to, decided on its corrected 95% "
                   "interval (a config's [corrected] table turns this on and sets label "
                   "thresholds); every metric is still checked on the judge's values.")
@click.option("--require-labels", is_flag=True,
              help="Fail a [corrected] label threshold that cannot be checked (too few labels, "
                   "or no linked metric in the run) instead of showing it NOT CHECKED.")
@click.option("--verbose", "-v", is_flag=True,
              help="Say every note one line per metric (default: grouped by kind, after "
                   "the table).")
@label_rule_option
@db_option
@friendly
def gate_cmd(run_id: str | None, config_path: Path | None, strict: bool, corrected: bool,
             require_labels: bool, verbose: bool, label_rule: LabelRule,
             db: StoreLocation) -> None:
    """PASS/FAIL per metric against thresholds; exit 1 when NOT READY.

    The table first, then the notes grouped by kind (--verbose: one line per metric):
    which thresholds it applied and where they come from (--config, ./ragassay.toml, or
    the built-in defaults), and how far the judge's agreement with people is measured on
    each gated metric. An unknown metric name in a thresholds file is refused. A run that
    is not complete (interrupted, failed, still running) is NOT READY.
    """
    from ragassay.judge import gate_warning_summary, gate_warnings, held_apart_context
    from ragassay.stats import gate
    from ragassay.stats.gate import STRICT_BOUND

    store = open_store(db, readonly=True)
    run_id = run_or_latest(store, run_id)
    table = _table_for(store, run_id, label_rule)
    labels = _label_thresholds(config_path, table.label_names)
    corrected = corrected or labels is not None or require_labels
    # under the default bars a metric no sample has the input for is NOT CHECKED
    thresholds, source, defaults = _thresholds(config_path, table, optional=corrected)
    notes = [source]  # said after the table (trial 67: 13 lines before it)
    if defaults and (soft := soft_note(table.specs, thresholds)):
        notes.append(soft)
    run = store.get_run(run_id)
    unfinished = run.status != "complete"  # its figures are of the samples judged so far
    if unfinished:
        finish = ("rerun the bench" if run.config.kind == "bench" else
                  f"finish it with ragassay eval {run.config.dataset} --resume {run_id}")
        notes.append(f"warning: run {run_id} is {run.status}, not complete: the gate does not "
                     f"pass it ({finish})")
    result = (_corrected_gate(store, run_id, table, thresholds, labels, strict, require_labels,
                              defaults, label_rule, notes, verbose)
              if corrected else gate(table, thresholds, strict=strict, defaults=defaults))
    in_run, backwards = agreement_in_run(table, thresholds)
    rel = run.meta.reliability  # a weak metric's figure: said in its row, named in the notes
    own = bool(run.meta.judge_check) and not corrected  # its rows: the run's own figure
    weak, said = row_figures(result.checks, rel, in_run, judge_check=own)
    notes += (gate_warnings(rel, list(thresholds), in_run) if verbose else
              held_apart_context(rel, list(thresholds), in_run) if own else
              gate_warning_summary(rel, list(thresholds), in_run, weak))
    if not run.meta.judge_check:  # a judge check's baseline notes: runs show's (trial 89)
        notes += backwards
    # the value column: people's estimate on a label's row (the bound decided on in its text:
    # trial 68), with --strict each metric's failing-side bound (trial 63)
    people = "people's estimates where linked, decided on their 95% bound: see the result"
    bound = (f"{people}; else {STRICT_BOUND}" if corrected and strict else people if corrected
             else STRICT_BOUND if strict else "")
    t = Table(title=f"gate for run {run_id}" + (f" ({bound})" if bound else ""))
    for c in ("metric", "threshold", "value", "result"):
        t.add_column(c)
    colour = {"PASS": "green", "FAIL": "red", "NOT CHECKED": "yellow"}
    partial = [c for c in result.checks if c.status == "PASS" and c.partial]
    for check in result.checks:
        why = [x for x in (check.reason, not check.label and said.get(check.metric)) if x]
        hue = ("yellow" if check in partial or why and check.status == "PASS"
               and check.metric in weak and not check.label else colour[check.status])
        name = " -> ".join(x for x in (check.metric, check.label and f"people's {check.label}")
                           if x)
        t.add_row(escape(name), f"{check.threshold:g}", check.value_text,
                  f"[{hue}]{check.verdict}[/{hue}]"
                  + (f" ({escape('; '.join(why))})" if why else ""))
    if run.meta.judge_check:  # its verdict is on the answers, not on the judge: said first
        say(judge_check_first(run_id, in_run))
    console().print(t)
    for line in notes:
        say(line, err=True)
    on_part = _buts(result, partial, weak)
    ready = result.ready and not unfinished
    say_guidance(result.checks, defaults=defaults, weak=weak, run_id=run_id,
                 judge_check=own)
    nothing = not any(c.status != "NOT CHECKED" for c in result.checks)
    say(("READY" + (f", but {'; '.join(on_part)}" if on_part else "")) if ready
        else f"NOT READY (run {run.status})" if unfinished
        else "NOT READY (nothing was checked)" if nothing else "NOT READY")
    if not ready:
        raise SystemExit(1)


def _buts(result: GateResult, partial: Sequence[Any], weak: Collection[str]) -> list[str]:
    """What a READY says after `but`: the metrics that pass on part of the samples (each
    warned of on stderr here), then those that pass on a weak judge (counted towards
    READY all the same: docs/cli.md, "A weak metric still gates")."""
    on_part = [f"{c.metric} passes on {c.scored} of {c.samples} samples "
               f"only ({c.unscored} unscored)" for c in partial]
    for line in on_part:
        say(f"warning: {line}: its bar says nothing of the others", err=True)
    weak_pass = sorted({c.metric for c in result.checks if c.status == "PASS"
                        and not c.label and c.metric in weak})
    if weak_pass:
        on_part.append(f"{', '.join(weak_pass)} pass{'es' if len(weak_pass) == 1 else ''} "
                       "on a judge whose agreement with people is weak (its row says how weak)")
    return on_part


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
                    strict: bool, require_labels: bool, defaults: bool,
                    rule: LabelRule, notes: list[str], verbose: bool) -> GateResult:
    """The gate on corrected intervals (people's labels made one by `rule`, said on a
    line), its fall-backs added to `notes`: one line each with `verbose`, else the
    metrics that fall back alike on one line (`grouped_notes`)."""
    from ragassay.report import corrected_for
    from ragassay.stats.corrected import CorrectedOptions
    from ragassay.stats.gate_corrected import default_label_thresholds, gate_corrected

    cor = corrected_for(store, run_id, options=CorrectedOptions(rule=rule))
    if (rule_line := cor.rule_text()) is not None:
        notes.append(rule_line)
    given = labels or ({} if thresholds else default_label_thresholds(cor))
    if not thresholds and not given:
        raise UsageProblem("nothing to gate: no metric thresholds, and no human label with "
                           f"enough labels for a corrected estimate (at least {cor.min_labels}"
                           "; see ragassay labels import)")
    out = gate_corrected(table, thresholds, cor, given, strict=strict,
                         require_labels=require_labels, defaults=defaults, run=run_id)
    notes += out.notes if verbose else grouped_notes(out.notes)
    return out.result


def grouped_notes(lines: Sequence[str]) -> list[str]:
    """`METRIC: reason` lines with the same reason said once, the metrics joined in the
    order met (`judge.context_relevance, trace.context_relevance: no corrected estimate
    (...)`); any other line as it is, in its place."""
    out: list[str] = []
    at: dict[str, int] = {}
    for line in lines:
        metric, sep, reason = line.partition(": ")
        if not sep or " " in metric:
            out.append(line)
        elif reason in at:
            out[at[reason]] = out[at[reason]].replace(": " + reason, f", {metric}: {reason}", 1)
        else:
            at[reason] = len(out)
            out.append(line)
    return out


def _without_notes(without: Mapping[str, set[str]]) -> list[str]:
    """A line per set of runs left out of some metrics' trends because they did not
    compute them (a `--metrics citations` run in the trend of judge.hallucination, trial
    58), not shown as a `-` point of n 0: `left out 1 run (ID) of the trend of
    judge.hallucination: it did not compute that metric (other --metrics)`."""
    by_runs: dict[frozenset[str], list[str]] = {}
    for metric, ids in without.items():
        if ids:
            by_runs.setdefault(frozenset(ids), []).append(metric)
    lines = []
    for gone, metrics in by_runs.items():
        one = len(gone) == 1
        lines.append(f"left out {counted(len(gone), 'run')} ({' '.join(sorted(gone))}) of the "
                     f"trend of {', '.join(metrics)}: {'it' if one else 'they'} did not "
                     f"compute {'that metric' if len(metrics) == 1 else 'those metrics'} "
                     "(other --metrics)")
    return lines


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
    changed since the previous point is marked, and so is one whose judge changed (the
    judge column: each run's judge spec; a change there may be the judge's). Eval runs
    only: the dataset's runs of
    other kinds (meta-eval) are left out, and a line says so; so is a run that did not
    compute a metric (other --metrics), from that metric's trend.
    """
    from ragassay.report import judge_changes_text, trend_marks, trend_runs
    from ragassay.stats import trends

    store = open_store(db, readonly=True)
    found = trend_runs(store, dataset)
    runs, digest, left = found.runs, found.digest, found.left_out()
    if not runs:
        raise UsageProblem(
            f"no complete {'eval ' if left else ''}run of dataset {dataset!r} in {db}"
            + (f"; {left}" if left else ""))
    if left:
        say(f"note: {left}", err=True)
    tables = [(r.id, r.created, _table_for(store, r.id)) for r in runs]
    present = list(dict.fromkeys(m for _, _, t in tables for m in t.metrics))
    chosen = check_metric_names(metrics, present, what="--metric") if metrics else None
    result = trends(tables, chosen)
    without = {m: {run_id for run_id, _, t in tables if m not in t.specs} for m in result}
    for line in _without_notes(without):
        say(f"note: {line}", err=True)
    result = {m: [p for p in points if p.run_id not in without[m]]
              for m, points in result.items()}
    runs = [r for r in runs if any(r.id not in gone for gone in without.values())]
    marks = {m: trend_marks([p.run_id for p in points], runs) for m, points in result.items()}
    if as_json:
        click.echo(json.dumps({m: [{**p.model_dump(), **vars(k)}
                                   for p, k in zip(points, marks[m], strict=True)]
                               for m, points in result.items()}, indent=2, allow_nan=False))
        return
    first = next(iter(marks.values()), [])
    changes, judges = (sum(k.dataset_changed for k in first), sum(k.judge_changed for k in first))
    say(f"{Path(dataset).name}: {len(runs)} complete runs"
        + (f" (content {digest[:12]})" if digest else "")
        + (f"; the dataset changed at {changes} point(s), marked 'changed'" if changes else "")
        + (f"; {judge_changes_text(judges, 'changed')}" if judges else ""))
    created = {r.id: created_text(r.created) for r in runs}
    for metric, points in result.items():
        t = Table(title=escape(metric))
        # a run id is copied, a number read: neither is split in a narrow column (trial 61:
        # `20261205-090849-ab6` / `c` in a pipe); the interval and the time wrap at a space
        for col in ("run", "created", "mean", "95% CI", "change", "n", "dataset", "judge"):
            t.add_column(col, no_wrap=col in ("run", "mean", "change", "n"))
        for p, mark in zip(points, marks[metric], strict=True):
            t.add_row(p.run_id, created[p.run_id], num(p.mean),
                      ci_text((p.ci_low, p.ci_high), p.count), num(p.delta), str(p.count),
                      *map(escape, mark.cells()))
        console().print(t)
