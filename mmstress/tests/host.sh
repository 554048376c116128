#!/usr/bin/env bash
# mmstress/tests/host.sh BIN - host-side tests of mmstress: its command line
# (every bad argument is a clear error and exit 2, never a crash), and that
# a seed replays: the same seed gives the same digest twice.  The model's
# semantics are Linux 6.1's, checked in the guest (scripts/mmstress.sh),
# not against this host's kernel.
set -uo pipefail
bin=${1:?usage: tests/host.sh BIN}
n=0 failed=0
check() {	# DESCRIPTION EXPECTED-STATUS MESSAGE-PATTERN ARGS...
	local what=$1 want=$2 pattern=$3 out rc
	shift 3
	n=$((n + 1))
	out=$(timeout 60 "$bin" "$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" -eq "$want" ] && grep -q -- "$pattern" <<<"$out"; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what (exit $rc, wanted $want; stderr: ${out:0:200})"
		failed=$((failed + 1))
	fi
}
echo "1..10"
check "unknown option" 2 "unknown or incomplete argument" --frobnicate
check "--calls 0 is out of range" 2 "out of range" --calls 0
check "--calls with text" 2 "not a number" --calls 12k
check "--seed without a value" 2 "needs a value" --seed
check "--threads 99 is out of range" 2 "out of range" --threads 99
check "unknown model" 2 "unknown model" --model linux
check "--model without a value" 2 "unknown or incomplete argument" --model
check "--check-every 0 is out of range" 2 "out of range" --check-every 0
check "--maps-every 0 is out of range" 2 "out of range" --maps-every 0
n=$((n + 1))
d1=$("$bin" --no-seal --seed 7 --calls 300 --no-ddmin | grep '^# digest')
d2=$("$bin" --no-seal --seed 7 --calls 300 --no-ddmin | grep '^# digest')
if [ -n "$d1" ] && [ "$d1" = "$d2" ]; then
	echo "ok $n - a seed replays: same digest twice ($d1)"
else
	echo "not ok $n - a seed replays: '$d1' vs '$d2'"
	failed=$((failed + 1))
fi
[ "$failed" -eq 0 ]
