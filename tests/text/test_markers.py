"""The citation-marker parser: every marker style, ids and titles, markers placed after a
sentence's full stop, nested brackets, and malformed markers (reported, never raised)."""

import pytest

from ragassay.text import numbering, parse_citations

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
    assert cites("Ann is Bo [0]. Cy is Di [2].")[1][1] == (2,)
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


# ---- code is not a citation (issue #43 item 7) ---------------------------------------

def test_markers_inside_code_are_code():
    answer = ("Use `items[0]` to read the first item [1].\n\n```python\nfirst = items[0]\n"
              "print(first[0])\n```\n\nShipping is free [2].")
    out, _ = parse(answer)
    assert [s.cited for s in out.sentences] == [(0,), (), (1,)]  # the block: a sentence
    assert out.n_fabricated == 0 and out.problems == []
    # the code is kept as written, only the markers outside it go
    assert "`items[0]`" in out.text and "items[0]\nprint(first[0])" in out.text
    assert "[1]" not in out.text and "[2]" not in out.text


def test_an_unclosed_fence_is_code_to_the_end_and_inline_triple_ticks_are_not_a_fence():
    out, _ = parse("Read it [1].\n```\nx = a[0] [2]")
    assert [s.cited for s in out.sentences] == [(0,)] and out.n_citations == 1
    out, _ = parse("```x``` is code [1]. So is `y[0]` [2].")
    assert [s.cited for s in out.sentences] == [(0,), (1,)]


def test_indexing_glued_to_a_word_does_not_flip_the_answer_to_zero_based():
    # `items[0]` outside backticks: indexing, not a marker, and not evidence of 0-based
    out, _ = parse("Take items[0] first [1]. Then pay [2]. Keep cards [3].")
    assert [(s.cited, s.fabricated) for s in out.sentences] == [
        ((0,), ()), ((1,), ()), ((2,), ())]
    assert out.problems == []


def test_one_stray_zero_does_not_flip_an_answer_whose_markers_read_one_based():
    # [3] exists only 1-based (3 contexts), [0] only 0-based: a tie keeps 1-based
    # (sentences of words: "A is B. C" is one sentence, "B." read as an initial)
    out, _ = parse("Ann is Bo [1]. Cy is Di [3]. Ed is Flo [0].")
    assert [s.cited for s in out.sentences] == [(0,), (2,), ()]
    assert out.sentences[2].fabricated == ("0",)
    assert "marker [0] with 1-based numbering (metadata.citation_base: 1)" in out.problems
    # markers that fit 0-based only are read 0-based
    out, _ = parse("Ann is Bo [0]. Cy is Di [1]. Ed is Flo [2].")
    assert [s.cited for s in out.sentences] == [(0,), (1,), (2,)]


# ---- linear time (issue #43 item 8) ----------------------------------------------------

def _lines_run(answer: str) -> int:
    """Python lines executed parsing `answer` (regex work is bounded per position)."""
    import sys

    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        if event == "line":
            count += 1
        return tracer

    nb, _ = numbering(THREE, {})
    sys.settrace(tracer)
    try:
        parse_citations(answer, nb)
    finally:
        sys.settrace(None)
    return count


@pytest.mark.parametrize("unit", ["[1] [1 x ", "[1] ", "`a` [2] ", "(Source 1) [1 ", "x. [1] ",
                                  "(1). ", "(see [1]), ", "word¹ ", "[doc1][S2] "])
def test_parsing_is_linear_in_the_answer(unit):
    """Twice the answer, about twice the work (it was quadratic: `"[1] [1 x " * 40000`
    took 123 s); counted in executed lines, not seconds."""
    small, large = _lines_run(unit * 400), _lines_run(unit * 1600)
    assert large < 4.6 * small, (small, large)


def test_a_hostile_answer_keeps_a_bounded_list_of_problems():
    out, _ = parse("[1] [1 x [2 y [3 z " * 100 + "[7-x [8-y [9-z " * 100)
    assert len(out.problems) <= 21


def test_the_highlighted_answer_is_keyed_as_the_judges_read_it():
    from ragassay.text import display_answer, key_sample
    from ragassay.types import Sample

    answer = "Refunds take 30 days. [1]\n\nShipping is free [2]. Gift cards are final."
    keyed = key_sample(Sample(id="x", question="q", contexts=THREE, answer=answer))
    assert [(s.key, s.text) for s in keyed.answer] == [
        ("a", "Refunds take 30 days."), ("b", "Shipping is free."), ("c", "Gift cards are final.")]
    assert keyed.answer_text == "Refunds take 30 days.\n\nShipping is free. Gift cards are final."
    assert [(s.key, s.text, s.plain) for s in display_answer(answer)] == [
        ("a", "Refunds take 30 days. [1]", "Refunds take 30 days."),
        ("b", "Shipping is free. [2]", "Shipping is free."),
        ("c", "Gift cards are final.", "Gift cards are final.")]


