"""Review 8 of session 8's judge changes (/work/notes/review-8.md): each case fails on
HEAD (9d240a5); unless marked, it was judged the right way at the session's base
(cc0b929). Claims about the world that the new advice / "Not in the documents" / "I only
have details about" readings set aside after a decline; faithful answers flagged by a
recurring time left out (drops_time), "anyone" for a generic subject (pronoun_widened),
a denial of something the claim mentions but does not assert (denial.py), a place named
through another context sentence (names_pair), a relative's clause read as another
doer's (mixed.py), and "non-X" against "X-free" / "X-resistant"."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import evidence, flagged

LIBRARY = ["The mobile library visits the village hall every second Tuesday.",
           "Large-print books and audiobooks can be reserved online."]
DVDS = "Does the mobile library lend DVDs?"

FLAGGED = [  # unfaithful: flagged at cc0b929, set aside as advice or scope on HEAD
    (LIBRARY, DVDS, "I don't know about DVDs. The driver would know, and she lends DVDs on "
                    "request."),
    (LIBRARY, DVDS, "I don't know about DVDs. The mobile library can help you with "
                    "audiobooks when it visits every Wednesday."),
    (LIBRARY, DVDS, "I can't find anything about DVDs. Check the county website, where DVD "
                    "loans are free for members."),
    (LIBRARY, DVDS, "I'm not sure about DVDs. You may need a librarian, since DVD loans were "
                    "stopped last year."),
    (LIBRARY, DVDS, "Sorry, I don't know about DVDs. Visit the central library instead, "
                    "which has a large DVD collection."),
    (LIBRARY, DVDS, "I don't have anything on DVDs, sorry. Did you know the mobile library "
                    "also visits the school on Fridays?"),
    (LIBRARY, DVDS, "Not in the documents, but the mobile library does lend DVDs."),
    (LIBRARY, DVDS, "I can't say; I only have details about the Wednesday visits and online "
                    "reservations."),
    (["Your last payment of £40 was received on 3 May."], "Did you get my payment?",
     "Sorry, it's not in our records."),
]

SUPPORTED = [  # faithful: supported at cc0b929, flagged on HEAD
    # drops_time: a recurring time left out of an answer about where / who / what
    (["The choir rehearses in the church hall on Thursday evenings."],
     "Where does the choir rehearse?", "The choir rehearses in the church hall."),
    (["The library runs a knitting group on Tuesday mornings."],
     "Does the library have a knitting group?", "Yes, the library runs a knitting group."),
    (["Drop-in advice sessions are run by Citizens Advice at the library on Monday "
      "mornings."], "Who runs the advice sessions?",
     "Citizens Advice runs the drop-in advice sessions at the library."),
    (["On Saturday mornings the farm shop sells fresh eggs and local honey."],
     "What does the farm shop sell?", "The farm shop sells fresh eggs and local honey."),
    # time_bound: "every day" for weekdays and both weekend days
    (["Guided walks run on weekdays at 11am, and on Saturdays and Sundays at 2pm."],
     "Are there walks every day?", "Yes, guided walks run every day."),
    # pronoun_widened: "anyone" for a generic subject
    (["People can donate books at the front desk."], "Can I donate books?",
     "Yes, anyone can donate books at the front desk."),
    (["The public can view the planning applications online."], "Can I see the plans?",
     "Yes, anyone can view the planning applications online."),
    (["Members of the public can attend council meetings.", "Meetings are held monthly."],
     "Can I attend?", "Yes, anyone can attend council meetings."),
    # denial.py: the claim mentions the denied thing but asserts no admission of it
    (["Bicycles are not permitted on the trail.",
      "There are racks at the trail entrance for locking up."], "Where can I leave my bike?",
     "You can lock your bicycle at the racks by the trail entrance."),
    (["Dogs are not allowed on the beach.", "The coastal path is dog-friendly all year."],
     "Where can I walk my dog?", "You can walk your dog on the coastal path beside the beach."),
    # names_pair: a place named through another context sentence
    (["The final will be played at Wembley.", "Wembley is in London."],
     "Where is the final?", "The final will be played in London."),
    (["The conference takes place in Lyon.", "Lyon is in France, two hours from Paris by "
      "train."], "Where?", "The conference takes place in France."),
    (["The concert will be held at the Corn Exchange.", "The Corn Exchange is in Newbury."],
     "Where is the concert?", "The concert will be held in Newbury, at the Corn Exchange."),
    # mixed.py: the other clause's doer is the first clause's relative
    (["The school was founded by John Smith in 1890, and his son Peter built the chapel in "
      "1920."], "Who built the chapel?", "The chapel was built in 1920 by John Smith's son."),
    # "non-X" against "X-free" / "X-resistant"
    (["The changing rooms have non-slip flooring."], "Is the floor slippery?",
     "The changing rooms have slip-resistant flooring."),
    (["Non-alcoholic drinks are served at the family fun day."], "Drinks?",
     "Alcohol-free drinks are served at the family fun day."),
    (["All our milkshakes can be made with non-dairy milk."], "Dairy-free?",
     "Yes, any milkshake can be made with dairy-free milk."),
]


@pytest.mark.parametrize(("contexts", "question", "answer", "flags"),
                         [(*c, True) for c in FLAGGED] + [(*c, False) for c in SUPPORTED])
def test_each_answer_is_judged_its_way(an: Analyzer, contexts: list[str], question: str,
                                      answer: str, flags: bool) -> None:
    """Unfaithful: flagged, not abstained on; faithful: not flagged."""
    ev = evidence(an, contexts, answer, question)
    assert flagged(ev) is flags and not (flags and ev.abstains), ev


@pytest.mark.xfail(strict=True, reason="known limit: a relative clause after what the "
                   "speaker's sources cover is read as part of that scope")
def test_limit_a_claim_in_a_relative_clause_after_scope(an: Analyzer) -> None:
    ev = evidence(an, LIBRARY, "Sorry, I only have details about large-print books, which "
                               "can be posted to your home.", DVDS)
    assert flagged(ev) and not ev.abstains, ev


@pytest.mark.xfail(strict=True, reason="known limit (at cc0b929 too): 'we only have X, "
                   "nothing for Y' in the business's voice contradicts no single unit")
def test_limit_a_business_saying_what_it_only_has(an: Analyzer) -> None:
    ev = evidence(an, ["The car park has spaces for cars and coaches."],
                  "We only have parking for cars, nothing for coaches.", "Can I park a coach?")
    assert flagged(ev), ev
