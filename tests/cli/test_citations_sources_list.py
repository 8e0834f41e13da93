"""New-user trial 58 (finding 5): an answer citing only in a trailing "Sources:" list
read as citing nothing (recall 0; precision and fabricated unscored, "the answer cites
nothing") with nothing in eval's output saying why; the reason and the citations table's
note say that a sources list is no citation."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.metrics.citations.formulas import LISTED_NOTE


def test_an_answer_citing_only_in_a_sources_list_is_said_to_cite_nothing(
        tmp_path: Path) -> None:
    rows = [{"id": f"s{i}", "question": f"When does hall {i} open?",
             "contexts": [f"Hall {i} opens at 9 on weekdays.", "Parking is free."],
             "answer": f"Hall {i} opens at 9 on weekdays.\n\nSources:\n[1] Opening hours"}
            for i in range(3)]
    data, out = tmp_path / "d.jsonl", tmp_path / "r.json"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    done = CliRunner().invoke(cli, ["eval", "-v", str(data), "--metrics", "citations", "--db",
                                    str(tmp_path / "r.db"), "--out", str(out)],
                              env={"COLUMNS": "250"})
    assert done.exit_code == 0, done.output
    said = f"the answer cites nothing ({LISTED_NOTE})"
    assert said in done.output  # the top unscored reasons
    assert f"citations: {LISTED_NOTE}" in " ".join(done.output.split())
    stats = json.loads(out.read_text())["per_metric_statistics"]
    assert stats["citations.recall"]["mean"] == 0
    assert stats["citations.precision"]["unscored_reasons"] == {said: 3}
