from __future__ import annotations

import pytest

from ragassay.llm import parse_json_reply


def test_plain_object() -> None:
    assert parse_json_reply('{"score": 3, "reason": "ok"}') == ({"score": 3, "reason": "ok"}, None)


def test_json_fence_with_prose_around() -> None:
    text = 'Here is my verdict:\n```json\n{"score": 2}\n```\nHope this helps.'
    assert parse_json_reply(text) == ({"score": 2}, None)


def test_bare_fence_without_language() -> None:
    assert parse_json_reply('```\n{"a": [1, 2]}\n```') == ({"a": [1, 2]}, None)


def test_leading_and_trailing_prose() -> None:
    data, error = parse_json_reply('Sure! {"verdict": "yes"} -- end of answer.')
    assert error is None
    assert data == {"verdict": "yes"}


def test_raw_newlines_inside_strings() -> None:
    data, error = parse_json_reply('{"reason": "line one\nline two", "score": 1}')
    assert error is None
    assert data == {"reason": "line one\nline two", "score": 1}


def test_braces_and_quotes_inside_strings_do_not_confuse_the_scan() -> None:
    text = 'Result: {"reason": "uses {curly} and ]brackets[ and \\"quotes\\"", "score": 5} bye {'
    data, error = parse_json_reply(text)
    assert error is None
    assert data == {"reason": 'uses {curly} and ]brackets[ and "quotes"', "score": 5}


def test_nested_objects() -> None:
    data, error = parse_json_reply('x {"claims": [{"text": "a", "ok": true}], "n": {"m": 1}} y')
    assert error is None
    assert data == {"claims": [{"text": "a", "ok": True}], "n": {"m": 1}}


def test_top_level_array() -> None:
    assert parse_json_reply('The list: [1, 2, {"a": 3}]') == ([1, 2, {"a": 3}], None)


def test_object_preferred_over_an_earlier_citation_like_array() -> None:
    data, error = parse_json_reply('As shown in [1], the answer is {"score": 4}')
    assert error is None
    assert data == {"score": 4}


def test_skips_a_broken_object_and_takes_the_next_valid_one() -> None:
    data, error = parse_json_reply('Format: {score: N}. Answer: {"score": 1}')
    assert error is None
    assert data == {"score": 1}


def test_array_inside_a_broken_object_is_not_taken_for_the_answer() -> None:
    data, error = parse_json_reply("{score: [1, 2]}")
    assert data is None
    assert error is not None and "invalid JSON object" in error


def test_think_block_is_ignored() -> None:
    text = '<think>maybe {"score": 1}? no...</think>\n{"score": 2}'
    assert parse_json_reply(text) == ({"score": 2}, None)


def test_truncated_object_reports_truncation() -> None:
    data, error = parse_json_reply('{"claims": ["a", "b"], "reason": "the answer was')
    assert data is None
    assert error is not None and "unterminated" in error


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty_reply(text: str) -> None:
    assert parse_json_reply(text) == (None, "empty reply")


@pytest.mark.parametrize(
    "text",
    ["no json here at all", "I cannot help with that.", "{not: json}", "[oops", "}{"],
)
def test_garbage_gives_one_line_error(text: str) -> None:
    data, error = parse_json_reply(text)
    assert data is None
    assert error and "\n" not in error and len(error) <= 200


def test_scalar_json_is_returned_as_is() -> None:
    # A whole reply that is valid JSON is returned unchanged, whatever its type.
    assert parse_json_reply("42") == (42, None)


def test_many_braces_stay_fast_and_bounded() -> None:
    text = "{x} " * 5000 + '{"score": 1}'
    data, error = parse_json_reply(text)
    # The candidate bound stops the scan long before the end: an error, not a hang.
    assert data is None and error is not None


def test_unclosed_bracket_in_prose_does_not_hide_the_object() -> None:
    data, error = parse_json_reply('See [note: the JSON is {"score": 1}')
    assert error is None
    assert data == {"score": 1}


def test_truncated_object_does_not_yield_its_inner_array() -> None:
    data, error = parse_json_reply('{"claims": ["a", "b"], "reason": "cut')
    assert data is None
    assert error is not None and "unterminated JSON object" in error


def test_thousands_of_unclosed_brackets_spend_a_bounded_scan() -> None:
    """A reply of 150,000 characters of "[a" used to be scanned once per bracket
    (quadratic: a 5 MB one took 73 s); the scan now spends a budget of a few passes."""
    from ragassay.llm import parsing

    looked = [0]
    original = parsing._balanced_end

    def counting(text: str, start: int, budget: list[int]) -> int | None:
        before = budget[0]
        out = original(text, start, budget)
        looked[0] += before - budget[0]
        return out

    text = "[a" * 75_000
    parsing._balanced_end = counting  # type: ignore[assignment]
    try:
        data, error = parse_json_reply(text)
    finally:
        parsing._balanced_end = original  # type: ignore[assignment]
    assert data is None and error
    assert looked[0] <= 5 * len(text)
