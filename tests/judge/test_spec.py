"""The one judge-spec rule, as the CLI and the Python API both read it."""

from __future__ import annotations

import pytest

import ragassay
from ragassay.judge.spec import judge_spec_problem


@pytest.mark.parametrize("spec", ["offline", " offline ", "offline:accurate", "openai:gpt-4o-mini"])
def test_good_specs_have_no_problem(spec: str) -> None:
    assert judge_spec_problem(spec) is None


@pytest.mark.parametrize(("spec", "text"), [
    ("", "judge: empty judge spec"),
    (":gpt-4o-mini", "judge ':gpt-4o-mini': no backend name before ':'"),
    ("opneai:gpt-4o", "unknown judge backend 'opneai'"),
    ("openai:", "no model after 'openai:'"),
    ("offline:fast", "the offline judge's only mode is offline:accurate"),
])
def test_bad_specs_say_why_in_one_line(spec: str, text: str) -> None:
    problem = judge_spec_problem(spec)
    assert problem is not None and text in problem and "\n" not in problem
    assert "BACKEND:MODEL" in problem


def test_an_offline_spec_in_capitals_is_told_the_spelling() -> None:
    assert judge_spec_problem("Offline") == "judge 'Offline': write it in lower case, offline"
    assert judge_spec_problem("offline:ACCURATE", "--judge") == \
        "--judge 'offline:ACCURATE': write it in lower case, offline:accurate"


def test_the_api_and_the_cli_give_the_same_text(tmp_path) -> None:
    from ragassay.cli.common import UsageProblem, check_judge_spec

    problem = judge_spec_problem("opneai:gpt-4o")
    with pytest.raises(ValueError) as api:
        ragassay.evaluate([{"question": "q", "answer": "a", "contexts": ["c"]}],
                          judge="opneai:gpt-4o", store=tmp_path / "r.db")
    with pytest.raises(UsageProblem) as cli:
        check_judge_spec("opneai:gpt-4o")
    assert str(api.value) == problem
    assert str(cli.value) == f"--{problem}" == judge_spec_problem("opneai:gpt-4o", "--judge")
