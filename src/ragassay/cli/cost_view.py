"""Cost on the terminal: what a finished run cost, and what a run would cost
(`eval --dry-run`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragassay.llm.pricing import price_text, resolve_price, usd_text
from ragassay.terminal import counted
from ragassay.types import is_offline

if TYPE_CHECKING:
    from ragassay.report import Report
    from ragassay.runner.estimate import RunEstimate
    from ragassay.types import Price

PRICE_HINT = "--price-in/--price-out USD per 1M tokens"


def cost_text(report: Report, price: Price | None = None) -> str:
    """The run's cost as the usage line ends it: `cost $0.0123`, `cost $0 (offline
    judge)`, or why it is unknown."""
    usage, meta = report.usage, report.run
    if meta.method == "offline" and report.routing is None:
        return "cost $0 (offline judge)"
    if usage.cost_usd is not None:
        return f"cost {usd_text(usage.cost_usd)}"
    if usage.calls == 0:
        return "cost $0 (no call was made)"
    judge = meta.judge
    if report.routing is not None:  # the tier that made calls names the price it lacks
        judge = next((t.judge for t in report.routing.tiers if t.calls), judge)
    _, why = resolve_price(judge, price)
    return f"cost unknown: {why}"


def print_estimate(est: RunEstimate, metrics: str, console: Console, *,
                   batch: bool = False) -> None:
    """The dry run's table: calls and tokens per suite and in total, then the cost (with
    `batch`, also at the provider's batch price)."""
    console.print(f"[bold]dry run[/bold]: {counted(est.samples, 'sample')}"
                  + (f" ({est.invalid} invalid rows left out)" if est.invalid else "")
                  + f", judge {escape(est.judge)}, metrics {escape(metrics)}; nothing was "
                  "sent", highlight=False)
    if not est.total.calls:
        console.print("no judge call: "
                      + ("the offline judge runs here" if is_offline(est.judge)
                         else "no sample has the inputs of the chosen metrics")
                      + "; cost $0", highlight=False)
        return
    t = Table(title="estimated judge calls and tokens (about 4 characters a token)")
    for col in ("suite", "calls", "input tokens", "output tokens", "output at most"):
        t.add_column(col, justify="left" if col == "suite" else "right")
    for name, s in [*est.suites.items(), ("total", est.total)]:
        t.add_row(escape(name), f"{s.calls:,}", f"{s.input_tokens:,}", f"{s.output_tokens:,}",
                  f"{s.output_tokens_max:,}")
    console.print(t)
    if est.price is None or est.usd is None or est.usd_max is None:
        console.print(f"cost unknown: {escape(est.price_note)}", highlight=False)
    else:
        console.print(f"estimated cost {usd_text(est.usd)} (at most {usd_text(est.usd_max)} "
                      f"if every reply used its max_tokens) at {price_text(est.price)} "
                      f"({escape(est.price_note)}); cache hits cost nothing and are not "
                      "counted", highlight=False)
    if batch:
        print_batch_estimate(est, console)


def print_batch_estimate(est: RunEstimate, console: Console) -> None:
    """`with --batch: estimated $0.0061 (at most ...) at the batch price ...`."""
    from ragassay.llm.pricing import batch_price

    given = est.price if est.price_note == "--price-in/--price-out" else None
    price, note = batch_price(est.judge, given)
    if price is None:
        console.print(f"with --batch: cost unknown: {escape(note)}", highlight=False)
        return
    t = est.total
    usd, usd_max = price.cost(t.input_tokens, t.output_tokens), price.cost(
        t.input_tokens, t.output_tokens_max)
    direct = f" (direct calls: {usd_text(est.usd)})" if est.usd is not None else ""
    console.print(f"with --batch: estimated {usd_text(usd)} (at most {usd_text(usd_max)})"
                  f"{direct} at {price_text(price)} ({escape(note)}); results within 24 h",
                  highlight=False)
