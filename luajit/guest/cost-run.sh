#!/bin/sh
# guest/cost-run.sh KERNEL "WORKLOAD..." "POLICY..." - in a guest booted
# with guest/run --icount: each workload under each policy once (policy
# "bare": luajit without the library), timed by icount-time, whose guest
# nanoseconds are guest instructions under -icount shift=0.  One line each:
#   # cost kernel=K workload=W policy=P instructions=N status=S jit=J
# J: the package's LuaJIT (its file jit: debian, plain or pkey).
# status 0: ran; 3: the kernel cannot express the policy; else it failed.
kernel=$1
workloads=$2
policies=$3
pkg=$(cd "$(dirname "$0")" && pwd)
jit=$(cat "$pkg/jit" 2>/dev/null || echo debian)
LJ="$pkg/lj/ld-linux-x86-64.so.2 --library-path $pkg/lj"
# The clock source settled and address randomization off (guest/settle).
settle
# One untimed run first: LuaJIT seeds its PRNG with getrandom(), which on
# the 6.1 kernels blocks until the CRNG is ready, about a guest second
# after boot, and an idle guest's clock (sleep=off) jumps over the wait.
$LJ "$pkg/lj/luajit" -e 'local s = 0 for i = 1, 1000 do s = s + i end' >/dev/null 2>&1

header_value() { sed -n "s/^-- $1: //p" "$2" | head -n 1; }

for w in $workloads; do
	file=$pkg/workloads/$w.lua
	flags=$(header_value luajit-flags "$file")
	for p in $policies; do
		if [ "$p" = bare ]; then
			# shellcheck disable=SC2086
			"$pkg/icount-time" $LJ "$pkg/lj/luajit" $flags "$file" >/dev/null 2>/tmp/cost.err
		else
			# shellcheck disable=SC2086
			SEALJIT_SEAL_POLICY=$p SEALJIT_SEAL_REPORT=/tmp/cost.report \
				"$pkg/icount-time" $LJ --preload "$pkg/libsealjit-preload.so" \
				"$pkg/lj/luajit" $flags "$file" >/dev/null 2>/tmp/cost.err
		fi
		line=$(grep '^icount-time ' /tmp/cost.err | tail -n 1)
		ns=$(echo "$line" | sed -n 's/.*ns=\([0-9]*\).*/\1/p')
		st=$(echo "$line" | sed -n 's/.*status=\([0-9]*\).*/\1/p')
		echo "# cost kernel=$kernel workload=$w policy=$p instructions=${ns:--} status=${st:--} jit=$jit"
	done
done
echo "# cost-done"
