#!/usr/bin/env bash
# The same dev sets through `ragassay eval` into a SQLite file and into a PostgreSQL
# database, then the JSON reports compared (scripts/compare_outputs.py): they should
# differ only in evaluation_metadata.run_id.
#
#   scripts/store_backends.sh postgresql://user@127.0.0.1:5432/empty_db OUT_DIR [SET ...]
#
# SETs are names in data/devsets/ (scripts/devsets/convert.py makes them); default: the
# four smallest (factcheck_gpt wice_subclaims dialfact begin, 1,051 samples).
set -euo pipefail
url=$1; out=$2; shift 2
sets=("${@:-factcheck_gpt wice_subclaims dialfact begin}")
py=${PYTHON:-.venv/bin/python}
rm -rf "$out"; mkdir -p "$out/sqlite" "$out/postgres"
for s in ${sets[@]}; do
  "$py" -m ragassay eval "data/devsets/$s.jsonl" --db "$out/runs.db" --out "$out/sqlite/$s.json" -q
  "$py" -m ragassay eval "data/devsets/$s.jsonl" --db "$url" --out "$out/postgres/$s.json" -q
done
python3 scripts/compare_outputs.py "$out/sqlite" "$out/postgres" \
  --same "$out/runs.db=$url" || true
