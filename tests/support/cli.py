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
