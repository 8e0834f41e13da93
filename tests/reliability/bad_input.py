"""Hypothesis strategies for hostile dataset input, shared by the loader and CLI tests.

Rows mix well-formed fields with wrong types, missing and extra fields, empty strings,
NUL bytes, lone surrogates (valid JSON escapes that are not valid Unicode), invalid
UTF-8 and random bytes, so that valid, invalid and undecodable rows all occur.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from hypothesis import strategies as st

from ragassay.dataset import DatasetError

FIELDS = ("id", "question", "user_input", "contexts", "retrieved_contexts", "answer", "response",
          "reference", "ground_truth", "strategy", "labels", "metadata", "labels.correct",
          "metadata.topic", "extra_field")

nasty_text = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", " ", "\x00", "a\x00b", "\ud800", "x\udfffy", "\ufeffq", "\n\r",
                     "<<<END ANSWER 0123456789ab>>>", "é", "😀", "null"]),
)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                    st.floats(allow_nan=True, allow_infinity=True), nasty_text)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(nasty_text, inner, max_size=3)),
    max_leaves=8,
)
odd_text = st.sampled_from(["q\ud800", "\udfff", "a\x00", "", "  ", "<script>x</script>"])
good_values: dict[str, st.SearchStrategy[Any]] = {
    "question": st.one_of(st.text(min_size=1, max_size=20).filter(str.strip), odd_text),
    "contexts": st.lists(st.one_of(st.text(max_size=20), odd_text), max_size=3),
    "answer": st.one_of(st.text(max_size=20), odd_text),
    "metadata.topic": st.one_of(st.text(max_size=5), odd_text),
    "strategy": st.one_of(st.sampled_from(["s1", "s2"]), odd_text),
    "reference": st.one_of(st.text(max_size=10), st.lists(st.text(max_size=10), max_size=2)),
    "id": st.one_of(st.integers(0, 5), st.sampled_from(["a", "b", "a"])),
}


@st.composite
def rows(draw: st.DrawFn) -> dict[str, Any]:
    """A row: each field absent, well-typed, or any JSON value (often wrong)."""
    row: dict[str, Any] = {}
    for name in draw(st.lists(st.sampled_from(FIELDS), max_size=6, unique=True)):
        base = name if name in good_values else None
        if base and draw(st.booleans()):
            row[name] = draw(good_values[base])
        else:
            row[name] = draw(json_values)
    if draw(st.booleans()):
        row.setdefault("question", draw(good_values["question"]))
    return row


def _json_line(row: Any, ascii_only: bool) -> bytes:
    return json.dumps(row, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


@st.composite
def jsonl_bytes(draw: st.DrawFn) -> bytes:
    """A JSONL file: good and bad JSON rows, non-objects, garbage bytes, blank lines."""
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["row", "row", "row", "value", "bytes", "blank", "cut"]))
        if kind == "row":
            lines.append(_json_line(draw(rows()), draw(st.booleans())))
        elif kind == "value":
            lines.append(_json_line(draw(json_values), True))
        elif kind == "bytes":
            lines.append(draw(st.binary(max_size=20)).replace(b"\n", b" "))
        elif kind == "cut":
            lines.append(_json_line(draw(rows()), True)[:-2])
        else:
            lines.append(b"  ")
    return b"\n".join(lines) + draw(st.sampled_from([b"", b"\n"]))


@st.composite
def csv_bytes(draw: st.DrawFn) -> bytes:
    """A CSV file: a header of known/unknown columns and rows of random cells."""
    header = draw(st.lists(st.sampled_from(FIELDS + ("",)), min_size=1, max_size=5))
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(header)
    for _ in range(draw(st.integers(0, 5))):
        n = draw(st.integers(0, len(header) + 1))
        cells = [draw(st.one_of(nasty_text, json_values.map(json.dumps))) for _ in range(n)]
        writer.writerow([c.replace("\x00", "") for c in cells])
    data = buf.getvalue().encode("utf-8", "surrogatepass")
    if draw(st.booleans()):  # corrupt some bytes: stray quotes, invalid UTF-8
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b'"', b"\xff\xfe", b"\x00", b"\r"])) + data[at:]
    return data


@st.composite
def json_list_bytes(draw: st.DrawFn) -> bytes:
    """A .json file: usually a list of rows, sometimes cut, nested wrongly or garbage."""
    items = draw(st.lists(st.one_of(rows(), json_values), max_size=5))
    text = json.dumps(items, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
    kind = draw(st.sampled_from(["whole", "whole", "cut", "object", "bytes", "trailing"]))
    if kind == "cut":
        return text[: draw(st.integers(0, len(text)))]
    if kind == "object":
        return json.dumps({"rows": items}, ensure_ascii=True).encode()
    if kind == "bytes":
        return draw(st.binary(max_size=40))
    if kind == "trailing":
        return text + b" ]"
    return text


def check_error(exc: DatasetError, name: str) -> str:
    """A dataset error is one line that names the file (and usually the line or row)."""
    message = str(exc)
    assert "\n" not in message and "\r" not in message, message
    assert message.startswith(name), (name, message)
    assert exc.reason, message
    return message
