#!/bin/sh
# realjit/v8/guest/trace-run.sh CONFIGS WHERE - every run of CONFIGS
# (evidence-configs.tsv) whose where column is WHERE, under strace -f -k,
# its calls on code memory named by code-ops.awk.  Runs on the host and in
# the guest (busybox sh and awk) alike; the caller says where things are:
#   NODE     the words that start node (the guest: the bundled loader)
#   STRACE   the words that start strace
#   PRELOAD  the seal-on-exec library; WORKLOADS the workloads' directory
#   OPS_AWK  code-ops.awk
#   STANDIN  Node 24's node-series stand-in (realjit/v8/standin/), for runs whose
#            policy is MODE:POLICY (key:upstream: the stand-in with its key,
#            then the seal-on-exec library with upstream)
# Prints, per run:
#   === run NAME status=S
#   the code-ops.awk lines (op, calls, threads, callers, first call)
#   --- refused LINE        each call the library saw refused
#   --- v8 LINE             V8's own words when it stopped ("Check failed: ...")
#   --- stdout LINE / --- stderr LINE   the workload's last lines
# and "=== trace-done N" at the end.  Exits 2 on misuse.
configs=$1
where=$2
[ -f "$configs" ] && [ -n "$where" ] || { echo "usage: trace-run.sh CONFIGS WHERE" >&2; exit 2; }
work=${TRACE_WORK:-/tmp/v8-trace}
mkdir -p "$work"
tab=$(printf '\t')
n=0
grep -v '^#' "$configs" | while IFS=$tab read -r name at policy workload flags _shows; do
	[ "$at" = "$where" ] || continue
	file=$WORKLOADS/$workload.js
	wflags=$(sed -n 's|^// node-flags: ||p' "$file" | head -n 1)
	[ "$flags" = - ] && flags=
	rm -f "$work/raw" "$work/report"
	preload=$PRELOAD mode=
	case $policy in
	*:*) mode=${policy%%:*} policy=${policy#*:} preload=$STANDIN:$PRELOAD ;;
	esac
	# shellcheck disable=SC2086 # words
	if [ "$policy" = bare ]; then
		$STRACE -f -qq -k -e trace=mmap,mprotect,munmap,mremap,madvise,pkey_alloc,pkey_mprotect,pkey_free \
			-o "$work/raw" $NODE $wflags $flags "$file" >"$work/out" 2>"$work/err" </dev/null
	else
		# the library in node only (strace -E), not in strace itself
		SEALJIT_SEAL_POLICY=$policy SEALJIT_SEAL_REPORT=$work/report SEALJIT_NODE_STANDIN=$mode \
			$STRACE -f -qq -k -E LD_PRELOAD=$preload \
			-e trace=mmap,mprotect,munmap,mremap,madvise,pkey_alloc,pkey_mprotect,pkey_free \
			-o "$work/raw" $NODE $wflags $flags "$file" >"$work/out" 2>"$work/err" </dev/null
	fi
	status=$?
	echo "=== run $name status=$status"
	awk -f "$OPS_AWK" "$work/raw" "$work/raw"
	sed -n 's/^sealjit-preload: \(refused .*\)/--- \1/p; s/^sealjit-preload: \(area .*\)/--- \1/p' "$work/report" 2>/dev/null
	sed -n 's/^sealjit-node-standin: \([0-9].*\)/--- stand-in \1/p' "$work/report" 2>/dev/null
	sed -n 's/^# \(Check failed: .*\)/--- v8 \1/p; s/^# \(Fatal error in .*\)/--- v8 \1/p' "$work/err"
	tail -n 2 "$work/out" | sed 's/^/--- stdout /'
	grep -v '^ *[0-9]*: 0x' "$work/err" | grep -v '^sealjit-' | tail -n 3 | sed 's/^/--- stderr /'
	n=$((n + 1))
	echo "$n" >"$work/count"
done
echo "=== trace-done $(cat "$work/count" 2>/dev/null || echo 0)"
