#!/bin/bash
# scripts/devset_outputs.sh OUT: every export of a run of each dev set (data/devsets/*.jsonl,
# made by scripts/devsets/convert.py), for a before/after diff of a change that must not
# move a byte: the JSON, CSV, HTML and Parquet (read back as CSV) reports (with their
# calibration and corrected sections: the sets carry human labels), `runs show` and `gate`,
# and `EvalResult.summary()`. Each set is evaluated once (offline judge, every suite; the first $LIMIT rows,
# default all) into $STORES by the code on the path then, and read by the code on the path
# now, as scripts/report_outputs.sh does for the demo:
#   git worktree add /tmp/old REV && SRC=/tmp/old/src scripts/devset_outputs.sh /tmp/before
#   scripts/devset_outputs.sh /tmp/after && diff -r /tmp/before /tmp/after
# Run ids, timestamps and durations are masked.
set -u
OUT=$(realpath -m "$1"); rm -rf "$OUT"; mkdir -p "$OUT"
WT=$(cd "$(dirname "$0")/.." && pwd); SRC=${SRC:-$WT/src}; PY=${PYTHON:-python3}
ST=${STORES:-/tmp/ragassay-devset-outputs}; LIMIT=${LIMIT:-0}
export PYTHONPATH=$SRC COLUMNS=200 NO_COLOR=1 TERM=dumb
R="$PY -m ragassay"
DB=$ST/dev.db
mask() { sed -E 's/"generated": "[^"]*"/"generated": "X"/g; s/(<td>generated<\/td><td>)[^<]*/\1X/; s/report generated [0-9T:+-]*/report generated X/; s/[0-9]{8}-[0-9]{6}-[0-9a-f]{4}/RUNID/g; s/[0-9.]+ ?s(ec)?\b/Ts/g'; }
if [ ! -d "$ST" ]; then
  mkdir -p "$ST"
  for f in "$WT"/data/devsets/*.jsonl; do
    name=$(basename "$f" .jsonl)
    if [ "$LIMIT" -gt 0 ]; then head -n "$LIMIT" "$f" > "$ST/$name.jsonl"; else cp "$f" "$ST/$name.jsonl"; fi
    (cd "$ST" && $R eval "$name.jsonl" --db "$DB" -q > "eval-$name.out" 2> "eval-$name.err")
  done
fi
cd "$OUT"
$R runs list --db "$DB" --format json | $PY -c "
import json, sys
for r in reversed(json.load(sys.stdin)): print(r['id'], r['dataset'])" > runs.txt
while read -r id dataset; do
  n=$(basename "$dataset" .jsonl)
  for f in json csv html; do $R report "$id" --db "$DB" --format $f > "$n.$f" 2>&1; done
  $R runs show "$id" --db "$DB" > "$n.show" 2>&1
  $R gate "$id" --db "$DB" > "$n.gate" 2>&1; echo "rc $?" >> "$n.gate"
  $PY - "$DB" "$id" "$ST/pq-$n" > "$n.api" 2>&1 <<'PY'
import shutil, sys
import pandas as pd
from ragassay.api.result import EvalResult
from ragassay.report import build_report, export, iter_details
from ragassay.store import Store
db, run_id, folder = sys.argv[1:]
shutil.rmtree(folder, ignore_errors=True)
with Store(db, readonly=True) as store:
    report = build_report(store, run_id, include_details=False)
    export(report, "parquet", folder, iter_details(store, run_id))
    print(EvalResult(store, run_id).summary().to_string())
print(pd.read_parquet(folder).to_csv(index=False))
PY
done < runs.txt
cp "$ST"/eval-*.out "$ST"/eval-*.err . 2>/dev/null
for f in *; do [ -f "$f" ] && mask < "$f" > "$f.m" && mv "$f.m" "$f"; done
