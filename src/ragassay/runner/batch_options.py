"""How a run uses the judge provider's batch API (`RunRequest.batch`, `ragassay eval
--batch`): stored with the run, so that a resume goes on the same way."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ragassay.llm.batch import Limits


class BatchOptions(BaseModel):
    """How a run uses the provider's batch API (stored with the run, but `detach`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    fallback: Literal["none", "direct"] = "none"
    max_requests: int | None = Field(default=None, ge=1)  # per batch (provider's: default)
    max_bytes: int | None = Field(default=None, ge=1)  # of a batch's input file
    poll_s: float = Field(default=60.0, gt=0, allow_inf_nan=False)  # longest poll interval
    detach: bool = False  # submit, then leave: `--resume` picks the batches up

    def limits(self, provider: Limits) -> Limits:
        """The provider's limits, lowered where these options say."""
        return Limits(requests=min(self.max_requests or provider.requests, provider.requests),
                      bytes=min(self.max_bytes or provider.bytes, provider.bytes))

    def stored(self) -> str:
        return self.model_dump_json(exclude={"detach"})

    def over(self, stored: BatchOptions | None) -> BatchOptions:
        """These options over a run's stored ones: the fields set here win, `detach` is
        always this one's (it is never stored)."""
        base = stored or BatchOptions()
        given = {k: getattr(self, k) for k in self.model_fields_set}
        return base.model_copy(update={**given, "detach": self.detach})
