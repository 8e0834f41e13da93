"""The words a decline uses of what the assistant was given to read: an apostrophe
however typed, a negation after an auxiliary, the nouns for the sources ("the
documents", "the policy", "the league rules I have") and what a text does of a topic
("covers", "mentions"). `declines.py`, `referrals.py` and `source_scope.py` read them.
"""

from __future__ import annotations

APOSTROPHE = "['\u2019\u02bc\uff07]"  # an apostrophe, however typed
_A = APOSTROPHE  # (short, inside the patterns)
NOT = rf"(?:n{_A}?t|\s+not)"  # "n't" / " not" after an auxiliary (do, does, could ...)
CANNOT = rf"(?:cannot|can{_A}?t|can not)"
SOURCE = (
    r"(?:documents?|docs|documentation|contexts?|texts?|passages?|sources?|information|"
    r"info|articles?|polic(?:y|ies)|leaflets?|pages?|knowledge base|manuals?|guides?|faqs?|"
    r"summary|materials?|data|records?|notes|files?|excerpts?|snippets?|results?|content|"
    r"sections?|handbook|brochure|website|site)"
)
# what the assistant was given to read, never the business's own records or policy
# ("Sorry, it's not in our records" is a claim about an account)
TEXTS = (r"(?:documents?|docs|documentation|contexts?|texts?|passages?|sources?|"
         r"information|info|articles?|leaflets?|knowledge base|manuals?|guides?|faqs?|"
         r"materials?|notes|files?|excerpts?|snippets?|handbook|brochure)")
# interjections a decline or its small talk opens with ("Oh,", "Ahh", "Haha")
INTERJECTION = r"(?:ha(?:ha)*|o+h+|a+h+|a+w+)"
# what a text does of a topic: "nothing here covers", "isn't something the guide I have mentions"
COVERS = r"(?:covers?|mentions?|says?|address(?:es)?|answers?|goes into|talks about)"
GIVEN = (rf"(?:i (?:have been given|have got|have access to|have|had|was given|can see|could see|"
         rf"can access)|i{_A}ve (?:been given|got|access to)|i{_A}ve(?= |$))")
"""What the speaker says it was given to read: "the league rules I have", "... I can see"."""
WHAT_I_HAVE = rf"(?:the |these |this |those |my |any )?(?:[\w-]+ ){{1,3}}?{GIVEN}"
