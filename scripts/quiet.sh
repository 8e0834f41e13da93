#!/bin/sh
# Run a command with its output appended to a log file, not the terminal (the Makefile's
# pip steps: trial 88, a machine's pip config printed "Location file:///... is ignored" a
# line, hiding `make demo`'s own output). On failure: the log's last lines (its error,
# without those warnings), the log's path, and the command's exit status, so make stops.
# usage: sh scripts/quiet.sh LOG COMMAND [ARG...]
log=$1
shift
echo "\$ $*" >>"$log"
start=$(wc -l <"$log")
"$@" >>"$log" 2>&1 && exit 0
status=$?
tail -n +"$((start + 1))" "$log" | grep -v "^WARNING: Location " | tail -n 30 >&2
echo "make: this step failed (exit $status): $*" >&2
echo "make: its full output: $log" >&2
exit "$status"
