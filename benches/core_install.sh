#!/usr/bin/env bash
# An install's size and time in a fresh venv, then the offline demo evaluated in it.
#   bash benches/core_install.sh [VENV_DIR]          `pip install .` (the core, no extras);
#                                                    default /tmp/ragassay-core
#   bash benches/core_install.sh --demo [VENV_DIR]   `make demo` from scratch: the venv, pip,
#                                                    the demo's extras and its evaluation, all
#                                                    timed; default /tmp/ragassay-demo
# pip's wheel cache makes a second run faster; the first figure is the cold one.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=core
if [[ "${1:-}" == "--demo" ]]; then mode=demo; shift; fi
VENV="${1:-/tmp/ragassay-$mode}"
rm -rf "$VENV"
log=$(mktemp)
cpu=$(mktemp)
if [[ $mode == core ]]; then
  cmd="python3 -m venv $VENV && $VENV/bin/pip install -q ."
else
  cmd="make demo VENV=$VENV"
fi
# wall and CPU seconds (the CPU figure moves less when other jobs share the cores)
/usr/bin/time -o "$cpu" -f "%e %U %S" bash -c "$cmd" >"$log" 2>&1 || { tail -20 "$log"; exit 1; }
read -r took user sys <"$cpu"
rm -f "$log" "$cpu"
size=$(du -sm "$VENV" | cut -f1)
site=$("$VENV/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
heavy=$("$VENV/bin/python" - <<'PY'
import importlib.util as u
print(",".join(m for m in ("torch", "sentence_transformers", "transformers", "streamlit",
                           "litellm", "onnxruntime") if u.find_spec(m)) or "none")
PY
)
printf '%s install: %.0f s wall (CPU %.0f s user + %.0f s sys), %s MB (venv %s)\n' \
  "$mode" "$took" "$user" "$sys" "$size" "$VENV"
printf 'load average at the end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'heavy packages present: %s\n' "$heavy"
echo "largest packages:"
du -sm "$site"/* | sort -rn | head -8 | awk '{printf "  %5d MB  %s\n", $1, $2}' | sed "s|$site/||"
if [[ $mode == core ]]; then
  demo=$("$VENV/bin/python" -c "from ragassay.dataset import demo_dataset_path as d; print(d())")
  tmp=$(mktemp -d)
  (cd "$tmp" && "$VENV/bin/ragassay" eval "$demo" -q --out demo.json \
    && echo "ragassay eval on the demo (offline judge): ok")
  rm -rf "$tmp"
else
  echo "make demo (ragassay eval on the demo, offline judge): ok"
fi
