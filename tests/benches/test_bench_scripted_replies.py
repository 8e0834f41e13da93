"""The engine benchmarks' scripted server must answer what the judge suite accepts."""

from __future__ import annotations

import json

from benches.scripted_judge_server import GOOD, handler
from ragassay.metrics.judge.suite import PROMPT


def test_scripted_reply_is_a_valid_judge_suite_verdict() -> None:
    reply = handler(0.0)({}, 0)
    content = reply.body["choices"][0]["message"]["content"]
    assert PROMPT.output_model.model_validate(json.loads(content)).faithfulness == \
        GOOD["faithfulness"]
    assert reply.body["usage"]["prompt_tokens"] > 0


def test_jittered_latency_stays_in_its_band_and_is_seeded() -> None:
    first, second = handler(0.5, 0.5, seed=3), handler(0.5, 0.5, seed=3)
    a = [first({}, i).delay_s for i in range(50)]
    b = [second({}, i).delay_s for i in range(50)]
    assert all(0.25 <= d <= 0.75 for d in a) and len(set(a)) > 10
    assert a == b
