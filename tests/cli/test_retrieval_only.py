"""A retrieval-only set (question and contexts, no answers: a retriever evaluated before
any generator exists, a TREC-style relevance set) is scored on its context metrics; its
answer metrics are unscored with the missing-input reason (issue #33, item 12). A file
with no answer and a column of another name is still the setup mistake it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.store import Store
from ragassay.types import MISSING_INPUT
from tests.support.faults import judge_scores
from tests.support.scripted_server import ScriptedReply, ScriptedServer

CONTEXT_METRICS = {"judge.context_relevance", "trace.context_relevance"}
WITH_REFERENCE = {"ragas.context_precision", "ragas.context_recall"}


def _retrieval_only(path: Path, **extra: Any) -> Path:
    rows = [{"id": f"q{i}", "question": f"What is the capital of country {i}?",
             "contexts": [f"The capital of country {i} is City {i}.", "Bananas are yellow."],
             **({"reference": f"City {i}."} if i % 2 else {}), **extra}
            for i in range(4)]
    rows[0]["answer"] = ""  # an empty answer column is no answer either (TREC sets)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _values(db: Path) -> dict[tuple[str, str], Any]:
    with Store(db, readonly=True) as store:
        run = store.list_runs()[0]
        assert run.status == "complete"
        return {(r.sample_id, m.name): m for r in store.iter_results(run.id) for m in r.results}


def test_a_retrieval_only_set_is_scored_on_its_context_metrics(tmp_path: Path) -> None:
    data, db = _retrieval_only(tmp_path / "r.jsonl"), tmp_path / "r.db"
    result = CliRunner().invoke(cli, ["eval", str(data), "--db", str(db), "-q"])
    assert result.exit_code == 0, result.output
    assert ("note: r.jsonl: no row has an answer: evaluated as a retrieval-only set (its "
            "context metrics are scored, its answer metrics unscored: no answer)") in result.stderr
    assert "4 samples lack an input some metrics need (no answer: 4" in result.stderr
    values = _values(db)
    for (sample, name), m in values.items():
        with_ref = sample in ("q1", "q3")
        if name in CONTEXT_METRICS or (name in WITH_REFERENCE and with_ref):
            assert m.value is not None, (sample, name)
        else:
            assert m.value is None and m.unscored_reason in MISSING_INPUT, (sample, name, m)
    assert values[("q0", "trace.context_utilization")].unscored_reason == "empty answer"


def test_a_retrieval_only_set_with_an_llm_judge(tmp_path: Path) -> None:
    data, db = _retrieval_only(tmp_path / "r.jsonl"), tmp_path / "l.db"
    with ScriptedServer(lambda req, n: ScriptedReply.chat(json.dumps(judge_scores(req)))) \
            as server:
        result = CliRunner().invoke(cli, ["eval", str(data), "--judge", "openai:x",
                                          "--base-url", server.base_url, "--metrics", "judge",
                                          "--db", str(db), "-q"],
                                    env={"OPENAI_API_KEY": "sk-test"})
    assert result.exit_code == 0, result.output
    values = _values(db)
    assert all(values[(f"q{i}", "judge.context_relevance")].value is not None for i in range(4))
    assert all(values[(f"q{i}", "judge.faithfulness")].unscored_reason == "empty answer"
               for i in range(4))


def test_no_answer_and_a_column_of_another_name_is_still_refused(tmp_path: Path) -> None:
    data = _retrieval_only(tmp_path / "r.jsonl", generated_answer="Paris.")
    result = CliRunner().invoke(cli, ["eval", str(data), "--db", str(tmp_path / "x.db"), "-q"])
    assert result.exit_code == 2
    assert result.output.startswith("error: r.jsonl: no row has an answer (unknown columns: "
                                    "generated_answer;")
    assert "--map answer=generated_answer" in result.output


def test_the_python_api_takes_retrieval_only_rows_and_still_catches_a_misnamed_answer(
        tmp_path: Path) -> None:
    import pytest

    import ragassay
    from ragassay.dataset import DatasetError

    rows = [{"question": "What is X?", "contexts": ["X is Y.", "Z is W."]}]
    result = ragassay.evaluate(rows, metrics="judge", store=tmp_path / "a.db")
    assert result.to_pandas()["judge.context_relevance"].notna().all()
    with pytest.raises(DatasetError, match="unknown columns: generated.*field_map answer="):
        ragassay.evaluate([{**rows[0], "generated": "Y."}], store=tmp_path / "a.db")
