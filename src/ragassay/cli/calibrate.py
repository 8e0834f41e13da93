"""`ragassay calibrate`: agreement of a run's metrics with human labels (from a file, or
the run's own: its data's and the store's people's, made one per sample by
`--label-rule`), and the agreement between the people who labelled.

Labels link to metrics by name (`stats.calibration.default_links`) or by `--link
LABEL=METRIC`; every label that links to nothing is listed with how to link it, never
dropped silently.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.markup import escape
from rich.table import Table

from ragassay.cli.app import cli
from ragassay.cli.common import (
    StoreLocation,
    UsageProblem,
    check_metric_names,
    console,
    db_option,
    friendly,
    known_metrics,
    label_rule_option,
    open_store,
    parse_pairs,
    say,
)
from ragassay.cli.fmt import ci_text, num
from ragassay.cli.ragas_note import ragas_lines
from ragassay.stats.baseline import NO_BASELINE, BeatsBaseline, SaidOnce

if TYPE_CHECKING:
    from ragassay.stats import Calibration
    from ragassay.stats.corrected import Corrected
    from ragassay.types import LabelRule


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
        from ragassay.dataset.values import ValueProblem, loads

        try:
            rows = (loads(text) if path.suffix == ".json"
                    else [loads(line) for line in text.splitlines() if line.strip()])
        except json.JSONDecodeError as exc:
            raise UsageProblem(f"{path}:{exc.lineno}: invalid JSON ({exc.msg})") from None
        except ValueProblem as exc:
            raise UsageProblem(f"{path}: {exc}") from None
    return _labels_by_id(path, rows)


def _labels_by_id(path: Path, rows: Any) -> dict[str, dict[str, Any]]:
    from ragassay.dataset.values import value_problem
    from ragassay.labels.files import EXTRA, IDENTITY
    from ragassay.labels.matching import Repeats

    if not isinstance(rows, list):
        raise UsageProblem(f"{path}: expected a list of rows")
    out: dict[str, dict[str, Any]] = {}
    repeats = Repeats(str(path))
    for i, row in enumerate(rows, 2 if path.suffix == ".csv" else 1):  # file lines
        if not isinstance(row, dict) or "id" not in row:
            raise UsageProblem(f"{path}:{i}: each row needs an 'id'")
        problem = value_problem(row)
        if problem:
            raise UsageProblem(f"{path}:{i}: the row {problem}")
        nested = row.get("labels")
        if isinstance(nested, str):  # a CSV cell: JSON, or a dict as pandas writes it
            from ragassay.dataset.values import python_literal

            nested = python_literal(nested)
        labels = nested if isinstance(nested, dict) else {
            k: v for k, v in row.items() if k != "labels" and k not in IDENTITY + EXTRA}
        mine = out.setdefault(str(row["id"]), {})
        for k, v in labels.items():
            value = _coerce(v)
            if value is None or value == "":  # an empty cell: no label here
                mine.setdefault(k, value)
            elif repeats.add(f"id {str(row['id'])!r}", i, k, value):
                mine[k] = value
    if (note := repeats.note()) is not None:
        say(f"warning: {note}", err=True)
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


def left_out(cal: Calibration) -> list[dict[str, Any]]:
    """The labelled samples left out of the agreement because the answer abstained (no
    verdict to compare; trial 57: meta-eval's n of 128 never said 16 labelled declines
    were not in it), one entry per label and count, with the metrics they are left out
    of, how many people labelled true (`abstained_positives`) and the line said: `of
    hallucinated's labelled samples 16 abstained (no value to compare), left out of the
    agreement with judge.faithfulness, judge.hallucination; people marked 0 of them
    hallucinated`."""
    from ragassay.stats.verdicts import declined_text

    found: dict[tuple[str, int, int | None, int | None], list[str]] = {}
    for x in [*cal.pairs, *cal.skipped]:
        if x.metric is not None and x.abstained:
            positives = getattr(x, "abstained_positives", None)
            false = getattr(x, "abstained_false", None)
            found.setdefault((x.label, x.abstained, positives, false), []).append(x.metric)
    out = []
    for (label, abstained, positives, false), metrics in found.items():
        said = declined_text(label, abstained, positives, false=false)
        out.append({"label": label, "metrics": metrics, "abstained": abstained,
                    "abstained_positives": positives,
                    "text": f"of {label}'s labelled samples {abstained} abstained (no value "
                            f"to compare), left out of the agreement with {', '.join(metrics)}"
                            + (f"; {said}" if said else "")})
    return out


def beats_baseline(pair: Any) -> BeatsBaseline:
    """A pair's `beats baseline` verdict (yes, unclear, no or -) and cell (the verdict,
    then the judge's AUROC and lower bound against the baseline on the same samples:
    `BooleanAgreement.baseline`), what the console's column reads; `-` for a graded label
    or without a baseline."""
    b = getattr(pair, "baseline", None)
    return NO_BASELINE if b is None else BeatsBaseline(verdict=b.verdict, beats=b.beats)


def print_calibration(cal: Calibration) -> None:
    """The agreement table (AUROC, balanced accuracy on the samples with a value; rank
    correlations for a grade), then each yes/no verdict's `verdict_cell`, how often it is
    right with the abstentions counted as eval's headline counts them (trial 61: calibrate
    and meta-eval gave only the AUROC on 130 rows where the headline said right on 105 of
    144), or where its verdicts are an earlier row's on every labelled sample that row
    named, as the headline says it (trial 64: the full line repeated for trace.adherence);
    a row that repeats another's readings names it (`repeats`), and a line per label says
    how many measurements its rows are (`note_lines`); the labelled samples left out."""
    from ragassay.stats import BooleanAgreement, NumericAgreement
    from ragassay.stats.groups import link_name
    from ragassay.stats.verdicts import (
        measurements_lines,
        repeat_extent,
        repeated,
        same_verdicts_text,
        verdict_cell,
    )

    cells = []
    for p in cal.pairs:
        ranked = p if isinstance(p, BooleanAgreement) else None
        graded = p if isinstance(p, NumericAgreement) else None
        same = repeated(p)  # one reading, not a second measurement (trial 71)
        nearly = p.same_values if repeat_extent(p) else None  # alike on all but a few
        said = "" if same is None else f"{same[0]}\n({same[1]})" if nearly is None else \
            f"{same[0]}\n(nearly: {nearly.samples}/{p.labelled} {same[1]})"
        row = {"label": escape(p.label), "metric": escape(p.metric), "n": str(p.n),
               "repeats": escape(said)}
        if ranked is not None:
            b = ranked.baseline
            row |= {"AUROC [95% CI]": f"{num(ranked.auroc)} {ci_text(ranked.auroc_ci)}",
                    "lexical baseline [95% CI]": f"{num(b and b.auroc)} "
                                                 f"{ci_text(b and b.auroc_ci)}",
                    "beats baseline": beats_baseline(p).beats,
                    "bal. acc.": num(ranked.balanced_accuracy)}
        if graded is not None:
            row |= {"Spearman": num(graded.spearman), "Kendall": num(graded.kendall)}
        cells.append(row)
    # a yes/no label's columns where some pair has one, a grade's likewise: no column of
    # dashes (a pipe is 100 wide); the baseline's where some pair has one
    kinds = {p.kind for p in cal.pairs}
    cols = ["label", "metric", *(["repeats"] if any(map(repeated, cal.pairs)) else []), "n"]
    compared = [p for p in cal.pairs if isinstance(p, BooleanAgreement) and p.baseline]
    if "boolean" in kinds:
        cols += ["AUROC [95% CI]", *(["lexical baseline [95% CI]", "beats baseline"]
                                     if compared else []), "bal. acc."]
    if "numeric" in kinds:
        cols += ["Spearman", "Kendall"]
    shown = _print_table(cells, cols)
    if left := [c for c in cols if c not in shown]:
        _say(f"note: columns left out to fit {console().width} columns: {', '.join(left)} "
            "(said in the lines below; a wider terminal, or --json, gives every column)")
    verdicts = [(p, same_verdicts_text(p.verdicts.same_as, p.labelled)
                 if p.verdicts is not None and p.verdicts.same_as else cell)
                for p in cal.pairs if isinstance(p, BooleanAgreement)
                and (cell := verdict_cell(p, p.label))]
    if verdicts:  # the headline's figure, so that eval's summary and this one match
        _say("yes/no verdicts against people's labels, as eval's headline counts them (over "
            "the verdicts; an answer that abstained has none and is said apart):")
        for p, cell in verdicts:
            _say(f"  {link_name(p.metric, p.label)}: {cell}")
    if compared:  # the words of eval's headline and the gate's notes
        _say("against the lexical baseline (the share of the answer's words in its contexts):")
        once = SaidOnce()  # what a reversed baseline is, in full once (trial 84)
        for p in compared:
            _say(f"  {link_name(p.metric, p.label)}: "
                f"{once(p.baseline.text) if p.baseline else '-'}")
    measured = measurements_lines(cal.pairs)  # then what the ragas suite is (trial 84)
    for line in measured + ragas_lines(measured) + cal.note_lines():  # a baseline backwards
        _say(f"note: {line}")
    for gone in left_out(cal):
        _say(f"note: {gone['text']}")
    for s in cal.skipped:
        if s.metric is not None:  # a label linked to no metric: its own line (calibrate)
            _say(f"skipped {link_name(s.metric, s.label)}: {s.reason}", err=True)


def _say(text: str, err: bool = False) -> None:
    """A line of the agreement's, broken to the console's width between words, never
    inside a figure (`console.figure_wrapped`; a pipe's lines stay whole)."""
    from ragassay.console import figure_wrapped

    say(figure_wrapped(console(), text), err=err)


NARROW_DROPS = ("lexical baseline [95% CI]", "beats baseline", "repeats", "bal. acc.",
                "Kendall")
"""The agreement table's columns left out, in this order, where its figures would not fit
the console whole (each is said in a line under the table, or is a second figure)."""


def _print_table(cells: list[dict[str, str]], cols: list[str]) -> list[str]:
    """The agreement table of `cells` with the columns `cols`, less those of
    `NARROW_DROPS` that must go for every figure to fit the console whole, else a row a
    block of lines (`console.print_whole`; trial 84: at 80 columns the figure columns
    were squeezed to nothing); the columns shown."""
    from ragassay.console import print_whole

    def layout(names: list[str]) -> tuple[Table, list[int]]:
        t = Table(title="agreement with human labels")
        for c in names:  # a name is read and matched whole, never split
            t.add_column(c, justify="left" if c in ("label", "metric", "repeats")
                         else "right", no_wrap=c in ("label", "metric", "n"))
        for row in cells:
            t.add_row(*(row.get(c, "-") for c in names))
        return t, [i for i, c in enumerate(names) if c not in ("label", "metric", "repeats")]

    tries = [cols] + [[c for c in cols if c not in NARROW_DROPS[:k]]
                      for k in range(1, len(NARROW_DROPS) + 1)]
    unique = list(dict.fromkeys(map(tuple, tries)))
    printed = print_whole(console(), [layout(list(names)) for names in unique], keys=2)
    return cols if printed is None else [str(col.header) for col in printed.columns]


LINK_SYNTAX = "LABEL=METRIC, or LABEL=1-METRIC when a high metric means a False/low label"


def _links(values: tuple[str, ...], known: list[str]) -> list[Any]:
    """`--link` values as LabelLinks, each metric name checked by the common rule."""
    from ragassay.stats.calibration import LabelLink

    links = []
    for label, target in parse_pairs(values, "--link", syntax=LINK_SYNTAX, unique=False):
        inverted = target.startswith("1-")
        metric = target.removeprefix("1-").strip()
        check_metric_names([metric], known, what=f"--link {label}={target}")
        links.append(LabelLink(label, metric, inverted=inverted))
    return links


def _with_corrected(cal: Calibration, cor: Corrected) -> dict[str, Any]:
    """The calibration as JSON, each pair with its whole-run corrected estimate
    (`corrected`: estimate, ci_low, ci_high, n_labelled, n_total, judge_mean, ...) or why
    it has none (`corrected_skipped`)."""
    from ragassay.report.rounding import rounded

    body = cal.model_dump()
    for pair, out in zip(cal.pairs, body["pairs"], strict=True):
        est = next((e for e in cor.estimates if e.strategy is None
                    and e.metric == pair.metric and e.label == pair.label), None)
        if est is not None:
            out["corrected"] = rounded(est.to_dict())
            continue
        why = next((s.reason for s in cor.skipped if s.strategy is None
                    and s.metric == pair.metric and s.label == pair.label), None)
        out["corrected_skipped"] = why or "no corrected estimate"
    return body


@cli.command("calibrate")
@click.argument("run_id", metavar="RUN")
@click.option("--labels", "labels_path", type=click.Path(path_type=Path), default=None,
              help="JSONL/JSON/CSV with an 'id' and human labels, joined by sample id "
                   "(default: the run's own labels: its data's and the store's).")
@click.option("--link", "link_values", multiple=True, metavar="LABEL=METRIC",
              help="Compare a label with a metric (repeatable; LABEL=1-METRIC inverts). "
                   "Labels named hallucination, faithful, correct, relevance or after a "
                   "metric are linked without it; any other label is listed as unlinked.")
@click.option("--json", "as_json", is_flag=True)
@label_rule_option
@db_option
@friendly
def calibrate_cmd(run_id: str, labels_path: Path | None, link_values: tuple[str, ...],
                  as_json: bool, label_rule: LabelRule, db: StoreLocation) -> None:
    """Agreement of a run's metrics with human labels (a separate file, or the run's
    own), and between the people who labelled its samples (Krippendorff's alpha, Cohen's
    kappa per pair: only where two annotators labelled a sample in common)."""
    from ragassay.cli.corrected_view import print_corrected
    from ragassay.cli.people_view import print_people
    from ragassay.report import corrected_for, people_section, run_table
    from ragassay.stats import calibration
    from ragassay.stats.calibration import default_links, unlinked_labels

    labels = _read_labels(labels_path) if labels_path is not None else {}
    store = open_store(db, readonly=True)
    rt = run_table(store, run_id, labels=labels, keys=True, rule=label_rule)
    if labels_path is not None:
        joined = sum(r.id in labels for r in rt.table.rows)
        if not joined:
            raise UsageProblem(f"no sample id of run {run_id} appears in {labels_path}")
    else:
        joined = sum(any(v is not None for v in r.labels.values()) for r in rt.table.rows)
        if not joined and not rt.people.ratings:
            raise UsageProblem(f"run {run_id} has no human labels (its data's or the "
                               "store's): pass --labels FILE, or add some with ragassay "
                               "labels import or ragassay annotate")
    people = people_section(rt)
    links = default_links(rt.table.label_names, rt.table.specs.values())
    given = _links(link_values, known_metrics(rt.table.metrics))
    links += [g for g in given if (g.label_key, g.metric) not in
              {(d.label_key, d.metric) for d in links}]
    unlinked = unlinked_labels(rt.table.label_names, links)
    cal = calibration(rt.table, links)
    cor = corrected_for(store, run_id, rt=rt, links=links)
    if as_json:
        from ragassay.report.rounding import rounded

        body = _with_corrected(cal, cor)
        extra = {"label_rule": str(label_rule)}
        if people is not None:
            extra["annotators"] = rounded(people).model_dump(mode="json")
        click.echo(json.dumps({"joined": joined, "unlinked_labels": unlinked, **body,
                               **extra}, indent=2, allow_nan=False))
    else:
        say(f"{joined} of {len(rt.table.rows)} samples have labels")
        print_calibration(cal)
        print_corrected(cor)
        if people is None:  # the labels are the data's or the file's: one per sample
            say("agreement between people: not measurable (one label per sample, from the "
                "data or a labels file; two annotators labelling the same samples, with "
                f"ragassay annotate {run_id} --annotator NAME, measure it)")
        print_people(people)
    if unlinked:
        example = next(iter(rt.table.metrics), "METRIC")
        say(f"labels not linked to any metric (not measured): {', '.join(unlinked)}; link one "
            f"with --link {unlinked[0]}={example} (or {unlinked[0]}=1-{example} when a high "
            "metric means a False/low label), or name it hallucination, faithful, correct, "
            "relevance or after a metric", err=True)
