"""Claim-level alignment (issue #38 items 2-4): contradictions built from the contexts'
own words are caught, paraphrases and faithful answers beside an unrelated negation are
not flagged, invented details are, and declines in many phrasings are abstentions.

Each case is a whole sample through the Analyzer (the evidence every suite reads); the
kinds name what alignment found (Evidence.contradicts)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import HALLUCINATION_THRESHOLD, Analyzer, Evidence, reasoning
from ragassay.judge.offline.clauses import clause_parts, part
from ragassay.judge.offline.declines import is_noncommittal
from ragassay.judge.offline.hedged import hedged_claim
from ragassay.judge.offline.lexical import TermPool
from ragassay.judge.offline.pieces import clause_texts
from tests.support.offline import evidence as _ev
from tests.support.offline import faith as _faith

PLANS = ("Larkspur has three tiers: Starter, Team and Enterprise. Starter connects 3 "
         "devices and stores 5 TB. Team connects 10 devices and stores 20 TB. Enterprise "
         "has no device cap. Single sign-on is offered to Enterprise accounts only.")
RETENTION = ("Backups are kept for 7 days on the Standard plan. Enterprise keeps backups "
             "for 35 days.")
REFUNDS = ("Monthly plans are not refundable. Annual plans can be refunded in full within "
           "30 days of purchase.")


def _caught_by_alignment(an: Analyzer, contexts: list[str], answer: str,
                         kinds: set[str]) -> Evidence:
    """The answer is flagged, by a claim alignment sets against the contexts as one of
    `kinds`, though every term of it is in the contexts."""
    ev = _ev(an, contexts, answer)
    claims = [k for k, a in zip(ev.contradicts, ev.asserts, strict=True) if a]
    assert ev.hallucinated_terms == []  # nothing a context lacks: only alignment can tell
    assert any(k in kinds for k in claims), (claims, reasoning(ev))
    assert _faith(ev) < HALLUCINATION_THRESHOLD
    return ev


@pytest.mark.parametrize(("contexts", "answer", "kinds"), [
    # the negation flip: every word of it is in the contexts
    ([REFUNDS], "Yes, monthly plans can be refunded in full within 30 days.",
     {"negation", "entity"}),
    ([REFUNDS], "Monthly plans are refundable.", {"negation"}),
    # an entity replaced by another the contexts name
    ([PLANS], "Single sign-on is offered to Team accounts only.", {"entity"}),
    ([PLANS], "Starter has no device cap.", {"entity"}),
    ([RETENTION], "Backups are kept for 35 days on the Standard plan.", {"number", "entity"}),
    # a number the contexts state elsewhere, for another thing
    ([PLANS], "Starter connects 5 devices.", {"number"}),
    ([PLANS], "Team connects 10 devices and stores 5 TB.", {"number"}),
    # a quantifier widened past what the context restricts
    ([PLANS], "Single sign-on is offered to all accounts.", {"quantifier"}),
    ([REFUNDS], "All plans can be refunded in full within 30 days of purchase.",
     {"quantifier", "negation", "entity"}),
])
def test_a_contradiction_built_from_the_contexts_own_words_is_caught(
    an: Analyzer, contexts: list[str], answer: str, kinds: set[str]
) -> None:
    ev = _caught_by_alignment(an, contexts, answer, kinds)
    assert "contradicts the context" in reasoning(ev)


@pytest.mark.parametrize(("contexts", "answer"), [
    ([REFUNDS], "Annual plans can be refunded in full within 30 days of purchase."),
    ([REFUNDS], "No, monthly plans are not refundable."),
    ([PLANS], "Single sign-on is only available on Enterprise accounts."),
    ([PLANS], "Team connects 10 devices and stores 20 TB."),
    ([PLANS], "Enterprise has no device cap."),
    ([RETENTION], "On the Standard plan backups are kept for 7 days."),
    # faithful beside a negation in another clause of the matching sentence
    (["Checked bags are not included in Basic fares, but Flex fares include one bag of "
      "23 kg."], "Flex fares include one bag of 23 kg."),
    (["The vaccine does not protect against colds, which are caused by rhinoviruses."],
     "Colds are caused by rhinoviruses."),
    (["Contractors are not eligible for the $300 home office stipend."],
     "The home office stipend is $300."),
    # "unless" reads as "if not"
    (["Tokens expire after 30 days unless they are pinned."],
     "Tokens expire after 30 days if they are not pinned."),
])
def test_a_faithful_answer_is_not_flagged(an: Analyzer, contexts: list[str], answer: str) -> None:
    ev = _ev(an, contexts, answer)
    assert all(k is None for k in ev.contradicts), reasoning(ev)
    assert _faith(ev) >= HALLUCINATION_THRESHOLD, reasoning(ev)


def test_clauses_bind_figures_and_subjects() -> None:
    """A sentence's clauses: a clause without a subject of its own is one unit with its
    sentence's subject (alignment.Units), figures count what they stand next to."""
    texts = clause_texts("Starter connects 3 devices, stores 5 TB and costs $4 a month.")
    assert texts == ("Starter connects 3 devices", "stores 5 TB", "and costs $4 a month.")
    assert [p.text for p in clause_parts("Team connects 10 devices and stores 20 TB.")] == [
        "Team connects 10 devices", "and stores 20 TB"]
    assert part("Starter connects 3 devices.").figures == ((3.0, "devic"),)
    assert part("The clinic opens at 8 am.").figures == ((8.0, "time"),)
    # a rank is no count, but the position of its thing, as "prize 1" (counts.place_rank)
    assert part("She won the first prize.").figures == ((1.0, "prize"),)
    # negations bear on what they negate, not on "need to be"
    assert part("Blood tests do not need to be booked.").negations == ("booke",)
    assert part("Check out no later than 11 am.").negations == ()  # a bound
    assert part("The delivery was retried without a fee.").negations == ()
    assert part("All tiers allow it.").quantified == ("tier",)


