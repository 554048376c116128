#!/usr/bin/env bash
# tests/realjit-profile.sh - TAP: adding a real JIT is a profile, its
# workloads and one line, as tests/registry.sh shows for a kernel.  In a
# scratch copy of the tree a third JIT, `dummyjit`, is added as
# realjit/dummyjit/: its profile, its guest functions, one workload, its
# attacker's list, its two tables, a summary awk, and a Makefile of one
# line (`include ../jit.mk`); nothing else is edited.  Then everything that
# lists the real JITs must list it:
#   - the harness: realjit/jits, matrix.sh --list, the report's JITs
#     (cases.sh's rj_matrix_jits);
#   - the top Makefile (make -n): its build (dummyjit-bin), its fast subset
#     (test-dummyjit, a step of make test), its whole matrix
#     (dummyjit-attacks, in make test-full and make threat-model), and the
#     results make test counts (KERNEL-dummyjit on every kernel);
#   - its folder's own make test (realjit/jit.mk);
#   - matrix.sh end to end on this host, with guest/run replaced (in the
#     copy) by a stand-in that answers every case as its tables say: every
#     case judged, the summary written.
# And the other way: a profile that names no test target is refused, and
# the tree's own JITs are left as they were.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/tap.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
copy=$work/tree
new=dummyjit
dir=$copy/realjit/$new

# The tree as it is (tracked files, with their changes), and the JIT.
mkdir -p "$copy"
(cd "$top" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - 2>/dev/null) | tar -xf - -C "$copy"
mkdir -p "$dir/guest" "$dir/workloads"
cat >"$dir/$new.profile" <<'EOF'
# shellcheck shell=bash
# a JIT that is only a shell loop, to show a profile is all the harness needs
RJ_PROGRAM=DummyJIT RJ_TITLE="a dummy JIT" RJ_PROCESS=sh RJ_ATTACK_TARGET="its loop"
RJ_EXT=dum RJ_ATTACKER=$RJ_HOME/attack.sh RJ_ABORT_WANT="its own stop (abort=dummy)"
RJ_TABLE_W=$RJ_HOME/expected-workloads.tsv RJ_TABLE_A=$RJ_HOME/expected-attacks.tsv
RJ_FAST_WORKLOADS=(spin) RJ_FAST_ATTACKS=(mprotect-rw)
RJ_TEST_TARGET="make test-dummyjit" RJ_FULL_TARGET="make dummyjit-attacks"
RJ_SUMMARY_AWK=$RJ_HOME/summary.awk RJ_PAGE_INTRO=$RJ_HOME/page.html
rj_list_attacks() { sh "$RJ_ATTACKER" --list; }
rj_package() { cp "$RJ_HOME/guest/jit.sh" "$RJ_ATTACKER" "$1/" && cp -r "$RJ_WORKLOADS" "$1/"; }
EOF
cat >"$dir/guest/jit.sh" <<'EOF'
JIT_NAME=DummyJIT
JIT_REFERENCE="sh"
JIT_OWN_ABORT=dummy
JIT_ABORT_ERRNO=first
EOF
printf '# spin: a loop\n' >"$dir/workloads/spin.dum"
printf '#!/bin/sh\n[ "$1" = --list ] && echo mprotect-rw\n' >"$dir/attack.sh"
printf 'spin\tnone\t*\tRAN\t-\t-\n*\t*\t*\tUNAVAILABLE\tENOSYS\tthe stand-in guest has no mseal()\n' \
	>"$dir/expected-workloads.tsv"
printf 'mprotect-rw\tnone\t*\tLANDED\t-\tnothing sealed\n*\t*\t*\tUNAVAILABLE\tENOSYS\tthe stand-in guest has no mseal()\n' \
	>"$dir/expected-attacks.tsv"
printf 'function jit_result() {}\nfunction jit_workload_legend() {}\nfunction jit_section() {}\nfunction jit_attack_legend() {}\n' \
	>"$dir/summary.awk"
echo '<p>A dummy JIT.</p>' >"$dir/page.html"
echo 'include ../jit.mk' >"$dir/Makefile"

tap_start 12
# Make's expansion of TARGET in the copy (no recipe runs: -n, the programs "built").
dry() { make --no-print-directory -C "$copy" -n BUILT=yes "$@" 2>&1; }
# make's value of VARIABLE in the copy
value() { make --no-print-directory -C "$copy" --eval "show-value: ; @echo \$($1)" show-value 2>&1; }
# has TEXT PATTERN: TEXT matches the extended regular expression PATTERN.
has() { grep -qE -- "$2" <<<"$1"; }
kernels=$("$top/kernel/kernels" names)
# make test's real-JIT kernels: those with an mseal() (the Makefile's RJ_FAST_KERNELS)
fast=$("$top/kernel/kernels" names abi!=none)

