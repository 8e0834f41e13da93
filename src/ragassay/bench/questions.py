"""Benchmark questions (JSONL) and their gold labels, checked against the corpus."""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragassay.corpus import Document, locate


class GoldPassage(BaseModel):
    """A gold passage: a document id and a quote (a substring of that document's text,
    compared case-insensitively with whitespace runs treated as equal)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    doc: str
    quote: str = Field(min_length=1)


class Question(BaseModel):
    """One benchmark question with its reference answer and optional gold labels."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    question: str = Field(min_length=1)
    reference: str | tuple[str, ...] | None = None
    gold_docs: tuple[str, ...] = ()
    gold_passages: tuple[GoldPassage, ...] = ()
    metadata: dict[str, Any] = Field(default_factory=dict)

    @property
    def has_gold(self) -> bool:
        return bool(self.gold_docs or self.gold_passages)


class QuestionsError(ValueError):
    """A questions file that cannot be used; the message names the line and the key."""


def _row_error(name: str, n: int, exc: ValidationError) -> QuestionsError:
    err = exc.errors()[0]
    loc = ".".join(str(x) for x in err["loc"]) or "row"
    if err["type"] == "extra_forbidden" and len(err["loc"]) == 1:
        close = difflib.get_close_matches(loc, FIELDS, n=1)
        field = close[0] if close else "FIELD"
        return QuestionsError(
            f"{name}:{n}: unknown field {loc!r} (fields: {', '.join(FIELDS)}); rename it, or "
            f"map it in the config: [bench] map = {{ {field} = \"{loc}\" }}")
    return QuestionsError(f"{name}:{n}: {loc!r}: {err['msg']}")


FIELDS = tuple(Question.model_fields)


def _mapped(row: Any, field_map: Mapping[str, str], where: str) -> Any:
    """The row with each mapped column renamed to its field (`[bench] map`)."""
    if not isinstance(row, dict) or not field_map:
        return row
    out = dict(row)
    for field, column in field_map.items():
        if column in out:
            value = out.pop(column)
            if field in out and out[field] != value:
                raise QuestionsError(f"{where}: '{field}' and '{column}' (mapped to {field}) "
                                     "both give the " + field)
            out[field] = value
    return out


def load_questions(path: str | Path, documents: Sequence[Document] | None = None,
                   field_map: Mapping[str, str] | None = None) -> list[Question]:
    """Read questions JSONL; with `documents`, check every gold doc id and quote exists.

    `field_map` ({field: column}, the config's `[bench] map`) reads a field from a column
    of another name; an unknown column is an error naming the accepted fields.
    """
    from ragassay.dataset.values import ValueProblem, loads, value_problem

    p = Path(path)
    if not p.exists():
        raise QuestionsError(f"questions file not found: {p}")
    by_id = {d.id: d for d in documents} if documents is not None else None
    out: list[Question] = []
    seen: set[str] = set()
    for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = loads(line)
        except json.JSONDecodeError as exc:
            raise QuestionsError(f"{p.name}:{n}: invalid JSON ({exc.msg})") from exc
        except ValueProblem as exc:
            raise QuestionsError(f"{p.name}:{n}: {exc}") from None
        problem = value_problem(row)
        if problem:
            raise QuestionsError(f"{p.name}:{n}: the row {problem}")
        row = _mapped(row, field_map or {}, f"{p.name}:{n}")
        if isinstance(row, dict) and "id" in row:
            row["id"] = str(row["id"])
        try:
            q = Question.model_validate(row)
        except ValidationError as exc:
            raise _row_error(p.name, n, exc) from exc
        if q.id in seen:
            raise QuestionsError(f"{p.name}:{n}: duplicate question id {q.id!r}")
        seen.add(q.id)
        if by_id is not None:
            for doc in (*q.gold_docs, *(g.doc for g in q.gold_passages)):
                if doc not in by_id:
                    raise QuestionsError(f"{p.name}:{n}: gold document {doc!r} not in corpus")
            for g in q.gold_passages:
                if locate(g.quote, by_id[g.doc].text) is None:
                    raise QuestionsError(
                        f"{p.name}:{n}: gold quote not found in {g.doc!r}: {g.quote[:60]!r}"
                    )
        out.append(q)
    if not out:
        raise QuestionsError(f"{p.name}: no questions")
    return out
