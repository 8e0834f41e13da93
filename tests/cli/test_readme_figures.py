"""The README's and docs/trust.md's figures come from the commands they show (issue #44
item 5; a new-user trial found docs/trust.md's stale after a judge refit): the labels
example's judge mean, labels-only and corrected estimates, gains and console lines are
what `ragassay eval` then `ragassay labels import` print on examples/labels. When the
judge changes, these tests say what to write instead."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.report import build_report
from ragassay.store import Store

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "labels"
SENTENCE = re.compile(
    r"the offline judge calls (?P<judge>[\d.]+)% of the answers\s+hallucinated \(its own "
    r"mean\)\. The (?P<labels>\d+) labels \((?P<samples>\d+) samples.*?alone say "
    r"(?P<only>[\d.]+) \[(?P<only_lo>[\d.]+), (?P<only_hi>[\d.]+)\]\. Combined with every "
    r"judge score, the\s+corrected estimate of people's rate is (?P<est>[\d.]+) "
    r"\[(?P<lo>[\d.]+), (?P<hi>[\d.]+)\] \(via (?P<metric>[\w.]+)\)", re.S)


WIDE = {"COLUMNS": "250"}  # the console's tables unwrapped, one row a line


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The documented commands on examples/labels: `eval --metrics judge`, then `labels
    import`; their output, the store and the run id."""
    db = str(tmp_path_factory.mktemp("example") / "r.db")
    ran = CliRunner().invoke(cli, ["eval", str(EXAMPLE / "data.jsonl"), "--metrics", "judge",
                                   "--db", db], env=WIDE)
    assert ran.exit_code == 0, ran.output
    imported = CliRunner().invoke(cli, ["labels", "import", str(EXAMPLE / "labels.jsonl"),
                                        "--db", db], env=WIDE)
    assert imported.exit_code == 0, imported.output
    with Store(db, readonly=True) as store:
        run = store.latest_run()
        assert run is not None
    return {"db": db, "eval": ran.output, "import": imported.output, "run": run.id}


def test_the_labels_example_figures_are_the_commands_output(example: dict[str, str]) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = SENTENCE.search(readme)
    assert said is not None, "the README's labels example sentence is gone or reworded"
    db, imported = example["db"], example["import"]
    with Store(db, readonly=True) as store:
        run = store.latest_run()
        assert run is not None
        report = build_report(store, run.id, include_details=False)
    assert report.corrected is not None
    e = next(x for x in report.corrected.estimates
             if x.metric == said["metric"] and x.strategy is None)
    only = e.labels_only
    labels = sum(1 for line in (EXAMPLE / "labels.jsonl").open() if line.strip())
    got = {"judge": f"{100 * e.judge_mean:.1f}", "labels": str(labels),
           "samples": str(e.n_labelled), "only": f"{only.estimate:.3f}",
           "only_lo": f"{only.ci_low:.3f}", "only_hi": f"{only.ci_high:.3f}",
           "est": f"{e.estimate:.3f}", "lo": f"{e.ci_low:.3f}", "hi": f"{e.ci_high:.3f}"}
    # the import prints these figures (rounded as in its table)
    assert f"{got['est']} [{got['lo']}, {got['hi']}]" in imported
    want = {k: said[k] for k in got}
    assert want == got, (
        "README.md's labels example is stale; it should read: the offline judge calls "
        f"{got['judge']}% of the answers hallucinated (its own mean). The {labels} labels "
        f"({got['samples']} samples ...) alone say {got['only']} [{got['only_lo']}, "
        f"{got['only_hi']}]. ... the corrected estimate of people's rate is {got['est']} "
        f"[{got['lo']}, {got['hi']}]")


