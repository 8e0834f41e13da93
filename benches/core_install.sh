#!/usr/bin/env bash
# The core install's size and time: a fresh venv, `pip install .` (no extras), then du.
# Usage: bash benches/core_install.sh [VENV_DIR]   (default /tmp/ragassay-core)
# pip's wheel cache makes a second run faster; the first figure is the cold one.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${1:-/tmp/ragassay-core}"
rm -rf "$VENV"
python3 -m venv "$VENV"
SECONDS=0
"$VENV/bin/pip" install -q .
took=$SECONDS
size=$(du -sm "$VENV" | cut -f1)
site=$("$VENV/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
heavy=$("$VENV/bin/python" - <<'PY'
import importlib.util as u
print(",".join(m for m in ("torch", "sentence_transformers", "streamlit", "litellm")
               if u.find_spec(m)) or "none")
PY
)
printf 'core install: %s s, %s MB (venv %s)\n' "$took" "$size" "$VENV"
printf 'heavy packages present: %s\n' "$heavy"
echo "largest packages:"
du -sm "$site"/* | sort -rn | head -6 | awk '{printf "  %5d MB  %s\n", $1, $2}' | sed "s|$site/||"
demo=$("$VENV/bin/python" -c "from ragassay.dataset import demo_dataset_path as d; print(d())")
tmp=$(mktemp -d)
(cd "$tmp" && "$VENV/bin/ragassay" eval "$demo" -q --out demo.json && echo "ragassay eval on the demo (offline judge): ok")
rm -rf "$tmp"
