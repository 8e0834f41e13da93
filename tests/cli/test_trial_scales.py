"""A new-user trial of the release (`make demo`, `ragassay eval`, `ragassay gate`): a
target shown on the scale of the value beside it, the gate's default bars the metrics'
targets, a reliability command a clean clone can rerun, and a per-strategy table for
every suite. Each through the CLI, on the bundled demo with the offline judge."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli


def _eval(data: Path, tmp: Path, metrics: str, *extra: str) -> tuple[str, Path]:
    db = tmp / f"{metrics.replace(',', '-')}.db"
    result = CliRunner().invoke(cli, ["eval", "-v", str(data), "--db", str(db), "--metrics",
                                      metrics, *extra], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output, db


@pytest.mark.parametrize("metrics", ["judge", "trace", "ragas", "judge,trace,ragas"])
def test_every_suite_gets_its_per_strategy_table(metrics: str, demo_data: Path,
                                                 tmp_path: Path) -> None:
    """`--metrics ragas` printed no per-strategy table, `--metrics judge` did: every suite
    of the run now gets one, each strategy's row holding the suite's means."""
    out, _ = _eval(demo_data, tmp_path, metrics)
    lines = out.splitlines()
    for suite in metrics.split(","):
        title = f"{suite} suite per strategy: means of the samples' scores (95% CI)"
        assert title in out, out
        start = next(i for i, line in enumerate(lines) if title in line)
        end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("└"))
        rows: list[list[str]] = []  # a row's cells, its wrapped lines joined
        for line in lines[start:end]:
            if line.startswith("│ "):
                cells = [c.strip() for c in line.split("│")[1:-1]]
                if cells[0] or not rows:
                    rows.append(cells)
                else:  # a figure's "(n=11)", wrapped under it
                    rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells, strict=True)]
        assert [r[0] for r in rows] == ["bm25-k3", "dense-k5"]
        for row in rows:  # every cell a mean with its interval; n 12; failed a count
            cells = row[1:]
            assert all("[" in c for c in cells[:-2]), row
            assert cells[-2] == "12" and cells[-1].isdigit(), row


@pytest.fixture(scope="module")
def demo_all(tmp_path_factory: pytest.TempPathFactory, demo_data: Path) -> dict:
    """The demo as `make demo` runs it (every default suite), its JSON and HTML reports."""
    tmp = tmp_path_factory.mktemp("trial")
    out, db = _eval(demo_data, tmp, "judge,trace,ragas", "--out", str(tmp / "demo.json"))
    html = tmp / "demo.html"
    result = CliRunner().invoke(cli, ["report", "--db", str(db), "--format", "html",
                                      "--out", str(html)])
    assert result.exit_code == 0, result.output
    return {"output": out, "db": db, "report": json.loads((tmp / "demo.json").read_text()),
            "html": html.read_text(encoding="utf-8")}


def test_a_target_is_said_on_the_scale_of_its_mean(demo_all: dict) -> None:
    """judge.overall (0-10) printed `mean 4.74 (normalised 0.474) is warning: target >=
    0.8, warning below 0.6 on 0-1`: its target is now said on its own scale, in the
    console and in the HTML report's summary (under the offline judge its soft target,
    the judge's own line on its parts' 1-10, trial 65)."""
    out, html = demo_all["output"], demo_all["html"]
    mean = demo_all["report"]["aggregate_metrics"]["metrics"]["judge.overall"]["mean"]
    said = {f["metric"]: f["message"] for f in demo_all["report"]["interpretation"]
            if f["scope"] == "overall"}  # the console prints the warnings among them
    assert said["judge.overall"] == f"judge.overall mean {mean:.3g}: meets the target >= 5.5"
    # no target said on a normalised 0-1 scale (a figure's own 0-1 range, `rate 0.285 [...]
    # on 0-1` in the headline, is its scale)
    assert "normalised" not in out and not re.search(r"(target|warning)[^\n]*on 0-1", out)
    row = html.split("<tr><td>judge.overall</td>", 1)[1].split("</tr>", 1)[0]
    assert "<td>&gt;= 5.5; warning &lt; 4.6</td>" in row
    specs = demo_all["report"]["metric_specs"]
    for flag in demo_all["report"]["interpretation"]:  # every target inside its range
        spec = specs[flag["metric"]]
        bars = [spec["target"]["good"], spec["target"]["warning"]]
        assert all(spec["low"] <= b <= spec["high"] for b in bars), flag
        if spec["high"] > 1:
            assert min(bars) > 1, flag
        op = ">=" if spec["higher_is_better"] else "<="
        assert _says_target(flag["message"], op, f"{bars[0]:g}"), flag  # the one it uses


def _says_target(message: str, op: str, bar: str) -> bool:
    """Whether a flag's message says the target `op bar` (not a longer number)."""
    return re.search(rf"target {re.escape(op)} {re.escape(bar)}(?![\d.])", message) is not None