@pytest.mark.parametrize("detail", [
    "and it comes with a dedicated account manager",
    "and you also get a free parking pass at the office",
])
def test_an_invented_detail_beside_a_supported_claim_is_unsupported(
    an: Analyzer, detail: str
) -> None:
    ev = _ev(an, [PLANS], f"Enterprise has no device cap, {detail}.")
    assert ev.unstated[0] is not None and "stated in no context" in reasoning(ev)
    assert _faith(ev) < HALLUCINATION_THRESHOLD
    plain = _ev(an, [PLANS], "Enterprise has no device cap.")
    assert plain.unstated == [None] and _faith(plain) >= HALLUCINATION_THRESHOLD


DECLINES = [
    "I don't have information about that.",
    "I don't have enough information to answer that.",
    "Unfortunately I can't help with that one. Please contact our support team.",
    "I don\u2019t know based on the provided context.",
    "I don\u02bct know based on the provided context.",
    "I don\uff07t know based on the provided context.",
    "Sorry, the documents I was given don't mention that.",
    "That isn't covered in the policy documents.",
    "I couldn't find anything about that in the knowledge base.",
    "There's nothing in the passages about that, so I'd rather not guess.",
    "I'm afraid I'm unable to answer that from these sources.",
    "The provided context does not say which payment methods are accepted.",
    "I have no details on that. You may want to reach out to the billing team.",
]


@pytest.mark.parametrize("answer", DECLINES)
def test_a_decline_is_an_abstention_not_a_hallucination(an: Analyzer, answer: str) -> None:
    ev = _ev(an, [PLANS], answer, "Does Larkspur offer a student discount?")
    assert ev.abstains, reasoning(ev)
    assert ev.abstention() == "correct"  # the contexts do not say: a correct decline


def test_a_claim_is_no_decline(an: Analyzer) -> None:
    """Declines are patterns; a claim with no context for it stays a claim, and a hedge
    with a claim is checked."""
    assert not is_noncommittal("Starter connects 3 devices.")
    assert not is_noncommittal("The Basic plan doesn't include phone support.")
    pool = TermPool.of(PLANS)
    assert hedged_claim("I'm not sure, but Team stores 45 TB.", "How much?", pool)
    assert not hedged_claim("The documents don't say which discounts are offered.",
                            "Is there a student discount?", pool)
    hedged = _ev(an, [PLANS], "I'm not sure, but Team stores 45 TB.")
    assert not hedged.abstains and _faith(hedged) < HALLUCINATION_THRESHOLD


