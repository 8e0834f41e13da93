"""Session 10 of issue #38: a hyphenated name ("Wi-Fi", "Audio-Technica") is in the
contexts when its parts are: the tokenizer splits it, so its whole was never among a
context's stems and a faithful answer naming it read as naming something the contexts
do not have. A hyphenated name the contexts lack is still missing."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.lexical import name_present
from ragassay.judge.offline.sentences import sentence_info
from tests.support.offline import assert_judged

TRAIN = ["Free Wi-Fi is available in every carriage, although the signal does not reach "
         "the tunnels."]  # (a first part under five letters: no stem of the whole has it)
GYM = ["We stock rowing machines from Concept2 and Pro-Form, from £499."]


def test_a_hyphenated_name_is_present_by_its_parts() -> None:
    stems = sentence_info(GYM[0]).stem_set
    assert name_present("pro-form", stems)
    assert not name_present("pro-line", stems)


@pytest.mark.parametrize(("contexts", "answer"), [
    (TRAIN, "Yes, there's free Wi-Fi in every carriage."),
    (GYM, "Yes, we sell rowing machines by Concept2 and Pro-Form, starting at £499."),
])
def test_an_answer_naming_it_is_not_flagged(an: Analyzer, contexts: list[str],
                                            answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


def test_a_hyphenated_name_the_contexts_lack_is_flagged(an: Analyzer) -> None:
    assert_judged(an, GYM, "We sell rowing machines by Concept2 and Pro-Line, from £499.",
                  flags=True)
