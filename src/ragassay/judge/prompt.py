"""Prompts are data: a TOML template file next to its metric, a typed output model,
few-shot examples validated against that model, and a version that is part of the
cache key.

Untrusted text (questions, contexts, answers, references) is only ever inserted
inside fenced blocks whose boundary carries a digest of the text itself, so the
text cannot contain, and therefore cannot close, its own fence.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ragassay.llm.wire import Message

_VAR = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")


class PromptError(ValueError):
    """A prompt file is malformed (missing key, bad example, unknown variable)."""


def fence(label: str, text: str) -> str:
    """Wrap untrusted text in a block that the text itself cannot close.

    The boundary tag includes a digest of the text: to forge the closing line, the
    text would have to contain its own SHA-256 prefix.
    """
    tag = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    label = label.upper()
    return f"<<<{label} {tag}>>>\n{text}\n<<<END {label} {tag}>>>"


@dataclass(frozen=True)
class Prompt:
    """A loaded prompt template with its output model."""

    name: str
    version: str
    system: str
    user: str
    output_model: type[BaseModel]
    untrusted: tuple[str, ...]
    examples: tuple[dict[str, Any], ...] = ()
    max_tokens: int = 1024

    @cached_property
    def schema(self) -> dict[str, Any]:
        """The output model's JSON schema, built once per prompt (treat it as read-only):
        pydantic rebuilds it on every call, which was the runner's top CPU cost."""
        return self.output_model.model_json_schema()

    @cached_property
    def variables(self) -> frozenset[str]:
        return frozenset(_VAR.findall(self.user)) | frozenset(_VAR.findall(self.system))

    def render(self, values: Mapping[str, Any]) -> tuple[Message, ...]:
        """Fill the template; untrusted values are fenced, others inserted as text."""
        missing = self.variables - set(values)
        if missing:
            raise PromptError(f"prompt {self.name}: missing variables {sorted(missing)}")

        def sub(template: str) -> str:
            def one(m: re.Match[str]) -> str:
                key = m.group(1)
                value = values[key]
                text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
                return fence(key, text) if key in self.untrusted else text

            return _VAR.sub(one, template)

        return (Message(role="system", content=sub(self.system).strip()),
                *self._example_messages,
                Message(role="user", content=sub(self.user).strip()))

    @cached_property
    def _example_messages(self) -> tuple[Message, ...]:
        """The few-shot turns: the same for every sample, so rendered once."""
        messages: list[Message] = []
        for ex in self.examples:
            messages.append(Message(role="user", content=sub_example(self.user, ex["input"],
                                                                     self.untrusted).strip()))
            messages.append(Message(role="assistant",
                                    content=json.dumps(ex["output"], ensure_ascii=False)))
        return tuple(messages)


def sub_example(template: str, values: Mapping[str, Any], untrusted: tuple[str, ...]) -> str:
    def one(m: re.Match[str]) -> str:
        key = m.group(1)
        value = values.get(key, "")
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        return fence(key, text) if key in untrusted else text

    return _VAR.sub(one, template)


def load_prompt(path: str | Path, output_model: type[BaseModel]) -> Prompt:
    """Load a prompt TOML file and validate its few-shot examples against the output model."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise PromptError(f"{path.name}: {exc}") from exc
    for key in ("name", "version", "system", "user"):
        if not isinstance(data.get(key), str):
            raise PromptError(f"{path.name}: '{key}' must be a string")
    examples = tuple(data.get("examples", ()))
    for i, ex in enumerate(examples):
        if "input" not in ex or "output" not in ex:
            raise PromptError(f"{path.name}: example {i} needs 'input' and 'output'")
        try:
            output_model.model_validate(ex["output"])
        except ValidationError as exc:
            first = exc.errors()[0]
            raise PromptError(
                f"{path.name}: example {i} output invalid at {first['loc']}: {first['msg']}"
            ) from exc
    return Prompt(
        name=data["name"],
        version=data["version"],
        system=data["system"],
        user=data["user"],
        output_model=output_model,
        untrusted=tuple(data.get("untrusted", ("question", "answer", "contexts", "reference"))),
        examples=examples,
        max_tokens=int(data.get("max_tokens", 1024)),
    )
