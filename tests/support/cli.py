"""The `ragassay eval` argument list the reliability and security tests share."""

from __future__ import annotations

from pathlib import Path


def llm_eval_args(data: Path, base_url: str, db: Path, *extra: str) -> list[str]:
    """`eval` of the judge suite against an OpenAI-compatible test server on base_url."""
    return ["eval", str(data), "--judge", "openai:x", "--base-url", base_url,
            "--metrics", "judge", "--db", str(db), *extra]


def settings_data(path: Path, n: int) -> Path:
    """A JSONL dataset of `n` complete rows, `s0`..., one about each "setting i" (a
    scripted server tells the samples apart by that phrase)."""
    import json

    path.write_text("".join(json.dumps({
        "id": f"s{i}", "question": f"What does setting {i} do?",
        "contexts": [f"Setting {i} controls buffer {i}."], "answer": f"It controls buffer {i}.",
        "reference": f"Buffer {i}."}) + "\n" for i in range(n)))
    return path


def eval_results(tmp_path: Path, data: Path, *extra: str) -> dict[str, dict]:
    """`ragassay eval` of `data` into a store and a JSON report under tmp_path (exit 0
    asserted): the report's detailed results by sample id."""
    import json

    from click.testing import CliRunner

    from ragassay.cli import cli

    out = tmp_path / "r.json"
    result = CliRunner().invoke(cli, ["eval", str(data), "--db", str(tmp_path / "s.db"),
                                      "--out", str(out), *extra], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return {r["id"]: r for r in json.loads(out.read_text())["detailed_results"]}


def eval_by_kind(tmp: Path, rows: list[dict]) -> str:
    """The console of `ragassay eval --metrics judge --by kind` on `rows` (written as
    probes.jsonl under `tmp`, a store beside it), wide enough to keep each line whole;
    exit 0 asserted (the new-user trials' run)."""
    import json

    from click.testing import CliRunner

    from ragassay.cli import cli

    data = tmp / "probes.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = CliRunner().invoke(cli, ["eval", str(data), "--db", str(tmp / "r.db"),
                                      "--metrics", "judge", "--by", "kind"],
                                env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    return result.output


def shown(db: Path) -> str:
    """The console of `ragassay runs show` of `db`'s latest run (the summary `eval
    --verbose` prints), as wide as `eval_by_kind`'s; exit 0 asserted."""
    from click.testing import CliRunner

    from ragassay.cli import cli

    result = CliRunner().invoke(cli, ["runs", "show", "--db", str(db)],
                                env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    return result.output


def llm_user_prompts(tmp_path: Path, data: Path, metrics: str) -> list[str]:
    """The user messages of every call an LLM-judged `eval` of `data` makes to a
    scripted server (the judge suite's verdicts, "{}" to the other suites); exit 0
    asserted."""
    import json

    from click.testing import CliRunner

    from ragassay.cli import cli
    from tests.support.faults import is_judge_scores, judge_scores
    from tests.support.scripted_server import ScriptedReply, ScriptedServer

    def reply(req: dict, n: int) -> ScriptedReply:
        system = req["messages"][0]["content"]
        return ScriptedReply.chat(json.dumps(judge_scores(req)) if is_judge_scores(system)
                                  else "{}")

    with ScriptedServer(reply) as server:
        result = CliRunner().invoke(cli, [
            "eval", str(data), "--judge", "openai:x", "--base-url", server.base_url,
            "--metrics", metrics, "--db", str(tmp_path / "s.db"), "--no-cache"],
            env={"OPENAI_API_KEY": "sk-test", "COLUMNS": "200"})
        prompts = [m["content"] for req in server.requests for m in req["messages"]
                   if m["role"] == "user"]
    assert result.exit_code == 0, result.output
    return prompts


def reworded_rows(path: Path, n: int = 24) -> Path:
    """A JSONL dataset of `n` plans, labelled, where word overlap ranks `hallucinated`
    backwards: every hallucinated answer copies its context's words with one figure
    changed, every faithful one rewords it."""
    import json

    rows = []
    for i in range(n):
        plan, price = f"P{i}", 10 + i
        context = f"The {plan} plan costs {price} dollars per user per month, billed annually."
        answer = (context.replace(f"costs {price} ", f"costs {price + 7} ") if i % 2 else
                  f"You pay {price} a month for each person on {plan}, with yearly invoices.")
        rows.append({"id": f"p{i}", "question": f"How much is {plan}?", "contexts": [context],
                     "answer": answer, "labels": {"hallucinated": bool(i % 2)}})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def cli_output(*args: str, code: int | None = 0, columns: str | None = "100") -> str:
    """The console of one `ragassay` command (stdout and stderr), its exit status
    asserted to be `code` (None: any); `columns` sets the terminal width the console
    wraps at (None: unset). The one runner the console tests share."""
    from click.testing import CliRunner

    from ragassay.cli import cli

    result = CliRunner().invoke(cli, list(args), env={"COLUMNS": columns})
    assert code is None or result.exit_code == code, result.output
    return result.output
