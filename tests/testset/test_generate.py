"""`ragassay generate`: offline (always works, labelled) and with an LLM through the
scripted server; the output is a bench questions file."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from benches.testset_quality import FRAME, content, verdict
from ragassay.bench import BenchOptions, load_config, load_questions, run_bench
from ragassay.cli import cli
from ragassay.corpus import load_corpus
from ragassay.store import Store
from ragassay.testset import GenerateOptions, generate, plan
from ragassay.testset.offline import to_question
from tests.bench.conftest import EXAMPLE, HashEmbedder
from tests.support.scripted_server import ScriptedReply

CORPUS = EXAMPLE / "corpus"


def _words(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z0-9]+", text.lower()))


def test_offline_generation_makes_every_kind_from_the_corpus_words() -> None:
    rows, report = generate(CORPUS, GenerateOptions(n=30, seed=3))
    kinds = [r["metadata"]["kind"] for r in rows]
    assert report.generator == "offline-extractive"
    # multi-hop questions only where two documents state facts about one shared name
    # or topic: fewer than asked, each made one said in the report
    assert kinds.count("single-fact") == 18 and kinds.count("unanswerable") == 6
    assert 1 <= kinds.count("multi-hop") <= 6 and len(rows) == sum(report.made.values())
    assert {r["metadata"]["generator"] for r in rows} == {"offline-extractive"}
    docs = {d.id: d for d in load_corpus(CORPUS)}
    corpus_words = _words(" ".join(d.text for d in docs.values()))
    for row in rows:
        meta = row["metadata"]
        assert meta["source_chunks"], row
        for chunk in meta["source_chunks"]:  # each source chunk is a span of its document
            assert docs[chunk["doc"]].text[chunk["start"]:chunk["end"]] == chunk["text"]
        if meta["kind"] == "unanswerable":
            assert row["gold_passages"] == [] and row["reference"] == "The documents do not say."
            # about the corpus's own names and topics, never an invented one
            assert not set(content(row["question"])) - corpus_words - FRAME, row["question"]
        else:
            n = 2 if meta["kind"] == "multi-hop" else 1
            assert len(row["gold_passages"]) == n and row["question"].endswith("?")
            for passage in row["gold_passages"]:
                assert passage["quote"] in row["reference"]
                assert passage["doc"] in row["gold_docs"]
    # no two questions the same (ids unique, questions distinct)
    assert len({r["id"] for r in rows}) == len(rows) == len({r["question"] for r in rows})
    assert generate(CORPUS, GenerateOptions(n=30, seed=3))[0] == rows  # deterministic


@pytest.mark.parametrize("sentence, question", [
    ("Employees get 27 days of paid annual leave.",
     "Employees get how many days of paid annual leave?"),
    ("The referral bonus is €2,000 per hire.", "The referral bonus is how much per hire?"),
    ("All offices close between 24 December and 1 January.",
     "All offices close between what date and 1 January?"),
    ("Card statements are reconciled in Ledgerly every month.",
     "Card statements are reconciled in what every month?"),
    ("It is a sentence without any fact here.", None),
    # the month before the day (the new-user trial's "March what after which ...")
    ("Unused days expire on March 31 after which they are lost.",
     "Unused days expire on what date after which they are lost?"),
])
def test_a_fact_becomes_a_question(sentence: str, question: str | None) -> None:
    assert to_question(sentence) == question


def test_plain_text_files_make_questions_about_their_own_corpus(tmp_path: Path) -> None:
    """`generate` on .txt files, one paragraph per line (issue #29): no paragraph becomes
    a title, the multi-hop questions read, and the no-answer reference speaks of the
    documents, not of "the handbook"."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "remote-work.txt").write_text(
        "Staff may work remotely for up to 3 days per week with the approval of a manager. "
        "Requests are filed in Workday before the 10th of the month.\n\n"
        "Unused remote days expire on March 31 after which they are lost.\n\n"
        "The remote allowance is 25 euros per month for internet costs.\n")
    (corpus / "expenses.txt").write_text(
        "Expenses\n\nMeals are reimbursed up to 45 euros per day on business trips.\n\n"
        "Receipts are uploaded to Ledgerly within 30 days of the purchase.\n\n"
        "Hotels cost at most 180 euros per night in Berlin.\n")
    (corpus / "it.txt").write_text(
        "New employees receive a laptop within 5 days of their start date.\n\n"
        "Passwords are changed every 90 days through Okta.\n\n"
        "Lost badges are reported to security within 24 hours.\n")
    docs = {d.id: d.title for d in load_corpus(corpus)}
    assert docs == {"remote-work.txt": "remote work", "expenses.txt": "Expenses", "it.txt": "it"}
    rows, _ = generate(corpus, GenerateOptions(n=10, seed=1, chunk_size=40))
    kinds = {r["metadata"]["kind"] for r in rows}
    # no name or topic is shared by two of these documents: no multi-hop question
    assert "unanswerable" in kinds and "multi-hop" not in kinds
    for row in rows:
        assert "handbook" not in row["question"].lower() + row["reference"].lower()
        assert not re.search(r"\b(January|February|March|April|May|June|July|August|"
                             r"September|October|November|December) what\b", row["question"])
        if row["metadata"]["kind"] == "unanswerable":
            assert row["reference"] == "The documents do not say."


