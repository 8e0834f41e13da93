"""Issue #38, session 9 (each failed at f73b4cf): faithful answers flagged by a false
specific finding. An age band ("Over-65s") and an inclusive bound ("3 and under") offer
their figure; a period adjective ("a monthly pass") offers its length; a common noun's
acronym ("ID", "PIN") is no name a context must state; a count word before a figure
("three 15-minute drills") is no clock time; an example ("damage such as scratches") is
no alternative to its kind; a relative clause is out of a fronted phrase's reach; a
"[Source: path]" marker is a citation; "4 hours or longer" is a bound, no list item.
The unfaithful side still fires: a real figure change, a real name, a real widening.
Wording and domains none of the probe batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.normalise import written_values
from ragassay.judge.offline.pieces import clause_texts
from ragassay.text import numbering, parse_citations
from tests.support.offline import evidence

MISSING_NOT = [  # (contexts, answer, a term the reason must not name)
    (["Over-65s travel free on weekday buses after 9:30am."],
     "Anyone over 65 travels free on weekday buses after 9:30am.", "65"),
    (["Swimming lessons in the baby pool are for children aged 3 and under."],
     "The baby pool lessons are for under-4s.", "4"),
    (["A monthly pass for the climbing wall costs £45."],
     "A pass for one month on the climbing wall costs £45.", "30"),
    (["Daily parking at the marina costs £8."], "Parking at the marina for a day is £8.",
     "24"),
    (["Guests must show a passport or driving licence at check-in."],
     "Please bring a passport or driving licence as ID when you check in.", "ID"),
    (["Enter your four-digit code at the keypad to open the locker."],
     "Type your PIN into the keypad to open the locker.", "PIN"),
]


@pytest.mark.parametrize(("contexts", "answer", "term"), MISSING_NOT)
def test_a_figure_or_noun_the_contexts_say_in_other_words_is_not_missing(
        an: Analyzer, contexts: list[str], answer: str, term: str) -> None:
    ev = evidence(an, contexts, answer)
    assert not any(term in t for t in ev.hallucinated_terms), ev.hallucinated_terms


MISSING_STILL = [  # a real figure change, a real name: still not found
    (["Over-65s travel free on weekday buses after 9:30am."],
     "Anyone over 70 travels free on weekday buses after 9:30am.", "70"),
    (["A monthly pass for the climbing wall costs £45."],
     "A pass for two months on the climbing wall costs £45.", "60"),
    (["Guests must show a passport or driving licence at check-in."],
     "Please bring your Eurostar ticket as ID when you check in.", "Eurostar"),
]


@pytest.mark.parametrize(("contexts", "answer", "term"), MISSING_STILL)
def test_a_real_change_is_still_missing(an: Analyzer, contexts: list[str], answer: str,
                                        term: str) -> None:
    ev = evidence(an, contexts, answer)
    assert any(term in t for t in ev.hallucinated_terms), ev.hallucinated_terms


def test_a_frequency_is_no_period() -> None:
    assert 7.0 not in written_values("The newsletter is published weekly on Fridays.")
    assert 7.0 not in written_values("Bins are checked on a weekly basis.")
    assert 7.0 in written_values("Weekly rental of the kayak is available.")


def test_a_count_before_a_figure_is_no_clock_time() -> None:
    drills = part("Each lesson includes three 15-minute drills and a cool-down.").figures
    assert (3.0, "inclu") in drills and not any(k == "time" for _, k in drills)
    assert part("The class runs from 9:30 to 10:45.").figures == ((9.5, "time"), (10.75, "time"))


CONFLICT_NOT = [  # (contexts, answer): no conflict of any kind
    (["Each lesson includes three 15-minute drills, a 10-minute cool-down and a short quiz."],
     "Each lesson includes a set of 15-minute drills, a 10-minute cool-down and a short "
     "quiz."),
    (["All boiler services carry a 6-month guarantee on parts.",
      "The guarantee does not cover cosmetic damage such as fresh scratches or paint damage "
      "after the visit."],
     "Boiler services come with a 6-month parts guarantee, but that doesn't extend to "
     "cosmetic damage after the visit, like a fresh scratch or chipped paint."),
    (["Pupils start with a trial lesson.",
      "After the trial lesson, pupils can join the junior squad, which trains on the last "
      "Saturday of each month."],
     "You start with a trial lesson. Once that's done, you can join the junior squad, which "
     "trains on the last Saturday of every month."),
]


@pytest.mark.parametrize(("contexts", "answer"), CONFLICT_NOT)
def test_no_false_conflict(an: Analyzer, contexts: list[str], answer: str) -> None:
    ev = evidence(an, contexts, answer)
    assert not any(ev.contradicts), ev.contradicts


CONFLICT_STILL = [  # a real figure change; a real widening of a fronted restriction
    (["Each lesson includes three 15-minute drills, a 10-minute cool-down and a short quiz."],
     "Each lesson includes five 15-minute drills, a 10-minute cool-down and a short quiz.",
     "number"),
    (["In term time, the junior squad trains every Saturday morning at the leisure centre."],
     "The junior squad trains every Saturday morning at the leisure centre.", "quantifier"),
]


@pytest.mark.parametrize(("contexts", "answer", "kind"), CONFLICT_STILL)
def test_a_real_conflict_still_fires(an: Analyzer, contexts: list[str], answer: str,
                                     kind: str) -> None:
    ev = evidence(an, contexts, answer)
    assert kind in ev.contradicts, ev.contradicts


def test_a_named_source_in_square_brackets_is_a_citation(an: Analyzer) -> None:
    nb, _ = numbering(("Kayaks can be hired by the hour.",), {})
    [s] = parse_citations("Kayaks are hired by the hour. [Source: rentals/kayaks]", nb).sentences
    assert s.text == "Kayaks are hired by the hour." and s.fabricated == ("rentals/kayaks",)
    [kept] = parse_citations("Kayaks are hired by the hour [note: see below].", nb).sentences
    assert kept.text == "Kayaks are hired by the hour [note: see below]."
    ev = evidence(an, ["Kayaks can be hired by the hour."],
                  "Kayaks are hired by the hour. [Source: rentals/kayaks]")
    assert ev.hallucinated_terms == [], ev


def test_a_bound_is_no_alternative(an: Analyzer) -> None:
    assert clause_texts("Let the varnish dry for 4 hours or longer before the next coat.") == (
        "Let the varnish dry for 4 hours or longer before the next coat.",)
    ev = evidence(an, ["Sand the first coat lightly, then leave the varnish to dry for at "
                       "least 4 hours before applying the next coat."],
                  "Sand the first coat lightly, then let the varnish dry for 4 hours or longer "
                  "before you brush on another layer.")
    assert not any(ev.unstated), ev.unstated


def test_an_opening_interjection_does_not_cut_a_list() -> None:
    assert clause_texts("Sure — glazing, firing and packing are all included.") == (
        "Sure — glazing, firing and packing are all included.",)
