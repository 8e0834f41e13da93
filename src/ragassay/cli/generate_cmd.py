"""`ragassay generate`: a test set from a corpus, ready to be a bench's questions file."""

from __future__ import annotations

from pathlib import Path

import click

from ragassay.cli.app import cli
from ragassay.cli.common import (
    JUDGE_SPEC_HELP,
    FiniteFloat,
    StoreLocation,
    UsageProblem,
    check_base_url,
    check_judge_spec,
    db_option,
    friendly,
    open_store,
    parse_pairs,
    refuse_overwrites,
    say,
    sigterm_interrupts,
)
from ragassay.terminal import counted
from ragassay.types import is_offline

OFFLINE_NOTE = ("offline extractive generator (no LLM): questions are corpus sentences with "
                "the fact replaced by a question word; pass --judge BACKEND:MODEL for "
                "LLM-written questions")


def _mix(values: tuple[str, ...]) -> dict[str, float] | None:
    if not values:
        return None
    pairs = parse_pairs([p for v in values for p in v.split(",") if p.strip()], "--mix",
                        syntax="KIND=SHARE, e.g. single-fact=0.6")
    try:
        return {kind: float(share) for kind, share in pairs}
    except ValueError:
        raise UsageProblem("--mix: shares must be numbers, e.g. single-fact=0.6") from None


@cli.command("generate")
@click.argument("corpus", type=click.Path(path_type=Path))
@click.option("--n", "n", type=click.IntRange(1, 100_000), default=50, show_default=True,
              help="How many questions.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("testset.jsonl"), show_default=True,
              help="The JSONL test set (a bench's `questions` file).")
@click.option("--judge", "judge_spec", default="offline", show_default=True,
              help="Who writes the questions: " + JUDGE_SPEC_HELP + ".")
@click.option("--base-url", default=None, help="OpenAI-compatible endpoint of the LLM.")
@click.option("--mix", "mix_given", multiple=True, metavar="KIND=SHARE",
              help="Shares of single-fact, multi-hop and unanswerable questions "
                   "(default single-fact=0.6,multi-hop=0.2,unanswerable=0.2).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--chunk-size", type=click.IntRange(20, 5000), default=120, show_default=True,
              help="Whitespace tokens per chunk that questions are drawn from.")
@click.option("--no-answer", default=None,
              help="The reference answer of unanswerable questions (default: \"The "
                   "documents do not say.\"; use your bench's [generation] no_answer).")
@click.option("--concurrency", type=click.IntRange(1, 256), default=4, show_default=True)
@click.option("--timeout", "timeout_s", type=FiniteFloat(1), default=60,
              show_default=True, help="Seconds per LLM call before it is retried.")
@click.option("--quiet", "-q", is_flag=True)
@db_option
@friendly
def generate_cmd(corpus: Path, n: int, out: Path, judge_spec: str, base_url: str | None,
                 mix_given: tuple[str, ...], seed: int, chunk_size: int, no_answer: str | None,
                 concurrency: int, timeout_s: float, quiet: bool, db: StoreLocation) -> None:
    """Make a test set from CORPUS (a folder of .txt/.md/.html/.pdf files, or a JSONL of
    documents): single-fact, multi-hop and unanswerable questions with reference answers,
    gold passages (verbatim quotes) and their source chunks, deduplicated."""
    from ragassay.console import RichProgress
    from ragassay.corpus import CorpusError, load_corpus
    from ragassay.judge import JudgeAborted
    from ragassay.testset import GenerateOptions, generate, kinds_made, plan, write_jsonl
    from ragassay.types import Usage

    judge_spec, base_url = check_judge_spec(judge_spec), check_base_url(base_url)
    refuse_overwrites([("--out", out)], db=db, inputs=[(f"the corpus ({corpus})", corpus)])
    options = GenerateOptions(n=n, judge=judge_spec, seed=seed, chunk_size=chunk_size,
                              concurrency=concurrency, base_url=base_url, timeout_s=timeout_s)
    mix = _mix(mix_given)
    if mix is not None:
        options = GenerateOptions(**{**options.__dict__, "mix": mix})
    if no_answer:
        options = GenerateOptions(**{**options.__dict__, "no_answer": no_answer})
    try:
        plan(options.n, options.mix)
    except ValueError as exc:
        raise UsageProblem(f"--mix: {exc}") from None
    try:
        docs = load_corpus(corpus)
    except CorpusError as exc:
        raise UsageProblem(str(exc).splitlines()[0]) from None
    store = open_store(db) if not is_offline(judge_spec) else None  # the LLM's replies cached
    bar = RichProgress("generating", enabled=not quiet)
    bar.start(n)
    try:
        with sigterm_interrupts():
            rows, report = generate(docs, options, cache=store,
                                    progress=lambda k: bar.advance(k, Usage()))
    except (CorpusError, ValueError) as exc:
        raise UsageProblem(str(exc).splitlines()[0]) from None
    except JudgeAborted as exc:
        raise UsageProblem(exc.reason) from None
    finally:
        bar.finish()
    if not rows:
        raise UsageProblem(f"{corpus}: no question could be made ({_dropped(report)})")
    try:
        write_jsonl(rows, out)
    except OSError as exc:
        raise UsageProblem(f"cannot write questions to {out}: {exc.strerror or exc}") from None
    if len(rows) < n:  # a warning: shown even with --quiet
        say(f"asked for {n}, made {len(rows)}: the corpus gave no more ({_dropped(report)})",
            err=True)
    if quiet:
        return
    shown = ", ".join(f"{k} {v}" for k, v in kinds_made(rows).items())
    say(f"wrote {counted(len(rows), 'question')} to {out} ({shown}) from "
        f"{counted(report.documents, 'document')}, {counted(report.chunks, 'chunk')}",
        err=True)
    say("generator: " + (OFFLINE_NOTE if is_offline(judge_spec) else report.generator),
        err=True)
    if report.dropped and len(rows) >= n:
        say(f"dropped: {_dropped(report)}", err=True)
    say(f"use it as a bench's questions file: questions = \"{out}\"", err=True)


def _dropped(report: object) -> str:
    dropped = getattr(report, "dropped", {}) or {}
    return ", ".join(f"{why}: {k}" for why, k in sorted(dropped.items(), key=lambda kv: -kv[1])
                     ) or "nothing dropped"
