"""The dev-set converter (scripts/devsets/convert.py) as a module, for tests over ../shared/data."""

from __future__ import annotations

import importlib.util
import sys
from functools import lru_cache
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"


@lru_cache(maxsize=1)
def convert_module() -> ModuleType:
    """scripts/devsets/convert.py, imported once."""
    spec = importlib.util.spec_from_file_location(
        "devsets_convert", ROOT / "scripts" / "devsets" / "convert.py"
    )
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod
