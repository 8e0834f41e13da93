"""`ragassay labels import|export`: human labels in and out of the store.

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
    from ragassay.types import Sample

from ragassay.cli.app import cli, write_text
from ragassay.cli.common import StoreLocation, db_option, friendly, open_store, run_or_latest, say


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
@db_option
@friendly
def import_cmd(path: Path, run_id: str | None, annotator: str, allow_new: bool,
               db: StoreLocation) -> None:
    """Store the labels of a JSONL/JSON/CSV file: rows with an `id` (or the sample's
    question, contexts and answer, or a `content_key`) and labels, nested under `labels`
    or as columns (`hallucinated`, `correct`, `relevance`, ...)."""
    from ragassay.labels import import_file, linked_metrics
    from ragassay.report import corrected_for, run_table

    store = open_store(db)
    run_id = run_or_latest(store, run_id)
    matched = import_file(store, run_id, path, annotator=annotator, allow_new=allow_new)
    counts = ", ".join(f"{name} {n}" for name, n in matched.by_name.most_common())
    shared = (f" ({matched.shared} label{'s' if matched.shared > 1 else ''} shared by "
              "duplicated interactions)" if matched.shared else "")
    say(f"imported {len(matched.labels)} labels ({counts}) for {matched.samples} samples"
        f"{shared} of run {run_id}")
    if matched.repeated:
        say(f"warning: {matched.repeated}", err=True)
    if matched.unmatched:
        first = matched.unmatched[0]
        say(f"{len(matched.unmatched)} rows match no sample of run {run_id} (first: line "
            f"{first.line}, id {first.id!r}): not imported", err=True)
    rt = run_table(store, run_id, keys=True)
    for name in matched.by_name:
        if not linked_metrics(name, rt.table.specs.values()):
            say(f"label '{name}' links to no metric of run {run_id}: stored, not used for "
                f"corrected estimates (link it with ragassay calibrate {run_id} --link "
                f"{name}=METRIC)", err=True)
    from ragassay.cli.corrected_view import print_corrected

    print_corrected(corrected_for(store, run_id, rt=rt), strategies=False)


def _export_rows(store: Store, run_id: str) -> list[dict[str, Any]]:
    samples = _valid_samples(store, run_id)
    stored = store.labels_for(s.content_key for s in samples)
    out: list[dict[str, Any]] = []
    for s in samples:
        mine = stored.get(s.content_key, {})
        for name, value in s.labels.items():
            if name not in mine:
                out.append({"id": s.id, "strategy": s.strategy, "content_key": s.content_key,
                            "label": name, "value": value, "source": "data"})
        for lab in mine.values():
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
    import csv
    import io

    store = open_store(db, readonly=True)
    run_id = run_or_latest(store, run_id)
    rows = _export_rows(store, run_id)
    if out is not None and out.suffix == ".csv":
        buf = io.StringIO()
        cols = ["id", "strategy", "content_key", "label", "value", "annotator", "source",
                "note", "created"]
        writer = csv.DictWriter(buf, fieldnames=cols, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
        text = buf.getvalue()
    else:
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    if out is None:
        click.echo(text, nl=False)
    else:
        write_text(out, text, what="labels ")
        say(f"wrote {len(rows)} labels of run {run_id} to {out}", err=True)
