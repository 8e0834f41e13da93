"""Time limits a claim over all time keeps.

A claim that names the one time a unit limits what it says to ("In summer, the tour
starts at 10am every day" against "The tour only runs in summer") keeps the limit: its
"every day" ranges over that time, so an "only ... then" unit (alignment._only_then)
finds it no wider. A claim naming some other time, or none ("... every day of the
year"), or the whole year, is read as before.
"""

from __future__ import annotations

from .clauses import Part
from .lexical import MONTHS
from .weeks import named_times
from .whole_time import ALL_YEAR


def names_limit(p: Part, u: Part) -> bool:
    """Whether the unit names times (days, parts of the day or the year), the claim names
    every one of them and every month the unit names, and says nothing of the whole year
    ("Sunday shows ... throughout the year" for "Sunday shows ... in December only")."""
    times = named_times(u)
    months = {t for t in u.info.tokens if t in MONTHS}
    return (bool(times | months) and times <= named_times(p) and months <= set(p.info.tokens)
            and not ALL_YEAR.search(p.text))