def test_a_caret_set_off_by_a_space_is_a_marker() -> None:
    """ "... 8 pm ^1." and "... 10 to 12 ^2.": a footnote after a short word or a figure
    (trial 55 J024: read as missing figures '1', '2'); an exponent is glued ("10^6")."""
    from ragassay.text.loose import loose_markers
    text = "Open 10 am to 8 pm ^1. Sessions run from 10 to 12 ^2. The value is 10^6."
    assert [m[2] for m in loose_markers(text)] == ["1", "2"]


# ---- more bot styles, and a trailing sources section -----------------------------------

@pytest.mark.parametrize(("answer", "labels", "cited"), [
    ("Refunds take 30 days<sup>1</sup>.", ["<sup>1</sup>"], (0,)),
    ("Refunds take 30 days<sup>[2]</sup>.", ["<sup>[2]</sup>"], (1,)),
    ("Refunds take 30 days<sup>1,2</sup>.", ["<sup>1,2</sup>"], (0, 1)),
    ("Refunds take 30 days <sup>[1]</sup><sup>[3]</sup>.", ["<sup>[1]</sup>", "<sup>[3]</sup>"],
     (0, 2)),
    ("Refunds take 30 days [web:1].", ["[web:1]"], (0,)),
    ("Refunds take 30 days [source:2].", ["[source:2]"], (1,)),
    ("Refunds take 30 days [doc:3].", ["[doc:3]"], (2,)),
    ("Refunds take 30 days [web:1][web:3].", ["[web:1]", "[web:3]"], (0, 2)),
    ("Refunds take 30 days (ref. 1).", ["(ref. 1)"], (0,)),
    ("Refunds take 30 days (Ref. 2).", ["(Ref. 2)"], (1,)),
    ("Refunds take 30 days [ref. 3].", ["[ref. 3]"], (2,)),
    ("Refunds take 30 days †1.", ["†1"], (0,)),
    ("Refunds take 30 days†1,†3.", ["†1,†3"], (0, 2)),
    ("Refunds take 30 days [1.].", ["[1.]"], (0,)),
])
def test_html_superscripts_colon_ids_abbreviated_words_daggers_and_full_stops(answer, labels,
                                                                              cited):
    """Styles bots write that were read as claims (a missing figure "1", a word "web")."""
    out, _ = parse(answer)
    assert [(s.text, s.labels, s.cited, s.fabricated) for s in out.sentences] == [
        ("Refunds take 30 days.", labels, cited, ())]
    assert out.text == "Refunds take 30 days." and out.problems == []


@pytest.mark.parametrize(("answer", "cited"), [
    ("Refunds take 30 days (source: doc 1).", (0,)),
    ("Refunds take 30 days (Source: Doc 2).", (1,)),
    ("Refunds take 30 days (source: document 3).", (2,)),
    ("Refunds take 30 days (ref: doc 1).", (0,)),
    ("Refunds take 30 days [Source: Doc 2].", (1,)),
    ("Refunds take 30 days (Sources: Doc 1, Doc 3).", (0, 2)),
    ("Refunds take 30 days (source: passage #2).", (1,)),
])
def test_a_source_word_before_a_doc_label_is_its_number(answer, cited):
    """ "(source: doc 1)" (trial 62): read as an unknown title, fabricated, while
    "(source: 1)" and "(Doc 1)" read as context 1."""
    out, _ = parse(answer)
    assert [(s.text, s.cited, s.fabricated) for s in out.sentences] == [
        ("Refunds take 30 days.", cited, ())]


def test_a_source_word_before_a_named_title_keeps_the_title():
    """A sample that names its contexts "Doc 2", "Doc 1", "Doc 3": "(source: doc 1)" is the
    context so named, not the first; one past the contexts is fabricated as written."""
    titles = {"context_titles": ["Doc 2", "Doc 1", "Doc 3"]}
    assert cites("Refunds take 30 days (source: doc 1).", metadata=titles) == [
        ("Refunds take 30 days.", (1,), ())]
    assert cites("Refunds take 30 days (source: doc 7).") == [
        ("Refunds take 30 days.", (), ("7",))]


@pytest.mark.parametrize("answer", [
    "The area is 5 m<sup>2</sup>.",  # a unit's exponent
    "It grew to 10<sup>6</sup> cells.",
    "Smith (†1890) wrote it.",  # a year of death
    # a page, a set mid-sentence (where a clause ends "{1}" is a marker: trial 70)
    "See the table (p. 1) and the set {1} of it.",
    "He counted [note: x] twice.",
])
def test_exponents_pages_and_sets_stay_text(answer):
    out, _ = parse(answer)
    assert out.n_markers == 0 and out.text == answer


