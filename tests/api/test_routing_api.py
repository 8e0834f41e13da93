"""`ragassay.evaluate(..., routing=RoutingPlan(...))`: a cascade from Python, the same
run and report as `eval --escalate`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import ragassay
from tests.support.routing import ScriptedJudge, routing_data


def test_a_cascade_from_python(scripted_server: Any, tmp_path: Path) -> None:
    handler = ScriptedJudge()
    server = scripted_server(handler)
    plan = ragassay.RoutingPlan(tiers=(ragassay.Tier(judges=("openai:weak",)),
                                       ragassay.Tier(judges=("openai:strong",))),
                                escalate_share=0.2)
    result = ragassay.evaluate(routing_data(tmp_path / "d.jsonl", 50), "judge",
                               store=tmp_path / "s.db", base_url=server.base_url,
                               routing=plan, progress=False)
    routing = result.report().routing
    assert routing is not None and [t.decided for t in routing.tiers] == [40, 10]
    assert handler.calls == {"weak": 50, "strong": 10}


def test_a_routing_plan_with_an_unknown_judge_is_refused(tmp_path: Path) -> None:
    plan = ragassay.RoutingPlan(tiers=(ragassay.Tier(judges=("offline",)),
                                       ragassay.Tier(judges=("nope:x",))), escalate_share=0.2)
    with pytest.raises(ValueError, match="nope"):
        ragassay.evaluate(routing_data(tmp_path / "d.jsonl", 5), "judge",
                          store=tmp_path / "s.db", routing=plan, progress=False)
