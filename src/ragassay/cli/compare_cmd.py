"""`ragassay compare`: two runs, or two strategies of a run, paired metric by metric:
the difference with its interval, the effect size, the tests and a verdict (better,
worse, equivalent or unclear; not scored where no pair has a value on both sides;
`stats.compare`)."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import click
from rich.markup import escape
from rich.table import Table

from ragassay.cli.app import cli
from ragassay.cli.common import (
    FiniteFloat,
    StoreLocation,
    UsageProblem,
    console,
    db_option,
    friendly,
    open_store,
    say,
)
from ragassay.cli.fmt import ci_text, num
from ragassay.terminal import counted

if TYPE_CHECKING:
    from ragassay.stats import Comparison, ScoreTable
    from ragassay.types import MetricSpec

CI_COLUMN = "95% CI\n(unadjusted)"
P_COLUMN = "p\n(Holm)"
EQUIVALENCE_HELP = (
    "A practical-equivalence margin on the metric's own scale, overriding the one the "
    "metric declares: METRIC=MARGIN (repeatable), or MARGIN alone for every metric it is "
    "at most a tenth of the range of (0.25: the ten-point ratings, not the 0-1 rates). "
    "B is 'equivalent' to A when the two one-sided tests put B - A within +-MARGIN.")
STYLE = {"better": "green", "worse": "red", "equivalent": "cyan"}
COLUMNS = ("A", "B", "B - A", CI_COLUMN, "d", "effect", P_COLUMN, "margin",
           "p equiv.\n(Holm)", "verdict")
"""The table's columns after the metric's."""
PACKED = (("A", "B", "B - A"), (CI_COLUMN,), ("verdict",), ("d", "effect"),
          (P_COLUMN, "margin", "p equiv.\n(Holm)"))
"""The same in groups kept together, the verdict beside the difference, in the order they
fill tables where one table would split a cell."""
PAIRS = "pairs"
"""The column of each metric's pairs (paired samples it scores on both sides), first,
shown where some metric rests on fewer than the footer's paired samples (trial 66: A's
0.706 beside eval's 0.702 rested on 123 of 144 pairs, which nothing said)."""
WRAPS = {CI_COLUMN}
"""The one column whose cells wrap (at the space after the interval's comma); every other
cell is one number or word, or a verdict, never split (trial 61: `0.6` / `08`)."""


def _cells(result: Comparison) -> dict[str, dict[str, str]]:
    """Each metric's cells, by column."""
    from ragassay.stats import magnitude, p_text

    out = {}
    for metric, r in result.metrics.items():
        style = STYLE.get(r.verdict, "")
        out[metric] = {
            PAIRS: str(r.n), "A": num(r.mean_a), "B": num(r.mean_b), "B - A": num(r.diff),
            CI_COLUMN: ci_text((r.ci_low, r.ci_high)), "d": num(r.effect_size, 2),
            "effect": "identical" if r.constant else (magnitude(r.effect_size) or "-"),
            P_COLUMN: p_text(r.p_adjusted), "margin": num(r.margin),
            COLUMNS[-2]: p_text(r.tost_p_adjusted),
            "verdict": f"[{style}]{r.verdict_text}[/{style}]" if style else r.verdict_text}
    return out


