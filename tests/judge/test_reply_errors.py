"""The reason an invalid judge reply is unscored with names the fields that broke the
same rule, and only those (review 5: a field that broke another rule was named too)."""

from __future__ import annotations

from pydantic import BaseModel, ValidationError, field_validator

from ragassay.judge.own_verdict import _validation_error


class Reply(BaseModel):
    faithfulness: int
    relevance: int
    hallucination: bool
    note: str = ""
    chunks: list[int] = []

    @field_validator("note")
    @classmethod
    def _short(cls, v: str) -> str:
        if len(v) > 5:
            raise ValueError("note too long")
        return v

    @field_validator("chunks")
    @classmethod
    def _shown(cls, v: list[int]) -> list[int]:
        if any(c > 2 for c in v):
            raise ValueError("chunk not shown")
        return v


def _why(data: dict) -> str:
    try:
        Reply.model_validate(data)
    except ValidationError as exc:
        return _validation_error(exc)
    raise AssertionError("valid")


def test_only_fields_that_broke_the_same_rule_are_named() -> None:
    assert _why({"faithfulness": "n/a", "relevance": "n/a", "hallucination": False}) == (
        "faithfulness: Input should be a valid integer, unable to parse string as an "
        "integer (also relevance)")
    why = _why({"faithfulness": "n/a", "relevance": 3, "hallucination": "maybe"})
    assert why.startswith("faithfulness: ") and "also" not in why
    # two custom rules share pydantic's error type ("value_error"), not their message
    why = _why({"faithfulness": 3, "relevance": 3, "hallucination": False,
                "note": "far too long", "chunks": [9]})
    assert why == "note: Value error, note too long"
