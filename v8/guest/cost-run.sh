#!/bin/sh
# v8/guest/cost-run.sh KERNEL "WORKLOAD..." "POLICY..." - in a guest booted
# with guest/run --icount: each workload under each policy once (policy
# "bare": node without the library), timed by icount-time, whose guest
# nanoseconds are guest instructions under -icount shift=0.  One line each:
#   # cost kernel=K workload=W policy=P instructions=N status=S
# status 0: ran; 3: the kernel cannot express the policy; unsealed: it ran,
# but the kernel refused to seal any of V8's code (EBUSY: fork advice);
# else it failed (133: V8 stopped itself with a trap).
kernel=$1
workloads=$2
policies=$3
pkg=$(cd "$(dirname "$0")" && pwd)
NODE="$pkg/node/ld-linux-x86-64.so.2 --library-path $pkg/node"
mkdir -p /usr/share
[ -e /usr/share/nodejs ] || ln -s "$pkg/share-nodejs" /usr/share/nodejs
# The clock source settled and address randomization off (guest/settle).
settle
# One untimed run first: node seeds its random numbers with getrandom(),
# which on the 6.1 kernels blocks until the CRNG is ready, and an idle
# guest's clock (sleep=off) jumps over the wait.
$NODE "$pkg/node/node" -e '0' >/dev/null 2>&1

for w in $workloads; do
	file=$pkg/workloads/$w.js
	flags=$(sed -n 's|^// node-flags: ||p' "$file" | head -n 1)
	for p in $policies; do
		if [ "$p" = bare ]; then
			# shellcheck disable=SC2086
			"$pkg/icount-time" $NODE "$pkg/node/node" $flags "$file" >/dev/null 2>/tmp/cost.err
		else
			# shellcheck disable=SC2086
			SEALJIT_SEAL_POLICY=$p SEALJIT_SEAL_REPORT=/tmp/cost.report \
				"$pkg/icount-time" $NODE --preload "$pkg/libsealjit-preload.so" \
				"$pkg/node/node" $flags "$file" >/dev/null 2>/tmp/cost.err
		fi
		line=$(grep '^icount-time ' /tmp/cost.err | tail -n 1)
		ns=$(echo "$line" | sed -n 's/.*ns=\([0-9]*\).*/\1/p')
		st=$(echo "$line" | sed -n 's/.*status=\([0-9]*\).*/\1/p')
		# a sealing policy whose every area the kernel refused to seal
		if [ "$p" != bare ] && [ "$p" != none ] && [ "$st" = 0 ] &&
			grep -q '^sealjit-preload: area ' /tmp/cost.report 2>/dev/null &&
			! grep -q '^sealjit-preload: area .* sealed -$' /tmp/cost.report; then
			st=unsealed
		fi
		rm -f /tmp/cost.report
		echo "# cost kernel=$kernel workload=$w policy=$p instructions=${ns:--} status=${st:--}"
	done
done
echo "# cost-done"
