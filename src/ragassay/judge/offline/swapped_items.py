"""The entity swaps read on a claim sentence whole, before its clauses are aligned one by
one (alignment.align): one of two parallel slots' facts said of the other (parallel.py),
a unit restated but for the words another unit is about (crossed.py), one lettered
item's words given to another of its series (lettered.py), and the question's thing
given the answer another unit gives another thing (answered_elsewhere.py). Each names
the context sentence whose fact the claim moved, or None. (k212's handlers.py, one thing's handler
given to another, was withdrawn in session 26: it lowered the leave-one-dataset-out
figures on SummEdits by about 0.01.)
"""

from __future__ import annotations

from .answered_elsewhere import answered_elsewhere
from .clauses import Part
from .crossed import crossed
from .lettered import letter_swapped
from .parallel import parallel_swap
from .units import Units


def item_swapped(whole: Part, units: Units, doc: int | None = None) -> int | None:
    """The row of the first whole-sentence swap the claim makes ("The main pool ... 32°C"
    for "The learner pool ..."; "Court B" for "Court C"), or None."""
    for read in (parallel_swap, crossed, letter_swapped, answered_elsewhere):
        if (row := read(whole, units, doc)) is not None:
            return row
    return None
