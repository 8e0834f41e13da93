"""The question's own words in a claim that answers it (issue #38, session 28).

A bot answering a question restates its words ("Can I bring my kite?" / "Sure, bring
your kite along ..."): those words are what the user asked about, not something the
answer adds. A restatement check that counts the claim's words the context sentence
lacks (paraphrase.restated_in_other_words, substitution) reads them as additions, so
a faithful "you can bring your kite along ..." counts "bring" and "kite" against it.
`echoed` gives the claim's content words that the question holds and the sentence
lacks, which that check reads as given rather than added. Only the question's own words
count (prepare._given: not its sentences addressed to the evaluator); the claim's
figures and names are still checked against the sentence alone (paraphrase.py), so an
echoed word never vouches for a figure or a name.
"""

from __future__ import annotations

from .lexical import TermPool


def echoed(words: frozenset[str], said: frozenset[str],
           given: TermPool | None) -> frozenset[str]:
    """The claim's content words (`words`) the question (`given`) holds and the
    sentence's (`said`) lack: what it takes from the question, not from the context."""
    if given is None:
        return frozenset()
    return frozenset(w for w in words - said if w in given.stems)
