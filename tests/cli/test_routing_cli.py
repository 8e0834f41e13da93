"""Judge routing through the real CLI against a loopback scripted judge whose verdicts
and token probabilities are seeded per (model, sample) (`tests.support.routing`): the
cascade with people's labels and a guarantee, the budget modes, --abstain, a jury, the
report's routing section, resume without re-sending, `ragassay route` without a call,
corrected estimates from the routed verdicts, and one line per setup mistake."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.routing import FOR_A_PERSON
from ragassay.store import Store
from tests.support.routing import ScriptedJudge, labels_file, routing_data, truth, verdict

N = 240


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


@pytest.fixture
def judge(scripted_server: Any) -> tuple[ScriptedJudge, str]:
    handler = ScriptedJudge()
    return handler, scripted_server(handler).base_url


def report(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def by_tier(rep: dict[str, Any]) -> list[dict[str, Any]]:
    return rep["routing"]["tiers"]


def eval_args(data: Path, db: Path, url: str, *extra: str) -> list[str]:
    return ["eval", str(data), "--metrics", "judge", "--db", str(db), "--base-url", url,
            "--timeout", "5", *extra]


def test_offline_then_an_llm_with_labels_guarantees_agreement(judge: Any, tmp_path: Path
                                                               ) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", N)
    labels = labels_file(tmp_path / "labels.jsonl", range(0, N, 2))
    out = tmp_path / "r.json"
    code, text = run(*eval_args(data, tmp_path / "s.db", url, "--judge", "offline",
                                "--escalate", "openai:strong", "--labels", str(labels),
                                "--agreement", "0.9", "--out", str(out)))
    assert code == 0, text
    rep = report(out)
    routing = rep["routing"]
    tiers = by_tier(rep)
    assert [t["judge"] for t in tiers] == ["offline", "openai:strong"]
    assert routing["mode"] == "guarantee" and routing["label"] == "hallucinated"
    assert routing["labels"] == N // 2 and routing["agreement_target"] == 0.9
    assert sum(t["decided"] for t in tiers) == N
    assert tiers[0]["decided"] > 0 and tiers[1]["decided"] > 0  # some went up, not all
    assert tiers[0]["threshold"] is not None and tiers[0]["risk_bound"] <= 0.1
    assert "calibrated probability" in tiers[0]["confidence"]
    assert "token probability" in tiers[1]["confidence"]
    assert routing["guarantee_holds"] and routing["guarantee"].startswith("holds")
    # the strong judge judged the labelled samples and what tier 0 was not sure of, once
    escalated = {e["id"] for e in rep["detailed_results"] if e["routing"]["tier"] == 1}
    labelled = {f"s{i}" for i in range(0, N, 2)}
    assert handler.calls["strong"] == len(labelled | escalated) == tiers[1]["judged"]
    assert max(handler.seen.values()) == 1
    assert routing["escalated"] == len(escalated) == tiers[1]["decided"]
    # each sample says which tier decided it, and its values are that tier's
    entry = next(e for e in rep["detailed_results"] if e["routing"]["tier"] == 1)
    i = int(entry["id"][1:])
    assert entry["metrics"]["judge.hallucination"] is verdict("strong", i)[0]
    assert entry["routing"]["judge"] == "openai:strong"
    assert "guarantee" in text and "routing on judge.hallucination" in text


def test_two_llm_tiers_with_labels_in_the_data(judge: Any, tmp_path: Path) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", N, labelled=120)
    out = tmp_path / "r.json"
    code, text = run(*eval_args(data, tmp_path / "s.db", url, "--judge", "openai:weak",
                                "--escalate", "openai:strong", "--agreement", "0.85",
                                "--out", str(out)))
    assert code == 0, text
    tiers = by_tier(report(out))
    assert handler.calls["weak"] == N and tiers[0]["judged"] == N
    assert tiers[0]["labelled"] == tiers[1]["labelled"] == 120
    assert handler.calls["strong"] == tiers[1]["judged"] == 120 + sum(
        1 for e in report(out)["detailed_results"]
        if e["routing"]["tier"] == 1 and int(e["id"][1:]) >= 120)
    assert tiers[0]["calls"] == N and tiers[1]["calls"] == handler.calls["strong"]


def test_a_budget_without_labels_says_no_agreement_is_guaranteed(judge: Any, tmp_path: Path
                                                                  ) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", 100)
    out = tmp_path / "r.json"
    code, text = run(*eval_args(data, tmp_path / "s.db", url, "--judge", "openai:weak",
                                "--escalate", "openai:strong", "--escalate-share", "0.3",
                                "--out", str(out)))
    assert code == 0, text
    routing = report(out)["routing"]
    assert routing["mode"] == "budget" and not routing["guarantee_holds"]
    assert "no agreement is guaranteed" in routing["guarantee"]
    assert "--agreement" in routing["guarantee"]  # and how to get one
    assert handler.calls["strong"] == 30 == routing["escalated"]
    # the least confident 30% went up
    confs = {f"s{i}": verdict("weak", i)[1] for i in range(100)}
    up = {e["id"] for e in report(out)["detailed_results"] if e["routing"]["tier"] == 1}
    assert max(confs[i] for i in up) <= min(c for i, c in confs.items() if i not in up)


def test_escalate_below_sends_up_what_is_less_sure_than_the_bar(judge: Any, tmp_path: Path
                                                                 ) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", 80)
    code, text = run(*eval_args(data, tmp_path / "s.db", url, "--judge", "openai:weak",
                                "--escalate", "openai:strong", "--escalate-below", "0.8"))
    assert code == 0, text
    assert handler.calls["strong"] == sum(verdict("weak", i)[1] < 0.8 for i in range(80))


def test_abstain_leaves_the_unsure_for_a_person(judge: Any, tmp_path: Path) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", N, labelled=160)
    out = tmp_path / "r.json"
    code, text = run(*eval_args(data, tmp_path / "s.db", url, "--judge", "openai:weak",
                                "--escalate", "openai:strong", "--agreement", "0.85",
                                "--abstain", "--out", str(out)))
    assert code == 0, text
    rep = report(out)
    routing = rep["routing"]
    person = [e for e in rep["detailed_results"] if e["routing"]["tier"] is None]
    assert routing["abstained"] == len(person) > 0
    assert all(t["threshold"] is not None for t in routing["tiers"])
    assert "for a person" in text
    assert person[0]["unscored"]["judge.hallucination"] == FOR_A_PERSON
    # the guarantee covers every decided sample: no "without a guarantee" clause
    assert routing["guarantee_holds"] and "without a guarantee" not in routing["guarantee"]


def test_a_jury_alone_judges_by_majority_and_shows_each_jurors_agreement(
        judge: Any, tmp_path: Path) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", 60, labelled=60)
    out = tmp_path / "r.json"
    code, text = run(*eval_args(data, tmp_path / "s.db", url, "--jury", "openai:juror-a",
                                "--jury", "openai:juror-b", "--jury", "openai:juror-c",
                                "--out", str(out)))
    assert code == 0, text
    rep = report(out)
    assert all(handler.calls[j] == 60 for j in ("juror-a", "juror-b", "juror-c"))
    for e in rep["detailed_results"]:
        i = int(e["id"][1:])
        votes = [verdict(j, i)[0] for j in ("juror-a", "juror-b", "juror-c")]
        assert e["metrics"]["judge.hallucination"] is (sum(votes) >= 2)
    tier = rep["routing"]["tiers"][0]
    assert tier["judge"].startswith("jury(") and tier["decided"] == 60
    jurors = {j["judge"]: j for j in tier["jurors"]}
    a = sum(verdict("juror-a", i)[0] == truth(i) for i in range(60)) / 60
    assert jurors["openai:juror-a"]["agreement"] == pytest.approx(a, abs=1e-4)
    assert "juror openai:juror-b" in text


def test_a_jury_as_a_tier(judge: Any, tmp_path: Path) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", 50)
    code, text = run(*eval_args(data, tmp_path / "s.db", url, "--judge", "openai:weak",
                                "--escalate", "jury", "--jury", "openai:juror-a", "--jury",
                                "openai:juror-b", "--escalate-share", "0.4"))
    assert code == 0, text
    assert handler.calls["juror-a"] == handler.calls["juror-b"] == 20


def test_a_last_tier_without_token_probabilities_decides_what_reaches_it(
        judge: Any, tmp_path: Path) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", 120, labelled=120)
    out = tmp_path / "r.json"
    code, text = run(*eval_args(data, tmp_path / "s.db", url, "--judge", "openai:weak",
                                "--escalate", "openai:nologprobs", "--agreement", "0.85",
                                "--out", str(out)))
    assert code == 0, text
    tiers = by_tier(report(out))
    assert tiers[1]["confidence"].startswith("none")
    assert tiers[1]["agreement"] is not None  # its own agreement on the labels, reported
    assert sum(t["decided"] for t in tiers) == 120


def test_a_resumed_cascade_sends_nothing_again(judge: Any, tmp_path: Path) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", 100, labelled=60)
    db = tmp_path / "s.db"
    args = eval_args(data, db, url, "--judge", "openai:weak", "--escalate", "openai:strong",
                     "--agreement", "0.85")
    code, text = run(*args)
    assert code == 0, text
    with Store(db) as store:
        run_id = store.latest_run().id  # type: ignore[union-attr]
        # as if it had stopped before the end: no routing written yet, and five of the
        # escalated unlabelled samples not yet judged by tier 1
        up = [sid for t, r in store.iter_tier_results(run_id) if t == 1
              and int((sid := r.sample_id)[1:]) >= 60][:5]
        assert len(up) == 5
        store.conn.execute("DELETE FROM routings")
        store.conn.execute("DELETE FROM cache")  # what is judged is known from the run alone
        store.conn.execute(f"DELETE FROM tier_results WHERE tier = 1 AND sample_id IN "
                           f"({', '.join('?' * len(up))})", up)
        store.conn.execute("UPDATE runs SET status = 'interrupted'")
        missing = len(up)
    before = dict(handler.calls)
    code, text = run("eval", str(data), "--db", str(db), "--base-url", url, "--resume", run_id)
    assert code == 0, text
    assert handler.calls["weak"] == before["weak"]  # tier 0 sent nothing again
    new = handler.calls["strong"] - before["strong"]
    assert new == missing  # only what tier 1 had not judged
    assert {i for (m, i), n in handler.seen.items() if n > 1} == {int(u[1:]) for u in up}
    code, text = run("eval", str(data), "--db", str(db), "--base-url", url, "--resume", run_id)
    assert code == 0, text
    assert sum(handler.calls.values()) == sum(before.values()) + new  # nothing at all now


def test_route_redecides_from_the_store_without_a_call(judge: Any, tmp_path: Path) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", 160, labelled=160)
    db = tmp_path / "s.db"
    code, text = run(*eval_args(data, db, url, "--judge", "openai:weak", "--escalate",
                                "openai:strong", "--agreement", "0.8"))
    assert code == 0, text
    with Store(db) as store:
        run_id = store.latest_run().id  # type: ignore[union-attr]
        old = store.get_routing(run_id)
    sent = sum(handler.calls.values())
    code, text = run("route", run_id, "--db", str(db), "--agreement", "0.9")
    assert code == 0, text
    assert sum(handler.calls.values()) == sent  # no call
    assert "routing written" in text
    with Store(db) as store:
        new = store.get_routing(run_id)
        assert store.get_run(run_id).config.routing.agreement == 0.9  # type: ignore[union-attr]
    assert old is not None and new is not None and new.agreement_target == 0.9
    assert new.tiers[0].decided <= old.tiers[0].decided  # a stricter bar decides less
    out = tmp_path / "r.json"
    assert run("report", run_id, "--db", str(db), "--out", str(out))[0] == 0
    assert report(out)["routing"]["agreement_target"] == 0.9


def test_route_says_what_a_new_routing_would_cost_and_writes_nothing(judge: Any,
                                                                       tmp_path: Path) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", 100)
    db = tmp_path / "s.db"
    code, text = run(*eval_args(data, db, url, "--judge", "openai:weak", "--escalate",
                                "openai:strong", "--escalate-share", "0.1",
                                "--price-in", "1", "--price-out", "2"))
    assert code == 0, text
    with Store(db) as store:
        run_id = store.latest_run().id  # type: ignore[union-attr]
        before = store.get_routing(run_id)
    code, text = run("route", run_id, "--db", str(db), "--escalate-share", "0.5")
    assert code == 0, text
    assert "needs tier 1 (openai:strong) to judge 40 more samples" in text
    assert "not written" in text and f"--resume {run_id}" in text
    with Store(db) as store:
        assert store.get_routing(run_id) == before
    # the resume it names judges exactly those, and records the new setting
    sent = handler.calls["strong"]
    code, text = run("eval", str(data), "--db", str(db), "--base-url", url, "--resume",
                     run_id, "--escalate-share", "0.5")
    assert code == 0, text
    assert handler.calls["strong"] - sent == 40 and handler.calls["weak"] == 100
    with Store(db) as store:
        after = store.get_routing(run_id)
        assert store.get_run(run_id).config.routing.escalate_share == 0.5  # type: ignore[union-attr]
    assert after is not None and after.escalated == 50 and not after.pending


def test_corrected_estimates_use_the_routed_verdicts(judge: Any, tmp_path: Path) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", 200, labelled=100)
    out = tmp_path / "r.json"
    code, text = run(*eval_args(data, tmp_path / "s.db", url, "--judge", "openai:weak",
                                "--escalate", "openai:strong", "--agreement", "0.85",
                                "--out", str(out)))
    assert code == 0, text
    rep = report(out)
    routed = [e["metrics"]["judge.hallucination"] for e in rep["detailed_results"]]
    own = sum(bool(v) for v in routed) / len(routed)
    weak = sum(verdict("weak", i)[0] for i in range(200)) / 200
    assert own != pytest.approx(weak)
    est = next(e for e in rep["corrected"]["estimates"]
               if e["metric"] == "judge.hallucination" and e["strategy"] is None)
    assert est["judge_mean"] == pytest.approx(own, abs=1e-3)


@pytest.mark.parametrize(("extra", "said"), [
    (["--escalate", "openai:strong"], "a cascade needs --agreement"),
    (["--agreement", "0.9"], "--agreement routes between judges"),
    (["--escalate", "openai:strong", "--agreement", "0.9", "--escalate-share", "0.2"],
     "give one or the other"),
    (["--escalate", "openai:strong", "--escalate-share", "0.2", "--escalate-below", "0.5"],
     "two budgets"),
    (["--escalate", "openai:strong", "--escalate-share", "0.2", "--delta", "0.05"],
     "--delta goes with --agreement"),
    (["--jury", "openai:a"], "at least two judges"),
    (["--escalate", "jury", "--escalate-share", "0.2"], "--escalate jury needs"),
    (["--escalate", "nope:x", "--escalate-share", "0.2"], "--escalate 'nope:x'"),
    (["--escalate", "openai:strong", "--escalate-share", "0.2", "--engine", "ray"],
     "local engine"),
    (["--escalate", "openai:strong", "--agreement", "0.9", "--labels", "missing.jsonl"],
     "no such file"),
])
def test_setup_mistakes_are_one_line(tmp_path: Path, extra: list[str], said: str) -> None:
    data = routing_data(tmp_path / "d.jsonl", 5)
    code, text = run("eval", str(data), "--db", str(tmp_path / "s.db"), *extra)
    assert code == 2 and said in text and "Traceback" not in text
    assert len([line for line in text.splitlines() if line.startswith("error")]) == 1


def test_a_guarantee_without_any_label_stops_in_one_line_and_keeps_tier_0(
        judge: Any, tmp_path: Path) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", 20)
    code, text = run(*eval_args(data, tmp_path / "s.db", url, "--judge", "openai:weak",
                                "--escalate", "openai:strong", "--agreement", "0.9"))
    assert code == 2 and "--agreement needs people's labels" in text
    assert "Traceback" not in text and handler.calls["strong"] == 0
    with Store(tmp_path / "s.db") as store:
        run_id = store.latest_run().id  # type: ignore[union-attr]
        assert len(store.tier_keys(run_id, 0)) == 20  # kept for --resume


def test_route_refuses_a_run_that_was_not_routed(tmp_path: Path) -> None:
    data = routing_data(tmp_path / "d.jsonl", 5)
    db = tmp_path / "s.db"
    assert run("eval", str(data), "--db", str(db), "--metrics", "judge")[0] == 0
    with Store(db) as store:
        run_id = store.latest_run().id  # type: ignore[union-attr]
    code, text = run("route", run_id, "--db", str(db), "--agreement", "0.9")
    assert code == 2 and "was not routed" in text


def test_annotate_offers_the_samples_left_for_a_person_first(judge: Any, tmp_path: Path
                                                             ) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", N, labelled=160)
    db = tmp_path / "s.db"
    code, text = run(*eval_args(data, db, url, "--judge", "openai:weak", "--escalate",
                                "openai:strong", "--agreement", "0.85", "--abstain"))
    assert code == 0, text
    with Store(db) as store:
        run_id = store.latest_run().id  # type: ignore[union-attr]
        person = [sid for sid, r in store.routed_samples(run_id).items() if r.tier is None]
    unlabelled = [p for p in person if int(p[1:]) >= 160]
    assert unlabelled
    # label the first two offered, then quit
    result = CliRunner().invoke(cli, ["annotate", run_id, "--db", str(db), "--label",
                                      "hallucinated"], input="y\ny\nq\n")
    assert result.exit_code == 0, result.output
    assert "left for a person come first" in result.output
    with Store(db) as store:
        got = [x for x in store.iter_labels() if x.source == f"annotate:{run_id}"]
        samples = {s.content_key: s.id for s in store.iter_samples(run_id)
                   if hasattr(s, "content_key")}
    assert len(got) == 2 and all(samples[x.content_key] in unlabelled for x in got)


def test_the_html_report_has_the_routing_section(judge: Any, tmp_path: Path) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", 60)
    db = tmp_path / "s.db"
    code, text = run(*eval_args(data, db, url, "--judge", "openai:weak", "--escalate",
                                "openai:strong", "--escalate-share", "0.5"))
    assert code == 0, text
    with Store(db) as store:
        run_id = store.latest_run().id  # type: ignore[union-attr]
    out = tmp_path / "r.html"
    code, text = run("report", run_id, "--db", str(db), "--format", "html", "--out", str(out))
    assert code == 0, text
    page = out.read_text()
    assert 'id="routing"' in page and 'href="#routing"' in page
    assert "openai:weak -&gt; openai:strong" in page
    assert "<td>30</td>" in page  # tier 1 decided half
    assert "no agreement is guaranteed" in page
    assert page.count("<td>tier 1: openai:strong</td>") == 30  # each sample's deciding tier


def test_batch_with_a_routed_run_is_one_line(tmp_path: Path) -> None:
    data = routing_data(tmp_path / "d.jsonl", 5)
    code, text = run("eval", str(data), "--db", str(tmp_path / "s.db"), "--escalate",
                     "openai:strong", "--escalate-share", "0.2", "--batch")
    assert code == 2 and "--batch with a routed run" in text and "Traceback" not in text


def test_a_resume_judges_again_what_a_tier_failed_for_the_endpoints_sake(
        judge: Any, tmp_path: Path) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", 40)
    db = tmp_path / "s.db"
    up = sorted(range(40), key=lambda i: verdict("weak", i)[1])[:10]  # the least sure
    handler.down = {("strong", up[4]), ("strong", up[7])}
    code, text = run(*eval_args(data, db, url, "--judge", "openai:weak", "--escalate",
                                "openai:strong", "--escalate-share", "0.25"))
    assert code == 0, text
    with Store(db) as store:
        run_id = store.latest_run().id  # type: ignore[union-attr]
        assert store.tier_failed_keys(run_id, 1, "transport") == {
            (f"s{up[4]}", "judge"), (f"s{up[7]}", "judge")}
    handler.down = set()
    before = dict(handler.seen)
    code, text = run("eval", str(data), "--db", str(db), "--base-url", url, "--resume", run_id,
                     "--retry-failed")
    assert code == 0, text
    assert handler.calls["weak"] == 40  # tier 0 sent nothing again
    again = {i for (m, i), n in handler.seen.items() if n > before.get((m, i), 0)}
    assert again == {up[4], up[7]}  # only the failed ones were asked again
    with Store(db) as store:
        assert store.tier_failed_keys(run_id, 1, "transport") == set()
        values = {r.sample_id: r.results for r in store.iter_results(run_id)}
    assert all(m.value is not None for i in (up[4], up[7]) for m in values[f"s{i}"]
               if m.name == "judge.hallucination")


def test_labels_already_in_the_store_choose_the_thresholds(judge: Any, tmp_path: Path) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", 160)
    db = tmp_path / "s.db"
    assert run("eval", str(data), "--metrics", "judge", "--db", str(db))[0] == 0
    labels = labels_file(tmp_path / "l.jsonl", range(100))
    code, text = run("labels", "import", str(labels), "--db", str(db))
    assert code == 0, text
    out = tmp_path / "r.json"
    code, text = run(*eval_args(data, db, url, "--judge", "openai:weak", "--escalate",
                                "openai:strong", "--agreement", "0.85", "--out", str(out)))
    assert code == 0, text
    routing = report(out)["routing"]
    assert routing["labels"] == 100 and routing["mode"] == "guarantee"
    assert routing["tiers"][1]["labelled"] == 100


def test_a_tier_whose_endpoint_fails_every_call_stops_in_one_line(judge: Any, tmp_path: Path
                                                                  ) -> None:
    handler, url = judge
    data = routing_data(tmp_path / "d.jsonl", 40)
    handler.down = {("strong", i) for i in range(40)}
    code, text = run(*eval_args(data, tmp_path / "s.db", url, "--judge", "openai:weak",
                                "--escalate", "openai:strong", "--escalate-share", "0.5"))
    assert code == 2 and "Traceback" not in text
    assert "answered no call" in text and "--resume" in text
