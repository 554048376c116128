#!/bin/sh
# bench.sh JITDEMO EXAMPLES_DIR - the bench-jit table: for each example,
# interpreter and JIT time of one run, their ratio, compile throughput and
# the cost of the mprotect+mseal step per arena.  A benchmark, not a test.
jit=$1
dir=$2
printf '%-12s %12s %10s %9s %14s %14s\n' example interp_ms jit_ms speedup \
	compile_insn/s mprot+seal_us
for args_file in "$dir"/*.args; do
	base=${args_file%.args}
	# shellcheck disable=SC2046
	"$jit" run --bench --quiet "$base.jit" $(cat "$args_file") || exit 1
done
echo "(seal policy card; on a kernel with upstream mseal the arenas fall back"
echo " to mseal(addr, len, 0) and stay mapped until exit)"
