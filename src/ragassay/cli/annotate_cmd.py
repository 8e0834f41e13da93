"""`ragassay annotate [RUN]`: label a run's samples in the terminal, one at a time, in the
order of its annotation plan (the dashboard's Annotate page without the dashboard).

Each answer is a line: y/n (or the grade's number), optionally followed by a note;
s skips the sample, u undoes the last label or skip, c TEXT keeps a note for the next
label, q (or end of input) quits. Labels are saved as they are given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from ragassay.annotation import Item, Session
    from ragassay.store import Store

from ragassay.cli.app import cli
from ragassay.cli.common import (
    StoreLocation,
    UsageProblem,
    db_option,
    friendly,
    open_store,
    run_or_latest,
    say,
)
from ragassay.terminal import storable

HELP = ("answer {keys} (a note may follow: '{first} see the second context'); s skip the "
        "sample, u undo, c TEXT a note for the next label, q quit")
PROGRESS_EVERY = 10  # completed samples between progress reports


def _show_sample(session: Session, item: Item, total: int) -> None:
    entry = session.entry(item.entry)
    say("")
    say(f"-- sample {item.position + 1} of {total}: {item.entry.name} --")
    say(f"Question: {entry.question if entry else ''}")
    contexts = entry.contexts if entry else []
    for i, text in enumerate(contexts, 1):  # 1-based, as citation markers [1] are
        say(f"Context {i}: {text}")
    if not contexts:
        say("Contexts: (none)")
    say(f"Answer: {entry.answer if entry else ''}")


def _show_verdict(session: Session, item: Item) -> None:
    """What the person said and, now that the sample is labelled, what the judge said."""
    from ragassay.annotation import value_text

    given = session.stored(item.entry.content_key)
    mine = ", ".join(f"{name} {value_text(name, given[name].value)}"
                     for name in session.queue.asked if name in given)
    judge = "; ".join(f"{v.title} {v.text}"
                      for v in session.verdict(session.entry(item.entry), given))
    say(f"you: {mine or '-'} | the judge: {judge or '-'}")


def _show_progress(store: Store, session: Session, *, full: bool,
                   unless: list[str] | None = None) -> list[str]:
    """Say the progress (with `full`, each linked metric's line, by its id), unless it
    reads as `unless` (what was said before: nothing changed since); the lines."""
    from ragassay.annotation import progress

    p = progress(store, session.queue, session.annotator)
    lines = [p.summary(), *(f"  {m.label} via {m.metric}: {m.text(p.min_labels)}"
                            for m in (p.metrics if full else ()))]
    if lines != unless:
        for line in lines:
            say(line)
    return lines


def _loop(store: Store, session: Session) -> None:
    from ragassay.annotation import AnnotationError, answer, choices

    total, shown, note, completed = len(session.queue.entries), None, "", 0
    while True:
        item = session.current()
        if item is None:
            say("every sample of the queue has its labels (or was skipped)")
            return
        if item.entry != shown:
            _show_sample(session, item, total)
            shown = item.entry
        options = choices(item.label)
        keys = "/".join(c.key for c in options)
        try:
            typed = click.prompt(f"{item.label}: {item.kind.question} [{keys}, s, u, c, q, ?]",
                                 default="", show_default=False,
                                 prompt_suffix="\n> ")
        except click.Abort:  # end of input or Ctrl-C: what was given is saved
            say("")
            return
        except UnicodeDecodeError:  # a terminal that reads UTF-8 strictly
            say("that line was not UTF-8 text; type it again")
            continue
        line = storable(typed)  # bytes that are not UTF-8 kept as U+FFFD, never a crash
        if line != typed:
            say("note: bytes that are not UTF-8 were kept as \ufffd")
        word, _, rest = line.strip().partition(" ")
        command = word.casefold()
        if command in ("q", "quit"):
            return
        if command in ("", "?", "h", "help"):
            say(HELP.format(keys=keys, first=options[0].key))
        elif command == "s":
            session.skip(item)
            say(f"skipped {item.entry.name}")
        elif command == "u":
            undone = session.undo()
            say("nothing to undo" if undone is None else
                f"undid the skip of {undone.entry.name}" if undone.label is None else
                f"undid {undone.label} of {undone.entry.name}")
            shown = None
        elif command == "c":
            note = rest.strip()
            say(f"note kept for the next label: {note}" if note else "note cleared")
        elif (choice := answer(item.label, word)) is not None:
            try:
                session.record(item, choice.value, note=" ".join(x for x in (note, rest) if x))
            except AnnotationError as exc:
                raise UsageProblem(str(exc)) from None
            note = ""
            if len(item.missing) == 1:  # the sample has every asked label now
                _show_verdict(session, item)
                completed += 1
                if completed % PROGRESS_EVERY == 0:
                    _show_progress(store, session, full=False)
        else:
            say(f"'{word}' is not an answer; {HELP.format(keys=keys, first=options[0].key)}")


@cli.command("annotate")
@click.argument("run_id", metavar="[RUN]", required=False)
@click.option("--plan", "kind", type=click.Choice(["uniform", "uncertainty", "stratified"]),
              default=None,
              help="The queue's order: uniform random (the default for a new plan), more "
                   "often where the judge is unsure (by --metric), or an equal share per "
                   "strategy. A run's plan is kept: it is resumed as it is.")
@click.option("--metric", default=None,
              help="The score metric that weights an uncertainty plan; alone, it picks the "
                   "labels compared with it.")
@click.option("--label", "labels", multiple=True,
              help="A label to ask (repeatable): hallucinated, faithful, correct, relevance. "
                   "Default: those compared with the run's metrics.")
@click.option("--annotator", default=None,
              help="Who labels (default: $RAGASSAY_ANNOTATOR, else the login name).")
@click.option("--seed", type=int, default=None, help="The queue's seed (a new plan: 0).")
@click.option("--new-plan", is_flag=True,
              help="Replace the run's plan by one of another kind, seed or metric (the "
                   "labels given so far stay; the skips are forgotten).")
@db_option
@friendly
def annotate_cmd(run_id: str | None, kind: Any, metric: str | None, labels: tuple[str, ...],
                 annotator: str | None, seed: int | None, new_plan: bool,
                 db: StoreLocation) -> None:
    """Label a run's samples in the terminal, in the order of its annotation plan
    (RUN: default the store's latest run)."""
    from ragassay.annotation import (
        AnnotationError,
        PlanConflict,
        SessionOptions,
        default_annotator,
        describe,
        start,
    )

    open_store(db, readonly=True).close()  # a missing store is a one-line error
    store = open_store(db)
    run_id = run_or_latest(store, run_id)
    options = SessionOptions(kind=kind, seed=seed, metric=metric, labels=labels,
                             replace=new_plan)
    who = storable(default_annotator() if annotator is None else annotator)
    try:
        session = start(store, run_id, options, annotator=who)
    except PlanConflict as exc:
        raise UsageProblem(f"{exc}: resume it without --plan/--seed/--metric, or replace "
                           "it with --new-plan") from None
    except AnnotationError as exc:
        raise UsageProblem(str(exc)) from None
    say(f"annotating run {session.queue.run_id} with {describe(session.plan())}"
        f" as {who or 'an unnamed annotator'}; asking {', '.join(session.queue.asked)}")
    for note in session.notes:
        say(note, err=True)
    said = _show_progress(store, session, full=True)
    try:
        _loop(store, session)
    except AnnotationError as exc:
        raise UsageProblem(str(exc)) from None
    _show_progress(store, session, full=True, unless=said)  # again only if it moved
