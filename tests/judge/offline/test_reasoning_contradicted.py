"""Trial 74: "contradicts the context: sentence a (number)" named the answer's sentence
and the kind, not the context sentence it conflicts with, so the call could not be
checked. Where alignment knows that sentence (`Evidence.contradicted_keys`), the reason
names it by key and quotes it, shortened, on one line; where it does not, the reason says
what it said before. `ragas.faithfulness`'s claim reason names the same sentence."""

from __future__ import annotations

from ragassay.judge.offline import Analyzer, Evidence
from ragassay.judge.offline.reasoning import SHORT_CONTEXT, reasoning
from ragassay.metrics.ragas.verdicts import offline_claims
from ragassay.text import key_answer, key_contexts
from tests.support.offline import evidence

RETENTION = ("Backups are kept for 7 days on the Standard plan. Enterprise keeps backups "
             "for 35 days.")
LONG = ("Data retention: event logs are kept for 30 days on the Standard plan and for "
        "a whole year on the Enterprise plan, after which they are deleted for good.")


def _flipped(contexts: list[str], answer: str, key: str | None, kind: str) -> Evidence:
    """Evidence of a one-claim answer that contradicts the context sentence `key`."""
    return Evidence(answer_sentences=key_answer(answer),
                    context_sentences=key_contexts(contexts),
                    support=[0.1], support_keys=[[]], match_keys=[["0a"]], asserts=[True],
                    contradicts=[kind], contradicted_keys=[key], faithfulness=0.07)


def test_the_judge_names_and_quotes_the_context_sentence_it_found(an: Analyzer) -> None:
    ev = evidence(an, [RETENTION], "Backups are kept for 35 days on the Standard plan.")
    assert ev.contradicts[0] is not None and ev.contradicted_keys == ["0a"], ev
    text = reasoning(ev)
    assert (f"contradicts the context: sentence a ({ev.contradicts[0]}) against 0a "
            '"Backups are kept for 7 days on the Standard plan"') in text, text


def test_a_long_context_sentence_is_shortened_and_kept_on_one_line() -> None:
    ev = _flipped([LONG.replace(" a whole", "\n a whole")],
                  "Event logs are kept for 90 days.", "0a", "number")
    text = reasoning(ev)
    quoted = text.split('against 0a "', 1)[1].split('"', 1)[0]
    assert "\n" not in text and quoted.endswith("...") and len(quoted) <= SHORT_CONTEXT
    assert quoted.startswith("Data retention: event logs are kept for 30 days"), text
    # every other part of the reason as it was
    assert text.startswith("0 of 1 claims supported; unsupported: sentence a (0.10); "
                           "contradicts the context: sentence a (number) against 0a"), text
    assert text.endswith("; support 0.07 (judge.faithfulness 1.63 on 1-10)"), text


def test_an_unknown_sentence_adds_nothing() -> None:
    ev = _flipped([RETENTION], "Backups are kept for all plans.", None, "quantifier")
    text = reasoning(ev)
    assert "contradicts the context: sentence a (quantifier); " in text, text
    assert "against" not in text
    # the claim's reason falls back on its closest match, as before
    assert offline_claims(ev)[0].reason == "contradicts 0a (quantifier)"


def test_the_claim_reason_names_the_sentence_the_reasoning_quotes() -> None:
    ev = _flipped([RETENTION], "Enterprise keeps backups for 7 days.", "0b", "number")
    assert offline_claims(ev)[0].reason == "contradicts 0b (number)"  # not its match 0a
    assert 'against 0b "Enterprise keeps backups for 35 days"' in reasoning(ev)
