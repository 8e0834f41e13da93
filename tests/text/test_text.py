import threading

from ragassay.text import key_answer, key_contexts, letter_key, split_sentences


def test_letter_keys_are_unambiguous():
    assert [letter_key(i) for i in (0, 1, 25, 26, 27, 51, 52)] == [
        "a", "b", "z", "aa", "ab", "az", "ba"]


def test_sentence_keys_follow_trace_convention():
    ctx = key_contexts(["One. Two.", "Three."])
    assert [(k.key, k.text) for k in ctx] == [("0a", "One."), ("0b", "Two."), ("1a", "Three.")]
    assert [k.key for k in key_answer("Yes. No. Maybe.")] == ["a", "b", "c"]
    assert key_answer("") == [] and split_sentences("   ") == []


def test_abbreviations_and_paragraphs():
    assert split_sentences("Dr. Smith went home. He was tired.\n\nNew para") == [
        "Dr. Smith went home.", "He was tired.", "New para"]


def test_very_long_paragraph_loses_no_text():
    text = "word " * 30000 + "end."
    joined = " ".join(split_sentences(text))
    assert joined.split() == text.split()


def test_splitting_is_thread_safe():
    texts = [f"Sentence {i} one. Sentence {i} two. Sentence {i} three." for i in range(200)]
    out: dict[int, list[str]] = {}

    def work(i: int) -> None:
        out[i] = split_sentences(texts[i] + " ")  # bypass the cache with a variant

    threads = [threading.Thread(target=work, args=(i,)) for i in range(200)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, sents in out.items():
        assert sents == [f"Sentence {i} one.", f"Sentence {i} two.", f"Sentence {i} three."]


def test_numbered_abbreviations_only_before_numbers():
    assert split_sentences("See No. 5 in Fig. 2 here. No. That was it.") == [
        "See No. 5 in Fig. 2 here.", "No.", "That was it."]


def test_initials_and_decimals_do_not_split():
    assert split_sentences("J. R. Smith paid $5.50 today. It rose 3.5% in the U.S. Army.") == [
        "J. R. Smith paid $5.50 today.", "It rose 3.5% in the U.S. Army."]


def test_apostrophes_are_written_one_way_where_a_sample_is_keyed() -> None:
    """#43 item 9: "don’t" (U+2019), "donʼt" (U+02BC), "don＇t" (full-width) and "don´t"
    read as "don't" for every consumer of the keyed sample, character for character."""
    from ragassay.text import key_sample, plain_apostrophes
    from ragassay.types import Sample

    for form in ("\u2019", "\u02bc", "\uff07", "\u00b4"):
        text = f"I don{form}t know. It{form}s not in the context{form}s pages."
        assert plain_apostrophes(text) == "I don't know. It's not in the context's pages."
        item = key_sample(Sample(id="a", question=f"Isn{form}t it?", answer=text,
                                 contexts=(f"Nothing{form}s here.",), reference=text))
        assert item.answer_text == plain_apostrophes(text)
        assert [s.text for s in item.answer] == ["I don't know.", "It's not in the context's "
                                                 "pages."]
        assert item.question == "Isn't it?" and item.contexts[0].text == "Nothing's here."
        assert item.documents == ("Nothing's here.",) and item.reference[0].text == "I don't know."
    assert plain_apostrophes("\u00b4quoted\u00b4") == "\u00b4quoted\u00b4"  # no letters around
