"""Commands that read runs: report, compare, calibrate, gate, meta-eval."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.table import Table

from ragassay.cli.app import cli, write_text
from ragassay.cli.common import UsageProblem, console, db_option, friendly, open_store


def _f(v: Any, digits: int = 3) -> str:
    return "-" if v is None else f"{v:.{digits}f}" if isinstance(v, float) else str(v)


def _ci(pair: Any) -> str:
    return "-" if not pair or pair[0] is None else f"[{pair[0]:.3f}, {pair[1]:.3f}]"


@cli.command("report")
@click.argument("run_id", metavar="RUN", required=False)
@click.option("--format", "fmt", type=click.Choice(["json", "csv", "html"]), default="json",
              show_default=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Output file (default: stdout).")
@db_option
@friendly
def report_cmd(run_id: str | None, fmt: str, out: Path | None, db: Path) -> None:
    """Export a run (the latest when RUN is omitted) as JSON, CSV or HTML."""
    from ragassay.report import build_report, dump_json, iter_details, to_html, write_csv

    store = open_store(db, readonly=True)
    run_id = run_id or _latest(store)
    if fmt in ("json", "csv"):  # per-sample entries streamed: never whole in memory
        report = build_report(store, run_id, include_details=False)
        dump = dump_json if fmt == "json" else write_csv
        if out is None:
            dump(report, sys.stdout, iter_details(store, run_id))
            if fmt == "json":
                click.echo()
        else:
            write_text(out, lambda fh: dump(report, fh, iter_details(store, run_id)),
                       what="report ")
        return
    report = build_report(store, run_id)
    text = to_html(report)
    if out is None:
        click.echo(text, nl=False)
    else:
        write_text(out, text)


def _latest(store: Any) -> str:
    run = store.latest_run()
    if run is None:
        raise UsageProblem("the store has no runs yet (run `ragassay eval` first)")
    return str(run.id)


def _table_for(store: Any, run_id: str) -> Any:
    from ragassay.report import run_table

    return run_table(store, run_id).table


def _print_comparison(result: dict[str, Any], title: str) -> None:
    t = Table(title=escape(title))
    for col in ("metric", "A", "B", "B - A", "95% CI", "p (Holm)", "verdict"):
        t.add_column(col, justify="left" if col in ("metric", "verdict") else "right")
    for metric, r in result["metrics"].items():
        style = {"better": "green", "worse": "red"}.get(r.get("verdict", ""), "")
        t.add_row(metric, _f(r.get("mean_a")), _f(r.get("mean_b")), _f(r.get("diff")),
                  _ci((r.get("ci_low"), r.get("ci_high"))), _f(r.get("p_adjusted"), 4),
                  f"[{style}]{r.get('verdict')}[/{style}]" if style else str(r.get("verdict")))
    console().print(t)
    click.echo(f"paired samples: {result.get('paired_samples')} "
               f"(paired by {result.get('paired_by', 'question')})")


@cli.command("compare")
@click.argument("run_a", metavar="RUN_A")
@click.argument("run_b", metavar="RUN_B", required=False)
@click.option("--strategy", "strategies", multiple=True,
              help="Compare two strategies (give it twice); within RUN_A when RUN_B is omitted.")
@click.option("--alpha", type=float, default=0.05, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
@db_option
@friendly
def compare_cmd(run_a: str, run_b: str | None, strategies: tuple[str, ...], alpha: float,
                as_json: bool, db: Path) -> None:
    """Paired comparison of two runs, or of two strategies within a run."""
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
        title = f"{strategies[1]} (B) vs {strategies[0]} (A)"
    else:
        table_b = _table_for(store, store.get_run(run_b).id)
        if strategies:
            table_a = table_a.for_strategy(strategies[0])
            table_b = table_b.for_strategy(strategies[-1])
        result = compare_tables(table_a, table_b, options)
        title = f"run {run_b} (B) vs run {run_a} (A)"
    if as_json:
        click.echo(json.dumps(result, indent=2, allow_nan=False))
    else:
        _print_comparison(result, title)


def _read_labels(path: Path) -> dict[str, dict[str, Any]]:
    """id -> labels from JSONL/JSON ({"id", "labels": {...}} or flat) or CSV."""
    import csv

    if not path.exists():
        raise UsageProblem(f"{path}: no such file")
    rows: list[dict[str, Any]] = []
    try:
        if path.suffix == ".csv":
            with path.open(newline="", encoding="utf-8") as fh:
                rows = list(csv.DictReader(fh))
        text = "" if path.suffix == ".csv" else path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise UsageProblem(f"{path}: not valid UTF-8 (byte {exc.start + 1})") from None
    if path.suffix != ".csv":
        try:
            rows = (json.loads(text) if path.suffix == ".json"
                    else [json.loads(line) for line in text.splitlines() if line.strip()])
        except json.JSONDecodeError as exc:
            raise UsageProblem(f"{path}:{exc.lineno}: invalid JSON ({exc.msg})") from None
    out: dict[str, dict[str, Any]] = {}
    for i, row in enumerate(rows, 1):
        if not isinstance(row, dict) or "id" not in row:
            raise UsageProblem(f"{path}:{i}: each row needs an 'id'")
        nested = row.get("labels")
        labels = nested if isinstance(nested, dict) else {
            k: v for k, v in row.items() if k != "id"}
        out[str(row["id"])] = {k: _coerce(v) for k, v in labels.items()}
    return out


def _coerce(v: Any) -> Any:
    if isinstance(v, str):
        low = v.strip().lower()
        if low in ("true", "false"):
            return low == "true"
        try:
            return float(v)
        except ValueError:
            return v
    return v


def _print_calibration(cal: dict[str, Any], baselines: dict[str, Any] | None = None) -> None:
    t = Table(title="agreement with human labels")
    cols = ["label", "metric", "n", "AUROC [95% CI]"]
    if baselines is not None:
        cols += ["lexical baseline [95% CI]", "beats baseline"]
    cols += ["bal. acc.", "Spearman", "Kendall"]
    for c in cols:
        t.add_column(c, justify="left" if c in ("label", "metric") else "right")
    for p in cal["pairs"]:
        row = [escape(str(p["label"])), escape(str(p["metric"])), str(p["n"]),
               f"{_f(p.get('auroc'))} {_ci(p.get('auroc_ci'))}" if "auroc" in p else "-"]
        if baselines is not None:
            b = baselines.get(p["label"], {})
            beats = (p.get("auroc_ci") and b.get("auroc") is not None
                     and p["auroc_ci"][0] > b["auroc"])
            row += [f"{_f(b.get('auroc'))} {_ci(b.get('auroc_ci'))}",
                    "yes" if beats else "no" if "auroc" in p else "-"]
        row += [_f(p.get("balanced_accuracy")), _f(p.get("spearman")), _f(p.get("kendall"))]
        t.add_row(*row)
    console().print(t)
    for s in cal.get("skipped", []):
        click.echo(f"skipped {s['label']} -> {s['metric']}: {s['reason']}", err=True)


@cli.command("calibrate")
@click.argument("run_id", metavar="RUN")
@click.option("--labels", "labels_path", type=click.Path(path_type=Path), required=True,
              help="JSONL/JSON/CSV with an 'id' and human labels, joined by sample id.")
@click.option("--json", "as_json", is_flag=True)
@db_option
@friendly
def calibrate_cmd(run_id: str, labels_path: Path, as_json: bool, db: Path) -> None:
    """Agreement of a run's metrics with human labels from a separate file."""
    from ragassay.report import run_table
    from ragassay.stats import calibration

    labels = _read_labels(labels_path)
    store = open_store(db, readonly=True)
    rt = run_table(store, run_id, labels=labels)
    joined = sum(r.id in labels for r in rt.table.rows)
    if not joined:
        raise UsageProblem(f"no sample id of run {run_id} appears in {labels_path}")
    cal = calibration(rt.table)
    if as_json:
        click.echo(json.dumps({"joined": joined, **cal}, indent=2, allow_nan=False))
    else:
        click.echo(f"{joined} of {len(rt.table.rows)} samples have labels")
        _print_calibration(cal)


