"""The `ragassay` command line interface."""

from ragassay.cli import (  # noqa: F401  (registers commands)
    analysis,
    annotate_cmd,
    bench_cmd,
    calibrate,
    db_cmd,
    eval_cmd,
    generate_cmd,
    labels_cmd,
    metaeval,
    models_cmd,
)
from ragassay.cli.app import cli, main

__all__ = ["cli", "main"]