def _table(title: str, columns: Sequence[str], cells: Mapping[str, Mapping[str, str]]
           ) -> Table:
    from rich import box

    t = Table(title=escape(title), box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    t.add_column("metric", no_wrap=True)
    for col in columns:
        t.add_column(col, justify="left" if col in ("effect", "verdict") else "right",
                     no_wrap=col not in WRAPS)
    for metric, row in cells.items():
        t.add_row(escape(metric), *(row[col] for col in columns))
    return t


def _print_comparison(result: Comparison, title: str) -> None:
    """The comparison as one table where the console is wide enough for every cell
    whole, else as the fewest tables that are (a file or a pipe, 100 wide: the difference
    and verdict, then the effect size and tests), so that no number is split over two
    lines (trial 61)."""
    from ragassay.console import unsplit_width

    out, cells = console(), _cells(result)
    # means over fewer pairs; a 0-pair metric has no means (the `not scored:` line says it)
    fewer = [m for m, r in result.metrics.items() if 0 < r.n < result.paired_samples]
    columns = [PAIRS, *COLUMNS] if fewer else list(COLUMNS)
    packed = [((PAIRS, *PACKED[0]) if fewer else PACKED[0]), *PACKED[1:]]
    parts: list[list[str]] = [columns]
    if unsplit_width(out, _table(title, columns, cells)) > out.width:
        parts = [[]]
        for cols in packed:
            if parts[-1] and unsplit_width(out, _table(title, [*parts[-1], *cols], cells)
                                           ) > out.width:
                parts.append([])
            parts[-1] += cols
    for i, part in enumerate(parts):
        out.print(_table(title if not i else f"{title}, continued", part, cells))
    m = sum(r.p_adjusted is not None for r in result.metrics.values())
    say(paired_line(result, fewer))
    say(f"verdict: equivalent when the two one-sided tests (paired t, Holm-adjusted over {m} "
        "metrics) put B - A within +-margin (the metric's declared equivalence margin, or "
        "--equivalence), even when a difference is also detectable; else better or worse "
        f"when the Holm-adjusted Wilcoxon p is below alpha {result.alpha} and the 95% CI of "
        "B - A excludes 0 (with the effect beside it where d is negligible or small: a real "
        "difference, small against the spread); else unclear; not scored when no paired "
        "sample has a value in both. d: Cohen's d (B - A over the two sides' average "
        "SD; |d| < 0.2 negligible, < 0.5 small, < 0.8 medium, else large); the intervals "
        "are not adjusted for multiple metrics.")
    constant = [name for name, r in result.metrics.items() if r.constant and r.n]
    if constant:
        # (trial 71: "constant" read as "the metric does not vary")
        say(f"the same in A and B on every paired sample: {', '.join(constant)} (each "
            "sample scored alike on both sides, whatever its value: these metrics cannot "
            "separate the two).")


def paired_line(result: Comparison, fewer: Sequence[str]) -> str:
    """The footer's count of paired samples, and what A and B are means of: each metric's
    pairs (the paired samples it scores on both sides), which for a metric some sample
    leaves unscored on one side are fewer than the paired samples, so its A differs from
    run A's mean in `eval` and `runs show` (trial 66)."""
    head = f"paired samples: {result.paired_samples} (paired by {result.paired_by}); "
    if not fewer:
        return head + "A and B: each metric's means over these pairs"
    return head + ("A and B: each metric's means over its pairs, the paired samples it "
                   f"scores on both sides (the {PAIRS} column; fewer than "
                   f"{result.paired_samples} for {counted(len(fewer), 'metric')}), not each "
                   "run's own mean over every sample it scores (eval, runs show)")


def not_scored_line(result: Comparison, tables: Sequence[ScoreTable]) -> str | None:
    """`not scored: judge.answer_similarity (no reference answer): no paired sample has a
    value in both A and B, so there is nothing to compare` (the reasons: the tables' own,
    the commonest three), or None when every metric has a pair."""
    said = []
    for name, r in result.metrics.items():
        if r.verdict != "not scored":
            continue
        why: Counter[str] = Counter()
        for table in tables:
            if name in table.specs:
                why.update(table.unscored_reasons(name))
        top = ", ".join(reason for reason, _ in why.most_common(3))
        said.append(f"{name} ({top})" if top else name)
    if not said:
        return None
    return (f"not scored: {', '.join(said)}: no paired sample has a value in both A and B, so "
            "there is nothing to compare")


def _refuse_unpaired(result: Comparison, what: str) -> None:
    if not result.paired_samples:
        raise UsageProblem(f"{what}: no paired samples (paired by "
                           f"{result.paired_by}), so nothing can be compared")


def _margin(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UsageProblem(f"--equivalence {where}: {text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise UsageProblem(f"--equivalence {where}: the margin must be a positive number")
    return value


BARE_SHARE = 0.1
"""A bare --equivalence MARGIN applies to the metrics it is at most this share of the
range of: 0.25 is a quarter point on a ten-point rating, not a quarter of a 0-1 rate."""


def equivalence_margins(given: Sequence[str], specs: Mapping[str, MetricSpec]
                        ) -> tuple[dict[str, float], list[str]]:
    """The margins `--equivalence` overrides, by metric, and what to tell the user:
    METRIC=MARGIN sets one metric's; a bare MARGIN every metric it is at most
    `BARE_SHARE` of the range of (the others keep their declared margins, said in a
    note; refused when it fits none)."""
    out: dict[str, float] = {}
    notes: list[str] = []
    for item in given:
        metric, sep, value = item.rpartition("=")
        margin = _margin(value, item)
        if sep:
            metric = metric.strip()
            if metric not in specs:
                raise UsageProblem(f"--equivalence {item}: no metric {metric!r} in the "
                                   f"comparison; it has {', '.join(specs) or 'none'}")
            out[metric] = margin
            continue
        fits = [m for m, s in specs.items() if margin <= BARE_SHARE * abs(s.high - s.low)]
        if not fits:
            raise UsageProblem(f"--equivalence {item}: larger than a tenth of the range of "
                               "every metric compared; give METRIC=MARGIN")
        out.update(dict.fromkeys(fits, margin))
        rest = [m for m in specs if m not in fits]
        if rest:
            notes.append(f"--equivalence {item} applies to {', '.join(fits)}; "
                         f"{', '.join(rest)} keep their declared margins ({item} is more than "
                         "a tenth of their range; set one with METRIC=MARGIN)")
    return out, notes


def _table_for(store: Any, run_id: str) -> Any:
    from ragassay.report import run_table

    return run_table(store, run_id).table


@cli.command("compare", help="Paired comparison of two runs, or of two strategies within a "
             "run: per metric the difference with its interval, Cohen's d, the Wilcoxon "
             "and equivalence tests (Holm-adjusted across metrics) and a verdict: better, "
             "worse, equivalent (within the metric's practical-equivalence margin) or "
             "unclear. The intervals shown are per-metric (unadjusted), labelled so. "
             "RUN_A (or the first --strategy) is the baseline, A; RUN_B (or the second) "
             "the new one, B: each difference is B - A and each verdict says how B fares "
             "against A, so the title reads 'B (new) vs A (baseline)'. "
             "Refused when no sample pairs.")
@click.argument("run_a", metavar="RUN_A")
@click.argument("run_b", metavar="RUN_B", required=False)
@click.option("--strategy", "strategies", multiple=True,
              help="Compare two strategies (give it twice); within RUN_A when RUN_B is omitted.")
@click.option("--alpha", type=FiniteFloat(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="Significance level of a verdict, in (0, 1).")
@click.option("--equivalence", "equivalence", multiple=True, metavar="[METRIC=]MARGIN",
              help=EQUIVALENCE_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
@db_option
@friendly
def compare_cmd(run_a: str, run_b: str | None, strategies: tuple[str, ...], alpha: float,
                equivalence: tuple[str, ...], as_json: bool, db: StoreLocation) -> None:
    from ragassay.stats import CompareOptions, compare_strategies, compare_tables

    store = open_store(db, readonly=True)
    run_a_rec = store.get_run(run_a)  # each run read once: its id, dataset and judge
    table_a = _table_for(store, run_a_rec.id)
    run_b_rec = None if run_b is None else store.get_run(run_b)
    table_b = None if run_b_rec is None else _table_for(store, run_b_rec.id)
    specs = dict(table_a.specs) if table_b is None else {
        m: s for m, s in table_b.specs.items() if m in table_a.specs}
    margins, notes = equivalence_margins(equivalence, specs)
    options = CompareOptions(alpha=alpha, margins=margins)
    if table_b is None:
        if len(strategies) != 2:
            raise UsageProblem("give RUN_B, or two --strategy options to compare within RUN_A")
        for s in strategies:
            if s not in table_a.strategies:
                raise UsageProblem(f"no strategy {s!r} in run {run_a}; it has "
                                   f"{', '.join(table_a.strategies)}")
        result = compare_strategies(table_a, strategies[0], strategies[1], options)
        _refuse_unpaired(result, f"strategies {strategies[0]!r} and {strategies[1]!r} of run "
                                 f"{run_a} answer no common question")
        title = f"{strategies[1]} (B, new) vs {strategies[0]} (A, baseline)"
        tables = [table_a.for_strategy(s) for s in strategies]
        judges = {"A": run_a_rec.judge, "B": run_a_rec.judge}
    else:
        assert run_b_rec is not None
        if strategies:
            table_a = table_a.for_strategy(strategies[0])
            table_b = table_b.for_strategy(strategies[-1])
        result = compare_tables(table_a, table_b, options)
        _refuse_unpaired(result, f"runs {run_a_rec.id} ({run_a_rec.dataset}) and {run_b_rec.id} "
                                 f"({run_b_rec.dataset}) share no sample")
        judges = {"A": run_a_rec.judge, "B": run_b_rec.judge}
        title = (f"run {run_b} (B, new, judge {judges['B']}) vs run {run_a} (A, baseline, "
                 f"judge {judges['A']})")
        tables = [table_a, table_b]
    if as_json:
        click.echo(json.dumps({**result.model_dump(), "judges": judges,
                               "intervals": "per metric, not adjusted for multiple comparisons",
                               "p_adjustment": "holm",
                               "effect_size": "Cohen's d_av: B - A over the mean of the two "
                                              "sides' standard deviations",
                               "equivalence": "two one-sided paired t-tests within +-margin"},
                              indent=2, allow_nan=False))
    else:
        _print_comparison(result, title)
        if judges["A"] != judges["B"]:  # trial 69: offline vs offline:accurate, unsaid
            say(f"judges differ: A {judges['A']}, B {judges['B']}: a difference (or an "
                "equivalence) may be the judge's, not the system's")
        if (line := not_scored_line(result, tables)) is not None:
            say(line)
        if (changed := result.abstentions_changed) is not None:  # no verdict says these
            say(f"{changed.text()}: a verdict above (equivalent included) is of a metric's "
                "values, not of these samples' declines")
    for note in notes:
        say(f"note: {note}", err=True)
