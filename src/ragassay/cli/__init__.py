"""The `ragassay` command line interface."""

from ragassay.cli import (  # noqa: F401  (registers commands)
    analysis,
    annotate_cmd,
    batch_cmd,
    bench_cmd,
    calibrate,
    compare_cmd,
    db_cmd,
    eval_cmd,
    generate_cmd,
    labels_cmd,
    metaeval,
    models_cmd,
    monitor_cmd,
    route_cmd,
)
from ragassay.cli.app import cli, main

__all__ = ["cli", "main"]
