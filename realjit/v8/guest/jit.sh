# shellcheck shell=sh
# shellcheck disable=SC2034,SC2154 # read, and $pkg and $work set, by run-cases.sh and cost-run.sh
# realjit/v8/guest/jit.sh - V8's guest functions (Debian's Node.js), sourced by
# realjit/guest/run-cases.sh and cost-run.sh (busybox sh) with $pkg, the
# package (realjit/README.md says what they are for).  A workload's header
# lines: "// node-flags: FLAGS" (its command line) and "// expect-stderr:
# LINE" (a line its stderr must hold when it ran with the JIT: the tier it
# reached, the engine that ran).
JIT_NAME=V8
JIT_EXT=js
JIT_HEADER=//
JIT_LOADER="$pkg/jit/ld-linux-x86-64.so.2 --library-path $pkg/jit"
JIT_BINARY=$pkg/jit/node
JIT_REFERENCE="node --jitless"
JIT_CASE_TIMEOUT=600
# V8 stops itself with a trap: no summary; the errno of its abort is the
# last call refused it (what its failed CHECK saw).
JIT_REPORT_END=start
JIT_ABORT_ERRNO=last
# Its own stop: a failed CHECK ("# Fatal error ... # Check failed: ...").
JIT_OWN_ABORT=v8-check

# node reads JavaScript from /usr/share/nodejs at start-up.
jit_setup() {
	mkdir -p /usr/share
	[ -e /usr/share/nodejs ] || ln -s "$pkg/share-nodejs" /usr/share/nodejs
}

jit_flags() { sed -n 's|^// node-flags: ||p' "$1" | head -n 1; }

jit_workload_args() { echo "$(jit_flags "$1") $1"; }

jit_watch_args() { :; }

jit_reference_args() { echo "--jitless $(jit_flags "$1") $1"; }

jit_attack_args() { echo "$(jit_flags "$pkg/attack.js") $pkg/attack.js $1"; }

# jit_abort STDERR STATUS: v8-check (a failed CHECK), v8-fatal (another
# fatal error), signal-N, exit-N, or - (exit 0).
jit_abort() {
	if grep -q '^# Check failed: ' "$1"; then echo v8-check
	elif grep -q '^# Fatal error' "$1"; then echo v8-fatal
	elif [ "$2" -gt 128 ] 2>/dev/null; then echo "signal-$(($2 - 128))"
	elif [ "$2" != 0 ]; then echo "exit-$2"
	else echo -; fi
}

# V8's own words: the failed check, or the fatal error's line.
jit_words() {
	sed -n 's/^# \(Check failed: .*\)/\1/p; s/^# \(Fatal error in .*\)/\1/p' "$1" | tail -n 1 | cut -c 1-200
}

# The workload's expect-stderr line, when it names one.
jit_ran_check() {
	want=$(sed -n 's|^// expect-stderr: ||p' "$pkg/workloads/$1.js" | head -n 1)
	[ -z "$want" ] || grep -qx "$want" "$work/err" || echo "no '$want' on stderr: $(last_words "$work/err")"
}

jit_workload_fields() { :; }

# Before timing: node seeds its random numbers with getrandom(), which on
# the 6.1 kernels blocks until the CRNG is ready, and an idle guest's clock
# (sleep=off) jumps over the wait.
jit_warm() {
	# shellcheck disable=SC2086
	$JIT_LOADER "$JIT_BINARY" -e '0' >/dev/null 2>&1
}

# Every result line: the V8 version (MAJOR.MINOR) the package holds.
V8_VERSION=$(cat "$pkg/v8-version")
jit_case_fields() { echo "v8=$V8_VERSION"; }
