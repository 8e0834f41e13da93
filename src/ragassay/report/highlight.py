"""Safe HTML for user text: every string is escaped; only our own tags are added.

Suites say which sentences matter on each metric's typed `MetricResult.marks`
(`SentenceMarks`: answer keys `a`, `b`... unsupported or supported, context keys `0a`...
relevant or used, unsupported claims by text, highlighted where a claim is an answer
sentence); a suite that marks nothing highlights nothing. The HTML report and the
dashboard (`ragassay.ui.highlight`) both mark sentences with it.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ragassay.text import KeyedSentence, display_answer, key_contexts
from ragassay.types import CheckedClaim, SentenceMarks

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
    # every claim checked, with the metric that checked it (`SentenceMarks.claims`)
    claims: list[tuple[str, CheckedClaim]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.unsupported or self.supported or self.relevant or self.used
                    or self.unsupported_claims)


def marks_of(marks: Mapping[str, SentenceMarks] | None) -> Marks:
    """One sample's sentence marks, gathered over its metrics' typed marks
    (`SampleEntry.marks`, from `MetricResult.marks`), with the metrics they came from."""
    out = Marks()
    for metric, m in (marks or {}).items():
        if not m:
            continue
        out.unsupported.update(m.unsupported)
        out.supported.update(m.supported)
        out.relevant.update(m.relevant)
        out.used.update(m.used)
        out.unsupported_claims += [c for c in m.unsupported_claims
                                   if c not in out.unsupported_claims]
        out.claims += [(metric, c) for c in m.claims]
        out.sources.append(metric)
    return out


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
        bad = s.key in marks.unsupported or s.plain in claims
        classes = ["ra-unsupported"] if bad else (
            ["ra-supported"] if s.key in marks.supported else [])
        parts.append(_span(KeyedSentence(s.key, s.text, -1), classes, show_keys))
    return f'<div class="ra-text">{" ".join(parts)}</div>'


def unmatched_claims(answer: str, marks: Marks) -> list[str]:
    """Unsupported claims that are not answer sentences (so not highlighted in place)."""
    sentences = {s.plain for s in display_answer(answer)}
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


def claims_title(marks: Marks) -> str:
    """The heading over a sample's checked claims (`Marks.claims`, each said with its
    verdict and probability, `CheckedClaim.verdict_text`: trial 72 read `supported`
    beside a one-claim answer's 0.60): `Claims checked (METRIC: the mean of their
    probabilities, where each has one)`."""
    metrics = ", ".join(dict.fromkeys(m for m, _ in marks.claims))
    return f"Claims checked ({metrics}: the mean of their probabilities, where each has one)"
