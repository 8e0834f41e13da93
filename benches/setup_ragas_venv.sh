#!/usr/bin/env bash
# Create benches/.venv-ragas: the RAGAS package from PyPI, isolated from the project's venv,
# for the side-by-side judge-cost benchmark (benches/judge_cost.py). Git-ignored.
#
#   bash benches/setup_ragas_venv.sh        # idempotent; PY=python3.11 to choose the interpreter
#
# ragas 0.4.3 imports only with langchain-community 0.4.1 pinned; langchain-openai is its
# route to an OpenAI-compatible server. Nothing here downloads at *run* time: the bench
# sets RAGAS_DO_NOT_TRACK=true and gives RAGAS a local embedder (see benches/ragas_side.py).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="${RAGAS_VENV:-$HERE/.venv-ragas}"
PY="${PY:-python3}"

if [ ! -x "$VENV/bin/python" ]; then
    "$PY" -m venv "$VENV"
    "$VENV/bin/pip" install -q --upgrade pip
fi
echo '*' > "$VENV/.gitignore"  # never commit the venv (~800 MB), as Python 3.13's venv does
"$VENV/bin/pip" install -q "ragas==0.4.3" "langchain-community==0.4.1" "langchain-openai"
RAGAS_DO_NOT_TRACK=true "$VENV/bin/python" -c "import ragas, langchain_openai; print('ragas', ragas.__version__)"
