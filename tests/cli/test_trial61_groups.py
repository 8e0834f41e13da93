"""Trial 61, finding 4: `eval probes.jsonl --metrics judge --by kind`, each kind holding
one label class: 3 of the 5 "judge vs people by kind" columns read "16 labels, all one
class" in every row. A link no group gives a figure for is said once, in a line under
the table (console) or a note (HTML), not as a column; the informative ones stay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import ragassay
from ragassay.cli import cli


def one_class_rows(kinds: tuple[str, ...] = ("good", "invent", "decline"), per_kind: int = 6
                   ) -> list[dict[str, Any]]:
    """`per_kind` rows of each kind: good answers (not hallucinated), invented ones
    (hallucinated), declines (not hallucinated), any other kind good: every kind is one
    label class."""
    rows = []
    for k, kind in enumerate(kinds):
        for j in range(per_kind):
            i = k * per_kind + j
            ctx = f"Locker {i} on deck {i % 4 + 2} opens with the blue key card."
            answer = {"good": ctx, "invent": f"Locker {i} was removed for repairs until spring.",
                      "decline": "I don't have information about that."}.get(kind, ctx)
            rows.append({"id": f"q{i:03d}", "question": f"How does locker {i} open?",
                         "contexts": [ctx], "answer": answer,
                         "labels": {"hallucinated": kind == "invent"},
                         "metadata": {"kind": kind}})
    return rows


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("groups")
    data, db = tmp / "probes.jsonl", tmp / "r.db"
    data.write_text("".join(json.dumps(r) + "\n" for r in one_class_rows()))
    result = CliRunner().invoke(cli, ["eval", "-v", str(data), "--metrics", "judge", "--by", "kind",
                                      "--db", str(db)])
    assert result.exit_code == 0, result.output
    html = CliRunner().invoke(cli, ["report", "--format", "html", "--by", "kind",
                                    "--db", str(db)])
    assert html.exit_code == 0, html.output
    return {"eval": result.stdout, "html": html.stdout}


def test_a_column_with_no_figure_in_any_group_is_said_once(printed: dict[str, str]) -> None:
    out = printed["eval"]
    title = "judge vs people by kind"
    table = out[out.index(title):].split("└", 1)[0]
    header = table.split("┡", 1)[0]
    assert "judge.hallucination vs people (hallucinated)" in header  # right on 6 of 6: a figure
    assert "judge.faithfulness" not in header and "all one class" not in table
    assert "right on 6 of 6 (100%)" in table
    line = " ".join(out[out.index("judge.faithfulness vs people (hallucinated): "):].split())
    assert line.startswith(
        "judge.faithfulness vs people (hallucinated): no figure in any kind; good: 6 labels, "
        "all one class (none hallucinated); invent: 6 labels, all one class (all hallucinated); "
        "decline: all 6 abstained: nothing to compare"), line
    html = printed["html"]
    rows = html[html.index("judge vs people"):]
    assert "judge.hallucination vs people (hallucinated)" in rows
    assert "judge.faithfulness vs people (hallucinated)</t" not in rows  # no row of its own
    assert "judge.faithfulness vs people (hallucinated): no figure in any kind" in html


def test_one_text_in_every_group_is_said_with_every(tmp_path: Path) -> None:
    rows = one_class_rows(("pricing", "lookup"))
    for r in rows:
        r["answer"], r["labels"] = r["contexts"][0], {"hallucinated": False}
    groups = ragassay.evaluate(rows, "judge", store=tmp_path / "r.db",
                               progress=False).by("kind")
    kept, lines = groups.agreement_columns()
    assert kept == [("hallucinated", "judge.hallucination")]
    assert lines == ["judge.faithfulness vs people (hallucinated): no figure in any kind; "
                     "every kind: 6 labels, all one class (none hallucinated)"]