@pytest.mark.parametrize("block", [
    "Sources:\n[1] Opening hours\n[2] Loans",
    "References: Document 1, Document 2",
    "**Sources**\n- [1] hours.pdf\n- [2] loans.pdf",
    "Citations:\n1. Opening hours page",
    "**Sources:** [1] hours.pdf, [2] loans.pdf",
    "---\n## References\n\n1. [Hours](https://example.org/hours)\n2. Loans policy\n",
    "Sources\n\n- Opening hours page\n- Loans policy",
])
def test_a_trailing_sources_section_is_no_sentence(block):
    """It lists sources and claims nothing: cut from the text every reader reads and from
    the sentences (no uncited "Loans"), its labels no citations."""
    out, _ = parse(f"Refunds take 30 days [1]. Shipping is free.\n\n{block}")
    assert out.text == "Refunds take 30 days. Shipping is free."
    assert [(s.text, s.cited) for s in out.sentences] == [
        ("Refunds take 30 days.", (0,)), ("Shipping is free.", ())]
    assert out.n_citations == 1 and out.problems == []


@pytest.mark.parametrize("answer", [
    "Sources say the museum opens at 9. Refunds take 30 days.",
    "Refunds take 30 days.\nSources say the museum opens at 9.",
    "Refunds take 30 days.\nSources: the museum opens at 9.",  # a sentence, not titles
    "Sources:\n- Opening hours\n- Loans",  # nothing before it: the answer itself
    "Refunds take 30 days.\n\n```\nSources:\n- a.pdf\n```",  # code
    "Refunds take 30 days.\n\nSources:\n[1] Opening hours\n\nShipping is free over $50, "
    "and gift cards are final and cannot be exchanged for cash in any store.",
])
def test_a_sentence_that_mentions_sources_is_kept(answer):
    out, _ = parse(answer)
    assert "Sources" in out.text and out.text.endswith(answer.split()[-1])
    assert any("Sources" in s.text for s in out.sentences)


def test_the_sources_section_is_read_by_no_suite_and_not_shown():
    from ragassay.text import display_answer, key_sample
    from ragassay.types import Sample

    for answer in ("Refunds take 30 days.\n\nReferences: Document 1, Document 3",
                   "Refunds take 30 days [1].\n\nSources:\n[1] Refund policy"):
        keyed = key_sample(Sample(id="x", question="q", contexts=THREE, answer=answer))
        assert keyed.answer_text == "Refunds take 30 days."
        assert [s.text for s in keyed.answer] == ["Refunds take 30 days."]
        assert [s.plain for s in display_answer(answer)] == ["Refunds take 30 days."]


@pytest.mark.parametrize("unit", ["word<sup>1</sup> ", "word<sup>[1] ", "word †1. ",
                                  "[web:1] ", "- [1] a\n", "Sources:\n- a\n",
                                  "References: [1], ", "(1). word^1. "])
def test_new_styles_parse_in_linear_time(unit):
    """As above; "(1). word^1. " was quadratic (a "(1)" looked for in every caret)."""
    small, large = _lines_run(unit * 400), _lines_run(unit * 1600)
    assert large < 4.6 * small, (small, large)


@pytest.mark.parametrize(("text", "markers"), [
    # a caret glued to a unit after a figure: a footnote ("kg" has no power)
    ("It weighs up to 25 kg^1.", ["1"]),
    ("Each bag holds 8 kg^2.", ["2"]),
    # an area or a volume of a unit of length: no footnote (review 11: micrometres and
    # decimetres were read as citations of sources 2 and 3)
    ("The room is 12 m^2.", []),
    ("The pixel area is 25 \u03bcm^2.", []),
    ("The pixel area is 25 \u00b5m^2.", []),
    ("The tank holds 2 dm^3.", []),
])
def test_a_caret_after_a_unit_is_a_footnote_unless_it_powers_a_length(text, markers) -> None:
    from ragassay.text.loose import loose_markers
    assert [m[2] for m in loose_markers(text)] == markers


@pytest.mark.parametrize(("answer", "cited"), [
    ("Refunds take 30 days (source [2]).", (1,)),
    ("Refunds take 30 days (Source [2]).", (1,)),
    ("Refunds take 30 days (sources [1], [3]).", (0, 2)),
    ("Refunds take 30 days (source: [2]).", (1,)),
    ("Refunds take 30 days (ref. [3]).", (2,)),
    ("Refunds take 30 days, source [2].", (1,)),
])
def test_a_source_word_wrapping_a_marker_goes_with_it(answer, cited):
    """ "(source [2])" (trial 65): read as citing context 2, but "(source )" stayed in the
    scored sentence; "(source: [2])" read as a fabricated title "[2]". The wrapper goes
    whole, as "(see [1])" does."""
    assert cites(answer) == [("Refunds take 30 days.", cited, ())]
