"""Validation of one input row into a `Sample`: the single place every format goes through.

A row is a mapping of field names to values. Known names and their aliases (RAGAS
and legacy spellings) map onto the Sample fields; `labels.x` / `metadata.x` keys are
folded into those dicts; any other field is kept in `metadata`. A null value means
the field is absent. Problems raise `DatasetError` naming the place and the field.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from ragassay.dataset.errors import DatasetError, show, type_name
from ragassay.dataset.values import text_contexts, value_problem
from ragassay.types import Sample

# Canonical field -> accepted input names, in order of preference.
ALIASES: dict[str, tuple[str, ...]] = {
    "id": ("id",),
    "question": ("question", "user_input"),
    "contexts": ("contexts", "retrieved_contexts"),
    "answer": ("answer", "response"),
    "reference": (
        "reference",
        "ground_truth",
        "ground_truths",
        "expected_answer",
        "golden_answer",
    ),
    "strategy": ("strategy",),
    "labels": ("labels",),
    "metadata": ("metadata",),
}
CANONICAL: dict[str, str] = {name: field for field, names in ALIASES.items() for name in names}
NESTED = ("labels", "metadata")  # fields that also accept flattened `labels.x` keys

ID_LENGTH = 12  # hex digits of sha1 in generated ids


@dataclass(frozen=True)
class ParsedRow:
    """A validated sample and whether its id came from the input (vs. generated)."""

    sample: Sample
    explicit_id: bool


def sample_from_mapping(row: Mapping[str, Any], *, where: str,
                        field_map: Mapping[str, str] | None = None) -> Sample:
    """Validate one input row and build a Sample; raise DatasetError naming `where`.

    `field_map` ({field: column}, see `check_field_map`) reads a field from a column of
    another name. Without an `id` field the id is `content_id(...)` of the row; loaders
    additionally de-duplicate generated ids across a dataset (see `ragassay.dataset.loader`).
    """
    return parse_row(row, where=where, field_map=field_map).sample


def check_field_map(field_map: Mapping[str, str]) -> dict[str, str]:
    """A {field: column} map, checked: known field names, non-empty distinct columns."""
    out: dict[str, str] = {}
    for field, column in field_map.items():
        if field not in ALIASES:
            raise DatasetError(f"unknown field {show(field)} (fields: {', '.join(ALIASES)})")
        if not isinstance(column, str) or not column.strip():
            raise DatasetError(f"the column for {field!r} must be a non-empty name")
        if column in out.values():
            raise DatasetError(f"column {show(column)} is mapped to two fields")
        out[field] = column
    return out


def field_of(column: str, field_map: Mapping[str, str] | None = None) -> str | None:
    """The Sample field a column supplies (a mapped column, else a known name), or None."""
    if field_map:
        for field, mapped in field_map.items():
            if mapped == column:
                return field
    return CANONICAL.get(column)


def parse_row(row: Any, *, where: str, field_map: Mapping[str, str] | None = None
              ) -> ParsedRow:
    """Like `sample_from_mapping`, also telling whether the id was given."""
    if not isinstance(row, Mapping):
        raise DatasetError(f"row must be an object, got {type_name(row)}", where=where)
    _check_values(row, where)
    fields, nested, extras = _split(row, where, field_map)

    question = _text(fields.get("question"), "question", where)
    if question is None:
        raise DatasetError(missing_question(extras), where=where, field="question")
    if not question.strip():
        raise DatasetError("'question' must not be empty", where=where, field="question")
    contexts = _contexts(fields.get("contexts"), where)
    answer = _text(fields.get("answer"), "answer", where) or ""
    reference = _reference(fields.get("reference"), where)
    strategy = _text(fields.get("strategy"), "strategy", where)
    if strategy is not None and not strategy.strip():
        raise DatasetError("'strategy' must not be empty", where=where, field="strategy")
    strategy = strategy or "default"
    labels = _merge(
        _object(fields.get("labels"), "labels", where), nested["labels"], "labels", where
    )
    metadata = _merge(
        _object(fields.get("metadata"), "metadata", where), nested["metadata"], "metadata", where
    )
    metadata = _merge(metadata, extras, "metadata", where)
    _check_trace(metadata, where)

    given_id = id_value(fields.get("id"), where)
    sample_id = given_id or content_id(question, contexts, answer, strategy)
    try:
        sample = Sample(
            id=sample_id,
            question=question,
            contexts=contexts,
            answer=answer,
            reference=reference,
            strategy=strategy,
            labels=labels,
            metadata=metadata,
        )
    except ValidationError as exc:  # defensive: the checks above should catch everything
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise DatasetError(f"'{loc}' {first['msg']}", where=where, field=loc) from exc
    return ParsedRow(sample=sample, explicit_id=given_id is not None)


def _check_trace(metadata: Mapping[str, Any], where: str) -> None:
    # imported here: the traces package imports the readers, which import this module
    from ragassay.dataset.traces.trace import TRACE_KEY, trace_problem

    problem = trace_problem(metadata)
    if problem is not None:
        raise DatasetError(problem, where=where, field=f"metadata.{TRACE_KEY}")


_QUESTION_HINTS = ("quest", "query", "prompt", "input", "ask", "user")
_SHOWN_COLUMNS = 8


def missing_question(extras: Mapping[str, Any]) -> str:
    """Why a row without a question is refused: the accepted names, the row's columns that
    are no known field, and the `--map` that would read the question from one of them
    (the likeliest by its name, when one looks like a question)."""
    text = "'question' is required (accepted names: 'question', 'user_input')"
    columns = [c for c in extras if isinstance(extras[c], str)] or list(extras)
    if not columns:
        return text
    shown = ", ".join(show(c) for c in columns[:_SHOWN_COLUMNS])
    more = f" and {len(columns) - _SHOWN_COLUMNS} more" if len(columns) > _SHOWN_COLUMNS else ""
    guess = next((c for c in columns if any(h in c.lower() for h in _QUESTION_HINTS)),
                 columns[0] if len(columns) == 1 else "COLUMN")
    return (f"{text}; columns no field is read from: {shown}{more}; if one holds the "
            f"question, say so: --map question={guess} (field_map in Python)")


def content_id(question: str, contexts: tuple[str, ...], answer: str, strategy: str) -> str:
    """A stable id from the interaction itself: short sha1 of its canonical JSON.

    Only what defines the interaction (question, contexts, answer, strategy) is hashed,
    so adding or fixing references, labels or metadata later keeps ids, and resumed
    runs still match their samples.
    """
    canon = json.dumps(
        {"q": question, "c": list(contexts), "a": answer, "s": strategy},
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha1(canon.encode("utf-8")).hexdigest()[:ID_LENGTH]


def id_value(value: Any, where: str) -> str | None:
    """An explicit id as a string (ints are accepted), or None when absent."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    text = _text(value, "id", where, kind="a string or an integer")
    if text is not None and not text.strip():
        raise DatasetError("'id' must not be empty", where=where, field="id")
    return text