def _gate(db: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["gate", "--db", str(db)], env={"COLUMNS": "200"})
    return result.exit_code, result.stdout, result.stderr


def test_the_gate_defaults_are_the_targets_the_report_shows(demo_all: dict) -> None:
    """The gate's default bar for ragas.faithfulness was 0.9 while the report's target
    read 0.8, and judge metrics showed a target but were not gated (#38 item 7): every
    metric's default bar is now the target the report (and the pytest plugin) show."""
    code, out, err = _gate(demo_all["db"])
    assert code == 1  # the demo's strategies miss their bars
    said = err.split("the target the report shows: ", 1)[1].split("; set your own", 1)[0]
    parts = [part.split(" ") for part in said.split(", ")]
    bars = {metric: bar for metric, _, bar in parts}
    ops = {metric: op for metric, op, _ in parts}
    assert {k: bars[k] for k in ("ragas.faithfulness", "ragas.answer_relevancy",
                                 "ragas.context_precision", "ragas.context_recall",
                                 "judge.faithfulness", "judge.hallucination")} == {
        # the offline judge's soft targets, its own line (trial 65); a rate's stands
        "ragas.faithfulness": "0.5", "ragas.answer_relevancy": "0.5",
        "ragas.context_precision": "0.5", "ragas.context_recall": "0.5",
        "judge.faithfulness": "5.5", "judge.hallucination": "0.1"}
    targets = {f["metric"]: f["message"] for f in demo_all["report"]["interpretation"]
               if f["scope"] == "overall"}
    assert set(bars) == set(targets)  # every metric the report flags is gated
    for metric, bar in bars.items():
        assert _says_target(targets[metric], ops[metric], bar), targets[metric]
        assert f"│ {metric} " in out and "apart from its target" not in err


def test_a_stored_bar_apart_from_its_target_is_said(demo_data: Path, tmp_path: Path) -> None:
    """A run stored before the gate took its bars from the targets kept its own bar (ragas
    faithfulness 0.9 with the generic target 0.8): the gate applies it and says so."""
    import sqlite3

    _, db = _eval(demo_data, tmp_path, "ragas")
    with sqlite3.connect(db) as conn:
        (specs,) = conn.execute("SELECT specs FROM runs").fetchone()
        # as such a run stored it: no target, its bar 0.9, no soft target
        old = [{**{k: v for k, v in s.items() if k not in ("soft", "soft_target")},
                "target": None, "gate": 0.9} if s["name"] == "ragas.faithfulness" else s
               for s in json.loads(specs)]
        conn.execute("UPDATE runs SET specs = ?", (json.dumps(old),))
    conn.close()
    _, _, err = _gate(db)
    assert ("ragas.faithfulness >= 0.9 (the run's declared bar, apart from its target 0.8)"
            in err)
    assert "ragas.answer_relevancy >= 0.5, " in err  # at its target: nothing said


REPO = Path(__file__).resolve().parents[2]


def test_the_reliability_command_reruns_from_a_clean_clone(demo_all: dict) -> None:
    """`judge_reliability.command` read `scripts/devsets/loo.py ... --reliability
    ../../src/...`: paths of the folder it was run in. It is now the repository's own
    script with paths from the repository's root, each of which is there."""
    command = demo_all["report"]["evaluation_metadata"]["judge_reliability"]["command"]
    words = command.split()
    assert words[:2] == ["python", "scripts/devsets/loo.py"], command
    assert (REPO / words[1]).is_file()
    assert not any(w.startswith(("/", "~")) or ".." in w for w in words), command
    shipped = words[words.index("--reliability") + 1]
    assert (REPO / shipped).is_file() and shipped.startswith("src/ragassay/")


def test_a_command_of_the_machine_it_was_measured_on_is_left_out() -> None:
    from ragassay.judge.reliability import rerunnable

    ok = "python scripts/devsets/loo.py --out data/devsets/x.json"
    assert rerunnable(ok) == ok
    assert rerunnable("cd /home/dev/ragassay && python scripts/devsets/loo.py") == ""
    assert rerunnable(f"{ok} --reliability ../../src/r.json; {ok}") == ok
    assert rerunnable("python loo.py --out=C:/data/x.json") == ""
