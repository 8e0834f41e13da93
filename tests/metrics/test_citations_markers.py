"""The citation-marker parser: every marker style, ids and titles, markers placed after a
sentence's full stop, nested brackets, and malformed markers (reported, never raised)."""

import pytest

from ragassay.metrics.citations import numbering, parse_citations

THREE = ("Refunds take 30 days.", "Shipping is free over $50.", "Gift cards are final.")


def parse(answer, metadata=None, contexts=THREE):
    nb, problems = numbering(contexts, metadata or {})
    out = parse_citations(answer, nb)
    return out, problems


def cites(answer, **kw):
    out, _ = parse(answer, **kw)
    return [(s.text, s.cited, s.fabricated) for s in out.sentences]


@pytest.mark.parametrize(("answer", "cited"), [
    ("Refunds take 30 days [1].", (0,)),
    ("Refunds take 30 days [1, 3].", (0, 2)),
    ("Refunds take 30 days [1; 3].", (0, 2)),
    ("Refunds take 30 days [1-3].", (0, 1, 2)),
    ("Refunds take 30 days [1–2].", (0, 1)),
    ("Refunds take 30 days [1][3].", (0, 2)),
    ("Refunds take 30 days [^2].", (1,)),
    ("Refunds take 30 days [^1][^3].", (0, 2)),
    ("Refunds take 30 days (Source 2).", (1,)),
    ("Refunds take 30 days (Sources 1 and 3).", (0, 2)),
    ("Refunds take 30 days (source: 3).", (2,)),
    ("Refunds take 30 days (Doc #2).", (1,)),
    ("Refunds take 30 days (Passage 1, Passage 2).", (0, 1)),
    ("Refunds take 30 days【1】.", (0,)),
    ("Refunds take 30 days【3:0†source】.", (2,)),
    ("Refunds take 30 days [[2]].", (1,)),
])
def test_every_marker_style(answer, cited):
    [(text, got, fabricated)] = cites(answer)
    assert got == cited and fabricated == ()
    assert text == "Refunds take 30 days."


def test_markers_are_per_sentence_and_leading_markers_belong_before():
    out = cites("Refunds take 30 days. [1] Shipping is free [2]. Cards are final.")
    assert out == [("Refunds take 30 days.", (0,), ()), ("Shipping is free.", (1,), ()),
                   ("Cards are final.", (), ())]
    # a sentence of markers alone goes with the sentence before it
    assert cites("Refunds take 30 days. [1][3]") == [("Refunds take 30 days.", (0, 2), ())]


def test_numbers_past_the_contexts_are_fabricated():
    assert cites("Express takes two days [5].") == [("Express takes two days.", (), ("5",))]
    assert cites("Mixed [2, 9].") == [("Mixed.", (1,), ("9",))]


def test_zero_based_numbering_when_the_answer_uses_zero_or_the_sample_says_so():
    assert cites("A is B [0]. C is D [2].")[1][1] == (2,)
    assert cites("C is D [2].", metadata={"citation_base": 0}) == [("C is D.", (2,), ())]
    assert cites("C is D [3].", metadata={"citation_base": 0}) == [("C is D.", (), ("3",))]


def test_ids_and_titles_from_the_sample():
    meta = {"citation_ids": ["refunds", "shipping", "gift-cards"]}
    assert cites("Final [gift-cards]. Free (Source: shipping).", metadata=meta) == [
        ("Final.", (2,), ()), ("Free.", (1,), ())]
    titles = {"context_titles": ["Refund policy", "Shipping", "Gift cards"]}
    assert cites("Thirty days (Source: Refund Policy).", metadata=titles)[0][1] == (0,)
    mapping = {"citation_ids": {"doc-7": 1}}
    assert cites("Free [doc-7].", metadata=mapping)[0][1] == (1,)
    # an id-like label the sample does not name points at nothing
    assert cites("Free [doc-9].", metadata=meta) == [("Free.", (), ("doc-9",))]


def test_ordinary_brackets_are_not_citations():
    assert cites("He said [sic] that it works.") == [("He said [sic] that it works.", (), ())]
    assert cites("The array [a, b] is sorted (see above).")[0][1:] == ((), ())


@pytest.mark.parametrize(("answer", "problem"), [
    ("Refunds take 30 days [1-.", "unclosed citation marker '[1-'"),
    ("Refunds take 30 days [2", "unclosed citation marker '[2'"),
    ("Refunds take 30 days [].", "unreadable citation marker '[]' (empty)"),
    ("Refunds take 30 days [3-1].", "unreadable citation marker '[3-1]' (range 3-1)"),
    ("Refunds take 30 days [1-1000].", "unreadable citation marker '[1-1000]' (range 1-1000)"),
    ("Refunds take 30 days【2", "unclosed citation marker '【2'"),
])
def test_malformed_markers_are_problems_not_errors(answer, problem):
    out, _ = parse(answer)
    assert problem in out.problems
    assert out.n_citations == 0


def test_bad_id_metadata_is_a_problem():
    _, problems = parse("A [1].", metadata={"citation_ids": ["x"], "citation_base": 2})
    assert "metadata.citation_ids names 1 ids for 3 contexts" in problems
    assert "metadata.citation_base is 2, not 0 or 1" in problems


def test_counts():
    out, _ = parse("A is B [1, 2]. C is D [7]. E is F.")
    assert out.n_citations == 3 and out.n_fabricated == 1