def _printed_rows(output: str) -> dict[tuple[str, str], list[str]]:
    """(label, via metric) -> the cells of the whole-run rows of `labels import`'s table
    (people, labels only, judge's own mean, labels, gain), a row the console wrapped
    joined again."""
    table: list[list[str]] = []
    for line in output.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if len(cells) != 8:
            continue
        if cells[0] or not table:
            table.append(cells)
        else:  # the wrapped rest of the row above
            table[-1] = [f"{a} {b}".strip() for a, b in zip(table[-1], cells, strict=True)]
    return {(r[0], r[1]): r[3:] for r in table if r[2] == "all"}


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_trust_pages_figures_are_the_commands_output(example: dict[str, str]) -> None:
    """docs/trust.md's "In five commands": its table and lines, the sentence above them,
    the gain and the interval quoted further down, and the line `eval` prints before any
    label, each as the commands print them now."""
    doc = (ROOT / "docs" / "trust.md").read_text(encoding="utf-8")
    printed = _printed_rows(example["import"])
    assert printed, example["import"]
    block = doc.split("## In five commands", 1)[1].split("```")[3]  # the output block
    shown = {}
    for line in block.splitlines():
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) == 7 and cells[0] != "label":
            shown[(cells[0], cells[1])] = cells[2:]
    assert shown == printed, (
        "docs/trust.md's example table is stale; `labels import` prints: "
        + "; ".join(f"{k}: {v}" for k, v in printed.items()))
    under = [line for line in block.splitlines() if re.match(r"\S+ via \S+: ", line)]
    assert len(under) == len(printed)  # one line per whole-run estimate, as printed
    for line in under:
        assert line in example["import"], line
    people, only, judge, labels, gain = printed[("hallucinated", "judge.hallucination")]
    n = labels.split("/")[0]
    lines = sum(1 for line in (EXAMPLE / "labels.jsonl").open() if line.strip())
    assert judge.startswith("rate ") and judge.endswith(" on 0-1"), judge  # its scale said
    sentence = (f"the offline judge calls {100 * float(judge.split()[1]):.1f}% of the answers "
                f"hallucinated; people call 36.7% of all 240 so; from {lines} labels ({n} "
                f"samples: one labelled interaction appears twice) the corrected estimate is "
                f"**{people}** (the labels alone: {only})")
    assert sentence in _flat(doc), f"docs/trust.md should say: {sentence}"
    effective = gain.split("= ")[1].split()[0]
    assert (f"`{gain}` on the example above: its {n} labelled samples plus the judge are "
            f"worth {effective} labels") in _flat(doc), gain
    lo, hi = (float(x) for x in people.split("[")[1].rstrip("]").split(", "))
    assert f"people would call {100 * lo:.0f}-{100 * hi:.0f}% of" in _flat(doc)
    said = doc.split("(the example's, after `eval`):", 1)[1].split("```")[1].strip()
    assert _flat(said.replace("RUN", example["run"])) in _flat(example["eval"]), said


def test_the_trust_pages_verdict_line_is_the_headlines(tmp_path: Path) -> None:
    """docs/trust.md's example of a verdict's agreement (judge.hallucination on the rows of
    tests/support/verdicts.py) is the headline's cell for them now: a judge refit that
    changes it makes this test say what to write instead."""
    import ragassay
    from ragassay.report import headline
    from tests.support.verdicts import labelled_rows

    doc = (ROOT / "docs" / "trust.md").read_text(encoding="utf-8")
    shown = re.search(r"```\n(right on [^\n]*; in this run: [^\n]*)\n```", doc)
    assert shown is not None, "docs/trust.md's verdict example is gone or reworded"
    rows = labelled_rows()
    run = ragassay.evaluate(rows, "judge", store=tmp_path / "r.db", progress=False)
    row = next(r for r in headline(run.report()).rows if r.metric == "judge.hallucination")
    assert row.estimate is not None  # the cell beside people's figure: no held-apart part
    a = row.agreement
    assert a is not None
    assert shown[1] == row.agreement_text, (
        f"docs/trust.md's verdict example is stale; it should read: {row.agreement_text}")
    assert (f"on the {len(rows)} labelled rows of `tests/support/verdicts.py`, "
            f"{a.abstained} of whose answers abstain") in _flat(doc)
