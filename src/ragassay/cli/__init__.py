"""The `ragassay` command line interface."""

from ragassay.cli.app import cli, main

__all__ = ["cli", "main"]
