"""Token log-probabilities for scripted replies, shaped like OpenAI's `logprobs.content`.

`logprobs_content(text, alternatives)` tokenizes a JSON reply the way Qwen's
tokenizer does for what matters here (one token per digit, "true"/"false" whole,
everything between them one token) and gives the i-th value token the i-th entry of
`alternatives` as its top alternatives (probabilities); other tokens are certain.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

_VALUE = re.compile(r"\d|true|false")


def _entry(token: str, alts: dict[str, float]) -> dict[str, Any]:
    top = sorted(alts.items(), key=lambda kv: -kv[1])
    return {"token": token, "logprob": math.log(alts.get(token, top[0][1])),
            "bytes": list(token.encode()),
            "top_logprobs": [{"token": t, "logprob": math.log(p), "bytes": list(t.encode())}
                             for t, p in top]}


def logprobs_content(text: str, alternatives: Sequence[dict[str, float] | None]
                     ) -> list[dict[str, Any]]:
    content: list[dict[str, Any]] = []
    pos = 0
    for k, m in enumerate(_VALUE.finditer(text)):
        if m.start() > pos:
            content.append(_entry(text[pos:m.start()], {text[pos:m.start()]: 1.0}))
        alts = alternatives[k] if k < len(alternatives) else None
        content.append(_entry(m.group(), alts or {m.group(): 1.0}))
        pos = m.end()
    if pos < len(text):
        content.append(_entry(text[pos:], {text[pos:]: 1.0}))
    return content