def _check_values(row: Mapping[Any, Any], where: str) -> None:
    """Every key and value within the limits of `values.value_problem` (no lone
    surrogate, no integer beyond Python's digit limit, no nesting deeper than MAX_DEPTH)."""
    for key, value in row.items():
        problem = value_problem(key) or value_problem(value)
        if problem:
            name = str(key).encode("utf-8", "replace").decode("utf-8")
            raise DatasetError(f"'{name}' {problem}", where=where,
                               field=CANONICAL.get(name, name))


def _split(
    row: Mapping[str, Any], where: str, field_map: Mapping[str, str] | None = None
) -> tuple[dict[str, Any], dict[str, dict[str, Any]], dict[str, Any]]:
    """Sort a row's keys into canonical fields, flattened nested keys and extras."""
    fields: dict[str, Any] = {}
    source: dict[str, str] = {}  # canonical field -> input name it came from
    nested: dict[str, dict[str, Any]] = {name: {} for name in NESTED}
    extras: dict[str, Any] = {}
    for raw_key, value in row.items():
        key = str(raw_key)
        if type(value).__module__ == "numpy" and hasattr(value, "tolist"):
            value = value.tolist()  # numpy scalars/arrays as pandas and Arrow hand them out
        if value is None:
            continue
        field = field_of(key, field_map)
        if field is not None:
            if field in fields:
                if _comparable(field, fields[field]) != _comparable(field, value):
                    raise DatasetError(
                        f"'{source[field]}' and '{key}' both give the {field} "
                        "with different values",
                        where=where,
                        field=field,
                    )
                continue
            fields[field] = value
            source[field] = key
            continue
        prefix, dot, rest = key.partition(".")
        if dot and rest and prefix in NESTED:
            nested[prefix][rest] = jsonable(value)
        else:
            extras[key] = jsonable(value)
    return fields, nested, extras


