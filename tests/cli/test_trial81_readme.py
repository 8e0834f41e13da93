"""Trial 81, finding 3: README's eval section did not say which suites run by default,
nor whether `judge.hallucination` depends on them. It now says both; these tests hold it
to the CLI's own default and to what two runs of a labelled file give."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.cli.eval_cmd import eval_cmd
from ragassay.metrics import OPT_IN, parse_metrics
from tests.cli.test_trial81_console import rows

ROOT = Path(__file__).resolve().parents[2]


def _eval_section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme[readme.index("### 2. Evaluate"):readme.index("### 3. Reading")]


def test_the_readme_names_the_default_suites_as_the_cli_has_them() -> None:
    default = next(p.default for p in eval_cmd.params if p.name == "metrics")
    assert default == "all"
    said = " ".join(_eval_section().split())
    assert "Without `--metrics`, `eval` runs `all`" in said
    suites = ", ".join(f"`{n}`" for n in parse_metrics("all")[:-1])
    assert f"the built-in suites {suites} and `{parse_metrics('all')[-1]}`" in said
    assert {"citations"} == OPT_IN and "`citations` is opt-in" in said


def test_judge_hallucination_is_the_same_whichever_suites_run(tmp_path: Path) -> None:
    """What the README says: `--metrics judge` and the default give the same values."""
    data = tmp_path / "probes.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows()))
    got = []
    for extra in (["--metrics", "judge"], []):
        out = tmp_path / f"r{len(extra)}.json"
        result = CliRunner().invoke(cli, ["eval", str(data), "--db", str(tmp_path / "r.db"),
                                          "--out", str(out), *extra])
        assert result.exit_code == 0, result.output
        got.append({(e["id"], m): (v, (e.get("abstained") or {}).get(m))
                    for e in json.loads(out.read_text())["detailed_results"]
                    for m, v in e["metrics"].items() if m.startswith("judge.")})
    judge, default = got
    assert judge == default
    assert sum(1 for (_, m), (_, a) in judge.items()
               if m == "judge.hallucination" and a is not None) == 8  # declines set aside
    assert "The suites you choose do not change `judge.hallucination`" in " ".join(
        _eval_section().split())
