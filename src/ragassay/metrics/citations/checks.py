"""Per-sentence citation checks: the deterministic quote pass, and the offline judge's
support model over the cited passages only.

The offline judge reads each (sentence, cited passages) pair as a small sample of its own
(the sentence without its markers as the answer, the cited passages joined into one
context document, so that they support it jointly) and
calls the sentence supported when its support probability reaches SUPPORT_THRESHOLD; one
batch per answer. Which sentences need a citation follows the offline judge's claim rules
(abstentions and filler make no claim; a question asks, it does not claim).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ragassay.metrics.citations.formulas import SentenceCheck, quotes
from ragassay.text import CitedSentence, KeyedSentence, ParsedAnswer
from ragassay.types import Sample

_analyzer: Any = None


def default_analyzer() -> Any:
    """The offline judge's analyzer, built once per process when the runner gives none."""
    global _analyzer
    if _analyzer is None:
        from ragassay.judge.offline import Analyzer

        _analyzer = Analyzer()
    return _analyzer


ANSWER_PARTICLES = frozenset({"yes", "no", "yeah", "yep", "nope", "nah"})
# what a bare answer may add: a negation, the answer said again ("that's right")
BARE = frozenset({"not", "never", "cannot", "that's", "it's", "i'm", "you're", "they're",
                  "we're", "right", "correct", "true", "indeed", "exactly", "definitely",
                  "course", "really"})


def answers_only(tokens: Sequence[str]) -> bool:
    """"Yes.", "No, you can't.", "Yes, you can.", "No, unfortunately not.": an answer
    particle first and no content word after it (stopwords, openers, negations, BARE):
    it answers the question and states nothing a passage could support (trial 74).
    "Yes, you can get a refund." and "No, it isn't free." state something."""
    from ragassay.judge.offline.lexical import STOPWORDS
    from ragassay.judge.offline.sentences import OPENERS

    return bool(tokens) and tokens[0] in ANSWER_PARTICLES and all(
        t in STOPWORDS or t in OPENERS or t in BARE or t.endswith("n't")
        for t in tokens[1:])


def needs_citation(sentences: Sequence[CitedSentence], question: str) -> dict[str, bool]:
    """Per sentence key: whether it makes a claim (the offline judge's claim rules); a
    bare answer to the question (`answers_only`) makes none, even alone."""
    from ragassay.judge.offline.claims import set_aside_reasons
    from ragassay.judge.offline.lexical import TermPool
    from ragassay.judge.offline.sentences import sentence_info

    keyed = [KeyedSentence(s.key, s.text, -1) for s in sentences]
    infos = [sentence_info(s.text) for s in sentences]
    aside = set_aside_reasons(keyed, infos, TermPool.of(question), question) if keyed else []
    return {s.key: r is None and not s.text.rstrip().endswith("?")
            and not answers_only(info.tokens)
            for s, r, info in zip(sentences, aside, infos, strict=True)}


@dataclass(frozen=True)
class FirstPass:
    """The quote pass for one sentence: the cited contexts its text quotes, and whether
    that decides the sentence without a judge (every citation is a quote)."""

    quoted: frozenset[int]

    @classmethod
    def of(cls, sentence: CitedSentence, passages: Sequence[str]) -> FirstPass:
        return cls(frozenset(i for i in sentence.cited
                             if i < len(passages) and quotes(sentence.text, passages[i])))

    def decides(self, sentence: CitedSentence) -> bool:
        return bool(sentence.cited) and self.quoted == set(sentence.cited)


def quote_check(sentence: CitedSentence) -> SentenceCheck:
    """A sentence every citation of which it quotes: supported, every citation relevant."""
    return SentenceCheck(sentence.key, True, True, dict.fromkeys(sentence.cited, True),
                         decided_by="quote")


def _subsets(cited: tuple[int, ...], quoted: frozenset[int]) -> list[tuple[int, ...]]:
    """The sets of passages whose support the ALCE rule reads: all cited ones together,
    each alone, and each's complement (when three or more are cited)."""
    out = [cited] if not quoted else []
    if len(cited) > 1:
        out += [(i,) for i in cited if i not in quoted]
    if len(cited) > 2:
        out += [tuple(j for j in cited if j != i) for i in cited if i not in quoted]
    return out


def _support(ev: Any) -> float:
    """An analysed sentence's support: its weakest claim's (0 when nothing was read)."""
    if not ev.support:
        return 0.0
    return min(ev.support[i] for i in ev.claim_indices())


def offline_checks(parsed: ParsedAnswer, passages: Sequence[str], question: str,
                   analyzer: Any = None) -> list[SentenceCheck]:
    """Every sentence's check: quotes decide first; the rest from the offline judge's
    support over the cited passages only (one batch for the answer)."""
    from ragassay.judge.offline import SUPPORT_THRESHOLD

    needs = needs_citation(parsed.sentences, question)
    plans: list[tuple[CitedSentence, FirstPass, list[tuple[int, ...]]]] = []
    wanted: dict[tuple[str, tuple[int, ...]], Sample] = {}
    for s in parsed.sentences:
        first = FirstPass.of(s, passages)
        subsets = [] if first.decides(s) else _subsets(s.cited, first.quoted)
        plans.append((s, first, subsets))
        for sub in subsets:
            wanted.setdefault((s.text, sub), Sample(
                id=f"cite-{len(wanted)}", question=question, answer=s.text,
                contexts=(" ".join(passages[i] for i in sub if i < len(passages)),)))
    found = (analyzer or default_analyzer()).analyze_many(list(wanted.values()))
    p = {k: _support(ev) for k, ev in zip(wanted, found, strict=True)}
    out = []
    for s, first, _ in plans:
        if first.decides(s):
            out.append(quote_check(s))
            continue
        if not s.cited:
            out.append(SentenceCheck(s.key, needs[s.key], None if not s.fabricated else False,
                                     decided_by="no citation"))
            continue
        alone = {i: i in first.quoted or p[(s.text, (i,))] >= SUPPORT_THRESHOLD
                 for i in s.cited} if len(s.cited) > 1 else {}
        joint_p = 1.0 if first.quoted else p[(s.text, s.cited)]
        joint = joint_p >= SUPPORT_THRESHOLD
        relevant = {}
        for i in s.cited:
            if len(s.cited) == 1:
                relevant[i] = joint
            elif len(s.cited) == 2:
                other = next(j for j in s.cited if j != i)
                relevant[i] = joint and (alone[i] or not alone[other])
            else:
                rest = p[(s.text, tuple(j for j in s.cited if j != i))] >= SUPPORT_THRESHOLD \
                    if i not in first.quoted else True
                relevant[i] = joint and (alone[i] or not rest)
        out.append(SentenceCheck(s.key, needs[s.key] or bool(first.quoted), joint, relevant,
                                 probability=joint_p))
    return out
