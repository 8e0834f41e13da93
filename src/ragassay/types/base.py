"""The base of every core type: a frozen pydantic model that refuses unknown fields.

Domain objects never save, judge or aggregate themselves: no behaviour here beyond
small derived values.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

JSON = dict[str, Any]


class Frozen(BaseModel):
    """A frozen model that refuses unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")
