"""The answer against its contexts: each sentence's support, the sample's faithfulness.

`answer_rows` is what the support and faithfulness models read of an answer (the fit
script fits on the same rows); `faithfulness` turns them into the Evidence fields: each
sentence's support and citations, the contradictions, the hallucinated terms, the
calibrated faithfulness, and how much of each context sentence the answer uses.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from ragassay.embed import Embedder

from .alignment import align
from .calibration import Calibration
from .carried import carried
from .claims import consistent_faithfulness, owners, set_aside_reasons
from .declines import DECLINE
from .evidence import SUPPORT_THRESHOLD, Evidence
from .features import Match, copied, faithfulness_features, rule_logits, support_features
from .injection import addresses_evaluator
from .lexical import missing_as_written, missing_terms
from .normalise import written_values
from .prepare import Prepared
from .prices import unpriced
from .referred_party import SWAPPED, clause_verdict, party_verdict
from .restated import restated_by_transformer
from .sentences import ContextIndex, SentenceInfo, sentence_info

INSTRUCTION_LOGIT = -4.0  # support logit cap of an answer sentence addressed to the judge
MATCH_KEYS = 2  # context sentences a supported answer sentence cites (c0745b4)
# content stems a cited piece needs to be checked on its own (`by_pieces`): a shorter one
# ("even in December") qualifies the piece before it, no claim a passage could state
PIECE_STEMS = 3
# a demonstrative closing a piece ("..., and the show starts 20 minutes after that [2]")
# stands for what the piece before says: the piece is checked only with it, whole
_BACK = frozenset({"that", "this", "these", "those"})
# a first piece opened by a preposition ("For members over 65 [2], the fee is £20 [1]")
# qualifies the piece after it: the sentence is checked whole
_QUALIFIER = frozenset({"for", "in", "on", "at", "during", "with", "without", "after",
                        "before", "from", "under", "over", "among", "between", "within",
                        "outside", "inside", "unlike", "besides", "beyond", "throughout"})
# Hand-set: no human-labelled set measures what it scores.
USED_WEIGHTS = (-5.0, 6.0, 4.0)
"""A context sentence's use by the answer: sigmoid(bias + w1 x share of its content stems
the answer has + w2 x its best cosine to an answer sentence); by hand (1cc4778)."""


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def missing_flags(texts: Sequence[str], p: Prepared, matches: Sequence[Match] = ()
                  ) -> list[bool]:
    """Per sentence, whether it states a key term (or a clock time, or a price:
    `prices.unpriced`) no context and not the question has, or (its `matches` given) a
    clause no context states: the missing-term rule of features.rule_logits (the fit
    script reads these too)."""
    unstated = [m.unstated is not None for m in matches] or [False] * len(texts)
    contexts, asked = [i.text for i in p.ctx.infos], written_values(p.given)
    return [u or bool(missing_terms(t, p.ctx.pool, p.given))
            or p.clocks.unstated(t) is not None or unpriced(t, contexts, asked)
            for t, u in zip(texts, unstated, strict=True)]


def claim_logits(model_logits: list[float], copied: list[bool],
                 contradicts: list[str | None], missing: list[bool],
                 told: list[bool], paraphrased: list[bool] | None = None) -> list[float]:
    """The support logits faithfulness reads: the support model's, with the rules
    (features.rule_logits), and a sentence addressed to the evaluator capped at
    INSTRUCTION_LOGIT (a claim nothing supports). The fit script reads them so too."""
    logits = rule_logits(model_logits, copied, contradicts, missing, paraphrased)
    return [min(z, INSTRUCTION_LOGIT) if t else z for z, t in zip(logits, told, strict=True)]


def support_logits(calibration: Calibration, infos: list[SentenceInfo], emb: np.ndarray,
                   ctx: ContextIndex, doc: int | None = None, aligned: bool = True
                   ) -> tuple[list[float], list[Match]]:
    """The support model's logits of sentences against a context (each sentence's
    best-matching document, or `doc`), and where each was matched (with claim-level
    alignment unless `aligned` is False)."""
    if not infos or len(ctx) == 0:
        return [], []
    found = [support_features(info, e, ctx, doc, aligned)
             for info, e in zip(infos, emb, strict=True)]
    logits = calibration.support.logits(np.asarray([f for f, _ in found])).tolist()
    return logits, [m for _, m in found]


@dataclass
class AnswerRows:
    """What the support and faithfulness models read of an answer against its contexts,
    per answer sentence: its support features and best match, whether it is copied,
    states a key term or a clause no context has (`missing`), or addresses the evaluator
    (`told`),
    and why it is set aside (None: a claim). `hallucinated`: the claims' key terms no
    context has. The analyzer scores from these; the fit script fits on them."""

    features: list[list[float]]
    matches: list[Match]
    copied: list[bool]
    missing: list[bool]
    told: list[bool]
    aside: list[str | None]
    hallucinated: list[str]

    @property
    def claims(self) -> list[int]:
        """The sentences that assert something (the ones faithfulness reads)."""
        return [i for i, r in enumerate(self.aside) if r is None]

    @property
    def contradicts(self) -> list[str | None]:
        """Per sentence, the kind of its contradiction with its evidence (None: none)."""
        return [m.contradicts for m in self.matches]

    @property
    def paraphrased(self) -> list[bool]:
        """Per sentence, whether it restates a context sentence in other words."""
        return [m.paraphrased for m in self.matches]

    @property
    def unstated(self) -> list[str | None]:
        """Per sentence, a clause of it no context states (None: none)."""
        return [m.unstated for m in self.matches]


def answer_rows(p: Prepared) -> AnswerRows:
    """The answer's rows for the support and faithfulness models (contexts and answer
    sentences needed)."""
    # a sentence addressed to the evaluator is a claim nothing supports
    told = [addresses_evaluator(k.text) for k in p.answer_keyed]
    reasons = set_aside_reasons(p.answer_keyed, p.answer_infos, p.ctx.pool, p.given,
                                p.ctx)
    aside = [None if t else r for t, r in zip(told, reasons, strict=True)]
    is_copied = [copied(i, p.ctx) for i in p.answer_infos]
    # (a "copy" may splice fragments of two sentences: it is aligned like any claim)
    found = [support_features(info, e, p.ctx) for info, e in
             zip(p.answer_infos, p.answer_emb, strict=True)]
    found = [(f, _carried_swap(p, k, m)) for k, (f, m) in enumerate(found)]
    found = [(f, _party(p, k, m) if aside[k] is None else m) for k, (f, m) in enumerate(found)]
    kept = [i for i, r in enumerate(aside) if r is None]
    claims = " ".join(p.answer_keyed[i].text for i in kept)
    return AnswerRows(
        features=[f for f, _ in found], matches=[m for _, m in found],
        copied=is_copied,
        missing=missing_flags([k.text for k in p.answer_keyed], p, [m for _, m in found]),
        told=told,
        aside=aside,
        hallucinated=missing_as_written(claims, p.ctx.pool, p.given) + [
            t for i in kept if (t := p.clocks.unstated(p.answer_keyed[i].text))
        ] if kept else [])


def _carried_swap(p: Prepared, k: int, m: Match) -> Match:
    """The match of answer sentence k, an entity swap marked where its pronoun subject,
    read as what the sentence before names, says another thing's fact (carried.py)."""
    if not k or m.contradicts is not None:
        return m
    text = carried(p.answer_infos[k - 1].text, p.answer_infos[k].text)
    if text is None or (found := align(sentence_info(text), p.ctx)).conflict != "entity":
        return m
    return replace(m, contradicts="entity", conflict_row=found.row)


