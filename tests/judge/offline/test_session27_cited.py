"""Session 27 (k217): faithful cited answers and answers beside an unrelated negation.

Readings: an acronym the normaliser spells out is the same name ("UK" / "United
Kingdom"); an HTML superscript after a short word that is no unit is a footnote; a
negation inside a restrictive relative clause describes its noun; an
exception after a whole denial ("nothing but") restricts, it denies nothing.
"""

from __future__ import annotations

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import clause_parts
from ragassay.judge.offline.lexical import name_present, stem_set
from ragassay.judge.offline.negated_clause import negation_bears
from ragassay.judge.offline.normalise import norm_tokens
from ragassay.judge.offline.sentences import sentence_info
from ragassay.text.markers import parse_citations
from ragassay.text.titles import Numbering
from tests.support.offline import judged


# --- acronyms spelled out by normalisation
def test_acronym_present_where_spelled_out() -> None:
    stems = stem_set("Courses run in the UK and the EU.")
    assert name_present("uk", stems) and name_present("eu", stems)
    assert not name_present("usa", stems)


def test_acronym_answer_faithful(an: Analyzer) -> None:
    ctx = ["Our vans deliver to the UK, EU and USA."]
    assert not judged(an, ctx, "We deliver to the UK, the EU and the USA.")
    assert judged(an, ctx, "We deliver to the UK, the EU and Australia.")


# --- HTML superscript footnotes after short words
def test_sup_after_short_word_is_a_footnote() -> None:
    parsed = parse_citations("Each room has a fan<sup>1</sup>. Towels are free.", Numbering(0))
    assert parsed.n_markers == 1 and "<sup>" not in parsed.text


def test_sup_after_unit_stays_text() -> None:
    for text in ("The plot is 40 m<sup>2</sup>.", "Priced per m<sup>2</sup>.",
                 "the fan<sup>1</sup> hums"):
        assert parse_citations(text, Numbering(0)).n_markers == 0, text


# --- a negation inside a relative clause
def test_relative_clause_negation_does_not_bear() -> None:
    ctx = sentence_info("Bikes that are not returned by dusk still get a free safety check.")
    claim = sentence_info("Every bike gets a free safety check.")
    assert clause_parts(ctx.text)
    assert not negation_bears(claim, ctx)


def test_relative_clause_negation_bears_on_its_own_words() -> None:
    ctx = sentence_info("Bikes that are not returned by dusk are charged a late fee.")
    claim = sentence_info("Bikes returned by dusk are charged a late fee.")
    assert negation_bears(claim, ctx)
    main = sentence_info("Bikes that are returned late are not charged a fee.")
    assert negation_bears(sentence_info("Bikes returned late are charged a fee."), main)


# --- "nothing but": a restriction, no denial
def test_nothing_but_reads_as_only(an: Analyzer) -> None:
    ctx = ["The bakery sells nothing but sourdough loaves."]
    assert not judged(an, ctx, "The bakery only sells sourdough loaves.")
    assert not judged(an, ctx, "They sell sourdough loaves.")
    assert "only" in norm_tokens(ctx[0]) and "nothing" not in norm_tokens(ctx[0])


def test_real_denial_still_flags(an: Analyzer) -> None:
    ctx = ["The ferry does not carry bicycles on the night crossing."]
    assert judged(an, ctx, "The ferry carries bicycles on the night crossing.")
    ctx2 = ["Guests who are under 12 cannot use the sauna."]
    assert judged(an, ctx2, "Guests under 12 can use the sauna.")