def test_plan_and_a_bad_mix() -> None:
    assert plan(10, {"single-fact": 0.6, "multi-hop": 0.2, "unanswerable": 0.2}) == {
        "single-fact": 6, "multi-hop": 2, "unanswerable": 2}
    assert sum(plan(7, {"single-fact": 1, "multi-hop": 1, "unanswerable": 1}).values()) == 7
    with pytest.raises(ValueError, match="unknown question kind 'trick'"):
        plan(5, {"trick": 1.0})


def test_the_cli_writes_a_questions_file_the_bench_runs(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "testset.jsonl"
    runner = CliRunner()
    done = runner.invoke(cli, ["generate", str(CORPUS), "--n", "10", "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert "wrote 10 questions" in done.output and "offline extractive generator" in done.output
    questions = load_questions(out, load_corpus(CORPUS))  # gold labels checked vs the corpus
    assert len(questions) == 10
    config = tmp_path / "bench.toml"
    config.write_text(f'[bench]\nname = "gen"\ncorpus = "{CORPUS}"\nquestions = "{out}"\n'
                      f'cache_dir = "{tmp_path / "cache"}"\n\n[[strategy]]\n'
                      'chunker = "recursive"\nsize = 120\nretriever = "bm25"\nk = 3\n')
    with Store(":memory:") as store:
        result = run_bench(load_config(config), store, BenchOptions(embedder=HashEmbedder(64)))
        assert result.n_questions == 10
        assert result.strategies[0].retrieval_scored == sum(q.has_gold for q in questions)
        assert result.strategies[0].retrieval["recall"] is not None
    bad = runner.invoke(cli, ["generate", str(tmp_path / "nowhere"), "--out", str(out)])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1
    mix = runner.invoke(cli, ["generate", str(CORPUS), "--mix", "trick=1", "--out", str(out)])
    assert mix.exit_code == 2 and "unknown question kind 'trick'" in mix.output
    (tmp_path / "a-file").write_text("x", encoding="utf-8")  # not a folder, even for root
    missing = tmp_path / "a-file" / "q.jsonl"
    unwritable = runner.invoke(cli, ["generate", str(CORPUS), "--n", "3", "--out", str(missing)])
    assert unwritable.exit_code == 2, unwritable.output
    assert unwritable.exception is None or isinstance(unwritable.exception, SystemExit)
    last = unwritable.output.splitlines()[-1]  # after the progress line
    assert last.startswith(f"error: cannot write questions to {missing}: ")
    assert "Traceback" not in unwritable.output


class Writer:
    """A scripted LLM writing questions: by prompt (its system message), a fresh question
    per passage; some replies broken to exercise the judge layer."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, request: dict[str, Any], n: int) -> ScriptedReply:
        system = request["messages"][0]["content"]
        user = request["messages"][-1]["content"]
        if user.startswith("Your previous reply could not be used"):
            user = request["messages"][-3]["content"]
        passages = re.findall(r"<<<CHUNK\w* \w+>>>\n(.*?)\n<<<END", user, re.S)
        first = passages[0].split(". ")[0].strip().rstrip(".") + "."
        self.n += 1
        k = self.n
        if k == 2:
            return ScriptedReply.chat("not json at all")  # repaired on the re-ask
        if "multi-hop" in system:
            second = passages[1].split(". ")[0].strip().rstrip(".") + "."
            return ScriptedReply.chat(json.dumps({
                "question": f"Multi question {k} about both passages?", "answer": "Both.",
                "quote_a": first, "quote_b": second}))
        if "does NOT answer" in system:
            return ScriptedReply.chat(json.dumps({"question": f"Unanswerable question {k}?",
                                                  "missing": "x"}))
        if k == 3:  # a quote the passage does not hold: dropped
            return ScriptedReply.chat(json.dumps({"question": "Invented question here?",
                                                  "answer": "x", "quote": "never said"}))
        if k == 4:  # the same question as an earlier one: a duplicate
            return ScriptedReply.chat(json.dumps({"question": "Single question 1 here?",
                                                  "answer": "a", "quote": first}))
        return ScriptedReply.chat(json.dumps({"question": f"Single question {k} here?",
                                              "answer": first, "quote": first}))


def test_an_llm_writes_questions_through_the_judge_layer(scripted_server, tmp_path) -> None:
    writer = Writer()
    server = scripted_server(writer)
    with Store(tmp_path / "c.db") as store:
        rows, report = generate(CORPUS, GenerateOptions(
            n=10, judge="openai:writer", base_url=server.base_url, concurrency=1), cache=store)
    assert report.generator == "llm:openai:writer"
    kinds = [r["metadata"]["kind"] for r in rows]
    assert (kinds.count("single-fact"), kinds.count("multi-hop"),
            kinds.count("unanswerable")) == (6, 2, 2)
    assert report.dropped == {"the quote is not in the passage": 1, "duplicate": 1}
    docs = {d.id: d for d in load_corpus(CORPUS)}
    for row in rows:
        assert row["metadata"]["generator"] == "llm:openai:writer"
        for p in row["gold_passages"]:  # the document's own words, verbatim
            assert p["quote"] in docs[p["doc"]].text
    assert not server.errors
    schema = server.requests[0]["response_format"]["json_schema"]["schema"]
    assert set(schema["required"]) >= {"question", "answer", "quote"}
    out = tmp_path / "llm.jsonl"
    done = CliRunner().invoke(cli, ["generate", str(CORPUS), "--n", "4", "--out", str(out),
                                    "--judge", "openai:writer", "--base-url", server.base_url,
                                    "--db", str(tmp_path / "c.db"), "--concurrency", "1"])
    assert done.exit_code == 0, done.output
    assert "generator: llm:openai:writer" in done.output
    assert len(load_questions(out, load_corpus(CORPUS))) == 4


def test_a_reader_keeps_the_multi_hop_and_unanswerable_questions() -> None:
    """Issue #44 item 4, by benches/testset_quality.py's reader rules: every multi-hop
    question joins two facts that share what it asks about (M2); every unanswerable one
    is about the corpus (U1) and asks what no sentence of it says (U2). The generator
    before: 0 of 10 multi-hop and 0 of 10 unanswerable kept on the handbook."""
    docs = load_corpus(CORPUS)
    text = "\n".join(d.text for d in docs)
    sentences = [x for line in text.splitlines() for x in re.split(r"(?<=[.!?])\s+", line)
                 if x.strip()]
    vocabulary = _words(text)
    rows, _ = generate(docs, GenerateOptions(n=50, seed=0))
    tested = [r for r in rows if r["metadata"]["kind"] != "single-fact"]
    assert sum(r["metadata"]["kind"] == "unanswerable" for r in tested) == 10
    assert any(r["metadata"]["kind"] == "multi-hop" for r in tested)
    for row in tested:
        assert verdict(row, set(vocabulary), sentences) is None, row["question"]
        for off_domain in ("childcare vouchers", "submarine", "moon missions", "llama"):
            assert off_domain not in row["question"].lower()


def test_a_fact_asked_of_another_name_of_its_kind_is_unanswerable(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "offices.txt").write_text(
        "Offices\n\nWe have offices in Lisbon, Toronto and Singapore.\n\n"
        "Hotels in Toronto cost at most 220 euros per night.\n")
    (corpus / "tools.txt").write_text(
        "Tools\n\nExpenses are filed in Ledgerly within 30 days of the purchase.\n\n"
        "Desks are booked in DeskBook up to 14 days ahead.\n")
    (corpus / "payments.txt").write_text(
        "Payments\n\nLedgerly pays approved expenses within 5 working days.\n")
    rows, _ = generate(corpus, GenerateOptions(n=6, seed=0, chunk_size=40, mix={
        "single-fact": 0, "multi-hop": 0.5, "unanswerable": 0.5}))
    unanswerable = [r["question"] for r in rows if r["metadata"]["kind"] == "unanswerable"]
    assert any(q.startswith(("Hotels in Lisbon cost at most how many",
                             "Hotels in Singapore cost at most how many"))
               for q in unanswerable), unanswerable
    multi = [r for r in rows if r["metadata"]["kind"] == "multi-hop"]
    assert multi and all("Ledgerly" in r["question"] and all(
        "Ledgerly" in p["quote"] for p in r["gold_passages"]) for r in multi), multi


def test_chunks_are_paired_only_by_a_shared_name_or_topic() -> None:
    import random

    from ragassay.corpus.chunking import Chunk
    from ragassay.testset.entities import Corpus
    from ragassay.testset.generate import related_pairs

    texts = {"a": "Receipts are uploaded to Ledgerly within 30 days.",
             "b": "Ledgerly reconciles card payments every Friday.",
             "c": "Hotels cost at most 180 euros per night in Berlin."}
    chunks = [Chunk(doc_id=d, index=0, text=t, start=0, end=len(t), n_tokens=len(t.split()))
              for d, t in texts.items()]
    pairs = related_pairs(chunks, random.Random(0), Corpus.read(texts.values()))
    assert [({a.doc_id, b.doc_id}, shared) for a, b, shared in pairs] == [
        ({"a", "b"}, ("Ledgerly",))]
