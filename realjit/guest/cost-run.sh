#!/bin/sh
# realjit/guest/cost-run.sh KERNEL "WORKLOAD..." "POLICY..." - in a guest
# booted with guest/run --icount: each workload of the package's JIT under
# each policy once (policy "bare": the JIT without the library), timed by
# icount-time, whose guest nanoseconds are guest instructions under -icount
# shift=0.  One line each:
#   # cost kernel=K workload=W policy=P instructions=N status=S jit=J
# J: the package's JIT (its file name, realjit/package.sh).  status 0: ran;
# 3: the kernel cannot express the policy; unsealed: it ran, but the kernel
# refused to seal any of its code (EBUSY: fork advice); else it failed.
# "# cost-done" last.
kernel=$1
workloads=$2
policies=$3
pkg=$(cd "$(dirname "$0")" && pwd)
name=$(cat "$pkg/name")
work=/tmp/cost-$name
mkdir -p "$work"
JIT_PRELOAD= # libraries of the JIT's own before the seal-on-exec library (run-cases.sh)
. "$pkg/jit.sh"
jit_setup
# The clock source settled and address randomization off (guest/settle).
settle
jit_warm

for w in $workloads; do
	# shellcheck disable=SC2046 # the arguments are words
	set -- $(jit_workload_args "$pkg/workloads/$w.$JIT_EXT")
	for p in $policies; do
		rm -f "$work/report"
		# shellcheck disable=SC2086 # $JIT_LOADER is the loader and its arguments
		if [ "$p" = bare ]; then
			"$pkg/icount-time" $JIT_LOADER "$JIT_BINARY" "$@" >/dev/null 2>"$work/err"
		else
			SEALJIT_SEAL_POLICY=$p SEALJIT_SEAL_REPORT=$work/report \
				"$pkg/icount-time" $JIT_LOADER --preload "${JIT_PRELOAD:+$JIT_PRELOAD:}$pkg/libsealjit-preload.so" \
				"$JIT_BINARY" "$@" >/dev/null 2>"$work/err"
		fi
		line=$(grep '^icount-time ' "$work/err" | tail -n 1)
		ns=$(echo "$line" | sed -n 's/.*ns=\([0-9]*\).*/\1/p')
		st=$(echo "$line" | sed -n 's/.*status=\([0-9]*\).*/\1/p')
		# a sealing policy whose every area the kernel refused to seal
		if [ "$p" != bare ] && [ "$p" != none ] && [ "$st" = 0 ] &&
			grep -q '^sealjit-preload: area ' "$work/report" 2>/dev/null &&
			! grep -q '^sealjit-preload: area .* sealed -$' "$work/report"; then
			st=unsealed
		fi
		echo "# cost kernel=$kernel workload=$w policy=$p instructions=${ns:--} status=${st:--} jit=$name"
	done
done
echo "# cost-done"
