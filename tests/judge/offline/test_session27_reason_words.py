"""Trial 91: a reason named text that is not in the answer. The offline judge reads a
normalised text ("about two weeks" as "about 14 days", "a dozen" as "12", "10°C" as "10
degrees Celsius") and quoted what it read: "'about 14' not found in the context", "stated
in no context: ('and costs a 12 euros')". Every phrase a reason quotes is now the answer's
own words (`lexical.as_written` for key terms, `reasoning.as_in` for clauses), with the
figure it was read as beside it."""

from __future__ import annotations

import re

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.lexical import as_written
from ragassay.judge.offline.reasoning import as_in, reasoning
from tests.support.offline import evidence

_QUOTED = re.compile(r"'([^']+)'")


def _quotes(reason: str) -> list[str]:
    """The answer's words a reason quotes, without the figure they were read as and
    without a shortened clause's "..."."""
    out = []
    for q in _QUOTED.findall(reason):
        q = q.split(" (read as ", 1)[0].split(" (+", 1)[0]
        out.append(q[:-3] if q.endswith("...") else q)
    return out


# (contexts, answer, a phrase of the answer the reason must quote)
CASES = [
    # a span in words, hedged ("about two weeks" read as "about 14 days")
    (["Refunds are processed within 10 days of the return arriving."],
     "Refunds are processed within about two weeks of the return arriving.", "two weeks"),
    (["The office is closed for 3 weeks in August."],
     "The office is closed for around a fortnight in August.", "a fortnight"),
    (["Passes cost 40 euros and are valid for 3 months."],
     "Passes cost 40 euros and are valid for some six months.", "six months"),
    # a span in words, bare
    (["The office is closed for 3 weeks in August."],
     "The office shuts for a fortnight in August.", "a fortnight"),
    # numbers in words, in a clause no context states
    (["Passes cost 40 euros and are valid for 3 months."],
     "Passes cost 40 euros and stay valid for a fortnight, renewed every fortnight by post.",
     "renewed every fortnight"),
    (["The course runs for 6 weeks."],
     "The course runs for six weeks and costs a dozen euros.", "a dozen euros"),
    (["The course runs for 6 weeks."],
     "The course runs for six weeks and costs nearly twenty-five pounds.", "twenty-five"),
    # a unit written with a symbol
    (["The kettle heats water to 100 degrees."],
     "The kettle keeps water at about 10°C in the fridge section.", "10°C"),
    # a time in words
    (["The lounge closes at 6 pm on Sundays and at 9 pm on weekdays."],
     "On Sundays the lounge shuts at noon, about half a day early.", "half a day"),
]


@pytest.mark.parametrize(("contexts", "answer", "phrase"), CASES)
def test_a_reason_quotes_the_answers_own_words(
        an: Analyzer, contexts: list[str], answer: str, phrase: str) -> None:
    reason = reasoning(evidence(an, contexts, answer, "What does it say?"))
    quotes = _quotes(reason)
    assert any(phrase.lower() in q.lower() for q in quotes), reason
    for q in quotes:
        assert q.lower() in answer.lower(), (q, reason)


@pytest.mark.parametrize(("term", "text", "quoted"), [
    ("about 14", "It takes about two weeks.", "about two weeks"),
    ("around 14", "It takes around a fortnight.", "around a fortnight"),
    ("Celsius", "It is 10°C today.", "10°C"),
    ("12", "It costs a dozen euros.", "dozen"),
    ("14", "It takes a fortnight, and 140 people wait.", "a fortnight"),
])
def test_a_term_is_found_as_written(term: str, text: str, quoted: str) -> None:
    said = as_written(term, text)
    assert said.split(" (read as ", 1)[0] == quoted, said
    assert said.endswith(f"(read as {term})"), said


@pytest.mark.parametrize(("clause", "sentence", "quoted"), [
    ("and costs a 12 euros", "The course runs for six weeks and costs a dozen euros.",
     "and costs a dozen euros"),
    ("is renewed every 14 days", "The pass is renewed every fortnight by post.",
     "is renewed every fortnight"),
    ("shuts at 12 pm", "The lounge shuts at noon on Sundays.", "shuts at noon"),
    ("weighs 2.5 kilograms", "The bag weighs 2.5kg when empty.", "weighs 2.5kg"),
    ("The Course", "The course runs weekly.", "The course"),
])
def test_a_clause_is_quoted_in_the_sentences_words(clause: str, sentence: str,
                                                   quoted: str) -> None:
    assert as_in(clause, sentence) == quoted
