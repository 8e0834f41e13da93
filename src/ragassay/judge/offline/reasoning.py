"""A short human-readable account of the offline judge's evidence.

It tells the same story as the metrics: it counts the claims (the sentences that
assert something, `Evidence.claim_indices`, as ragas.faithfulness does), names the
unsupported ones, and cites context sentences only for supported claims.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from .evidence import SUPPORT_THRESHOLD, Evidence, to_ten_point
from .normalise import quantities, written_values

SHORT_CLAUSE = 60  # characters of an unstated clause the reasoning quotes
SHORT_CONTEXT = 80  # characters of a contradicted context sentence the reasoning quotes

KEYS_LEGEND = (
    "keys: 0a = first passage, sentence a; 'sentence c (0.30)' = the answer's third "
    "sentence and its support (0-1; a claim below "
    f"{SUPPORT_THRESHOLD:g} is unsupported)")
"""What the reasoning's keys mean (trial 80: "0a" and "sentence c (0.30)" unexplained, no
threshold), said once where reasoning lines are listed for people (`uses_keys`)."""

_KEY = re.compile(r"\bsentences? [a-z]\b|\b\d+[a-z]\b")


def uses_keys(text: str | None) -> bool:
    """Whether a reasoning names passage or answer sentences by key (`0a`, `sentence
    b`), so a listing of it says `KEYS_LEGEND`."""
    return bool(text and _KEY.search(text))


def _short(text: str, limit: int = SHORT_CLAUSE) -> str:
    text = " ".join(text.split()).strip(" ,;.")  # one line
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


_WORD = re.compile(r"\S+")
_EDGE = ".,;:!?()[]{}\"'“”‘’"
_REACH = 4  # words of the sentence a rewritten figure is looked for in


def as_in(quote: str, sentence: str) -> str:
    """A clause the judge read from its normalised text ("and costs a 12 euros"), quoted
    in the answer's own words: the span of `sentence` (as the answer writes it) from the
    first to the last word the two share in order ("and costs a dozen euros"); the whole
    sentence when they share none (trial 91: a reason quoted "14 days", words the answer
    never wrote, for its "a fortnight")."""
    low = sentence.lower()
    if (at := low.find(quote.lower())) >= 0:
        return sentence[at:at + len(quote)]
    spans = list(_WORD.finditer(sentence))
    said = [m.group(0).strip(_EDGE).lower() for m in spans]
    read = [w.strip(_EDGE).lower() for w in quote.split()]
    blocks = [b for b in SequenceMatcher(None, said, read, autojunk=False)
              .get_matching_blocks() if b.size]
    if not blocks:
        return sentence
    first, last = blocks[0].a, blocks[-1].a + blocks[-1].size - 1
    # a quote that starts or ends in rewritten words ("12 euros" for "dozen euros", "14
    # days" for "fortnight") reaches as far into the sentence as gives their figures
    head, tail = blocks[0].b, len(read) - (blocks[-1].b + blocks[-1].size)
    first -= _reach(sentence, spans, head, first, (first, first + blocks[0].size - 1),
                    read[:head + blocks[0].size], back=True)
    last += _reach(sentence, spans, tail, len(spans) - 1 - last, (blocks[-1].a, last),
                   read[blocks[-1].b:], back=False)
    return sentence[spans[first].start():spans[last].end()].strip(_EDGE)


def _reach(sentence: str, spans: list[re.Match[str]], unread: int, room: int,
           span: tuple[int, int], words: list[str], back: bool) -> int:
    """How many words of `sentence` past `span` (back or forward, at most `room`) a quote
    whose `unread` edge words were rewritten reaches for: as few as give the figures of
    `words` as written ("a dozen" for "12"), else the rewritten words' count."""
    if not unread:
        return 0
    need = {q.value for q in quantities(" ".join(words))}
    lo, hi = span
    for k in range(1, min(room, _REACH) + 1) if need else ():
        a, b = (lo - k, hi) if back else (lo, hi + k)
        if need <= written_values(sentence[spans[a].start():spans[b].end()]):
            return k
    return min(unread, room)


def _flip(ev: Evidence, i: int, context: dict[str, str]) -> str:
    """One contradicted claim: "b (number)", and where the judge knows which context
    sentence it contradicts, that sentence's key and text: 'b (number) against 1a "Refunds
    take 30 days"' (trial 74: the kind alone left the call unchecked)."""
    said = f"{ev.answer_sentences[i].key} ({ev.contradicts[i]})"
    key = ev.contradicted_keys[i] if i < len(ev.contradicted_keys) else None
    if key is None or key not in context:
        return said
    return f'{said} against {key} "{_short(context[key], SHORT_CONTEXT)}"'


