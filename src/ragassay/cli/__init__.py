"""The `ragassay` command line interface."""

from ragassay.cli import (  # noqa: F401  (registers commands)
    analysis,
    bench_cmd,
    calibrate,
    eval_cmd,
    generate_cmd,
    metaeval,
)
from ragassay.cli.app import cli, main

__all__ = ["cli", "main"]
