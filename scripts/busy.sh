#!/usr/bin/env bash
# scripts/busy.sh N COMMAND [ARG...] - run COMMAND while N busy loops (one
# process each, at the caller's priority) keep the cores saturated, as on
# a shared CI machine; stop them when it ends and exit with its status.
# make test-busy is `scripts/busy.sh 3 make test` (BUSY=N to change it):
# three loops on two cores leave each guest well under half a core.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: scripts/busy.sh N COMMAND [ARG...]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/whole-number.sh"
whole_number busy.sh N "$1" 0
n=$1
shift
loops=()
stop_loops() { [ ${#loops[@]} -eq 0 ] || kill "${loops[@]}" 2>/dev/null; wait "${loops[@]}" 2>/dev/null; loops=(); }
trap stop_loops EXIT
trap 'exit 130' INT TERM
for ((i = 0; i < n; i++)); do
	bash -c 'while :; do :; done' &
	loops+=($!)
done
echo "busy: $n busy loops on $(nproc) cores while: $*" >&2
start=$SECONDS
"$@"
status=$?
echo "busy: done in $((SECONDS - start)) s with $n busy loops; load:$(uptime | sed 's/.*load average://')" >&2
exit "$status"
