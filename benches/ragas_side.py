"""Run ONE RAGAS metric over the benchmark dataset; runs inside benches/.venv-ragas.

benches/judge_cost.py starts this once per metric (so its logging proxy can attribute
every request to that metric) and reads the JSON it prints on the last stdout line:
{"metric", "n", "scores", "failed", "seconds", "errors"}.

RAGAS 0.4.3's evaluate() with its (deprecated, still shipped) single-turn metrics and
a LangChain ChatOpenAI pointed at the proxy; `response_format: json_object` makes the
llama.cpp server constrain replies to JSON (RAGAS sends no schema, so no finer
grammar is possible). Embeddings (answer relevancy) come from the proxy's local
/v1/embeddings. Nothing is downloaded: RAGAS_DO_NOT_TRACK=true, the embeddings client
skips tiktoken (check_embedding_ctx_length=False), and judge_cost.py points
HTTP(S)_PROXY at a closed loopback port so any other outbound request fails at once.

    benches/.venv-ragas/bin/python benches/ragas_side.py --metric faithfulness \
        --data benches/data/judge_cost.jsonl --n 2 --base-url http://127.0.0.1:PORT/v1
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import warnings
from typing import Any

os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")

METRICS = ("faithfulness", "answer_relevancy", "context_precision", "context_recall")


def build_metric(name: str, llm: Any, embeddings: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from ragas.metrics import (
            Faithfulness,
            LLMContextPrecisionWithReference,
            LLMContextRecall,
            ResponseRelevancy,
        )
    if name == "faithfulness":
        return Faithfulness(llm=llm)
    if name == "answer_relevancy":
        return ResponseRelevancy(llm=llm, embeddings=embeddings)  # strictness 3, the default
    if name == "context_precision":
        return LLMContextPrecisionWithReference(llm=llm)
    if name == "context_recall":
        return LLMContextRecall(llm=llm)
    raise SystemExit(f"unknown metric {name!r}; choose from {', '.join(METRICS)}")


def load_rows(path: str, n: int) -> list[dict[str, Any]]:
    rows = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rows.append(json.loads(line))
            if len(rows) >= n:
                break
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--metric", required=True, choices=METRICS)
    ap.add_argument("--data", required=True)
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--base-url", required=True, help="OpenAI-compatible .../v1 (the proxy)")
    ap.add_argument("--model", default="smollm2")
    ap.add_argument("--max-tokens", type=int, default=1024)
    ap.add_argument("--timeout", type=float, default=1800.0)
    args = ap.parse_args(argv)

    from langchain_openai import ChatOpenAI, OpenAIEmbeddings
    from ragas import EvaluationDataset, RunConfig, evaluate

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from ragas.embeddings import LangchainEmbeddingsWrapper
        from ragas.llms import LangchainLLMWrapper

    rows = load_rows(args.data, args.n)
    dataset = EvaluationDataset.from_list([
        {"user_input": r["question"], "retrieved_contexts": r["contexts"],
         "response": r["answer"], "reference": r["reference"]} for r in rows])
    # langchain-openai sends `max_tokens` as `max_completion_tokens`, which the llama.cpp
    # server ignores (replies then run to the end of the context): send the server's own
    # field through extra_body instead.
    chat = ChatOpenAI(model=args.model, base_url=args.base_url, api_key="not-needed",
                      temperature=0, timeout=args.timeout,
                      model_kwargs={"response_format": {"type": "json_object"}},
                      extra_body={"max_tokens": args.max_tokens})
    embed = OpenAIEmbeddings(model="local-minilm", base_url=args.base_url,
                             api_key="not-needed", check_embedding_ctx_length=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        llm = LangchainLLMWrapper(chat)
        embeddings = LangchainEmbeddingsWrapper(embed)
    metric = build_metric(args.metric, llm, embeddings)
    started = time.perf_counter()
    result = evaluate(dataset, metrics=[metric], llm=llm, embeddings=embeddings,
                      run_config=RunConfig(timeout=int(args.timeout), max_workers=1),
                      show_progress=False, raise_exceptions=False)
    seconds = time.perf_counter() - started
    frame = result.to_pandas()
    column = metric.name if metric.name in frame.columns else frame.columns[-1]
    scores = [None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)
              for v in frame[column].tolist()]
    print(json.dumps({"metric": args.metric, "ragas_name": metric.name, "n": len(rows),
                      "scores": scores, "failed": sum(s is None for s in scores),
                      "seconds": round(seconds, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
