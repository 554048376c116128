# shellcheck shell=sh
# shellcheck disable=SC2034,SC2154 # read, and $pkg and $work set, by run-cases.sh and cost-run.sh
# realjit/v8/node24/guest/jit.sh - V8's guest functions for the official Node.js 24
# (profiles node24 and node24-key), sourced by realjit/guest/run-cases.sh
# and cost-run.sh (busybox sh) with $pkg, the package.  Node 18's
# (realjit/v8/guest/jit.sh, packaged as jit-node18.sh) with these differences: the
# node-series stand-in is preloaded before the seal-on-exec library, with
# its key (node24-key) or without (node24); nothing is read from
# /usr/share/nodejs; and every result line carries the stand-in's key.
. "$pkg/jit-node18.sh"
JIT_REFERENCE="node --jitless"
JIT_ABORT_ERRNO=last
JIT_OWN_ABORT=v8-check
JIT_PRELOAD=$pkg/libsealjit-node-series-standin.so

jit_setup() {
	case $(cat "$pkg/name") in
	node24-key) SEALJIT_NODE_STANDIN=key ;;
	*) SEALJIT_NODE_STANDIN=nokey ;;
	esac
	export SEALJIT_NODE_STANDIN
}

# The stand-in's words (realjit/v8/standin/standin.h): the key it gave V8 (-1:
# none), and whether V8 made code executable under it (ThreadIsolation on).
standin_key() {
	v=$(sed -n 's/^sealjit-node-standin: start .* key=\(-\{0,1\}[0-9]*\) .*/\1/p' "$work/report" 2>/dev/null | head -n 1)
	echo "${v:--}"
}

keyed_code() {
	if grep -q '^sealjit-node-standin: 0001 code under ' "$work/report" 2>/dev/null; then echo yes; else echo no; fi
}

jit_workload_fields() { echo "key=$(standin_key) keyed_code=$(keyed_code)"; }

jit_case_fields() { echo "v8=$V8_VERSION"; }