def _on_ten(metric: str, p: float) -> str:
    """A probability as the judge suite's metric shows it: `judge.faithfulness 4.06 on
    1-10`."""
    return f"{metric} {to_ten_point(p):.2f} on 1-10"


def _sentences(items: list[str]) -> str:
    """Answer sentences named by their keys: "sentence b (0.21)", "sentences a, c"."""
    return ("sentence " if len(items) == 1 else "sentences ") + ", ".join(items)


def reasoning(ev: Evidence, max_terms: int = 3) -> str:
    """E.g. "2 of 3 claims supported; unsupported: sentence b (0.21); '1998' not found in
    the context; supported by 0a, 1b; support 0.34 (judge.faithfulness 4.06 on 1-10)": the
    judge's probability that the answer is supported, and the 1-10 value it gives."""
    parts: list[str] = []
    if not ev.answer_sentences:
        parts.append("empty answer")
    elif not ev.context_sentences:
        parts.append("no context to check the answer against")
    elif not any(ev.asserts):
        parts.append("the answer makes no claim to check (it abstains or is conversational)")
    else:
        claims = ev.claim_indices()
        ok = [i for i in claims if ev.support[i] >= SUPPORT_THRESHOLD]
        n = len(ev.answer_sentences)
        # (trial 70: "0 of 1 claims supported; unsupported: b" read as a miscount where
        # sentence a makes no claim: the letters name sentences, and say so)
        which = "" if len(claims) == n else (
            f" ({_sentences([ev.answer_sentences[i].key for i in claims])} of {n})")
        parts.append(f"{len(ok)} of {len(claims)} claims supported{which}")
        weak = [
            f"{ev.answer_sentences[i].key} ({ev.support[i]:.2f})"
            for i in claims
            if ev.support[i] < SUPPORT_THRESHOLD
        ]
        if weak:
            parts.append("unsupported: " + _sentences(weak[:4]))
        context = {c.key: c.text for c in ev.context_sentences}
        flips = [_flip(ev, i, context) for i in claims
                 if i < len(ev.contradicts) and ev.contradicts[i]]
        if flips:
            parts.append("contradicts the context: " + _sentences(flips[:4]))
        invented = [
            f"{ev.answer_sentences[i].key} "
            f"('{_short(as_in(clause, ev.answer_sentences[i].text))}')"
            for i in claims
            if i < len(ev.unstated) and (clause := ev.unstated[i])
        ]
        if invented:
            parts.append("stated in no context: " + _sentences(invented[:3]))
    if ev.hallucinated_terms:
        shown = ", ".join(f"'{t}'" for t in ev.hallucinated_terms[:max_terms])
        more = len(ev.hallucinated_terms) - max_terms
        where = "the analysed part of the context" if ev.truncated else "the context"
        parts.append(f"{shown}{f' (+{more} more)' if more > 0 else ''} not found in {where}")
    cited = [k for keys in ev.support_keys for k in keys[:1]]
    if cited:
        parts.append("supported by " + ", ".join(dict.fromkeys(cited)))
    if ev.instruction_keys:
        parts.append(
            "ignored as instructions to the evaluator: " + ", ".join(ev.instruction_keys[:4])
        )
    abstains = ev.abstains
    if abstains:
        parts.append("the answer declines: abstained, no faithfulness")
    elif ev.noncommittal:
        # (trials 52 and 53 read "noncommittal" beside a low score as a contradiction)
        parts.append("the answer declines in part, and what else it says is scored as claims")
    # each probability named with the metric the user sees it as (trial 67: "faithfulness
    # 0.85" beside judge.faithfulness 8.66 and ragas.faithfulness 0.73, a third scale)
    if ev.reference_match is not None:
        parts.append(f"reference match {ev.reference_match:.2f} "
                     f"({_on_ten('judge.answer_similarity', ev.reference_match)})")
    if ev.faithfulness is not None and not abstains:
        parts.append(f"support {ev.faithfulness:.2f} "
                     f"({_on_ten('judge.faithfulness', ev.faithfulness)})")
    if ev.truncated:
        parts.append(
            f"input truncated: analysed the first {len(ev.answer_sentences)} answer and "
            f"{len(ev.context_sentences)} context sentences"
        )
    return "; ".join(parts)