SHIPPING = ("Free shipping applies to domestic orders. The loyalty discount is offered to "
            "members over 60. Returns must be requested within 14 days of delivery. "
            "Gift wrapping is offered on the Deluxe bundle only.")
SYNC = ("Webhooks are retried on Linux but not on Windows. Orders are refunded "
        "automatically if they have not shipped yet.")
ACCOUNTS = ("The Silver Saver account pays 2% interest a year. The Gold Plus account "
            "charges no monthly fee. The 3-month membership costs $30 and includes 2 "
            "coaching sessions. The 6-month membership costs $50.")


@pytest.mark.parametrize(("contexts", "answer", "kinds"), [
    # a universal claim over what the unit narrows: a modifier before or after it
    ([SHIPPING], "Free shipping applies to all orders.", {"quantifier"}),
    ([SHIPPING], "The loyalty discount is offered to all members.", {"quantifier"}),
    # ... the rest of it said of something else, and limited
    ([SYNC], "Webhooks are retried on every platform.", {"quantifier"}),
    ([SHIPPING], "Gift wrapping is offered on every bundle.", {"quantifier"}),
    # ... "at any time" against a time limit; any case against a condition
    ([SHIPPING], "Returns can be requested at any time.", {"quantifier"}),
    ([SYNC], "Sure, any order is refunded automatically.", {"quantifier"}),
    # a name of several words for another, in the same place
    ([ACCOUNTS], "The Gold Plus account pays 2% interest a year.", {"entity"}),
    # a figure the clause's sentence gives its subject; a duration in other units
    ([ACCOUNTS], "The 6-month membership includes 2 coaching sessions.", {"number"}),
    ([SHIPPING, ACCOUNTS], "Returns must be requested within 30 days of delivery.",
     {"number"}),
])
def test_scope_names_and_figures_are_read_from_the_clause_and_its_sentence(
    an: Analyzer, contexts: list[str], answer: str, kinds: set[str]
) -> None:
    _caught_by_alignment(an, contexts, answer, kinds)


@pytest.mark.parametrize(("contexts", "answer"), [
    ([SHIPPING], "Free shipping applies to all domestic orders."),
    ([SHIPPING], "The loyalty discount is offered to members over 60."),
    ([SYNC], "Webhooks are retried on Linux."),
    ([ACCOUNTS], "The Silver Saver account pays 2% interest a year."),
    ([ACCOUNTS], "The 3-month membership includes 2 coaching sessions."),
    # dates are no counts (a day of a month, a calendar year); "of any" compares
    (["The first legs were played on 6 and 7 March, and the second legs on 13 and 14 "
      "March 2018. Each tie was decided over 2 legs."],
     "The first legs were played on March 6-7, and the second legs were played on March "
     "13-14, 2018."),
    (["In 2019 the campus reported the highest number of major crimes among public high "
      "schools in the city, though it was not the most violent."],
     "In 2019, it was reported that the campus had the highest number of major crimes of "
     "any public high school in the city."),
    # a source named is no detail; "unless" against "not ... if"
    ([SHIPPING], "According to the policy, free shipping applies to domestic orders."),
    (["Do not use the sauna if you have a heart condition. The gym opens at 6 am."],
     "You can use the sauna, unless you have a heart condition, and the gym opens at 6 am."),
])
def test_a_faithful_answer_of_the_same_shapes_is_not_flagged(
    an: Analyzer, contexts: list[str], answer: str
) -> None:
    ev = _ev(an, contexts, answer)
    assert all(k is None for k in ev.contradicts), reasoning(ev)
    assert ev.unstated == [None] * len(ev.unstated), reasoning(ev)
    assert _faith(ev) >= HALLUCINATION_THRESHOLD, reasoning(ev)


