#!/usr/bin/env bash
# tests/registry.sh - TAP: kernel/kernels.tsv is the one place a kernel is
# named.  In a scratch copy of the tree, a sixth row, a copy of mseal's
# under the name mseal-copy, is added, and nothing else is edited; then
# every list that names kernels must name it (last: the row is the file's
# last), each in its place:
#   - the registry: make test's kernels, its build (mseal's patches and
#     fragments: the same key but for the name), its facts;
#   - make's steps (make -n): the kernel build, the selftest, jitdemo, its
#     key space and the code space, attacks, exec-seals, mmstress and its
#     control, the peer selftest, the real JITs (Debian's LuaJIT, the
#     patched one and its guest test, V8: make test's, and realjit/luajit/'s and
#     realjit/v8/'s own defaults), the benchmark, the report, the demo, and the
#     results make test counts;
#   - the programs: attacks and exec-seals, built in the copy, know
#     mseal-copy (attacks judges it by mseal's rows of expected.tsv, on this
#     host; exec-seals expects mseal's ABI); realjit/judge.sh finds mseal's
#     rows for it in LuaJIT's and V8's tables; the benchmark's summary sets
#     it against vanilla with the goals of a kernel that carries the series.
# Then the registry's reader is shown refusing what would make it lie: a
# short row, an unknown base, an unknown column value, a debug twin with a
# twin, and make stopping on such a registry rather than running nothing.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/tap.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
copy=$work/tree
new=mseal-copy

# The tree as it is (tracked files, with their changes), and the row.
mkdir -p "$copy"
(cd "$top" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - 2>/dev/null) | tar -xf - -C "$copy"
awk -F'\t' -v OFS='\t' -v new="$new" '{ print } $1 == "mseal" { $1 = new; row = $0 }
	END { print row }' "$top/kernel/kernels.tsv" >"$copy/kernel/kernels.tsv"
registry=$copy/kernel/kernels
# The C programs link libjit and share the build: the tree's own, copied
# with its times, so that only what reads the registry is compiled again.
mkdir -p "$copy/build"
for d in jitdemo attacks exec-seals; do
	[ -d "$top/build/$d" ] && cp -a "$top/build/$d" "$copy/build/"
done

tap_start 43
# Make's expansion of TARGET (no recipe runs: -n, the programs "built").
dry() { make --no-print-directory -C "$copy" -n BUILT=yes "$@" 2>&1; }
# has TEXT PATTERN: TEXT matches the extended regular expression PATTERN.
has() { grep -qE -- "$2" <<<"$1"; }
# dry_has DESCRIPTION PATTERN TARGET...
dry_has() {
	local what=$1 pattern=$2 out
	shift 2
	out=$(dry "$@")
	if has "$out" "$pattern"; then ok "$what"
	else not_ok "$what" "make -n $* does not match /$pattern/:" "$(grep -m 3 -E 'kernel|--' <<<"$out")"; fi
}

# The registry.
check "the registry with a sixth row reads" "$registry" check
main=$("$registry" names)
tap_result "$([ "$main" = "$("$top/kernel/kernels" names) $new" ]; echo $?)" \
	"make test's kernels are the tree's and $new, last ($main)"
diff <("$registry" build-args mseal | sed "s|^$copy/||; s|^mseal\$|NAME|") \
	<("$registry" build-args "$new" | sed "s|^$copy/||; s|^$new\$|NAME|") >"$work/args" 2>&1
tap_result $? "$new is built from mseal's source, series and fragments" "$(cat "$work/args")"
check "$new is judged as mseal and has mseal's model" \
	test "$("$registry" get "$new" as) $("$registry" get "$new" model)" = "mseal series"

# make's lists.
dry_has "make kernel builds it with the 6.1 kernels" "kernels build vanilla v1 mseal $new\$" kernel-6.1
dry_has "make selftest runs its own selftest" "tap-run $new-selftest -- .*kernels/$new/mseal_test $new " selftest
dry_has "the JIT's examples run sealed on it, and under --seal=pkey" "jitdemo/tests/guest.sh --examples sealed .* $new;" test-jitdemo-guest
dry_has "the code space runs on it, bounded (its VMAs merge)" "jitdemo/tests/guest.sh .*--codespace merge .* $new;" test-jitdemo-guest
dry_has "the key space runs on it, sealed by the 4-argument call" "jitdemo/tests/guest.sh .*--keyspace sealed $new;" test-jitdemo-guest
dry_has "make test-attacks attacks it" "for k in vanilla v1 mseal upstream upstream-fixes $new; do" test-attacks
dry_has "... as attacks --kernel $new" 'attacks --kernel \$k --expect' test-attacks
dry_has "make test-exec-seals runs on it" "for k in vanilla v1 mseal upstream upstream-fixes $new; do" test-exec-seals
dry_has "make test-mmstress stresses it with its model" "scripts/mmstress.sh --kernel $new;" test-mmstress
dry_has "make test-peer-selftest runs upstream's selftest on it" "tap-run $new-upstream-selftest -- .* run $new unchanged " test-peer-selftest
dry_has "... and with all five types" "tap-run $new-upstream-selftest-types -- .* run $new types " test-peer-selftest
# (make test runs the real JITs on the kernels with an mseal(): abi not none)
fast="$("$top/kernel/kernels" names abi!=none) $new"
dry_has "make test-luajit runs LuaJIT on it" "matrix.sh --jit luajit --fast --jobs [0-9]+ $fast\$" test-luajit
dry_has "make test-luajit-pkey runs the patched LuaJIT on it" \
	"matrix.sh --jit luajit-pkey --fast --jobs [0-9]+ $fast\$" test-luajit-pkey
