#!/usr/bin/env bash
# mmstress/tests/host.sh BIN - host-side tests of mmstress: its command line
# (every bad argument is a clear error and exit 2, never a crash), and that
# a seed replays: the same seed gives the same digest twice.  The model's
# semantics are Linux 6.1's, checked in the guest (scripts/mmstress.sh),
# not against this host's kernel.
set -uo pipefail
bin=${1:?usage: tests/host.sh BIN}
. "$(dirname "$0")/../../tests/tap.sh"
# misuse DESCRIPTION MESSAGE-PATTERN ARGS...: exit 2, the message said
misuse() { local what=$1 pattern=$2; shift 2; expect 2 "$pattern" "$what" timeout 60 "$bin" "$@"; }
tap_start 10
misuse "unknown option" "unknown or incomplete argument" --frobnicate
misuse "--calls 0 is out of range" "out of range" --calls 0
misuse "--calls with text" "not a number" --calls 12k
misuse "--seed without a value" "needs a value" --seed
misuse "--threads 99 is out of range" "out of range" --threads 99
misuse "unknown model" "unknown model" --model linux
misuse "--model without a value" "unknown or incomplete argument" --model
misuse "--check-every 0 is out of range" "out of range" --check-every 0
misuse "--maps-every 0 is out of range" "out of range" --maps-every 0
d1=$("$bin" --no-seal --seed 7 --calls 300 --no-ddmin | grep '^# digest')
d2=$("$bin" --no-seal --seed 7 --calls 300 --no-ddmin | grep '^# digest')
[ -n "$d1" ] && [ "$d1" = "$d2" ]
tap_result $? "a seed replays: same digest twice ($d1)" "'$d1' vs '$d2'"
tap_end
