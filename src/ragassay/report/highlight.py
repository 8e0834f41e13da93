"""Safe HTML for user text: every string is escaped; only our own tags are added.

Suites record which sentences matter in a metric's `details` under keys such as
`unsupported`, `relevant_keys` or `used_keys` (lists of sentence keys `a`, `0b`, ...;
`{key: text}` mappings; or lists of `{"key", "text"}` objects, as the trace suite
does). RAGAS records `claims: [{claim, supported, reason}]`: unsupported claims are
listed as text, and highlighted where a claim is an answer sentence. Nothing here is trusted:
unknown shapes are ignored, so a suite that records nothing highlights nothing. The HTML
report and the dashboard (`ragassay.ui.highlight`) both mark sentences with it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ragassay.text import KeyedSentence, display_answer, key_contexts

ANSWER_KEY = re.compile(r"^[a-z]{1,3}$")
CONTEXT_KEY = re.compile(r"^\d+[a-z]{1,3}$")

CSS = """<style>
.ra-text { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.95rem;
  line-height: 1.5; padding: 0.5rem 0.75rem; border-radius: 0.4rem;
  border: 1px solid rgba(128,128,128,0.3); margin-bottom: 0.5rem; }
.ra-unsupported { background: rgba(255, 75, 75, 0.28); border-bottom: 2px solid #ff4b4b; }
.ra-supported { background: rgba(33, 195, 84, 0.12); }
.ra-relevant { border-bottom: 2px solid #1c83e1; }
.ra-used { background: rgba(33, 195, 84, 0.22); }
.ra-key { font-size: 0.7rem; color: #888; vertical-align: super; margin-right: 0.1rem; }
.ra-legend span { margin-right: 1rem; padding: 0 0.3rem; }
</style>"""

LEGEND = (
    '<div class="ra-legend"><span class="ra-unsupported">unsupported by the contexts</span>'
    '<span class="ra-relevant">relevant to the question</span>'
    '<span class="ra-used">used by the answer</span></div>'
)


@dataclass
class Marks:
    """Which sentences to highlight, by key, and claims that have no key."""

    unsupported: set[str] = field(default_factory=set)  # answer keys
    supported: set[str] = field(default_factory=set)  # answer keys
    relevant: set[str] = field(default_factory=set)  # context keys
    used: set[str] = field(default_factory=set)  # context keys
    unsupported_claims: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)  # metrics the marks came from

    @property
    def empty(self) -> bool:
        return not (self.unsupported or self.supported or self.relevant or self.used
                    or self.unsupported_claims)


def _items(value: Any) -> Iterable[tuple[str | None, str | None]]:
    """(key, text) pairs from the shapes suites use; anything else yields nothing."""
    if isinstance(value, Mapping):
        for k, v in value.items():
            yield str(k), v if isinstance(v, str) else None
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, str):
                is_key = ANSWER_KEY.match(item) or CONTEXT_KEY.match(item)
                yield (item, None) if is_key else (None, item)
            elif isinstance(item, Mapping):
                key = item.get("key")
                text = item.get("text", item.get("claim", item.get("statement")))
                yield (str(key) if key is not None else None,
                       text if isinstance(text, str) else None)


def _kind(name: str) -> str | None:
    n = name.lower()
    if "unsupported" in n or "hallucinated_sentence" in n:
        return "unsupported"
    if "supported" in n:
        return "supported"
    if "relevant" in n and "irrelevant" not in n:
        return "relevant"
    if "utilized" in n or "utilised" in n or "used" in n:
        return "used"
    return None


def marks_from_details(details: Mapping[str, Any]) -> Marks:
    """Collect sentence marks from every metric's details of one sample."""
    marks = Marks()
    for metric, entry in details.items():
        if not isinstance(entry, Mapping):
            continue
        for name, value in entry.items():
            if name == "claims" and isinstance(value, list):  # RAGAS: [{claim, supported}]
                for item in value:
                    if (isinstance(item, Mapping) and item.get("supported") is False
                            and isinstance(item.get("claim"), str)):
                        if item["claim"] not in marks.unsupported_claims:
                            marks.unsupported_claims.append(item["claim"])
                        if metric not in marks.sources:
                            marks.sources.append(str(metric))
                continue
            kind = _kind(str(name))
            if kind is None:
                continue
            found = False
            for key, text in _items(value):
                if key is not None:
                    pattern = ANSWER_KEY if kind in ("unsupported", "supported") else CONTEXT_KEY
                    if pattern.match(key):
                        getattr(marks, kind).add(key)
                        found = True
                elif text and kind == "unsupported" and text not in marks.unsupported_claims:
                    marks.unsupported_claims.append(text)
                    found = True
            if found and metric not in marks.sources:
                marks.sources.append(str(metric))
    return marks


def _span(sentence: KeyedSentence, classes: Sequence[str], show_key: bool) -> str:
    key = f'<span class="ra-key">{html.escape(sentence.key)}</span>' if show_key else ""
    body = html.escape(sentence.text)
    if classes:
        body = f'<span class="{" ".join(classes)}">{body}</span>'
    return key + body


def text_html(text: str) -> str:
    """A block showing `text` verbatim (escaped; whitespace kept)."""
    return f'<div class="ra-text">{html.escape(text)}</div>'


def answer_html(answer: str, marks: Marks, *, show_keys: bool = True) -> str:
    """The answer, sentence by sentence, unsupported sentences highlighted."""
    sentences = display_answer(answer)
    if not sentences:
        return text_html(answer)
    claims = set(marks.unsupported_claims)
    parts = []
    for s in sentences:
        bad = s.key in marks.unsupported or s.text in claims
        classes = ["ra-unsupported"] if bad else (
            ["ra-supported"] if s.key in marks.supported else [])
        parts.append(_span(s, classes, show_keys))
    return f'<div class="ra-text">{" ".join(parts)}</div>'


def unmatched_claims(answer: str, marks: Marks) -> list[str]:
    """Unsupported claims that are not answer sentences (so not highlighted in place)."""
    sentences = {s.text for s in display_answer(answer)}
    return [c for c in marks.unsupported_claims if c not in sentences]


def contexts_html(contexts: Sequence[str], marks: Marks, *, show_keys: bool = True) -> list[str]:
    """One block per context document, relevant and used sentences highlighted."""
    by_doc: dict[int, list[KeyedSentence]] = {}
    for s in key_contexts(list(contexts)):
        by_doc.setdefault(s.doc, []).append(s)
    blocks = []
    for d, doc in enumerate(contexts):
        sentences = by_doc.get(d, [])
        if not sentences:
            blocks.append(text_html(doc))
            continue
        parts = []
        for s in sentences:
            classes = [c for c, on in (("ra-relevant", s.key in marks.relevant),
                                       ("ra-used", s.key in marks.used)) if on]
            parts.append(_span(s, classes, show_keys))
        blocks.append(f'<div class="ra-text">{" ".join(parts)}</div>')
    return blocks
