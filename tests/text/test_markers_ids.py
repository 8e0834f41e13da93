"""Id-style citation markers (issue #38 item 1, trial 50): `[doc1]`, `[doc-1]`, `[S1]`,
`[†1]`, `(doc1)`, `(1)` where a sentence ends, superscripts, and "see"/"cf." wrappers are
markers of the one grammar; brackets that are text (`[sic]`, `(COVID-19)`, enumerations,
`m²`) are not."""

import pytest

from ragassay.text import numbering, parse_citations

TWO = ("Students pay 9 EUR.", "Adults pay 18 EUR.")
CLAIM = "Students pay 9 EUR"


def parse(answer, metadata=None, contexts=TWO):
    nb, _ = numbering(contexts, metadata or {})
    return parse_citations(answer, nb)


def read(answer, **kw):
    out = parse(answer, **kw)
    return [(s.text, s.cited, s.fabricated) for s in out.sentences]


@pytest.mark.parametrize("marker", [
    "[doc1]", "[doc-1]", "[doc_1]", "[ref1]", "[ref_1]", "[source1]", "[Source-1]", "[S1]",
    "[†1]", "[chunk 1]", "[Chunk-1]", "(doc1)", "(doc-1)", "(source1)", "【doc1】",
    "【1†source】", "[^doc1]", "(1)", "¹", "(see [1])", "(cf. [1])", "(see Source 1)",
    "(see also [doc1])", ", see [1]",
])
def test_id_style_markers_without_ids_cite_the_context_at_their_number(marker):
    sep = "" if marker[0] in ",¹" else " "
    assert read(f"{CLAIM}{sep}{marker}.") == [(f"{CLAIM}.", (0,), ())]


def test_several_id_style_labels_and_a_number_past_the_contexts():
    assert read(f"{CLAIM} [doc1, doc2].") == [(f"{CLAIM}.", (0, 1), ())]
    assert read(f"{CLAIM} [S1][S2].") == [(f"{CLAIM}.", (0, 1), ())]
    # a number past the contexts points at nothing: fabricated, named as written
    assert read(f"{CLAIM} [doc5].") == [(f"{CLAIM}.", (), ("doc5",))]
    assert read(f"{CLAIM} (doc-7).") == [(f"{CLAIM}.", (), ("doc-7",))]
    # zero-based ids read zero-based, as numbers do
    assert read("Kids pay [doc0]. Adults pay more [doc1].") == [
        ("Kids pay.", (0,), ()), ("Adults pay more.", (1,), ())]


def test_with_ids_an_id_style_label_the_sample_does_not_name_is_fabricated():
    meta = {"context_ids": ["kb-17", "kb-42"]}
    assert read(f"{CLAIM} [kb-42].", metadata=meta) == [(f"{CLAIM}.", (1,), ())]
    assert read(f"{CLAIM} [doc1].", metadata=meta) == [(f"{CLAIM}.", (), ("doc1",))]
    assert read(f"{CLAIM} [doc1, doc2].", metadata=meta) == [(f"{CLAIM}.", (), ("doc1", "doc2"))]
    # a word and a space is a numbered marker, with ids or without
    assert read(f"{CLAIM} [Doc 2].", metadata=meta) == [(f"{CLAIM}.", (1,), ())]


@pytest.mark.parametrize("text", [
    "He said [sic] that it works.",
    "Paris is the capital [citation needed].",
    "The rule is explained earlier (see above).",
    "Masks were required (COVID-19).",
    "The lab is certified (ISO 9001).",
    # (a letter and a number in round brackets ending a sentence is a source label,
    # trial 75, unless the passages write it: tests/text/test_codes.py)
    "Print it on (A1) paper.",
    "The law changed (2024).",
    "Wrap it in {x} braces.",
    "Break the line with <br> here.",
    "The array [x1, x2] is sorted.",
    "Press [Figure 2] to zoom.",
    "Call f(1) first.",
    "Bring your documents (documents must be originals).",
    "You can (1) renew online, or (2) call the desk.",
    "Steps:\n(1) Open the app.\n(2) Pay (1).",
    "The flat is 50 m². A cell is 10⁶ μm³. The pipe is 4 mm².",
])
def test_brackets_that_are_text_stay_text(text):
    out = parse(text)
    assert out.n_markers == 0 and out.problems == []
    assert out.text == text


def test_a_year_in_square_brackets_is_a_marker_in_parentheses_text():
    # square brackets are the citation bracket: [2024] over two contexts is fabricated
    assert read(f"{CLAIM} [2024].") == [(f"{CLAIM}.", (), ("2024",))]
    assert parse(f"{CLAIM} (2024).").n_markers == 0


def test_a_number_in_parentheses_is_a_marker_only_where_a_sentence_ends():
    assert read("Students pay 9 EUR (1). Adults pay 18 EUR (2).") == [
        ("Students pay 9 EUR.", (0,), ()), ("Adults pay 18 EUR.", (1,), ())]
    assert read("Students pay 9 EUR (1, 2), adults more.") == [
        ("Students pay 9 EUR, adults more.", (0, 1), ())]
    # (1) before words is an enumeration, and an answer that enumerates reads none
    assert parse("Pay (1) online. It is cheap (2).").n_markers == 0


def test_superscripts_after_a_word_or_punctuation():
    assert read("Students pay 9 EUR.¹ Adults pay 18 EUR².") == [
        ("Students pay 9 EUR.", (0,), ()), ("Adults pay 18 EUR.", (1,), ())]
    assert read("Students pay 9 EUR ¹˒².") == [("Students pay 9 EUR.", (0, 1), ())]


