"""`ragassay labels import|export|delete`: human labels in and out of the store.

Labels are stored by the sample's content, so a label imported for one run applies to
every run that scored the same interaction; the run named here is where sample ids are
looked up. Import checks every value against the label vocabulary and says, in one line
each, which rows match no sample and which labels link to no metric of the run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from ragassay.store import Store
    from ragassay.types import LabelRule, Sample

from ragassay.cli.app import cli, write_text
from ragassay.cli.common import (
    StoreLocation,
    UsageProblem,
    db_option,
    friendly,
    label_rule_option,
    open_store,
    refuse_overwrites,
    run_or_latest,
    say,
)
from ragassay.terminal import clean, counted
from ragassay.text import did_you_mean


def _valid_samples(store: Store, run_id: str) -> list[Sample]:
    from ragassay.types import Sample

    return [s for s in store.iter_samples(run_id) if isinstance(s, Sample)]


@cli.group("labels")
def labels_group() -> None:
    """Human labels: import them from a file, export them; they feed corrected estimates."""


@labels_group.command("import")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--run", "run_id", default=None, metavar="RUN",
              help="The run whose sample ids the file uses (default: the latest run).")
@click.option("--annotator", default="", help="Who gave these labels (a row's own "
              "'annotator' column wins).")
@click.option("--allow-new-label", "allow_new", is_flag=True,
              help="Keep a label name close to a vocabulary name (e.g. 'halucinated') as a "
                   "label of its own; without it such a name is refused as a typo.")
@label_rule_option
@db_option
@friendly
def import_cmd(path: Path, run_id: str | None, annotator: str, allow_new: bool,
               label_rule: LabelRule, db: StoreLocation) -> None:
    """Store the labels of a JSONL/JSON/CSV file: rows with an `id` (or the sample's
    question, contexts and answer, or a `content_key`) and labels, nested under `labels`
    or as columns (`hallucinated`, `correct`, `relevance`, ...)."""
    from ragassay.labels import import_file, linked_metrics, mismatch_line
    from ragassay.report import corrected_for, run_table

    store = open_store(db)
    run_id = run_or_latest(store, run_id)
    matched = import_file(store, run_id, path, annotator=annotator, allow_new=allow_new)
    counts = ", ".join(f"{name} {n}" for name, n in matched.by_name.most_common())
    shared = (f" ({counted(matched.shared, 'label')} shared by "
              "duplicated interactions)" if matched.shared else "")
    say(f"imported {counted(len(matched.labels), 'label')} ({counts}) for "
        f"{counted(matched.samples, 'sample')}{shared} of run {run_id}; stored by "
        "content: every run of the same interactions reads them")
    if matched.repeated:
        say(f"warning: {matched.repeated}", err=True)
    if (beside := matched.beside_text()) is not None:
        say(beside, err=True)
    if matched.mismatched:
        say(f"warning: {mismatch_line(matched, path.name, run_id)}", err=True)
    if matched.unmatched:
        first = matched.unmatched[0]
        match = "row matches" if len(matched.unmatched) == 1 else "rows match"
        say(f"{len(matched.unmatched)} {match} no sample of run {run_id} (first: line "
            f"{first.line}, id {first.id!r}): not imported", err=True)
    rt = run_table(store, run_id, keys=True, rule=label_rule)
    for name in matched.by_name:
        if not linked_metrics(name, rt.table.specs.values()):
            say(f"label '{name}' links to no metric of run {run_id}: stored, not used for "
                f"corrected estimates (link it with ragassay calibrate {run_id} --link "
                f"{name}=METRIC)", err=True)
    from ragassay.cli.corrected_view import print_corrected

    print_corrected(corrected_for(store, run_id, rt=rt), strategies=False)


def _export_rows(store: Store, run_id: str) -> list[dict[str, Any]]:
    from ragassay.labels import by_key, canonical

    samples = _valid_samples(store, run_id)
    stored = by_key(store.people_labels(s.content_key for s in samples))
    out: list[dict[str, Any]] = []
    for s in samples:
        mine = stored.get(s.content_key, [])
        names = {canonical(lab.name) for lab in mine}
        for name, value in s.labels.items():
            if canonical(name) not in names:
                out.append({"id": s.id, "strategy": s.strategy, "content_key": s.content_key,
                            "label": name, "value": value, "source": "data"})
        for lab in mine:  # one row per person's label
            out.append({"id": s.id, "strategy": s.strategy, "content_key": s.content_key,
                        "label": lab.name, "value": lab.value, "annotator": lab.annotator,
                        "source": lab.source, "note": lab.note, "created": lab.created})
    return out


@labels_group.command("export")
@click.option("--run", "run_id", default=None, metavar="RUN",
              help="The run whose samples' labels to export (default: the latest run).")
@click.option("--out", "out", type=click.Path(path_type=Path), default=None,
              help="A .jsonl or .csv file (default: JSONL on standard output).")
@db_option
@friendly
def export_cmd(run_id: str | None, out: Path | None, db: StoreLocation) -> None:
    """Every label of a run's samples, one row per label: the data's own (source `data`)
    and the store's (with annotator, source, note and time); `labels import` reads it."""
    import io

    refuse_overwrites([("--out", out)], db=db)
    store = open_store(db, readonly=True)
    run_id = run_or_latest(store, run_id)
    rows = _export_rows(store, run_id)
    if out is not None and out.suffix == ".csv":
        from ragassay.report.csv import write_rows

        buf = io.StringIO()  # every text cell defused for spreadsheets, as the report's
        write_rows(buf, ("id", "strategy", "content_key", "label", "value", "annotator",
                         "source", "note", "created"), rows)
        text = buf.getvalue()
    else:
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    if out is None:
        click.echo(text, nl=False)
    else:
        write_text(out, text, what="labels ")
        say(f"wrote {counted(len(rows), 'label')} of run {run_id} to {out}", err=True)


