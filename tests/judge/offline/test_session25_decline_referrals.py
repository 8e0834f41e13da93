"""Session 25 (k190): correct declines read whole. A decline followed by a referral in
the shapes bots write ("Your best bet would be to ...", "You could try the help centre",
"I'd recommend checking their website", "X would be happy to answer that"), silent
sources named with a participle ("the details provided", "what I've been given"), "There
isn't enough information", "I don't see X mentioned", the declined topic as the
decline's subject, and what the sources do hold ("I only have X and Y", "the info covers
X and Y"), read loosely: each item named by the contexts. Declines that go on to invent
stay flagged. Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.covered_items import covered_list, items_named
from ragassay.judge.offline.declines import declined_topics
from ragassay.judge.offline.lexical import TermPool
from ragassay.judge.offline.referrals import is_referral
from tests.support.offline import assert_judged

_STARS = ["The observatory opens to visitors on Friday and Saturday nights from 8pm.",
          "Telescope viewing sessions cost £12 for adults and £6 for children."]
_GROOM = ["A full groom for a small dog costs £35 and takes about two hours.",
          "Nail clipping is available as a walk-in service on weekday mornings."]
_SCUBA = ["The shop hires out wetsuits, fins and masks by the day.",
          "Tank refills cost £8 and are done while you wait."]
_BAKE = ["Celebration cakes need to be ordered at least five days ahead.",
         "Our sourdough loaves are baked fresh every morning."]


@pytest.mark.parametrize(("contexts", "answer"), [
    # a decline, then a referral in the shapes bots use
    (_STARS, "Hmm, I don't see school group rates mentioned anywhere. Your best bet would "
     "be to get in touch with the visitor team."),
    (_STARS, "The details provided don't cover wheelchair access. I'd recommend checking "
     "the observatory's website or calling the front desk."),
    (_GROOM, "I don't have information about cat grooming. You could try the help centre "
     "or live chat."),
    (_GROOM, "The sources don't specify whether you groom large breeds. For questions like "
     "this, our salon team is your best option."),
    (_SCUBA, "The shop information doesn't say whether you run dive courses. The dive "
     "manager would be happy to answer that."),
    (_SCUBA, "The information I have doesn't mention drysuits. You can raise a ticket with "
     "our support team to ask."),
    (_BAKE, "I wasn't able to find anything about gluten-free bread in the documents "
     "provided. You can find more information on the bakery's website or by asking in "
     "store."),
    # silent sources and a lack of information in other shapes
    (_BAKE, "There isn't enough information here to answer your question about vegan "
     "cakes."),
    (_SCUBA, "Boat dive trips aren't mentioned in what I've been given."),
    (_GROOM, "The provided details don't include opening hours, so I can't confirm late "
     "appointments. Please contact us to arrange a visit."),
    # what the sources do hold, said beside the decline
    (_STARS, "I'm not sure about parking; I only have the opening nights and the viewing "
     "session prices."),
    (_GROOM, "I don't know, sorry. The information only covers full grooms and nail "
     "clipping."),
    (_SCUBA, "I don't have that detail - the info covers wetsuit hire, fins and tank "
     "refills."),
    (_BAKE, "Sorry, I can't help with that - the information I have is limited to cake "
     "orders and fresh bread."),
])
def test_a_decline_with_a_referral_or_its_scope_is_no_hallucination(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


@pytest.mark.parametrize(("contexts", "answer"), [
    # what the sources hold, with an item the contexts never name
    (_STARS, "I'm not sure about parking; I only have the opening nights and the "
     "planetarium show times."),
    (_GROOM, "I don't know, sorry. The information only covers full grooms, nail clipping "
     "and flea bath treatments."),
    # ... or a claim beside it
    (_BAKE, "I don't know. The information only covers cake orders, which need ten days' "
     "notice."),
    # a decline, then a fact of its own
    (_SCUBA, "Boat dive trips aren't mentioned in what I've been given, but tank refills "
     "cost £5."),
    (_GROOM, "I don't see cat grooming mentioned. A full groom takes about four hours."),
    # a referral carrying an invented address or figure
    (_BAKE, "The documents don't mention wedding cakes. Please email orders@crumbandco.com."),
    (_STARS, "Your best bet would be to call the visitor team on 01632 960 444."),
    # a subject that says more of itself is a claim
    (_SCUBA, "Night dives that leave at 9pm aren't mentioned in what I've been given."),
])
def test_a_decline_that_goes_on_to_claim_is_flagged(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True)


@pytest.mark.parametrize(("sentence", "refers"), [
    ("Your best bet would be to get in touch with the hire desk.", True),
    ("The best option is to ring the clinic.", True),
    ("For billing questions, our accounts team is your best option.", True),
    ("You could try the help centre.", True),
    ("I'd advise calling the site warden.", True),
    ("The festival director would be happy to answer that.", True),
    # the world's best option, a plan's help: claims
    ("The monthly plan is your best option.", False),
    ("You could try the lemon drizzle.", False),
    ("The guide would be happy to lead a second walk on Sundays.", False),
])
def test_referral_shapes(sentence: str, refers: bool) -> None:
    assert is_referral(sentence) is refers


def test_the_declined_topic_as_the_subject() -> None:
    topic, rest = declined_topics("Food and drink options aren't mentioned in the documents.")
    assert topic.strip() == "Food and drink options" and "Food" not in rest
    # a subject saying more, or a decline naming no source ("isn't included"), stays
    assert declined_topics("Dogs are welcome but parking isn't covered in the documents.")[
        0] == ""
    assert declined_topics("Food isn't included.")[0] == ""


def test_items_named_loosely() -> None:
    pool = TermPool.of(" ".join(_GROOM))
    assert items_named(" full grooms and nail clipping", pool)
    assert items_named(" walk-in clipping", pool)
    assert not items_named(" full grooms and flea bath treatments", pool)
    assert covered_list("I only have the groom prices and nail clipping.", pool, "")
    assert not covered_list("I only have the groom prices and the puppy training classes.",
                            pool, "")
