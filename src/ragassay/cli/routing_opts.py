"""The routing options of `ragassay eval` (a cascade of judge tiers, a jury) and the
one place they become a `RoutingPlan`, with a one-line error for each setup mistake."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ragassay.cli.common import FiniteFloat, UsageProblem
from ragassay.types import RoutingPlan, RoutingSettings, Tier

F = TypeVar("F", bound=Callable[..., Any])

JURY = "jury"

_OPTIONS = (
    click.option("--escalate", "escalate", multiple=True, metavar="SPEC",
                 help="A stronger judge for the samples the tier below is not sure of (any "
                      "judge spec, e.g. openai:gpt-4o; repeat it for more tiers; 'jury' puts "
                      "the --jury judges there). Needs --agreement (with labels) or "
                      "--escalate-share / --escalate-below."),
    click.option("--jury", "jury", multiple=True, metavar="SPEC",
                 help="Judges that judge together (ratings averaged, flags by majority, a "
                      "tie to the more cautious verdict); at least two. Alone: the jury is "
                      "the run's judge; with --escalate jury: a tier."),
    click.option("--labels", "labels_file", type=click.Path(dir_okay=False, path_type=Path),
                 default=None, metavar="FILE",
                 help="People's labels for some samples (JSONL, JSON or CSV; by id or "
                      "content), imported into the store: with --agreement they choose the "
                      "thresholds (labels already stored for these samples count too)."),
    click.option("--agreement", type=FiniteFloat(0, 1, min_open=True, max_open=True),
                 default=None, metavar="A",
                 help="Guarantee agreement with people of at least A (e.g. 0.9) on the "
                      "routed verdict, with probability 1 - --delta: each tier's threshold "
                      "by fixed-sequence testing on the labelled samples."),
    click.option("--delta", type=FiniteFloat(0, 1, min_open=True, max_open=True),
                 default=None, metavar="D",
                 help="The guarantee may fail with probability at most D.  [default: 0.1]"),
    click.option("--escalate-share", type=FiniteFloat(0, 1), default=None, metavar="S",
                 help="Without labels: the least confident share S of each tier's samples "
                      "go up (a budget; no agreement is guaranteed)."),
    click.option("--escalate-below", type=FiniteFloat(0, 1), default=None, metavar="C",
                 help="Without labels: samples a tier is less sure of than C (its "
                      "confidence, 0-1) go up."),
    click.option("--abstain", is_flag=True, default=None,
                 help="The last tier gets a threshold too: what it is not sure of is left "
                      "for a person (offered first by ragassay annotate), so the guarantee "
                      "covers every decided sample."),
    click.option("--route-on", "route_on", default=None, metavar="METRIC",
                 help="The metric routed on (default: the one the labels are linked to, "
                      "else the first yes/no metric, e.g. judge.hallucination)."),
)


NAMES = ("escalate", "jury", "labels_file", "agreement", "delta", "escalate_share",
         "escalate_below", "abstain", "route_on")


def routing_options(func: F) -> F:
    """Add the routing options to a command; it receives them as one dict,
    `routing_given` (option name -> value, None when not given)."""
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        given = {name: kwargs.pop(name) for name in NAMES}
        return func(*args, routing_given=given, **kwargs)

    out = wrapper
    for option in reversed(_OPTIONS):
        out = option(out)
    return out  # type: ignore[return-value]


def _given(params: dict[str, Any]) -> list[str]:
    names = {"labels_file": "--labels", "agreement": "--agreement", "delta": "--delta",
             "escalate_share": "--escalate-share", "escalate_below": "--escalate-below",
             "abstain": "--abstain", "route_on": "--route-on"}
    return [flag for key, flag in names.items() if params.get(key) not in (None, False)]


Check = Callable[[str], Callable[[str], str]]  # option name -> its spec check


def _tiers(judge: str, judge_given: bool, escalate: tuple[str, ...], jury: tuple[str, ...],
           check: Check) -> list[Tier]:
    jurors = tuple(check("--jury")(j) for j in jury)
    if jurors and len(jurors) < 2:
        raise UsageProblem("a jury needs at least two judges: repeat --jury SPEC")
    if len(set(jurors)) < len(jurors):
        raise UsageProblem("--jury names the same judge twice")
    if jurors and not escalate:
        if judge_given:
            raise UsageProblem("--judge and --jury: the jury is the run's judge; to ask it "
                               "only where --judge is not sure, add --escalate jury")
        return [Tier(judges=jurors)]
    tiers = [Tier(judges=(judge,))]
    for spec in escalate:
        if spec.strip().lower() == JURY:
            if not jurors:
                raise UsageProblem("--escalate jury needs the jury's judges: --jury SPEC "
                                   "--jury SPEC")
            tiers.append(Tier(judges=jurors))
        else:
            tiers.append(Tier(judges=(check("--escalate")(spec),)))
    if jurors and not any(t.is_jury for t in tiers):
        raise UsageProblem("--jury with --escalate: say where the jury sits, e.g. "
                           "--escalate jury")
    return tiers


def routing_plan(judge: str, judge_given: bool, check: Check, **params: Any) -> RoutingPlan | None:
    """The run's routing plan from the options (None: one judge, no routing), or
    UsageProblem naming the mistake."""
    escalate, jury = tuple(params.get("escalate") or ()), tuple(params.get("jury") or ())
    given = _given(params)
    if not escalate and not jury and not params.get("abstain"):
        if given:
            raise UsageProblem(f"{given[0]} routes between judges: add --escalate SPEC (a "
                               "stronger judge for what --judge is not sure of), --jury, or "
                               "--abstain (what it is not sure of is left for a person)")
        return None
    tiers = _tiers(judge, judge_given, escalate, jury, check)
    agreement, share = params.get("agreement"), params.get("escalate_share")
    below = params.get("escalate_below")
    if share is not None and below is not None:
        raise UsageProblem("--escalate-share and --escalate-below are two budgets: give one")
    if agreement is not None and (share is not None or below is not None):
        raise UsageProblem("--agreement chooses each tier's threshold from people's labels; "
                           "--escalate-share / --escalate-below set a budget without "
                           "labels: give one or the other")
    if params.get("delta") is not None and agreement is None:
        raise UsageProblem("--delta goes with --agreement (the chance the guarantee fails)")
    budget = share is not None or below is not None
    if (len(tiers) > 1 or params.get("abstain")) and agreement is None and not budget:
        raise UsageProblem("a cascade needs --agreement 0.9 (with people's labels: --labels "
                           "FILE, or labels stored for these samples) or a budget: "
                           "--escalate-share 0.3 or --escalate-below 0.8")
    if len(tiers) == 1 and not params.get("abstain") and (agreement is not None or budget):
        raise UsageProblem("one judge decides every sample: --agreement and the budgets need "
                           "--escalate SPEC or --abstain")
    labels = params.get("labels_file")
    if labels is not None and not Path(labels).is_file():
        raise UsageProblem(f"--labels {labels}: no such file")
    return RoutingPlan(tiers=tuple(tiers), agreement=agreement,
                       delta=params.get("delta") or 0.1, escalate_share=share,
                       escalate_below=below, abstain=bool(params.get("abstain")),
                       verdict=params.get("route_on"),
                       labels_file=str(Path(labels).resolve()) if labels else None)


def rerouting(**params: Any) -> RoutingSettings | None:
    """A resumed run's new threshold settings (--agreement, --delta, --escalate-share,
    --escalate-below, --abstain, --route-on, --labels; None: none given); its tiers cannot
    change (the judgments would be of other judges)."""
    if params.get("escalate") or params.get("jury"):
        raise UsageProblem("--resume keeps the run's tiers: leave out --escalate and --jury")
    labels = params.get("labels_file")
    if labels is not None and not Path(labels).is_file():
        raise UsageProblem(f"--labels {labels}: no such file")
    settings = RoutingSettings(
        agreement=params.get("agreement"), delta=params.get("delta"),
        escalate_share=params.get("escalate_share"),
        escalate_below=params.get("escalate_below"), abstain=params.get("abstain") or None,
        verdict=params.get("route_on"),
        labels_file=str(Path(labels).resolve()) if labels else None)
    return settings if settings.given() else None
