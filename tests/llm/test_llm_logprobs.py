"""The logprob reader on hand-made distributions: expected ratings, P(true), "1" vs "10"."""

from __future__ import annotations

import math

import pytest

from ragassay.llm.logprobs import (
    SoftField,
    SoftValue,
    leaves,
    read_rating,
    read_soft_values,
    soft_fields,
)
from ragassay.llm.wire import TokenLogprob

RATING = {"score": SoftField("rating", 1, 10)}


def tok(text: str, alts: dict[str, float] | None = None,
        after: dict[str, dict[str, float]] | None = None) -> TokenLogprob:
    """A token chosen with the given alternative probabilities (its own included)."""
    alts = alts or {text: 1.0}
    top = tuple(sorted(((t, math.log(p)) for t, p in alts.items()), key=lambda x: -x[1]))
    return TokenLogprob(
        token=text, logprob=math.log(alts.get(text, 1.0)), top=top,
        after=tuple((a, tuple((t, math.log(p)) for t, p in d.items()))
                    for a, d in (after or {}).items()))


def reply(*tokens: TokenLogprob) -> tuple[str, tuple[TokenLogprob, ...]]:
    return "".join(t.token for t in tokens), tokens


def score_reply(first: TokenLogprob, *rest: TokenLogprob) -> tuple[str, tuple[TokenLogprob, ...]]:
    return reply(tok('{"'), tok("score"), tok('":'), tok(" "), first, *rest, tok("}"))


def test_expected_rating_over_single_token_digits() -> None:
    text, toks = score_reply(tok("7", {"7": 0.5, "8": 0.3, "6": 0.2}))
    soft, why = read_soft_values(text, toks, RATING)
    assert why is None
    value = soft["score"]
    assert value.greedy == 7
    assert value.value == pytest.approx(0.5 * 7 + 0.3 * 8 + 0.2 * 6)
    assert value.distribution == pytest.approx({"6": 0.2, "7": 0.5, "8": 0.3})
    assert value.mass == pytest.approx(1.0)


def test_missing_tokens_renormalise_over_the_valid_options_present() -> None:
    # 40% of the mass on a non-digit (prose the grammar forbids): dropped, rest renormalised
    text, toks = score_reply(tok("9", {"9": 0.3, "8": 0.3, "Let": 0.4}))
    value = read_soft_values(text, toks, RATING)[0]["score"]
    assert value.distribution == pytest.approx({"8": 0.5, "9": 0.5})
    assert value.value == pytest.approx(8.5)
    assert value.mass == pytest.approx(0.6)


def test_out_of_range_and_decimal_alternatives_are_not_ratings() -> None:
    text, toks = score_reply(tok("5", {"5": 0.5, "0": 0.2, "4.": 0.2, "6": 0.1}))
    value = read_soft_values(text, toks, RATING)[0]["score"]
    assert set(value.distribution) == {"5", "6"}
    assert value.value == pytest.approx((0.5 * 5 + 0.1 * 6) / 0.6)


def test_ten_as_one_then_zero_is_split_by_the_observed_next_token() -> None:
    # the model chose "1" then "0": P("1") = 0.8 splits 75/25 between 10 and 1
    text, toks = score_reply(tok("1", {"1": 0.8, "9": 0.2}), tok("0", {"0": 0.75, "}": 0.25}))
    value = read_soft_values(text, toks, RATING)[0]["score"]
    assert value.greedy == 10
    assert value.split == "observed"
    assert value.distribution == pytest.approx({"1": 0.2, "9": 0.2, "10": 0.6})
    assert value.value == pytest.approx(0.2 * 1 + 0.2 * 9 + 0.6 * 10)


def test_a_stated_one_keeps_most_mass_on_one() -> None:
    # "1" followed by "}" (number ended): P(10 | "1") comes from the "0" alternative
    text, toks = score_reply(tok("1", {"1": 0.9, "2": 0.1}), tok("}", {"}": 0.8, "0": 0.2}))
    # the "}" is the reply's own closing brace here: no extra token after it
    text, toks = text[:-1], toks[:-1]
    value = read_soft_values(text, toks, RATING)[0]["score"]
    assert value.greedy == 1
    assert value.distribution == pytest.approx({"1": 0.72, "2": 0.1, "10": 0.18})


def test_probed_continuation_splits_an_unchosen_one() -> None:
    # chose "9"; the in-process backend probed what follows "1": 90% "0" -> mostly 10
    first = tok("9", {"9": 0.5, "1": 0.5}, after={"1": {"0": 0.9, ",": 0.1}})
    text, toks = score_reply(first)
    value = read_soft_values(text, toks, RATING)[0]["score"]
    assert value.split == "probed"
    assert value.distribution == pytest.approx({"1": 0.05, "9": 0.5, "10": 0.45})


def test_without_a_continuation_neighbours_split_the_one() -> None:
    # P("1") = 0.4 goes to 10 (neighbour 9 has 0.4) and to 1 (neighbour 2 has 0.2): 2:1
    text, toks = score_reply(tok("9", {"9": 0.4, "1": 0.4, "2": 0.2}))
    value = read_soft_values(text, toks, RATING)[0]["score"]
    assert value.split == "neighbours"
    assert value.distribution["10"] == pytest.approx(0.4 * 2 / 3)
    assert value.distribution["1"] == pytest.approx(0.4 / 3)


