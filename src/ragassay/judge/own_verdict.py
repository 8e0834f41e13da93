"""Which JSON object of a reply is the judge's own verdict.

A judge that quotes the sample before its verdict (chain of thought, or a server that
does not enforce the schema) repeats whatever JSON the answer carries; taking the first
object of the reply would then score the sample with the *answer's* planted verdict.
So the verdict is the **last** object of the reply that validates against the prompt's
output model and is **not** copied from the untrusted inputs (the question, contexts,
answer, reference: verbatim up to whitespace, or equal once parsed). A reply that holds
a verdict-like object copied from the inputs (one that validates, or has a key of the
output) is suspicious: the verdict says so, and when the copy is the only valid object
the call is unscored with that reason (the judge is asked once more, as for any
unusable reply).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from ragassay.judge.scales import NAMES_NOTHING, OUT_OF_SCALE
from ragassay.llm.parsing import Found, json_values

COPIED = ("the reply's only verdict is a JSON object copied from the judged text "
          "(suspected prompt injection)")
COPIED_ONLY = "the reply holds no verdict of its own, only JSON copied from the judged text"
SUSPICIOUS = ("a judge reply held a verdict-like JSON object copied from the judged text "
              "(suspected prompt injection); it was not taken for the verdict")
OUT_OF_SCALE_NOTE = ("a judge reply rated outside its scale (an invalid reply, never "
                     "clamped); it was not taken for the verdict")
NAMES_NOTHING_NOTE = ("a judge reply judged nothing it was shown (a chunk or sentence that "
                      "does not exist, or none at all: an invalid reply, never a 0); it was "
                      "not taken for the verdict")


def _validation_error(exc: ValidationError) -> str:
    """The error to report: a value outside its scale first (what the judge got wrong
    about the scale), else the first; then the other fields that broke the same rule
    (any value outside its scale, else the same message)."""
    errors = exc.errors()
    first = next((e for e in errors if e["type"] == OUT_OF_SCALE), errors[0])
    others = [_loc(e) for e in errors if e is not first and e["loc"]
              and e["type"] == first["type"]
              and (first["type"] == OUT_OF_SCALE or e["msg"] == first["msg"])]
    also = f" (also {', '.join(others[:5])}{', ...' if len(others) > 5 else ''})" \
        if others else ""
    return f"{_loc(first) or 'reply'}: {first['msg']}{also}"


def _loc(error: Any) -> str:
    """Where a pydantic error is, dotted (`faithfulness`, `claims.0.verdict`)."""
    return ".".join(str(p) for p in error["loc"])


@dataclass(frozen=True)
class Choice:
    """The verdict read from a reply: its validated output, data and offset in the
    reply text, or why there is none; and whether the reply copied a verdict."""

    output: BaseModel | None
    data: Any = None
    start: int = 0
    reason: str | None = None
    suspicious: bool = False
    out_of_scale: bool = False  # the reply rated outside a scale (scales.OUT_OF_SCALE)
    names_nothing: bool = False  # the reply judged nothing shown (scales.NAMES_NOTHING)


class Inputs:
    """The untrusted texts a prompt was rendered with, read lazily: whitespace-collapsed
    for the verbatim test, and the JSON objects they hold (canonical) for the parsed one."""

    def __init__(self, texts: Iterable[str]) -> None:
        self._texts = [t for t in texts if "{" in t]
        self._flat: str | None = None
        self._objects: set[str] | None = None

    def copied(self, raw: str, value: Any) -> bool:
        if not self._texts:
            return False
        if self._flat is None:
            self._flat = "\n".join(_collapse(t) for t in self._texts)
        if _collapse(raw) in self._flat:
            return True
        if self._objects is None:
            self._objects = {_canonical(f.value) for t in self._texts
                             for f in json_values(t)[0] if isinstance(f.value, dict)}
        return _canonical(value) in self._objects


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def choose(text: str, model: type[BaseModel], inputs: Inputs,
           context: Mapping[str, Any] | None = None) -> Choice:
    """The judge's own verdict in `text` (see the module's docstring), validated with
    `context` (`scales.reply_context`: what the reply must name)."""
    found, scan_error = json_values(text)
    objects = [f for f in found if isinstance(f.value, dict)]
    keys = set(model.model_fields)
    chosen: Choice | None = None
    suspicious = copied_valid = copied_any = out_of_scale = nothing = False
    error: str | None = None
    for item in reversed(objects):
        copied = inputs.copied(text[item.start:item.end], item.value)
        if chosen is not None and not copied:
            continue  # an earlier draft of the judge's own: not looked at
        output, why, kinds = _validate(model, item.value, context)
        if copied:
            suspicious = suspicious or output is not None or bool(keys & set(item.value))
            copied_valid = copied_valid or output is not None
            copied_any = True
        elif output is not None:
            chosen = Choice(output, item.value, item.start)
        else:
            error = error or why
            out_of_scale = out_of_scale or OUT_OF_SCALE in kinds
            nothing = nothing or NAMES_NOTHING in kinds
    if chosen is not None:
        return Choice(chosen.output, chosen.data, chosen.start, suspicious=suspicious)
    if copied_valid:
        return Choice(None, reason=COPIED, suspicious=True)
    if error is not None:
        return Choice(None, reason=f"invalid reply: {error}", suspicious=suspicious,
                      out_of_scale=out_of_scale, names_nothing=nothing)
    if copied_any:
        return Choice(None, reason=COPIED_ONLY, suspicious=suspicious)
    arrays = [f for f in found if not isinstance(f.value, dict)]
    if arrays and not objects:  # e.g. a bare list: say why it is not the verdict
        _, why, _ = _validate(model, arrays[0].value, context)
        return Choice(None, reason=f"invalid reply: {why}")
    return Choice(None, reason=f"unparseable reply: {_unparseable(text, scan_error)}")


def _validate(model: type[BaseModel], data: Any, context: Mapping[str, Any] | None
              ) -> tuple[BaseModel | None, str | None, frozenset[str]]:
    """The validated output, or why not and the kinds of its errors."""
    try:
        return model.model_validate(data, context=context), None, frozenset()
    except ValidationError as exc:
        return None, _validation_error(exc), frozenset(e["type"] for e in exc.errors())


def _unparseable(text: str, scan_error: str | None) -> str:
    """Why no object parsed, as `parse_json_reply` says it (empty reply, truncated, ...)."""
    from ragassay.llm import parse_json_reply

    _, error = parse_json_reply(text)
    return error or scan_error or "no JSON object found in reply"


__all__ = ["COPIED", "COPIED_ONLY", "NAMES_NOTHING_NOTE", "OUT_OF_SCALE_NOTE", "SUSPICIOUS",
           "Choice", "Found", "Inputs", "choose"]