def _comparable(field: str, value: Any) -> Any:
    """Normalise a value for alias-conflict comparison (tuple==list, 'x'==['x'])."""
    if isinstance(value, tuple):
        value = list(value)
    if field == "reference" and isinstance(value, str):
        return [value]
    return value


def _text(value: Any, field: str, where: str, *, kind: str = "a string") -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise DatasetError(
            f"'{field}' must be {kind}, got {type_name(value)}", where=where, field=field
        )
    if "\x00" in value:
        raise DatasetError(f"'{field}' contains a NUL byte", where=where, field=field)
    return value


def _string_list(value: Any, field: str, kind: str, where: str) -> tuple[str, ...]:
    """A list/tuple of strings as a tuple, else an error naming the bad item (1-based)."""
    if not isinstance(value, (list, tuple)):
        raise DatasetError(
            f"'{field}' must be {kind}, got {type_name(value)}", where=where, field=field
        )
    for i, item in enumerate(value, 1):
        if not isinstance(item, str):
            raise DatasetError(
                f"'{field}' must be {kind} (item {i} is {type_name(item)})",
                where=where,
                field=field,
            )
        if "\x00" in item:
            raise DatasetError(
                f"'{field}' contains a NUL byte (item {i})", where=where, field=field
            )
    return tuple(value)


def _contexts(value: Any, where: str) -> tuple[str, ...]:
    """A list of strings; one string is read as the CSV reader reads a contexts cell
    (`values.text_contexts`): a JSON or Python list of strings, else one passage, so that
    a DataFrame from `pd.read_csv` and a JSONL row `"contexts": "one passage"` read as
    the command line reads the CSV."""
    if value is None:
        return ()
    if isinstance(value, str):
        value = text_contexts(value)
    return _string_list(value, "contexts", "a list of strings", where)


def _reference(value: Any, where: str) -> str | tuple[str, ...] | None:
    if value is None:
        return None
    kind = "a string or a list of strings"
    if isinstance(value, str):
        return _text(value, "reference", where, kind=kind)
    refs = _string_list(value, "reference", kind, where)
    return refs or None


def _object(value: Any, field: str, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise DatasetError(
            f"'{field}' must be an object, got {type_name(value)}", where=where, field=field
        )
    return {str(k): jsonable(v) for k, v in value.items()}


def _merge(base: dict[str, Any], more: dict[str, Any], field: str, where: str) -> dict[str, Any]:
    """Add `more` to `base`; a key given twice with different values is an error."""
    if not more:
        return base
    out = dict(base)
    for key, value in more.items():
        if key in out and out[key] != value:
            raise DatasetError(
                f"'{field}' key {show(key)} is given twice with different values",
                where=where,
                field=field,
            )
        out[key] = value
    return out


def jsonable(value: Any) -> Any:
    """Convert a label/metadata value to plain JSON types so run records can store it.

    numpy scalars and arrays become Python numbers and lists, dates ISO strings, tuples
    lists, NaN and infinities None; anything else unknown becomes its `str`.
    """
    if type(value).__module__ == "numpy" and hasattr(value, "tolist"):
        return jsonable(value.tolist())  # before the float check: np.float64 is a float
    if isinstance(value, float) and not math.isfinite(value):
        return None  # NaN/inf (a pandas gap, JSON's Infinity): no value, as JSON can store it
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (_dt.date, _dt.time)):  # datetime is a date; pandas Timestamp too
        return value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", "replace")
    return str(value)