def _party(p: Prepared, k: int, m: Match) -> Match:
    """The match of answer sentence k, a referral naming a party the contexts tie to a
    topic (referred_party): supported where the contexts send the question's topic to
    that party, an entity swap where they send it to another."""
    text = p.answer_keyed[k].text
    if (v := (clause_verdict if DECLINE.search(text) else party_verdict)(
            text, p.given, p.ctx)) is None:
        return m
    if v.kind == SWAPPED:
        return replace(m, contradicts="entity", conflict_row=v.row)
    return replace(m, paraphrased=True)  # (a clause of its own still checked)


def used(p: Prepared) -> list[float]:
    """How much of each context sentence the answer reuses, or aligns with."""
    a_stems = frozenset(x for i in p.answer_infos for x in i.stems)
    cos_ca = (p.ctx.emb @ p.answer_emb.T).max(axis=1)
    out = []
    for info, c in zip(p.ctx.infos, cos_ca, strict=True):
        share = sum(1 for x in info.stems if x in a_stems) / len(info.stems) if info.stems else 0.0
        bias, w_share, w_cos = USED_WEIGHTS
        out.append(sigmoid(bias + w_share * share + w_cos * float(c)))
    return out


def by_pieces(p: Prepared, calibration: Calibration, logits: list[float],
              matches: list[Match], aside: Sequence[str | None]) -> None:
    """A claim whose mid-sentence markers cut it into pieces citing different passages
    ("£30 a year [1], or £5 on benefits [2]") is supported as well as its weakest piece
    is, each piece checked against the contexts as a claim of its own (every rule: a
    wrong figure or flipped negation in either piece still shows); the whole sentence's
    verdict stands when it is the better one. The weakest piece's match is the claim's.
    A piece under PIECE_STEMS content stems, or one that ends pointing back at the piece
    before (`_BACK`), leaves the sentence judged whole."""
    for i, pieces in enumerate(p.pieces):
        infos = [info for info, _ in pieces]
        if aside[i] is not None or _whole(infos):
            continue
        model, found = support_logits(calibration, infos, np.asarray([e for _, e in pieces]),
                                      p.ctx)
        z = claim_logits(model, [copied(x, p.ctx) for x in infos],
                         [m.contradicts for m in found],
                         missing_flags([x.text for x in infos], p, found),
                         [False] * len(infos), [m.paraphrased for m in found])
        weakest = int(np.argmin(z))
        if z[weakest] > logits[i]:
            logits[i], matches[i] = z[weakest], found[weakest]


