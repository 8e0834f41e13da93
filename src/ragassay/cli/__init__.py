"""The `ragassay` command line interface."""

from ragassay.cli import analysis, metaeval  # noqa: F401  (registers their commands)
from ragassay.cli.app import cli, main

__all__ = ["cli", "main"]
