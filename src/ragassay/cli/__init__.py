"""The `ragassay` command line interface."""

from ragassay.cli import analysis, bench_cmd, metaeval, models_cmd  # noqa: F401  (registers)
from ragassay.cli.app import cli, main

__all__ = ["cli", "main"]