@labels_group.command("delete")
@click.option("--run", "run_id", default=None, metavar="RUN",
              help="The run whose samples' labels to delete (default: the latest run).")
@click.option("--sample", "sample_ids", multiple=True, metavar="ID",
              help="Only this sample's labels (a sample id of the run; repeatable).")
@click.option("--label", "names", multiple=True, metavar="NAME",
              help="Only labels of this name (repeatable).")
@click.option("--annotator", default=None, help="Only the labels this annotator gave.")
@click.option("--all", "everything", is_flag=True,
              help="Every stored label of the run's samples (needed when no --sample, "
                   "--label or --annotator narrows what to delete).")
@db_option
@friendly
def delete_cmd(run_id: str | None, sample_ids: tuple[str, ...], names: tuple[str, ...],
               annotator: str | None, everything: bool, db: StoreLocation) -> None:
    """Delete stored labels of a run's samples (all, or by sample, label and annotator).
    Labels are stored by content: every run that scored the same interactions loses them
    too. The data's own labels (in the dataset file) are not the store's to delete."""
    from ragassay.labels import canonical

    if not (sample_ids or names or annotator is not None or everything):
        raise UsageProblem("say which labels to delete: --sample ID, --label NAME, "
                           "--annotator WHO, or --all for every stored label of the run's "
                           "samples")
    store = open_store(db)
    run_id = run_or_latest(store, run_id)
    samples = _valid_samples(store, run_id)
    if sample_ids:
        known = {s.id: s for s in samples}
        missing = [i for i in sample_ids if i not in known]
        if missing:
            raise UsageProblem(f"run {run_id} has no sample {clean(missing[0])!r}"
                               f"{did_you_mean(missing[0], list(known))}")
        samples = [known[i] for i in dict.fromkeys(sample_ids)]
    removed = store.delete_labels((s.content_key for s in samples),
                                  [canonical(n) for n in names] if names else None, annotator)
    total = sum(removed.values())
    if not total:
        say(f"no stored label of run {run_id}'s samples matches: nothing deleted", err=True)
        return
    counts = ", ".join(f"{name} {n}" for name, n in sorted(removed.items()))
    say(f"deleted {counted(total, 'label')} ({counts}) of run {run_id}'s "
        "samples (stored by content: runs that scored the same interactions lose them too)")
