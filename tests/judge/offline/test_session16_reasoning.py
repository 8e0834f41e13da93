"""Trial 70: "0 of 1 claims supported; unsupported: b" read as a miscount, since the
letters name answer sentences and sentence a made no claim. The reason now says the
letters are sentences, and which sentences the claims are when some make none."""

from __future__ import annotations

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.reasoning import reasoning
from tests.support.offline import evidence


def test_the_letters_are_named_as_sentences_and_the_claims_among_them(an: Analyzer) -> None:
    ev = evidence(an, ["The ferry to Brannock Island leaves at 8am and 4pm daily."],
                  "Good question! The ferry to Brannock Island leaves at 6am and 9pm.",
                  "When does the ferry leave?")
    text = reasoning(ev)
    claims = ev.claim_indices()
    assert len(claims) == 1 and ev.answer_sentences[claims[0]].key == "b", text
    assert text.startswith("0 of 1 claims supported (sentence b of 2)"), text
    assert "unsupported: sentence b (" in text


def test_every_sentence_a_claim_names_no_subset(an: Analyzer) -> None:
    ev = evidence(an, ["The ferry to Brannock Island leaves at 8am and 4pm daily."],
                  "The ferry leaves at 6am. It also leaves at 9pm.", "When?")
    text = reasoning(ev)
    assert text.startswith("0 of 2 claims supported;"), text
    assert "unsupported: sentences a (" in text
