"""The `ragassay eval` argument list the reliability and security tests share."""

from __future__ import annotations

from pathlib import Path


def llm_eval_args(data: Path, base_url: str, db: Path, *extra: str) -> list[str]:
    """`eval` of the judge suite against an OpenAI-compatible test server on base_url."""
    return ["eval", str(data), "--judge", "openai:x", "--base-url", base_url,
            "--metrics", "judge", "--db", str(db), *extra]