@pytest.mark.parametrize("answer", [
    "Comprehensive plans cover flood damage, fire, burst pipes and roof replacement.",
    "Comprehensive plans cover flood damage and fire along with a free annual inspection.",
])
def test_an_invented_list_item_or_addition_is_unstated(an: Analyzer, answer: str) -> None:
    ctx = ["Comprehensive plans cover flood damage, fire and burst pipes."]
    ev = _ev(an, ctx, answer)
    assert ev.unstated[0] is not None and _faith(ev) < HALLUCINATION_THRESHOLD, reasoning(ev)
    plain = _ev(an, ctx, "Comprehensive plans cover flood damage, fire and burst pipes.")
    assert plain.unstated == [None] and _faith(plain) >= HALLUCINATION_THRESHOLD


def test_a_duration_in_other_units_of_the_same_length_is_no_contradiction(
    an: Analyzer
) -> None:
    """"2 weeks" for "14 days" sets no figure against the unit (support may still read
    it as a paraphrase in other words: a known limit, test_probes.py)."""
    ev = _ev(an, [SHIPPING, ACCOUNTS], "Returns must be requested within 2 weeks of delivery.")
    assert ev.contradicts == [None], reasoning(ev)


def test_neither_quantifies_what_it_denies(an: Analyzer) -> None:
    """"Neither X has Y" says it of every X: a unit on one X that has Y contradicts it
    (a quantifier), one that lacks Y agrees."""
    ctx = ["The city bike costs $300 and comes with a basket. The mountain bike costs $500 "
           "and comes without a basket.", "Both bikes come with lights."]
    wrong = _ev(an, ctx, "Neither bike comes with a basket.")
    assert wrong.contradicts == ["quantifier"] and wrong.faithfulness is not None
    assert wrong.faithfulness < HALLUCINATION_THRESHOLD
    none = _ev(an, ctx, "None of the bikes come with a basket.")
    assert none.contradicts == ["quantifier"]
    right = _ev(an, ["Neither bike comes with a helmet. The city bike costs $300."],
                "Neither bike comes with a helmet.")
    assert right.contradicts == [None]


def test_a_subject_of_another_clause_moved_into_this_one(an: Analyzer) -> None:
    """A sentence that says one thing of A and another of B ("A ..., but B is not"): a
    claim saying A's of B restates A's clause with B in A's place (an entity swap), while
    a clause opening with a verb ("and covers ...") has no subject to move."""
    ctx = ["The parking permit is issued to full-time employees, but visitors are not "
           "entitled to one.",
           "Archive tables are kept for audits only, and all queries run against the "
           "live tables.",
           "Dental cover starts after three months and covers your partner at no extra cost."]
    assert _ev(an, ctx, "The parking permit is issued to visitors.").contradicts == ["entity"]
    assert _ev(an, ctx, "All queries run against the archive tables.").contradicts == ["entity"]
    assert _ev(an, ctx, "The parking permit is issued to full-time employees."
               ).contradicts == [None]
    assert _ev(an, ctx, "Your dental cover begins after three months.").contradicts == [None]


LOAN = ("A replacement laptop is lent while yours is repaired at the service centre, but not "
        "if it was damaged by liquid.")


@pytest.mark.parametrize(("answer", "faithful"), [
    ("Yes, you get a replacement laptop even if yours was damaged by liquid.", False),
    ("If your laptop was damaged by liquid, a replacement laptop is lent.", False),
    ("A replacement laptop is not lent if your laptop was damaged by liquid.", True),
    ("If yours was damaged by liquid, no replacement laptop is lent.", True),
    ("A replacement laptop is lent while yours is repaired at the service centre.", True),
])
def test_a_condition_is_read_with_what_it_conditions(an: Analyzer, answer: str,
                                                     faithful: bool) -> None:
    """A condition ("if ...") is read with the clause it conditions, in the claim and in
    the context, and an elliptic negation ("..., but not if C") denies its sentence's
    first predicate in case C: "even if C" flips it, "not ... if C" restates it."""
    ev = _ev(an, [LOAN], answer)
    assert (ev.contradicts == [None]) is faithful, ev.contradicts
    assert (_faith(ev) >= HALLUCINATION_THRESHOLD) is faithful


def test_an_elliptic_negation_of_another_case_is_no_flip(an: Analyzer) -> None:
    """"X only covers A, not B" beside a context that says X covers A (and another
    product covers B): the negation excludes a case the matching sentence does not state."""
    ctx = ["The basic warranty only covers faults in manufacturing. Accidental damage is "
           "covered by the premium plan."]
    ev = _ev(an, ctx, "The basic warranty only covers faults in manufacturing, not "
             "accidental damage.")
    assert ev.contradicts == [None] and _faith(ev) >= HALLUCINATION_THRESHOLD


