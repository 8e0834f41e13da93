"""The leaderboard's columns are declared once (`report.LEADERBOARD_COLUMNS`): the console
table, the HTML report and the JSON show the same columns in the same order (the
dashboard: tests/ui/test_ui_leaderboard.py)."""

from __future__ import annotations

import re
from html import unescape

from rich.console import Console

from ragassay.bench.leaderboard import leaderboard_table
from ragassay.report import (
    LEADERBOARD_COLUMNS,
    LEADERBOARD_HEADERS,
    VERSUS_COLUMNS,
    VERSUS_HEADERS,
    VERSUS_NOTE,
    LeaderboardRow,
    leaderboard_notes,
    report_json,
    to_html,
)
from tests.report.conftest import NAMES, bench_report, handbook_rows

# a trial found the console with 15 columns, the HTML with 13 and the dashboard with 16,
# each a different set; this is the one list all of them show
HEADERS = ("#", "strategy", "kind", "mean", "95% CI", "vs best", "failed", "recall", "MRR",
           "nDCG", "retr. n", "no answer", "index s", "retr. p95 ms", "ans. p50 ms", "ans. p95 ms",
           "est. $", "meas. $")

def test_the_columns_are_declared_once_with_their_fields() -> None:
    assert LEADERBOARD_HEADERS == HEADERS
    fields = {f.alias or n for n, f in LeaderboardRow.model_fields.items()}
    for c in LEADERBOARD_COLUMNS:
        assert set(c.fields) <= fields, c.header
    # the JSON's rows hold the columns' fields in the columns' order
    keys = list(report_json(bench_report(handbook_rows()))["leaderboard"][0])
    shown = [f for c in LEADERBOARD_COLUMNS for f in c.fields]
    assert [k for k in keys if k in shown] == shown


def test_the_html_shows_the_columns_and_the_consoles_cells() -> None:
    rows = handbook_rows()
    page = to_html(bench_report(rows))
    section = page.split('<section id="leaderboard">')[1].split("</section>")[0]
    section, versus = section.split("<h3>")
    heads = [unescape(h) for h in re.findall(r"<th(?: [^>]*)?>(.*?)</th>", section)]
    assert tuple(heads) == HEADERS
    body = re.findall(r"<tr>(.*?)</tr>", section.split("<tbody>")[1])
    assert len(body) == len(rows)
    cells = [unescape(re.sub(r"<[^>]+>", "", c))
             for c in re.findall(r"<td[^>]*>(.*?)</td>", body[0])]
    assert cells == [c.text(rows[0]) for c in LEADERBOARD_COLUMNS]
    assert "0.0123" in cells and "290.0" in cells and "[7.550, 8.490]" in cells
    empty = [unescape(re.sub(r"<[^>]+>", "", c))
             for c in re.findall(r"<td[^>]*>(.*?)</td>", body[-1])]
    assert empty[1:3] == ["team app", "pipeline"] and empty[6] == "3" and empty[3] == "-"
    # then each strategy against the best: the difference, its interval, d and the tests
    heads = [unescape(h) for h in re.findall(r"<th(?: [^>]*)?>(.*?)</th>", versus)]
    assert tuple(heads) == VERSUS_HEADERS
    body = re.findall(r"<tr>(.*?)</tr>", versus.split("<tbody>")[1])
    assert len(body) == 4  # the tested rows: not the best, not the unscored pipeline
    cells = [unescape(re.sub(r"<[^>]+>", "", c))
             for c in re.findall(r"<td[^>]*>(.*?)</td>", body[0])]
    assert cells == [c.text(rows[1]) or "-" for c in VERSUS_COLUMNS]
    assert cells[1:8] == ["unclear", "-0.050", "[-0.090, -0.010]", "-0.04", "negligible",
                          "0.2000", "0.250"] and cells[8] == "<0.0001"
    assert VERSUS_NOTE in unescape(versus)


def test_the_console_shows_every_column_with_no_figure_cut_short() -> None:
    rows = handbook_rows()
    group = leaderboard_table(rows)
    table, versus = group.renderables[:2]
    assert tuple(str(c.header) for c in table.columns) == HEADERS
    assert tuple(str(c.header) for c in versus.columns) == VERSUS_HEADERS
    console = Console(width=150, record=True, color_system=None)
    console.print(group)
    out = console.export_text()
    assert "…" not in out  # 17 columns fit 150 characters: headers and names wrap instead
    assert all(len(line) <= 150 for line in out.splitlines())
    for c in LEADERBOARD_COLUMNS:
        if c.numeric:
            for r in rows:
                assert (c.text(r) or "—") in out, (c.header, r.strategy)
    for name in NAMES:  # a name wraps at its spaces at worst, never cut
        assert all(word in out for word in name.split())
    for c in VERSUS_COLUMNS:
        for r in rows[1:-1]:
            assert (c.text(r) or "—") in out, (c.header, r.strategy)


def test_a_ranking_metric_constant_across_strategies_is_said_so() -> None:
    rows = [LeaderboardRow(rank=i + 1, strategy=n, metric="ragas.faithfulness", mean=0.95,
                           ci_low=0.95, ci_high=0.95, n=30, vs_best="best" if i == 0 else
                           "equivalent", diff=None if i == 0 else 0.0,
                           constant=None if i == 0 else True)
            for i, n in enumerate(NAMES[:3])]
    note = ("ragas.faithfulness is constant across strategies: every strategy scores each "
            f"question as {NAMES[0]} does (mean 0.950), so it cannot separate them")
    assert leaderboard_notes(rows)[0].startswith(note)
    assert note in unescape(to_html(bench_report(rows)))
    console = Console(width=150, record=True, color_system=None)
    console.print(leaderboard_table(rows))
    assert "cannot separate them" in console.export_text()
    assert leaderboard_notes(handbook_rows()) == []  # a metric that varies: nothing to say


def test_rows_whose_retrieval_metrics_cover_fewer_questions_are_named() -> None:
    """Trial 50: a pipeline scored on 1 question of 4 showed recall 1.00 beside others'
    0.25 over 4, without a word; every writer's notes now name it."""
    rows = handbook_rows()
    assert not any("retr. n" in n for n in leaderboard_notes(rows))  # all over 30
    fewer = [rows[0], rows[1].model_copy(update={"retrieval_n": 7}), rows[-1]]
    assert [n for n in leaderboard_notes(fewer) if "retr. n" in n] == [
        f"retrieval metrics over fewer questions than others' 30 (retr. n): "
        f"{rows[1].strategy} 7; their recall, MRR and nDCG are means over other questions "
        "and do not compare with the rest (name each context's document, or return text "
        "found in the corpus, to score every question with gold labels)."]
