"""The judge cache and its key function."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import pytest

from ragassay.llm.wire import JudgeRequest, Message
from ragassay.store import Store, cache_key


def _payload(**overrides: object) -> dict[str, object]:
    payload: dict[str, object] = {
        "model": "smollm2",
        "messages": [{"role": "user", "content": "Is it faithful?"}],
        "temperature": 0.0,
        "max_tokens": 256,
        "prompt": {"name": "faithfulness", "version": "2"},
    }
    payload.update(overrides)
    return payload


def test_cache_key_is_sha256_of_canonical_json() -> None:
    expected = hashlib.sha256('{"a":"é","b":[1,2]}'.encode()).hexdigest()
    assert cache_key({"b": [1, 2], "a": "é"}) == expected


def test_cache_key_ignores_dict_order_but_not_content() -> None:
    base = _payload()
    reordered = dict(reversed(list(base.items())))
    assert cache_key(base) == cache_key(reordered)
    assert cache_key(base) != cache_key(_payload(prompt={"name": "faithfulness", "version": "3"}))
    assert cache_key(base) != cache_key(_payload(model="other"))
    assert cache_key(base) != cache_key(_payload(temperature=0.7))


def test_cache_key_accepts_models_and_tuples() -> None:
    request = JudgeRequest(messages=(Message(role="user", content="hi"),), prompt_version="1")
    assert cache_key(request) == cache_key(request.model_dump(mode="json"))
    assert cache_key({"x": (1, 2)}) == cache_key({"x": [1, 2]})
    with pytest.raises(ValueError):
        cache_key({"x": math.nan})
    with pytest.raises(TypeError):
        cache_key({"x": object()})


def test_cache_get_put_replace(store: Store) -> None:
    key = cache_key(_payload())
    assert store.cache_get(key) is None
    store.cache_put(key, {"text": "yes ✓", "data": {"verdict": 1}, "usage": {"calls": 1}})
    assert store.cache_get(key) == {"text": "yes ✓", "data": {"verdict": 1}, "usage": {"calls": 1}}
    store.cache_put(key, {"text": "no"})
    assert store.cache_get(key) == {"text": "no"}
    assert store.conn.execute("SELECT COUNT(*) FROM cache").fetchone()[0] == 1


def test_cache_persists_and_is_readable_read_only(db_path: Path) -> None:
    with Store(db_path) as store:
        store.cache_put("k1", {"v": 1})
        store.cache_put("k2", {"v": 2})
    with Store(db_path, readonly=True) as ro:
        assert ro.cache_get("k1") == {"v": 1}
    with Store(db_path) as store:
        assert store.cache_clear() == 2
        assert store.cache_get("k2") is None