def _restated(p: Prepared, rows: AnswerRows, logits: list[float],
              restating: Embedder) -> list[bool]:
    """Per answer sentence, whether the transformer lifts it (restated.py): a claim not
    yet supported, with no conflict, missing term or instruction, read against the
    context sentences it is aligned with."""
    open_ = [rows.aside[i] is None and not rows.told[i] and not rows.missing[i]
             and rows.contradicts[i] is None and sigmoid(z) < SUPPORT_THRESHOLD
             for i, z in enumerate(logits)]
    claims = [info if o else None for info, o in zip(p.answer_infos, open_, strict=True)]
    candidates = [[p.ctx.infos[j] for j in m.top] for m in rows.matches]
    return restated_by_transformer(claims, candidates, restating)


def _whole(pieces: list[SentenceInfo]) -> bool:
    """Whether a sentence's cited pieces leave it judged whole: fewer than two, one under
    PIECE_STEMS content stems or ending pointing back (`_BACK`), or a first piece opened
    by a preposition (`_QUALIFIER`)."""
    if len(pieces) < 2 or not _QUALIFIER.isdisjoint(pieces[0].tokens[:1]):
        return True
    return any(len(x.stems) < PIECE_STEMS or not _BACK.isdisjoint(x.tokens[-1:])
               for x in pieces)


def faithfulness(p: Prepared, ev: Evidence, calibration: Calibration,
                 restating: Embedder | None = None) -> None:
    """Support of each answer sentence, sample faithfulness, hallucinated terms, and
    how much of each context sentence the answer uses.

    Sentences that assert nothing (abstentions, filler) are left out of faithfulness
    (see claims.set_aside_reasons); an opener ("No.") takes its claim's support, other
    set-aside sentences the claims' mean, so they neither raise nor lower it (1.0 without
    claims: the answer abstains, which shows in reference match and relevance). A
    sentence copied from the contexts has its support raised to at least COPY_SUPPORT;
    a contradicted one, or one stating a key term no context has, is lowered
    (features.rule_logits). With `restating` (the accurate mode's transformer), a claim
    it reads as restating the context sentence it is aligned with is floored as a
    paraphrase is (restated.py).
    """
    rows = answer_rows(p)
    told, aside, matches = rows.told, rows.aside, rows.matches
    model = calibration.support.logits(np.asarray(rows.features)).tolist()
    logits = claim_logits(model, rows.copied, rows.contradicts, rows.missing, told,
                          rows.paraphrased)
    if restating is not None:
        lifted = _restated(p, rows, logits, restating)
        logits = claim_logits(model, rows.copied, rows.contradicts, rows.missing, told,
                              [a or b for a, b in zip(rows.paraphrased, lifted, strict=True)])
    by_pieces(p, calibration, logits, matches, aside)
    own = owners(aside)
    claim_support = [sigmoid(logits[i]) for i, r in enumerate(aside) if r is None]
    neutral = sum(claim_support) / len(claim_support) if claim_support else 1.0
    ev.support = [sigmoid(logits[o]) if aside[o] is None else neutral for o in own]
    ev.match_keys = [
        [k for k in (p.context_keyed[j].key for j in matches[o].top[:MATCH_KEYS])
         if k not in p.instruction_keys] if aside[o] is None else []
        for o in own
    ]  # fmt: skip
    ev.instruction_keys = sorted(p.instruction_keys) + [
        k.key for k, t in zip(p.answer_keyed, told, strict=True) if t
    ]
    # keys cite support only for a supported sentence (one verdict, one story)
    ev.support_keys = [
        keys if pr >= SUPPORT_THRESHOLD else []
        for keys, pr in zip(ev.match_keys, ev.support, strict=True)
    ]
    ev.asserts = [r is None for r in aside]
    ev.contradicts = [matches[o].contradicts if aside[o] is None else None for o in own]
    ev.unstated = [matches[o].unstated if aside[o] is None else None for o in own]
    ev.contradicted_keys = [
        p.context_keyed[r].key if aside[o] is None and (r := matches[o].conflict_row)
        is not None else None for o in own]
    kept = rows.claims
    if kept:
        ev.hallucinated_terms = rows.hallucinated
        f = faithfulness_features([logits[i] for i in kept], len(ev.hallucinated_terms))
        ev.faithfulness = consistent_faithfulness(
            calibration.faithfulness.predict_one(f),
            [ev.support[i] for i in kept],
            bool(ev.hallucinated_terms),
        )
    else:
        ev.faithfulness = 1.0
    ev.used = used(p)
