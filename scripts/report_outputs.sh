#!/bin/bash
# scripts/report_outputs.sh OUT: every reader's output on a fixed set of runs, for a
# before/after diff of a change that must not move a byte: the JSON, CSV and HTML reports
# of four runs (the demo with all suites, with judge and trace, a labelled file with an
# invalid row, a two-strategy bench) and of the two runs of tests/fixtures/store_v1,
# `runs show`, `gate` (and --strict), `compare` and `trend` (tables and --json),
# `calibrate`, and EvalResult.summary()/to_pandas(). Run ids, timestamps and durations
# are masked. The runs are made once, into $STORES, by the code on the path then:
#   git worktree add /tmp/old REV && SRC=/tmp/old/src scripts/report_outputs.sh /tmp/before
#   scripts/report_outputs.sh /tmp/after && diff -r /tmp/before /tmp/after
set -u
OUT=$(realpath -m "$1"); rm -rf "$OUT"; mkdir -p "$OUT"
WT=$(cd "$(dirname "$0")/.." && pwd); SRC=${SRC:-$WT/src}; PY=${PYTHON:-python3}
ST=${STORES:-/tmp/ragassay-report-outputs}; NEW=0; [ -d $ST ] || { mkdir -p $ST; NEW=1; }; cd $ST
export PYTHONPATH=$SRC COLUMNS=200 NO_COLOR=1 TERM=dumb
R="$PY -m ragassay"
DEMO=$WT/src/ragassay/dataset/samples/demo.jsonl; export DEMO WT
DB=$ST/s.db
mask() { sed -E 's/"generated": "[^"]*"/"generated": "X"/g; s/(<td>generated<\/td><td>)[^<]*/\1X/; s/report generated [0-9T:+-]*/report generated X/; s/[0-9]{8}-[0-9]{6}-[0-9a-f]{4}/RUNID/g; s/[0-9.]+ ?s(ec)?\b/Ts/g'; }
# runs: demo (all suites), demo judge-only, a file with an invalid row and numeric labels
if [ $NEW = 1 ]; then
$R eval $DEMO --db $DB > eval1.out 2> eval1.err
$R eval $DEMO --db $DB --metrics judge,trace > eval2.out 2> eval2.err
python3 - <<'PY'
import json
import os
rows=[json.loads(l) for l in open(os.environ['DEMO'])][:10]
for i,r in enumerate(rows): r['labels']={'faithfulness': (i%5)*2.0+1, 'relevant': i%2==0}
with open('lab.jsonl','w') as f:
    for r in rows: f.write(json.dumps(r)+'\n')
    f.write('{"id": "bad", "question": 3}\n')
PY
$R eval lab.jsonl --skip-invalid --db $DB > eval3.out 2> eval3.err
cp $WT/tests/fixtures/store_v1/ragassay.db v1.db; $PY -c "from ragassay.store import Store; Store('v1.db').close()"
fi
cd $OUT
IDS=$($R runs list --db $DB --format json | python3 -c "import json,sys; print(' '.join(r['id'] for r in reversed(json.load(sys.stdin))))")
set -- $IDS; A=$1; B=$2; C=$3
i=0
for id in $A $B $C; do i=$((i+1))
  for f in json csv html; do $R report $id --db $DB --format $f > r$i.$f 2>&1; done
  $R report $id --db $DB --out rf$i.json > /dev/null 2>&1
  $R runs show $id --db $DB > show$i.out 2>&1
  $R gate $id --db $DB > gate$i.out 2>&1; echo "rc $?" >> gate$i.out
  $R gate $id --db $DB --strict > gates$i.out 2>&1; echo "rc $?" >> gates$i.out
done
$R runs list --db $DB > list.out 2>&1
$R runs list --db $DB --format json > list.json 2>&1
$R compare $A $B --db $DB --json > cmp.json 2>&1
$R compare $A $B --db $DB > cmp.out 2>&1
$R compare $A --strategy bm25-k3 --strategy dense-k5 --db $DB --json > cmps.json 2>&1
$R compare $A --strategy bm25-k3 --strategy dense-k5 --db $DB > cmps.out 2>&1
$R trend $DEMO --db $DB --json > trend.json 2>&1
$R trend $DEMO --db $DB > trend.out 2>&1
python3 -c "
import json
for l in open('$ST/lab.jsonl'):
    r=json.loads(l)
    if 'labels' in r: print(json.dumps({'id': r['id'], 'correct': r['labels']['relevant']}))
" > labels.jsonl
$R calibrate $C --labels labels.jsonl --db $DB > cal.out 2>&1
$R calibrate $C --labels labels.jsonl --db $DB --json > cal.json 2>&1
# store_v1
for id in 20261201-092553-7ed0 20261201-092606-b7e3; do
  $R report $id --db $ST/v1.db > v1-$id.json 2>&1; $R report $id --db $ST/v1.db --format html > v1-$id.html 2>&1
done
# bench: two strategies, 6 questions
if [ $NEW = 1 ]; then cd $ST
mkdir -p bench; cp -r $WT/examples/handbook/corpus bench/; head -6 $WT/examples/handbook/questions.jsonl > bench/questions.jsonl
python3 - <<'PY'
import os
t=open(os.environ['WT'] + '/examples/handbook/bench.toml').read()
head, *strats = t.split('[[strategy]]')
open('bench/bench.toml','w').write(head + '[[strategy]]' + '[[strategy]]'.join(strats[:2]))
PY
$R bench bench/bench.toml --db $DB --out bench.json > bench.out 2> bench.err
fi; cd $OUT
BID=$($R runs list --db $DB --format json | python3 -c "import json,sys; print(json.load(sys.stdin)[0]['id'])")
cp $ST/bench.json $ST/eval*.out $ST/eval*.err $ST/bench.out . 2>/dev/null
for f in json csv html; do $R report $BID --db $DB --format $f > rb.$f 2>&1; done
$R runs show $BID --db $DB > showb.out 2>&1
# Python API
$PY - > api.out 2>&1 <<PY
import pandas as pd, json
pd.set_option('display.width', 250); pd.set_option('display.max_columns', 50)
from ragassay.api.result import EvalResult
from ragassay.store import Store
s = Store("$DB", readonly=True)
for rid in ["$A", "$C"]:
    r = EvalResult(s, rid)
    print(r.summary().to_string()); print(r.summary().to_dict())
    print(r.to_pandas().to_string())
PY
for f in *; do [ -f "$f" ] && mask < "$f" > "$f.m" && mv "$f.m" "$f"; done
