"""Session 22: one answer sentence whose mid-sentence markers cite different passages
("... £12 a night [1], or £8 for students [2]") is judged piece by piece, each piece a
claim of its own against the contexts; an error in either piece still shows. Cases in
words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged, known_limit

_CLUB = ["Annual club membership costs £40.",
         "Members receiving Pension Credit can join for £10 a year."]
_PHOTOS = ["A printed album of your wedding photos can be added for £60.",
           "A framed canvas bundle with prints and an album costs £140."]
_CHOIR = ["Rehearsals are held on Thursdays from 7pm to 9:30pm in the Methodist hall.",
          "During December the choir rehearses at the cathedral instead."]
_VOLUNTEERS = ["Volunteers must attend a two-hour induction before their first shift.",
               "Each volunteer is asked to give at least one Saturday a month."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # each clause restates its own cited passage, in other words (flagged before)
    (_CLUB, "Club membership is £40 per year[doc1], or £10 per year for members on Pension "
            "Credit[doc2].", False),
    (_PHOTOS, "Yes: a printed album can be added for £60 [1], or you can choose the framed "
              "canvas bundle with prints and album for £140 [2].", False),
    (_CHOIR, "We rehearse Thursdays 7-9:30pm at the Methodist hall [1], except in December, "
             "when rehearsals move to the cathedral [2].", False),
    # (passing before too: the split keeps it so)
    (_VOLUNTEERS, "You attend a two-hour induction before your first shift (Source 1), and "
                  "agree to give at least one Saturday each month (Source 2).", False),
    # a wrong figure in either piece still shows
    (_CLUB, "Club membership is £40 per year[doc1], or £15 per year for members on Pension "
            "Credit[doc2].", True),
    (_CLUB, "Club membership is £45 per year[doc1], or £10 per year for members on Pension "
            "Credit[doc2].", True),
    (_PHOTOS, "Yes: a printed album can be added for £60 [1], or you can choose the framed "
              "canvas bundle with prints and album for £160 [2].", True),
    (_VOLUNTEERS, "You attend a two-hour induction before your first shift (Source 1), and "
                  "agree to give at least two Saturdays each month (Source 2).", True),
    # ... a wrong scope or place
    (_CLUB, "Club membership is £40 per year[doc1], or £10 per year for all members[doc2].",
     True),
    (_CHOIR, "We rehearse Thursdays 7-9:30pm at the Methodist hall [1], except in December, "
             "when rehearsals move to the town hall [2].", True),
    # ... a modifier too short to be a claim of its own leaves the sentence judged whole
    (_CHOIR, "We rehearse Thursdays 7-9:30pm at the Methodist hall [1], even in December [2].",
     True),
    # ... a piece pointing back at the one before ("after that") is checked only with it
    (_CHOIR, "Rehearsals start at 7pm on Thursdays [1], and the December rehearsals move "
             "to the town hall after that [2].", True),
    # ... a flipped negation
    (_VOLUNTEERS, "You needn't attend an induction before your first shift (Source 1), and "
                  "agree to give at least one Saturday each month (Source 2).", True),
])
def test_a_sentence_cited_piece_by_piece(an: Analyzer, contexts: list[str], answer: str,
                                         flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


_DOGS = ["Dogs on short leads are welcome in the gardens.",
         "Dogs are not allowed inside the glasshouses."]


@known_limit("a piece with neither subject nor verb ('but not inside the glasshouses') "
             "reads its 'not' as a flip: the sentence's subject is not carried into it")
def test_a_verbless_negated_piece(an: Analyzer) -> None:
    assert not judged(an, _DOGS, "Yes, on a short lead [1], but not inside the "
                                 "glasshouses [2].")


@known_limit("a verb's '-s' form is no antonym of the lexicon's bare pair ('ends' against "
             "'begins'); reading it so turned converse verbs too ('reception sells them' "
             "against 'can be bought at reception'), so it was withdrawn")
def test_an_inflected_antonym(an: Analyzer) -> None:
    assert judged(an, ["The book fair begins at noon on Saturday."],
                  "The book fair ends at noon on Saturday.")
