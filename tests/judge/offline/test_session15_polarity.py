"""Issue #38, session 15: what one side denies in a word the other denies with "not"
("unused" / "haven't used", "without collecting" / "not collected";
`paraphrase.negations_of`), and an exception ("except on ...", "except Sundays", "apart from
...") read as the condition "unless" is, where no denial comes before it
(`clauses._negation_heads`): the restatements of
`test_a_denial_in_other_words_is_a_restatement` were flagged at dcae6f3 (those of
`..._read_close` were not: guards), and the flips beside them stay contradictions. Wording
and domains none of the probe batches use."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged

VOUCHERS = "Unused theatre vouchers can be refunded within 30 days of purchase."
COATS = "Coats not collected within 60 days are given to the Shelter charity shop."
WRAP = "We gift wrap orders over £20 at no extra cost."
DEPOT = "Except on bank holidays, the depot opens at 7am."
SKI = "Unused ski passes may be refunded within 14 days of purchase."
KAYAK = "Returned kayaks not rinsed within 2 hours incur a £10 cleaning fee."


@pytest.mark.parametrize(("context", "answer"), [
    (SKI, "If your ski pass hasn't been used, you can get your money back for up to two "
          "weeks after buying it."),
    (SKI, "Ski passes you haven't used yet can be returned for a refund up to 14 days "
          "after you bought them."),
    (KAYAK, "If you bring a kayak back and leave it for over 2 hours without rinsing it, "
            "there's a £10 cleaning fee."),
    (DEPOT, "Unless it's a bank holiday, the depot opens its doors at 7am."),
])
def test_a_denial_in_other_words_is_a_restatement(an: Analyzer, context: str,
                                                   answer: str) -> None:
    assert_judged(an, [context], answer, flags=False)


@pytest.mark.parametrize(("context", "answer"), [
    (VOUCHERS, "Theatre vouchers you haven't used can be refunded for up to 30 days after "
               "you buy them."),
    (COATS, "If you leave a coat with us for over 60 days without collecting it, it goes "
            "to the Shelter charity shop."),
    (WRAP, "Gift wrapping is free of charge on orders over £20."),
])
def test_a_denial_in_other_words_read_close(an: Analyzer, context: str,
                                             answer: str) -> None:
    assert_judged(an, [context], answer, flags=False)


@pytest.mark.parametrize(("context", "answer"), [
    (VOUCHERS, "Theatre vouchers you have used can be refunded for up to 30 days after "
               "you buy them."),
    (COATS, "Coats collected within 60 days are given to the Shelter charity shop."),
    (WRAP, "Gift wrapping costs extra on orders over £20."),
    (DEPOT, "The depot opens at 7am on bank holidays."),
    ("The depot opens at 7am except on bank holidays.",
     "On bank holidays the depot opens at 7am too."),
])
def test_the_flip_beside_it_is_still_a_contradiction(an: Analyzer, context: str,
                                                      answer: str) -> None:
    assert_judged(an, [context], answer, flags=True)


@pytest.mark.xfail(strict=True, reason="known limit (at af6f9a9 too): a privative or a "
                   "denied participle turned ('you have used' / 'Unused', 'after rinsing' / "
                   "'not rinsed') passes where the words overlap (support 0.77)")
@pytest.mark.parametrize(("context", "answer"), [
    (SKI, "Ski passes you have used can be returned for a refund up to 14 days after you "
          "bought them."),
    (KAYAK, "If you bring a kayak back and leave it for over 2 hours after rinsing it, "
            "there's a £10 cleaning fee."),
])
def test_limit_a_privative_turned(an: Analyzer, context: str, answer: str) -> None:
    assert_judged(an, [context], answer, flags=True)


@pytest.mark.parametrize(("claim", "sentence"), [
    ("The first three lessons cost nothing and you can borrow goggles for them.",
     "Your first three swimming lessons are free; goggles can be borrowed for those."),
    ("Blade sharpening is done at no extra cost on orders over £30.",
     "Blade sharpening is free on orders over £30."),
])
def test_a_price_denied_in_other_words_is_what_free_says(claim: str, sentence: str) -> None:
    # (the paraphrase rule's count: each side's negations less what the other's "free" says)
    from ragassay.judge.offline.clauses import part
    from ragassay.judge.offline.paraphrase import negations_of

    p, u = part(claim), part(sentence)
    assert negations_of(p, u) == negations_of(u, p) == 0
