"""The OpenAI-compatible embedder against a local stub server (127.0.0.1 only)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import numpy as np
import pytest

from ragassay.embed import OpenAIEmbedder, RemoteEmbedderError


class _Handler(BaseHTTPRequestHandler):
    auth: list[str] = []

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _Handler.auth.append(self.headers.get("Authorization", ""))
        if body["model"] == "broken":
            self.send_response(500)
            self.end_headers()
            return
        data = [
            {"index": i, "embedding": [float(len(t)), 1.0, 0.0]}
            for i, t in enumerate(body["input"])
        ]
        out = json.dumps({"data": list(reversed(data))}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def server():  # type: ignore[no-untyped-def]
    srv = HTTPServer(("127.0.0.1", 0), _Handler)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1"
    srv.shutdown()
    srv.server_close()


def test_remote_embedder_orders_and_normalises(server, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("TEST_EMB_KEY", "sekret")
    emb = OpenAIEmbedder(server, "m", api_key_env="TEST_EMB_KEY", batch_size=2)
    v = emb.embed(["a", "bbb", "cc"])
    emb.close()
    assert v.shape == (3, 3) and emb.dim == 3
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0)
    assert v[1, 0] > v[2, 0] > v[0, 0]  # order restored from "index"
    assert _Handler.auth[-1] == "Bearer sekret"


def test_remote_errors_do_not_leak_key(server, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("TEST_EMB_KEY", "sekret")
    emb = OpenAIEmbedder(server, "broken", api_key_env="TEST_EMB_KEY")
    with pytest.raises(RemoteEmbedderError) as err:
        emb.embed(["a"])
    emb.close()
    assert "500" in str(err.value) and "sekret" not in str(err.value)
