"""Serve valid judge-suite replies from tests.support's ScriptedServer, in its own process.

The engine benchmarks run the server in a separate process so that the server's own
CPU time does not share the client's GIL. Prints the base URL on its first stdout line
and serves until stdin closes (or SIGTERM).

    .venv/bin/python benches/scripted_judge_server.py --latency 0.5
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support import scripted_server as ss  # noqa: E402
from tests.support.scripted_server import ScriptedReply, ScriptedServer  # noqa: E402

GOOD = {"context_relevance": 8, "answer_similarity": 7, "faithfulness": 9,
        "hallucination": False, "reasoning": "grounded in chunk 0"}


def handler(latency_s: float, jitter: float = 0.0, seed: int = 0):  # noqa: ANN201
    """Every reply valid; delay latency_s * (1 + jitter * u), u uniform in [-1, 1] (seeded)."""
    body = json.dumps(GOOD)
    rng = random.Random(seed)
    lock = threading.Lock()

    def answer(_request: dict[str, Any], _n: int) -> ScriptedReply:
        with lock:
            u = rng.uniform(-1.0, 1.0)
        delay = max(0.0, latency_s * (1.0 + jitter * u))
        return ScriptedReply.chat(body, usage=(400, 40), delay_s=delay)

    return answer


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--latency", type=float, default=0.0, help="seconds per reply")
    ap.add_argument("--jitter", type=float, default=0.0,
                    help="relative spread of the latency (0.5: latency x [0.5, 1.5])")
    args = ap.parse_args(argv)
    ss._QuietServer.request_queue_size = 1024  # listen backlog: 64 clients connect at once
    # Headers and body go out in two writes: without TCP_NODELAY, Nagle + delayed ACK
    # add ~40 ms to every reply, which would be measured as engine time.
    make = ss._make_request_handler
    ss._make_request_handler = lambda srv: type(  # type: ignore[assignment]
        "NoDelayHandler", (make(srv),), {"disable_nagle_algorithm": True})
    server = ScriptedServer(handler(args.latency, args.jitter)).start()
    print(server.base_url, flush=True)
    try:
        sys.stdin.read()  # the parent closes our stdin to stop us
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