def test_two_token_ten_for_a_tokenizer_with_whole_numbers() -> None:
    # a tokenizer with a "10" token: no ambiguity, and " 8" with a leading space counts
    text, toks = reply(tok('{"score":'), tok(" 10", {" 10": 0.6, " 8": 0.4}), tok("}"))
    value = read_soft_values(text, toks, RATING)[0]["score"]
    assert value.split is None
    assert value.value == pytest.approx(0.6 * 10 + 0.4 * 8)


def test_flag_probability_is_case_insensitive_and_renormalised() -> None:
    fields = {"ok": SoftField("flag")}
    text, toks = reply(tok('{"ok":'), tok(" true", {" true": 0.3, " True": 0.3, " false": 0.2,
                                                     " {": 0.2}), tok("}"))
    value = read_soft_values(text, toks, fields)[0]["ok"]
    assert value.greedy is True
    assert value.value == pytest.approx(0.75)
    assert value.mass == pytest.approx(0.8)


def test_flag_with_only_one_option_present() -> None:
    fields = {"ok": SoftField("flag")}
    text, toks = reply(tok('{"ok": '), tok("false", {"false": 0.9, "null": 0.1}), tok("}"))
    value = read_soft_values(text, toks, fields)[0]["ok"]
    assert value.value == 0.0
    assert value.mass == pytest.approx(0.9)


def test_flags_in_arrays_are_read_by_path() -> None:
    fields = soft_fields({"type": "object", "properties": {"sentences": {
        "type": "array", "items": {"$ref": "#/$defs/S"}}},
        "$defs": {"S": {"type": "object", "properties": {
            "key": {"type": "string"}, "supported": {"type": "boolean"}}}}})
    assert fields == {"sentences.*.supported": SoftField("flag")}
    text, toks = reply(tok('{"sentences": [{"key": "a", "supported":'),
                       tok(" true", {" true": 0.6, " false": 0.4}),
                       tok('}, {"key": "b", "supported":'),
                       tok(" false", {" false": 0.9, " true": 0.1}), tok("}]}"))
    soft, why = read_soft_values(text, toks, fields)
    assert why is None
    assert soft["sentences.0.supported"].value == pytest.approx(0.6)
    assert soft["sentences.1.supported"].value == pytest.approx(0.1)


def test_no_valid_option_means_no_reading_and_a_reason() -> None:
    # the chosen digit with almost no raw probability (the model wanted prose): noise
    text, toks = score_reply(tok("7", {"7": 1e-5, "8": 1e-5, "Let": 1.0}))
    soft, why = read_soft_values(text, toks, RATING)
    assert soft == {} and why == "no rating or flag token among the top alternatives"
    text, toks = score_reply(tok("7", {"7": 0.002, "Let": 0.998}))
    assert read_soft_values(text, toks, RATING)[0]["score"].value == pytest.approx(7.0)
    text, toks = reply(tok('{"score": "seven"}'))
    soft, why = read_soft_values(text, toks, RATING)
    assert soft == {} and why == "no rating or flag token among the top alternatives"


def test_tokens_that_do_not_add_up_to_the_reply_are_refused() -> None:
    _, toks = score_reply(tok("7"))
    soft, why = read_soft_values('{"score": 8}', toks, RATING)
    assert soft == {} and why == "token texts do not add up to the reply"
    assert read_soft_values('{"score": 8}', None, RATING) == (
        {}, "no token probabilities in the reply")


def test_multibyte_text_before_the_value_keeps_offsets_right() -> None:
    fields = {"r": SoftField("flag"), "ok": SoftField("flag")}
    é = "é".encode()
    text = '{"r": "café", "ok": true}'
    toks = (TokenLogprob(token='{"r": "caf', logprob=0.0),
            TokenLogprob(token="\ufffd", logprob=0.0, bytes=(é[0],)),
            TokenLogprob(token="\ufffd", logprob=0.0, bytes=(é[1],)),
            TokenLogprob(token='", "ok": ', logprob=0.0),
            tok("true", {"true": 0.7, "false": 0.3}), tok("}"))
    soft, _ = read_soft_values(text, toks, fields)
    assert soft["ok"].value == pytest.approx(0.7)


def test_schema_fields_need_an_integer_range_for_ratings() -> None:
    schema = {"type": "object", "properties": {
        "a": {"type": "integer", "minimum": 1, "maximum": 10},
        "b": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 5}, {"type": "null"}]},
        "index": {"type": "integer"}, "x": {"type": "number", "minimum": 0, "maximum": 1},
        "flag": {"type": "boolean"}}}
    assert soft_fields(schema) == {"a": SoftField("rating", 1, 10),
                                   "b": SoftField("rating", 1, 5), "flag": SoftField("flag")}


def test_leaves_find_values_after_prose_and_fences() -> None:
    found = leaves('Sure!\n```json\n{"a": [1, {"b": false}], "c": "x\ny", "d": -2.5}\n```')
    assert [(x.path, x.value) for x in found] == [("a.0", 1), ("a.1.b", False), ("d", -2.5)]


def test_read_rating_direct() -> None:
    got = read_rating([tok("3", {"3": 0.5, "4": 0.5})], 0, 1, 5)
    assert got == ({3: 0.5, 4: 0.5}, pytest.approx(1.0), None)


def test_soft_value_json_round_trip() -> None:
    value = SoftValue("rating", 7.5, 8, {"7": 0.5, "8": 0.5}, 0.9, "observed")
    assert SoftValue.from_json(value.as_json()) == value