out=$("$copy/realjit/jits" list 2>&1)
has "$out" "^$new $new yes\$" && has "$out" '^luajit luajit yes$' && has "$out" '^v8 v8 yes$'
tap_result $? "realjit/jits list names it beside the tree's own JITs" "$out"
out=$("$copy/realjit/matrix.sh" --list 2>&1)
[ "$(grep -c . <<<"$out")" = "$(($("$top/realjit/matrix.sh" --list | grep -c .) + 1))" ] && has "$out" "^$new\$"
tap_result $? "matrix.sh --list lists it, and every JIT it listed before" "$out"
out=$(bash -c '. "$1/realjit/cases.sh" && rj_matrix_jits' - "$copy" 2>&1)
has "$out" "(^| )$new( |\$)"
tap_result $? "the report page draws it (cases.sh's rj_matrix_jits: $out)"

out=$(dry "$new-bin")
has "$out" "make --no-print-directory -C realjit/$new all"
tap_result $? "make $new-bin builds its folder" "$(tail -n 3 <<<"$out")"
out=$(dry "test-$new")
has "$out" "matrix.sh --jit $new --fast --jobs [0-9]+ $fast\$"
tap_result $? "make test-$new runs its fast subset on make test's kernels with an mseal()" "$(tail -n 3 <<<"$out")"
out=$(dry "$new-attacks")
has "$out" "matrix.sh --jit $new --strict --brief $kernels \|\| rc=1; exit"
tap_result $? "make $new-attacks runs its whole matrix" "$(tail -n 3 <<<"$out")"
steps=$(value TEST_STEPS) fulls=$(value RJ.fulls) expected=$(value EXPECTED)
missing=
for k in $fast; do has "$expected" "(^| )$k-$new( |\$)" || missing+=" $k-$new"; done
has "$steps" "(^| )test-$new( |\$)" && has "$fulls" "(^| )$new-attacks( |\$)" && [ -z "$missing" ]
tap_result $? "make test runs test-$new and counts its results on every kernel with an mseal(); test-full and threat-model run $new-attacks" \
	"steps: $steps" "fulls: $fulls" "missing results:$missing"
missing=
for t in test-luajit test-luajit-pkey test-v8 test-node24; do has "$steps" "(^| )$t( |\$)" || missing+=" $t"; done
for t in luajit-attacks v8-attacks node24-attacks; do has "$fulls" "(^| )$t( |\$)" || missing+=" $t"; done
[ -z "$missing" ]
tap_result $? "the tree's own JITs' targets are all still there" "missing:$missing"
out=$(make --no-print-directory -C "$dir" -n test 2>&1)
has "$out" "matrix.sh --jit $new --strict --fast $kernels\$"
tap_result $? "its folder's one-line Makefile gives it make test (realjit/jit.mk)" "$(tail -n 2 <<<"$out")"

# matrix.sh end to end, guest/run (in the copy only) a stand-in that answers
# as the tables say: a workload RAN and an attack LANDED under none, every
# sealing policy unavailable.
cp "$top/realjit/tests/fake-guest-run" "$copy/guest/run"
mkdir -p "$copy/build/kernels/vanilla"
: >"$copy/build/kernels/vanilla/bzImage"
SEALJIT=$copy BUILD=$work/build RESULTS=$work/results "$copy/realjit/matrix.sh" --jit "$new" --fast vanilla \
	>"$work/m.out" 2>"$work/m.err"
rc=$?
# fast: 1 workload x 5 policies, 1 attack under none, 1 attack x 4 sealing
# policies, and the run's two tests
[ $rc = 0 ] && [ "$(tail -n 1 "$work/m.out")" = "12 passed, 0 failed, 0 skipped" ] &&
	[ -s "$work/results/$new-matrix-fast.md" ]
tap_result $? "matrix.sh --jit $new --fast with a stand-in guest: its 10 cases judged by its tables, 12 passed, its summary written" \
	"exit $rc: $(tail -n 1 "$work/m.out")" "$(tail -n 3 "$work/m.err")"

# A profile that names no make test target is refused, naming it.
sed -i '/^RJ_TEST_TARGET=/d' "$dir/$new.profile"
out=$("$copy/realjit/jits" make 2>&1)
rc=$?
[ $rc = 1 ] && has "$out" "$new.profile sets no RJ_TEST_TARGET"
tap_result $? "realjit/jits refuses a profile without RJ_TEST_TARGET, naming it (exit $rc)" "$out"
out=$(dry "test-$new")
[ $? != 0 ] || ! has "$out" "matrix.sh --jit $new"
tap_result $? "... and make stops rather than run without it" "$(tail -n 2 <<<"$out")"

tap_end