def test_no_before_a_noun_negates() -> None:
    """"No, ..." answers the question; "No refunds are given" denies (a negation)."""
    assert part("No refunds are given after 14 days.").negations
    assert not part("No, refunds are given after 14 days.").negations


@pytest.mark.parametrize("answer", [
    "I'm not sure. That isn't something the handbook covers, but Payroll should be able to "
    "help.",
    "That's not something these pages go into; the Registry Office will be able to "
    "advise you.",
])
def test_a_decline_with_a_referral_clause(an: Analyzer, answer: str) -> None:
    """A decline whose sentence ends by naming whom to ask ("..., but Payroll should be
    able to help") is an abstention: the referral clause's name is no claim."""
    ev = _ev(an, ["Salaries are paid on the last working day of the month."], answer,
             "Can I get paid weekly?")
    assert ev.abstains



def test_a_pronoun_clause_takes_its_sentence_subject(an: Analyzer) -> None:
    """"A ..., though it is not ... if C": the pronoun's clause is said of the first
    clause's subject, so a claim that A is ... if C flips it (found by a new-user trial,
    in other words here)."""
    ctx = ["A loan bike is given while your bike is serviced in our workshop, though it is "
           "not given if your bike was bought elsewhere."]
    wrong = _ev(an, ctx, "Yes, a loan bike is given if your bike was bought elsewhere.")
    assert wrong.contradicts == ["negation"]
    right = _ev(an, ctx, "A loan bike is given while your bike is serviced in our workshop.")
    assert right.contradicts == [None] and _faith(right) >= HALLUCINATION_THRESHOLD


def test_most_restricts_what_it_names(an: Analyzer) -> None:
    """"Most X" is part of X: "any X" widens it; "the most popular" restricts nothing."""
    ctx = ["Most courses can be joined up to two weeks after they start. The most popular "
           "course is Spanish for beginners."]
    assert _ev(an, ctx, "Any course can be joined up to two weeks after it starts."
               ).contradicts == ["quantifier"]
    assert _ev(an, ctx, "Most courses can be joined up to two weeks after they start."
               ).contradicts == [None]


def test_the_subject_of_a_first_clause_swapped_for_another_sentences(an: Analyzer) -> None:
    """The subject of a sentence's first clause, replaced by the subject of another
    context sentence, is an entity swap like a whole sentence's."""
    ctx = ["Members can book courts up to 14 days ahead, although bookings are limited "
           "during tournaments. Guests are not allowed to book evening slots."]
    ev = _ev(an, ctx, "Guests can book courts up to 14 days ahead.")
    assert ev.contradicts == ["entity"] and _faith(ev) < HALLUCINATION_THRESHOLD


def test_each_x_is_done_with_y_is_no_widened_scope(an: Analyzer) -> None:
    """"Each X is done with Y" against "Xs are done with Y": a participle's "with" is no
    post-modifier that narrows X (found by a new-user trial, in other words here)."""
    ctx = ["Parcels are insured with our courier up to the value you declare."]
    ev = _ev(an, ctx, "Each parcel is insured with our courier up to the value you declare.")
    assert ev.contradicts == [None] and _faith(ev) >= HALLUCINATION_THRESHOLD


@pytest.mark.parametrize("answer", [
    "I'm not able to find that in the handbook. I'd suggest checking with your line manager.",
    "I couldn't find that in the guides, so I'm not sure. The front desk will be able to "
    "confirm.",
    "There's no information about Apple Pay in the pages I have, so I can't tell whether "
    "it's accepted.",
])
def test_more_declines_with_referrals(an: Analyzer, answer: str) -> None:
    """A referral in a gerund ("I'd suggest checking with ..."), one that "will be able
    to confirm", and a decline whose rest is only what is unknown ("whether it's
    accepted") are abstentions."""
    ev = _ev(an, ["Salaries are paid on the last working day of the month."], answer,
             "Can I pay with Apple Pay?")
    assert ev.abstains
