"""Session 28: the question's own words in a claim that restates a context sentence
(asked.py): they count as given, not added; a figure the sentence lacks still fails."""

from ragassay.judge.offline.asked import echoed
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.lexical import TermPool
from ragassay.judge.offline.paraphrase import restated_in_other_words
from ragassay.judge.offline.sentences import sentence_info

QUESTION = TermPool.of("How far ahead should I book the harbour sailing taster for my nephew?")
SENTENCE = "Places must be reserved at least 10 days before the session."


def _restated(claim: str, given: TermPool | None) -> bool:
    return restated_in_other_words(sentence_info(claim), sentence_info(SENTENCE), 0.7, given)


def test_question_words_are_no_addition() -> None:
    claim = "Book the harbour sailing taster for your nephew at least 10 days ahead of the session."
    assert not _restated(claim, None)
    assert _restated(claim, QUESTION)


def test_echo_does_not_vouch_for_a_changed_figure() -> None:
    claim = "Book the harbour sailing taster for your nephew at least 5 days ahead of the session."
    assert not _restated(claim, QUESTION)


def test_echo_does_not_cover_words_the_question_lacks() -> None:
    claim = ("Book the harbour sailing taster at least 10 days ahead of the session, "
             "and lifejackets and wetsuits come included with the lunch.")
    assert not _restated(claim, QUESTION)


def test_echoed_is_only_what_the_sentence_lacks() -> None:
    p, u = part("Book the taster 10 days before the session."), part(SENTENCE)
    got = echoed(p.words, u.words, QUESTION)
    assert got and not got & u.words
    assert echoed(p.words, u.words, None) == frozenset()
