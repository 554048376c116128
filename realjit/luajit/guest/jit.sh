# shellcheck shell=sh
# shellcheck disable=SC2034,SC2154 # read, and $pkg and $work set, by run-cases.sh and cost-run.sh
# realjit/luajit/guest/jit.sh - LuaJIT's guest functions, sourced by
# realjit/guest/run-cases.sh and cost-run.sh (busybox sh) with $pkg, the
# package (realjit/README.md says what they are for).  The package's file
# flavor says which LuaJIT jit/ holds: debian (as installed), plain or pkey
# (realjit/luajit/series/build.sh; pkey runs every workload with `-l mcodeinfo`).
JIT_NAME=LuaJIT
JIT_EXT=lua
JIT_HEADER=--
JIT_LOADER="$pkg/jit/ld-linux-x86-64.so.2 --library-path $pkg/jit"
JIT_BINARY=$pkg/jit/luajit
JIT_REFERENCE="luajit -joff"
JIT_CASE_TIMEOUT=240
# LuaJIT stops through exit(), so the library's summary is written; the
# errno of its abort is the first call refused it.
JIT_REPORT_END=summary
JIT_ABORT_ERRNO=first
# Its own stop: lj_mcode.c's mcode_protfail panic, "runtime code generation
# failed, restricted kernel?".
JIT_OWN_ABORT=codegen
JIT_FLAVOR=$(cat "$pkg/flavor" 2>/dev/null || echo debian)

# where `-l mcodeinfo` finds mcodeinfo.lua (";;": and the default path)
jit_setup() { LUA_PATH="$pkg/?.lua;;"; export LUA_PATH; }

jit_flags() { sed -n 's/^-- luajit-flags: //p' "$1" | head -n 1; }

jit_workload_args() { echo "$(jit_flags "$1") $1"; }

# What the matrix adds to watch a workload (not timed): the pkey LuaJIT's
# mcodeinfo line at lua_close().
jit_watch_args() { [ "$JIT_FLAVOR" != pkey ] || echo "-l mcodeinfo"; }

jit_reference_args() { echo "$(jit_flags "$1") -joff $1"; }

jit_attack_args() { echo "$pkg/attack.lua $1"; }

# jit_abort STDERR STATUS: codegen (its own panic), other (another PANIC),
# signal-N, exit-N, or - (exit 0).
jit_abort() {
	if grep -q '^PANIC: .*runtime code generation failed' "$1"; then echo codegen
	elif grep -q '^PANIC: ' "$1"; then echo other
	elif [ "$2" -gt 128 ] 2>/dev/null; then echo "signal-$(($2 - 128))"
	elif [ "$2" != 0 ]; then echo "exit-$2"
	else echo -; fi
}

jit_words() { sed -n 's/^\(PANIC: .*\)/\1/p' "$1" | tail -n 1 | cut -c 1-200; }

# No check beyond its output.
jit_ran_check() { :; }

# The pkey LuaJIT's mcodeinfo line at lua_close(): how its code was kept
# W^X, bytes of sealed areas never reused, and reused ("-" without it).
jit_workload_fields() {
	awk '/^mcodeinfo / { for (i = 2; i <= NF; i++) if ((eq = index($i, "=")) > 1) v[substr($i, 1, eq - 1)] = substr($i, eq + 1) }
		function f(name) { return name in v ? v[name] : "-" }
		END { printf "mcode=%s retired_bytes=%s reused_bytes=%s ", f("mode"), f("retired"), f("reused") }' \
		"$work/err" 2>/dev/null
}

# Before timing: LuaJIT seeds its PRNG with getrandom(), which on the 6.1
# kernels blocks until the CRNG is ready, about a guest second after boot,
# and an idle guest's clock (sleep=off) jumps over the wait.
jit_warm() {
	# shellcheck disable=SC2086
	$JIT_LOADER "$JIT_BINARY" -e 'local s = 0 for i = 1, 1000 do s = s + i end' >/dev/null 2>&1
}