def test_wrappers_and_joined_markers_leave_no_debris():
    out = parse("Students pay 9 EUR (see [1] and [2]), adults 18 EUR (cf. [2]). "
                "For details, see [1].")
    assert out.text == "Students pay 9 EUR, adults 18 EUR. For details."
    assert [s.cited for s in out.sentences] == [(0, 1), (0,)]
    assert parse("Students pay 9 EUR [1], [2].").text == "Students pay 9 EUR."


def test_caret_footnotes_are_superscripts_in_plain_text():
    """Trial 51: "warranty^1" (a footnote without markdown) was read as the number 1, so
    a faithful answer became a hallucination."""
    assert read("Students pay 9 EUR^1. Adults pay 18 EUR^2.") == [
        ("Students pay 9 EUR.", (0,), ()), ("Adults pay 18 EUR.", (1,), ())]
    assert read("Students pay 9 EUR.^1 Adults pay 18 EUR.^2") == [
        ("Students pay 9 EUR.", (0,), ()), ("Adults pay 18 EUR.", (1,), ())]
    for joined in ("^1,^2", "^1^2", "^1, ^2"):
        assert read(f"Students and adults pay admission{joined}.") == [
            ("Students and adults pay admission.", (0, 1), ())]
    assert read(f"{CLAIM} for admission^5.") == [(f"{CLAIM} for admission.", (), ("5",))]


@pytest.mark.parametrize("joined", ["^1,2", "^1-2", "^(1,2)", "^{1, 2}", "^(1),^(2)",
                                    "^{1}^{2}", "^(1-2)"])
def test_caret_footnotes_with_lists_ranges_and_brackets_are_one_marker(joined):
    """Session 5's review left `^1,2`, `^1-2`, `^(1)`, `^{1}` read as text: the digits
    stayed in the claim (a figure the contexts lack) and "(1)" after a caret was a second
    marker."""
    out = parse(f"Students and adults pay admission{joined}.")
    assert out.n_markers == 1
    assert [(s.text, s.cited) for s in out.sentences] == [
        ("Students and adults pay admission.", (0, 1))]


def test_a_caret_with_two_ranges_is_no_marker():
    """Review 6: "^1-2-3" was removed as a marker citing nothing ("[1-2-3]" is no marker
    either): one range or one list only."""
    text = "Students and adults pay admission^1-2-3."
    assert parse(text).n_markers == 0 and parse(text).text == text


@pytest.mark.parametrize("joined", ["^(1)(2)", "^(1) (2)", "^{1} {2}", "^1, 2", "^1 , 2"])
def test_caret_brackets_in_a_row_and_a_spaced_caret_list_are_one_marker(joined):
    """Review 7: "^(1)(2)" and "^(1) (2)" left "admission^(1)." in the claim (only "(2)"
    was a marker), "^1, 2" left "admission, 2.": the offline judge read a figure the
    contexts lack and called a faithful answer a hallucination."""
    out = parse(f"Students and adults pay admission{joined}.")
    assert out.n_markers == 1 and out.text == "Students and adults pay admission."
    assert [s.cited for s in out.sentences] == [(0, 1)]


@pytest.mark.parametrize(("text", "kept"), [
    ("Students pay admission^1, 2 rooms cost more.", "Students pay admission, 2 rooms cost more."),
    ("The offer costs 10^3, 2 rooms included.", None),
    ("It repeats x^2, 3 times.", None),
    ("It repeats x^2, 3.", None),
])
def test_a_number_after_a_caret_and_a_comma_is_text_unless_the_clause_ends(text, kept):
    """A spaced caret list is a footnote only where the clause ends after it: in
    "admission^1, 2 rooms" the 2 counts rooms; after a digit or a short word the caret is
    an exponent and nothing is a marker."""
    out = parse(text)
    assert out.text == (kept or text)
    assert out.n_markers == (1 if kept else 0)


@pytest.mark.parametrize("marker", ["^3-1", "^(3-1)", " [3-1]"])
def test_a_descending_caret_range_is_an_unreadable_marker_as_in_brackets(marker):
    """Review 7 asked whether "^3-1" should stay text: "[3-1]" is a marker that cannot be
    read (removed from the claim, reported, cites nothing), and so is its caret spelling;
    "^1-2-3" stays text because "[1-2-3]" is no marker at all."""
    out = parse(f"Students and adults pay admission{marker}.")
    assert out.text == "Students and adults pay admission."
    assert out.n_markers == 1 and [s.cited for s in out.sentences] == [()]
    assert out.n_fabricated == 0
    assert out.problems == [f"unreadable citation marker {marker.strip()!r} (range 3-1)"]


@pytest.mark.parametrize("text", ["The area is x^(2) plus y^2.", "Compute width^{2} + h.",
                                  "Price grows with size^2,3 here.", "Use 10^(6) bytes.",
                                  "The total is 10^(6).", "It scales as n^{2}."])
def test_a_bracketed_exponent_is_no_marker(text):
    assert parse(text).n_markers == 0 and parse(text).text == text


@pytest.mark.parametrize("text", [
    "A kibibyte is 2^10 bytes.",
    "The area is x^2 plus y^2.",
    "The growth factor is e^3.",
    "Scale it by 10^6 first.",
    "The ratio grows as size^1.5 here.",
    "The cost grows with size^2 here.",
    "Compute width^2 + height^2 first.",
    "The time^3 term dominates.",
])
def test_a_caret_that_is_an_exponent_is_no_marker(text):
    assert parse(text).n_markers == 0
    assert parse(text).text == text


def test_caret_markers_join_within_a_line_only():
    """Review 5: a chain of carets ran across a line break and glued a footnote's text to
    the claim ("...two years Warranty terms")."""
    out = parse("Students pay 9 EUR^1\n\n^1 Ticket terms apply.")
    assert out.sentences[0].text == "Students pay 9 EUR"
    assert "Ticket terms apply." in out.text
