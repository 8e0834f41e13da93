"""`ragassay route RUN`: re-decide a routed run from its stored verdicts, without a call.

With new settings (`--agreement 0.95`, a budget, `--abstain`) every tier's threshold is
chosen again from the verdicts and labels in the store; when every sample's deciding
tier has judged it, the new routing is written to the run (its results become the new
routed verdicts); otherwise nothing is written and the command says which tier would
have to judge how many more samples, at about what cost (from the tier's measured cost
per sample), and how to have them judged (`eval --resume` with the same settings).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ragassay.cli.app import cli
from ragassay.cli.common import (
    FiniteFloat,
    UsageProblem,
    console,
    db_option,
    friendly,
    open_store,
    say,
)
from ragassay.types import RoutingSettings


@cli.command("route")
@click.argument("run_id", metavar="RUN")
@db_option
@click.option("--agreement", type=FiniteFloat(0, 1, min_open=True, max_open=True),
              default=None, metavar="A", help="The agreement with people to guarantee.")
@click.option("--delta", type=FiniteFloat(0, 1, min_open=True, max_open=True), default=None,
              metavar="D", help="The chance the guarantee may fail.")
@click.option("--escalate-share", type=FiniteFloat(0, 1), default=None, metavar="S",
              help="A budget instead: the least confident share S of each tier goes up.")
@click.option("--escalate-below", type=FiniteFloat(0, 1), default=None, metavar="C",
              help="A budget instead: a confidence below C goes up.")
@click.option("--abstain/--no-abstain", default=None,
              help="Leave what the last tier is not sure of for a person (or not).")
@click.option("--labels", "labels_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, metavar="FILE",
              help="Import people's labels first (JSONL, JSON or CSV; by id or content).")
@click.option("--dry-run", is_flag=True, help="Show the new routing; write nothing.")
@friendly
def route_cmd(run_id: str, db: Path, dry_run: bool, labels_file: Path | None,
              **given: Any) -> None:
    """Re-decide a routed run (made with --escalate or --jury) from its stored verdicts:
    new thresholds, no judge call. Prints the routing; writes it to the run unless a
    tier would have to judge more samples (then says how many and at what cost)."""
    from ragassay.cli.routing_view import print_routing
    from ragassay.routing import decide, write

    store = open_store(db)
    run = store.get_run(run_id)
    plan = run.config.routing
    if plan is None:
        raise UsageProblem(f"run {run.id} was not routed (judged by {run.config.judge} "
                           "alone): route a run made with --escalate or --jury")
    if (why := run.read_only_reason()) is not None:
        raise UsageProblem(why)
    changes = {k: v for k, v in given.items() if v is not None}
    if changes.get("escalate_share") is not None and changes.get("escalate_below") is not None:
        raise UsageProblem("--escalate-share and --escalate-below are two budgets: give one")
    if changes.get("agreement") is not None and (
            changes.get("escalate_share") is not None or changes.get("escalate_below")
            is not None):
        raise UsageProblem("--agreement chooses the thresholds from labels; the budgets "
                           "set them without: give one or the other")
    new = plan.updated(RoutingSettings(**changes))
    if new.mode == "budget" and new.escalate_share is None and new.escalate_below is None:
        raise UsageProblem("without --agreement a routing needs a budget: --escalate-share "
                           "or --escalate-below")
    if new.delta is not None and "delta" in changes and new.agreement is None:
        raise UsageProblem("--delta goes with --agreement (the chance the guarantee fails)")
    if labels_file is not None:
        from ragassay.labels import import_file

        import_file(store, run.id, labels_file)
        new = new.model_copy(update={"labels_file": str(labels_file.resolve())})
    decision = decide(store, run.id, new)
    print_routing(decision.summary, console())
    if not decision.complete:
        options = " ".join(_options(changes))
        say(f"not written: the new routing needs judge calls; to make them: ragassay eval "
            f"{run.dataset} --resume {run.id} {options}".rstrip(), err=True)
        return
    if dry_run:
        say("not written (--dry-run)", err=True)
        return
    write(store, run.id, decision, new)
    say(f"routing written to run {run.id}: its results are the new routed verdicts",
        err=True)


def _options(changes: dict[str, Any]) -> list[str]:
    out = []
    for key, value in changes.items():
        flag = "--" + key.replace("_", "-")
        if key == "abstain":
            out.append("--abstain" if value else "")
        else:
            out.append(f"{flag} {value:g}")
    return [o for o in out if o]
