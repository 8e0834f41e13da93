"""RunConfig.build: the one way every front end makes a run's config."""

from __future__ import annotations

from ragassay.types import BackendOptions, RunConfig


def test_build_spreads_endpoints_and_sets_the_call_timeout() -> None:
    one = RunConfig.build("d.jsonl", urls="http://a/v1", timeout_s=5.0, judge="openai:m")
    assert (one.base_url, one.base_urls, one.backend.timeout_s) == ("http://a/v1", (), 5.0)
    many = RunConfig.build("d.jsonl", urls=["http://a/v1", "http://b/v1"], metrics=("ragas",))
    assert many.base_url == "http://a/v1" and many.base_urls == ("http://a/v1", "http://b/v1")
    assert many.endpoints() == ("http://a/v1", "http://b/v1") and many.metrics == ("ragas",)
    assert many.backend == BackendOptions()  # no timeout given: the default
    none = RunConfig.build("d.jsonl")
    assert none == RunConfig(dataset="d.jsonl") and none.endpoints() == ()


def test_with_endpoints_replaces_both_fields() -> None:
    many = RunConfig.build("d.jsonl", urls=["http://a/v1", "http://b/v1"])
    assert many.with_endpoints("http://c/v1").endpoints() == ("http://c/v1",)
    assert many.with_endpoints("http://c/v1").base_urls == ()
    assert many.with_endpoints(None) == RunConfig(dataset="d.jsonl")
