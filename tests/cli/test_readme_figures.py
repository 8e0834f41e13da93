"""The README's figures come from the commands it shows (issue #44 item 5): the labels
example's judge mean, labels-only and corrected estimates are what `ragassay eval` then
`ragassay labels import` print on examples/labels. When the judge changes, this test
says which sentence to write instead."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.report import build_report
from ragassay.store import Store

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "labels"
SENTENCE = re.compile(
    r"the offline judge calls (?P<judge>[\d.]+)% of the answers\s+hallucinated \(its own "
    r"mean\); the (?P<labels>\d+) labels \((?P<samples>\d+) samples.*?alone say "
    r"(?P<only>[\d.]+) \[(?P<only_lo>[\d.]+), (?P<only_hi>[\d.]+)\]; combined with every "
    r"judge score, the\s+corrected estimate of people's rate is (?P<est>[\d.]+) "
    r"\[(?P<lo>[\d.]+), (?P<hi>[\d.]+)\] \(via (?P<metric>[\w.]+)\)", re.S)


def test_the_labels_example_figures_are_the_commands_output(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = SENTENCE.search(readme)
    assert said is not None, "the README's labels example sentence is gone or reworded"
    db = str(tmp_path / "r.db")
    ran = CliRunner().invoke(cli, ["eval", str(EXAMPLE / "data.jsonl"), "--metrics", "judge",
                                   "--db", db, "--quiet"])
    assert ran.exit_code == 0, ran.output
    imported = CliRunner().invoke(cli, ["labels", "import", str(EXAMPLE / "labels.jsonl"),
                                        "--db", db])
    assert imported.exit_code == 0, imported.output
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
    assert f"{got['est']} [{got['lo']}, {got['hi']}]" in imported.output
    want = {k: said[k] for k in got}
    assert want == got, (
        "README.md's labels example is stale; it should read: the offline judge calls "
        f"{got['judge']}% of the answers hallucinated (its own mean); the {labels} labels "
        f"({got['samples']} samples ...) alone say {got['only']} [{got['only_lo']}, "
        f"{got['only_hi']}]; ... the corrected estimate of people's rate is {got['est']} "
        f"[{got['lo']}, {got['hi']}]")