dry_has "... and its guest test (the whole series, seal types)" \
	"tap-run $new-luajit-series -- realjit/luajit/series/tests/guest.sh $new;" test-luajit-pkey
dry_has "make test-v8 runs V8 on it" "matrix.sh --jit v8 --fast --jobs [0-9]+ $fast\$" test-v8
own=
for d in luajit v8; do
	out=$(make --no-print-directory -C "$copy/realjit/$d" -n test 2>&1)
	has "$out" "matrix.sh --jit $d --strict --fast vanilla v1 mseal upstream upstream-fixes $new\$" || own+=" $d: $(tail -n 1 <<<"$out")"
done
tap_result "$([ -z "$own" ]; echo $?)" "realjit/luajit/'s and realjit/v8/'s own make test run on it" "$own"
dry_has "make bench-kernel measures it" "bench-kernel.sh --kernels \"vanilla v1 mseal upstream upstream-fixes $new\"" bench-kernel
dry_has "make report draws its column" "report.sh --kernels \"vanilla v1 mseal upstream upstream-fixes $new\"" report
dry_has "make demo shows it" "demo.sh vanilla v1 mseal upstream upstream-fixes $new\$" demo
expected=$(make --no-print-directory -C "$copy" --eval 'show-expected: ; @echo $(EXPECTED)' show-expected 2>&1)
missing=
for r in selftest jitdemo codespace keyspace jitdemo-pkey attacks exec-seals luajit luajit-pkey luajit-series v8 \
	upstream-selftest upstream-selftest-types mmstress mmstress-race mmstress-bad-input mmstress-digest; do
	has " $expected " " $new-$r " || missing+=" $new-$r"
done
tap_result "$([ -z "$missing" ]; echo $?)" "make test counts its results (17 kinds)" "missing:$missing"

# The programs.
if make -s --no-print-directory -C "$copy/attacks" all >"$work/attacks.log" 2>&1 &&
	make -s --no-print-directory -C "$copy/exec-seals" all >"$work/exec-seals.log" 2>&1; then
	ok "attacks and exec-seals build from the copy's registry"
else
	not_ok "attacks and exec-seals build from the copy's registry" "$(tail -n 5 "$work"/*.log)"
fi
attacks=$copy/build/attacks/attacks
# The expectation a row of mseal's holds (the reclaim hole the series
# closes): the same for mseal-copy, never "-" (no row), and not v1's.
judged() { "$attacks" --kernel "$1" --expect "$copy/attacks/expected.tsv" --policy card \
	--scenario lazyfree-pageout 2>/dev/null | sed -n 's/.* \(expected=[^ ]*\) .*/\1/p' | sort -u; }
mine=$(judged "$new") theirs=$(judged mseal) rfc=$(judged v1)
tap_result "$([ -n "$mine" ] && [ "$mine" = "$theirs" ] && [ "$mine" != "$rfc" ] && [ "$mine" != expected=-/- ]; echo $?)" \
	"attacks --kernel $new judges it by mseal's rows ($mine; mseal $theirs, v1 $rfc)"
expect 2 "no kernel of kernel/kernels.tsv" "attacks refuses a kernel the registry lacks" \
	"$attacks" --kernel nope --expect "$copy/attacks/expected.tsv"
expect nonzero "^ok 1 - $new has mseal ABI mseal\(addr, len, types, flags\)|^not ok 1 - $new has mseal ABI mseal\(addr, len, types, flags\)" \
	"exec-seals --kernel $new expects mseal's ABI" "$copy/build/exec-seals/exec-seals" --kernel "$new"