@cli.command("gate")
@click.argument("run_id", metavar="RUN", required=False)
@click.option("--config", "config_path", type=click.Path(path_type=Path), default=None,
              help="TOML with a [thresholds] table (default: ./ragassay.toml if present).")
@click.option("--strict", is_flag=True, help="Test the lower 95% confidence bound, not the mean.")
@db_option
@friendly
def gate_cmd(run_id: str | None, config_path: Path | None, strict: bool, db: Path) -> None:
    """PASS/FAIL per metric against thresholds; exit 1 when NOT READY."""
    from ragassay.stats import ThresholdsError, default_thresholds, gate, load_thresholds

    if config_path is None and Path("ragassay.toml").exists():
        config_path = Path("ragassay.toml")
    store = open_store(db, readonly=True)
    run_id = store.get_run(run_id).id if run_id else _latest(store)
    table = _table_for(store, run_id)
    if config_path is not None:
        if not config_path.exists():
            raise UsageProblem(f"{config_path}: no such file")
        try:
            thresholds = load_thresholds(config_path)
        except ThresholdsError as exc:
            raise UsageProblem(str(exc)) from None
        if not thresholds:
            raise UsageProblem(f"{config_path}: no [thresholds] table")
    else:
        thresholds = default_thresholds(table.specs)
        if not thresholds:
            raise UsageProblem("no default threshold applies to this run's metrics; "
                               "pass --config with a [thresholds] table")
    result = gate(table, thresholds, strict=strict)
    t = Table(title=f"gate for run {run_id}" + (" (lower 95% bound)" if strict else ""))
    for c in ("metric", "threshold", "value", "result"):
        t.add_column(c)
    for check in result.checks:
        status = "[green]PASS[/green]" if check.status == "PASS" else "[red]FAIL[/red]"
        t.add_row(escape(check.metric), _f(check.threshold), _f(check.value),
                  status + (f" ({check.reason})" if check.reason else ""))
    console().print(t)
    click.echo("READY" if result.ready else "NOT READY")
    if not result.ready:
        raise SystemExit(1)


@cli.command("trend")
@click.argument("dataset")
@click.option("--metric", "metrics", multiple=True,
              help="Metric(s) to follow (default: every metric of the runs).")
@click.option("--json", "as_json", is_flag=True)
@db_option
@friendly
def trend_cmd(dataset: str, metrics: tuple[str, ...], as_json: bool, db: Path) -> None:
    """A metric's mean (with 95% CI) over successive runs of the same dataset."""
    from ragassay.stats import trends

    store = open_store(db, readonly=True)
    runs = [r for r in store.list_runs(dataset=dataset) if r.status == "complete"]
    if not runs:
        raise UsageProblem(f"no complete run of dataset {dataset!r} in {db}")
    tables = [(r.id, r.created, _table_for(store, r.id)) for r in runs]
    result = trends(tables, list(metrics) or None)
    if as_json:
        click.echo(json.dumps(result, indent=2, allow_nan=False))
        return
    for metric, points in result.items():
        t = Table(title=metric)
        for col in ("run", "created", "mean", "95% CI", "change", "n"):
            t.add_column(col)
        for p in points:
            t.add_row(p["run_id"], p["created"], _f(p["mean"]),
                      _ci((p["ci_low"], p["ci_high"])), _f(p["delta"]), str(p["count"]))
        console().print(t)
