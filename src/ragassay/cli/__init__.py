"""The `ragassay` command line interface."""

from ragassay.cli import analysis, bench_cmd, calibrate, eval_cmd, metaeval  # noqa: F401  (registers commands)
from ragassay.cli.app import cli, main

__all__ = ["cli", "main"]
