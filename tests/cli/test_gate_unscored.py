"""A gate row says how many samples its figure rests on when some are unscored (trial 53:
`PASS (mean 0.8253 >= 0.8)` for trace.completeness on 64 of 139 samples, silently)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli
from tests.cli.test_setup_mistakes import invoke, rows

# trial 53's h-cite-02: trace.completeness scores it
SCORED = {"id": "h-cite-02", "question": "Can children visit the intensive care unit?",
          "contexts": ["Children under 12 may visit the intensive care unit only with the "
                       "agreement of the nurse in charge.",
                       "All visitors to intensive care must use the hand gel at the entrance "
                       "and may be asked to wear an apron."],
          "answer": "Children under 12 can visit intensive care, but only if the nurse in "
                    "charge agrees (Source 1). Everyone visiting has to use the hand gel at "
                    "the entrance and may be asked to wear an apron (Source 2)."}


def test_a_pass_on_a_minority_of_samples_says_so(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    empty = [{"id": f"e{i}", "question": f"What is fact {i}?",
              "contexts": [f"Fact {i} is {i}."], "answer": ""} for i in range(2)]
    data = rows(tmp_path / "d.jsonl", [SCORED, *empty])
    assert invoke("eval", data, "--db", db, "-q", "--metrics", "trace").exit_code == 0
    cfg = tmp_path / "t.toml"
    cfg.write_text('[thresholds]\n"trace.completeness" = 0.5\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["gate", "--db", str(db), "--config", str(cfg)])
    assert result.exit_code == 0, result.output  # it still passes: the rule is unchanged
    row = next(x for x in result.stdout.splitlines() if "trace.completeness" in x)
    assert "PASS on 1 of 3 (mean 0.9" in row, row  # trial 61: the verdict says it too
    assert "; 1 of 3 scored, 2 unscored: empty answer)" in row, row
    assert ("warning: trace.completeness passes on 1 of 3 samples only (2 unscored): its bar "
            "says nothing of the others") in result.stderr
