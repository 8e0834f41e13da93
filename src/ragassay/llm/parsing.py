"""Tolerant extraction of a JSON value from a model's reply.

Models wrap JSON in code fences, put prose around it, emit raw newlines inside
strings or think aloud in `<think>` blocks. `parse_json_reply` copes with all of
these and otherwise says, in one line, why there is no JSON. Validation against a
schema is the judge layer's job, not this module's.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```[ \t]*(?:json|JSON|jsonc|javascript|js)?[ \t]*\r?\n?(.*?)```", re.S)
_THINK = re.compile(r"<think>.*?</think>", re.S | re.I)
_OPENER = re.compile(r"[\[{]")
_MAX_CANDIDATES = 64  # bound the work on pathological replies


def parse_json_reply(text: str) -> tuple[Any, str | None]:
    """Return `(data, None)` for the JSON value found in `text`, or `(None, error)`.

    Order: the whole text; each fenced block; then the first balanced top-level
    `{...}` that parses, else the first balanced `[...]` (objects first, so a
    citation like "[1]" in prose is not mistaken for the answer).
    """
    if not text or not text.strip():
        return None, "empty reply"
    cleaned = _THINK.sub("", text).strip().lstrip("\ufeff")
    if not cleaned:
        return None, "reply holds only a <think> block"

    direct = _loads(cleaned)
    if direct is not _FAIL:
        return direct, None

    first_error: str | None = None
    for block in _FENCE.findall(cleaned):
        data, error = _scan(block.strip())
        if error is None:
            return data, None
        first_error = first_error or error
    data, error = _scan(cleaned)
    if error is None:
        return data, None
    return None, _one_line(first_error or error)


class _Fail:
    pass


_FAIL = _Fail()


def _loads(candidate: str) -> Any:
    try:
        return json.loads(candidate, strict=False)
    except (ValueError, RecursionError):
        return _FAIL


def _scan(text: str) -> tuple[Any, str | None]:
    try:
        return _scan_bounded(text, [len(text) * 4 + 10_000])
    except RecursionError:  # JSON nested deeper than the interpreter allows
        return None, "JSON nested too deep"


def _scan_bounded(text: str, budget: list[int]) -> tuple[Any, str | None]:
    """Find the first top-level object in `text` that parses, else the first array.

    Values are visited in order, at top level only: a list nested in a broken object
    is not taken for the answer, nor is an object nested in a valid array. An
    unclosed `{` ends the scan (the reply was truncated); an unclosed or invalid `[`
    is prose ("[see note"), so the scan steps into it.
    """
    error: str | None = None
    fallback: Any = _FAIL
    pos = 0
    for _ in range(_MAX_CANDIDATES):
        match = _OPENER.search(text, pos)
        if match is None:
            break
        start = match.start()
        opener = text[start]
        end = _balanced_end(text, start, budget)
        if budget[0] <= 0:
            return (fallback, None) if fallback is not _FAIL else (
                None, error or "no JSON object found in reply (scan budget spent)")
        if end is None:
            error = error or f"unterminated JSON {_kind(opener)} (reply truncated?)"
            if opener == "{":
                break
            pos = start + 1
            continue
        try:
            value = json.loads(text[start : end + 1], strict=False)
        except ValueError as exc:
            error = error or f"invalid JSON {_kind(opener)}: {exc}"
            pos = end + 1 if opener == "{" else start + 1
            continue
        if isinstance(value, dict):
            return value, None
        if fallback is _FAIL:
            fallback = value
        pos = end + 1
    if fallback is not _FAIL:
        return fallback, None
    return None, error or "no JSON object found in reply"


def _kind(opener: str) -> str:
    return "object" if opener == "{" else "array"


def _balanced_end(text: str, start: int, budget: list[int]) -> int | None:
    """Index of the bracket closing the one at `start`, skipping string contents. Each
    character looked at spends one unit of `budget` (shared by a whole scan, so that a
    reply of thousands of unclosed brackets costs a few passes, not one per bracket)."""
    depth = 0
    in_string = False
    escaped = False
    end = len(text)
    if end - start > budget[0]:
        end = start + budget[0]
    budget[0] -= end - start
    for i in range(start, end):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return i
    return None


def _one_line(message: str, limit: int = 200) -> str:
    line = " ".join(message.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
