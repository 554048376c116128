#!/bin/sh
# bench.sh JITDEMO EXAMPLES_DIR C_BIN_DIR - the bench-jit table.
#
# For every example: the interpreter, the JIT, and the example's plain C
# twin (bench/NAME.c) built with gcc -O0 and -O2 (C_BIN_DIR/NAME-O0, -O2).
# Each time is the call alone (no process start, load or compile), the
# median of BENCH_ROUNDS runs (default 7); a round runs the four engines
# one after another, so drift hits all of them alike.  Every run's result
# must equal NAME.expected.  Then the targets of issue 12:
#   JIT <= gcc -O0 for every example; loops <= 1.5x gcc -O2;
#   call-heavy examples (fib, ackermann) <= 2.5x gcc -O2.
# Exit status 1 when a result is wrong, 0 otherwise (a missed target is
# reported, not fatal: timings on a shared host are noisy).
jit=$1
dir=$2
cbin=$3
rounds=${BENCH_ROUNDS:-7}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# median FILE: the middle of the numbers in FILE
median() {
	sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# spread FILE: (max - min) / median of the numbers in FILE, in percent
spread() {
	sort -n "$1" | awk '{ v[NR] = $1 } END {
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.0f%%", (m > 0 ? 100 * (v[NR] - v[1]) / m : 0) }'
}

call_heavy() { case $1 in fib|ackermann|chain) return 0 ;; esac; return 1; }
# the O2 ratio each example must stay under
o2_target() {
	case $1 in fib|ackermann) echo 2.5 ;; chain) echo - ;; *) echo 1.5 ;; esac
}

printf '%-10s %10s %10s %10s %10s %9s %8s %8s %11s  %s\n' example interp_ms jit_ms gcc-O0_ms \
	gcc-O2_ms interp/jit jit/O0 jit/O2 jit/O0/O2± verdict
wrong=0
missed=0
for args_file in "$dir"/*.args; do
	base=${args_file%.args}
	name=${base##*/}
	want=$(cat "$base.expected")
	args=$(cut -d' ' -f2- "$args_file")
	: >"$tmp/interp"; : >"$tmp/jit"; : >"$tmp/O0"; : >"$tmp/O2"
	round=0
	while [ "$round" -lt "$rounds" ]; do
		round=$((round + 1))
		for engine in interp jit; do
			flag=--seal=card
			[ "$engine" = interp ] && flag=--interp
			# shellcheck disable=SC2046
			got=$("$jit" run --quiet --time $flag "$base.jit" $(cat "$args_file") 2>"$tmp/err")
			[ "$got" = "$want" ] || { echo "$name $engine: got '$got', want '$want'" >&2; wrong=1; }
			sed -n 's/.*call took \([0-9.]*\) ms.*/\1/p' "$tmp/err" >>"$tmp/$engine"
		done
		for opt in O0 O2; do
			# shellcheck disable=SC2086
			set -- $("$cbin/$name-$opt" $args)
			[ "$1" = "$want" ] || { echo "$name gcc -$opt: got '$1', want '$want'" >&2; wrong=1; }
			echo "$2" >>"$tmp/$opt"
		done
	done
	i=$(median "$tmp/interp"); j=$(median "$tmp/jit")
	o0=$(median "$tmp/O0"); o2=$(median "$tmp/O2")
	spreads="$(spread "$tmp/jit")/$(spread "$tmp/O0")/$(spread "$tmp/O2")"
	target=$(o2_target "$name")
	verdict=$(awk -v i="$i" -v j="$j" -v o0="$o0" -v o2="$o2" -v t="$target" 'BEGIN {
		v = (j <= o0) ? "ok" : "SLOWER than -O0";
		if (t != "-" && j > t * o2) v = v ", over " t "x -O2";
		print v }')
	case $verdict in ok) ;; *) missed=$((missed + 1)) ;; esac
	kind=loops
	call_heavy "$name" && kind=calls
	awk -v n="$name" -v i="$i" -v j="$j" -v o0="$o0" -v o2="$o2" -v v="$verdict" -v k="$kind" \
		-v s="$spreads" 'BEGIN {
		printf "%-10s %10.2f %10.2f %10.2f %10.2f %8.1fx %7.2fx %7.2fx %11s  %s (%s)\n",
			n, i, j, o0, o2, i / j, j / o0, j / o2, s, v, k }'
done
echo "(medians of $rounds rounds; call time only; ± is (max - min) / median of the rounds;"
echo " targets missed: $missed)"
exit "$wrong"