: >"$work/out"
for w in luajit:hotloop luajit-pkey:hotloop v8:tier; do
	printf 'workload %s card\n' "${w#*:}" >"$work/cases"
	out=$("$copy/realjit/judge.sh" --jit "${w%%:*}" --mode fast "$new" "$work/cases" "$work/out" 2>&1)
	tap_result "$(has "$out" "^not ok 1 - $new workload ${w#*:} card: no result"; echo $?)" \
		"realjit/judge.sh --jit ${w%%:*} finds the expected rows for $new (a missing result, not a missing row)" "$(head -n 4 <<<"$out")"
done
{
	printf 'kernel\tcase\tboot\tvalue\tunit\tstatus\tnote\n'
	for k in vanilla "$new"; do for b in 1 2 3; do
		printf '%s\tmmap-munmap\t%s\t%s\tns/iter\tok\tmaps=9\n' "$k" "$b" $((1000 + b))
	done; done
} >"$work/bench.tsv"
out=$("$copy/scripts/bench-summary.sh" "$work/bench.tsv" 2>&1)
tap_result "$(has "$out" "$new against vanilla" && has "$out" "^### Goals on \`$new\`"; echo $?)" \
	"the benchmark's summary sets it against vanilla, with the series' goals" "$(grep -m 3 -E 'against|Goals' <<<"$out")"
# the chart (the page's and docs/performance.svg, report/cost-svg.awk) draws
# it against its base; a kernel whose base is a different kernel (~KERNEL:
# upstream) is a table of its own, never a bar of the chart
for b in 1 2 3; do printf 'upstream\tmmap-munmap\t%s\t900\tns/iter\tok\tmaps=9\n' "$b"; done >>"$work/bench.tsv"
out=$("$copy/scripts/bench-summary.sh" --chart "$work/chart" "$work/bench.tsv" 2>&1)
awk -v registry="$copy/kernel/kernels.tsv" -v problems=/dev/stderr -f "$copy/scripts/kernels.awk" -f "$copy/scripts/result.awk" \
	-f "$copy/scripts/expect.awk" -f "$copy/scripts/page.awk" -f "$copy/report/cost-svg.awk" "$work/chart/summary" >"$work/chart.svg" 2>&1
tap_result "$(grep -q "<title>$new mmap-munmap: " "$work/chart.svg" && grep -q "vs vanilla</text>" "$work/chart.svg" &&
	! grep -q "<title>upstream mmap-munmap" "$work/chart.svg" && has "$out" "^### Not the cost of sealing: .*upstream against vanilla"; echo $?)" \
	"the cost chart draws it against its base; upstream (~vanilla) only in a table apart" \
	"$(grep -o '<title>[^<]*' "$work/chart.svg" | head -n 3)" "$(grep -m 2 -E '^### ' <<<"$out")"

# What the reader refuses, and make with it.
bad() { # bad DESCRIPTION PATTERN AWK-EDIT
	awk -F'\t' -v OFS='\t' "$3" "$top/kernel/kernels.tsv" >"$work/bad.tsv"
	expect 1 "$2" "$1" "$top/kernel/kernels" --registry "$work/bad.tsv" check
}
bad "a row with a field missing is refused, by line" 'bad.tsv:[0-9]+: 15 tab-separated fields, not 16' \
	'$1 == "v1" { NF = 15 } { print }'
bad "a base that is no kernel is refused" "base vanill is no kernel" '$1 == "v1" { $3 = "vanill" } { print }'
bad "an unknown abi is refused" "abi is 'sealed', not one of: none types upstream" '$1 == "v1" { $7 = "sealed" } { print }'
bad "a debug twin with a twin of its own is refused" "debug twin mseal-debug has a debug twin" \
	'$1 == "mseal-debug" { $14 = "vanilla-debug" } { print }'
bad "errno without mseal() is refused" "errno is - exactly when abi is none" '$1 == "vanilla" { $8 = "EPERM" } { print }'
bad "a header that names other columns is refused" "the header names the columns" \
	'/^kernel\t/ { $7 = "call" } { print }'
awk -F'\t' -v OFS='\t' '$1 == "v1" { NF = 15 } { print }' "$top/kernel/kernels.tsv" >"$copy/kernel/kernels.tsv"
expect 2 "kernels.tsv:[0-9]+: 15 tab-separated fields" "make stops on a broken registry, naming the line" \
	make --no-print-directory -C "$copy" -n test-attacks
expect 2 "usage" "kernel/kernels without a query is misuse" "$top/kernel/kernels"
expect 1 "no kernel nope" "kernel/kernels get of an unknown kernel fails, named" "$top/kernel/kernels" get nope abi
expect 2 "no column colour" "kernel/kernels names with an unknown column is misuse" "$top/kernel/kernels" names colour=red
tap_end
