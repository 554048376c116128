#!/usr/bin/env bash
# realjit/luajit/tests/host.sh - host TAP tests of realjit/luajit/, that
# need no guest and hold on any host kernel: the library's answer to bad
# input, its report, what it says about a policy this kernel cannot
# express, every workload matching `luajit -joff` under none, the attack
# list, every attack's control under none, the bundle, and the shape of
# the expectation tables.  The harness's own tests (run-cases, cases,
# judge, summary, matrix, run with LuaJIT's profiles) are
# realjit/tests/host.sh's.
# shellcheck disable=SC2034 # read by cases.sh
RJ_WHO=host.sh
# shellcheck source=realjit/tests/prologue.sh
. "$(dirname "$0")/../../tests/prologue.sh"
rj_test_need "$lib" "$SEALJIT_ATTACK_LIB" "make realjit-bin"
command -v luajit >/dev/null || { echo "Bail out! luajit missing (apt-get install luajit)"; exit 1; }

# lj POLICY ARG...: luajit with the library; POLICY "-" leaves it unset.
lj() {
	local policy=$1
	shift
	if [ "$policy" = - ]; then
		env -u SEALJIT_SEAL_POLICY LD_PRELOAD="$lib" luajit "$@"
	else
		SEALJIT_SEAL_POLICY=$policy LD_PRELOAD="$lib" luajit "$@"
	fi
}
# refuses STATUS PATTERN POLICY [ENV...]: lj exits STATUS, saying PATTERN.
refuses() {
	local status=$1 pattern=$2 policy=$3 rc
	shift 3
	env "$@" bash -c "$(declare -f lj); lib='$lib'; lj '$policy' -e 'print(1)'" >"$work/out" 2>"$work/err"
	rc=$?
	[ "$rc" = "$status" ] && grep -q "$pattern" "$work/err" && ! grep -q '^1$' "$work/out"
}

refuses 2 "SEALJIT_SEAL_POLICY is not set" -
tap_result $? "an unset SEALJIT_SEAL_POLICY stops luajit at start-up, exit 2"
refuses 2 "unknown SEALJIT_SEAL_POLICY 'pinn'" pinn
tap_result $? "an unknown policy stops luajit at start-up, exit 2, naming it"
refuses 2 "unknown SEALJIT_SEAL_POLICY ''" ""
tap_result $? "an empty policy is not none: exit 2"
(cd "$work" && refuses 2 "must be an absolute file name" none SEALJIT_SEAL_REPORT=report.txt &&
	[ ! -e report.txt ])
tap_result $? "a relative SEALJIT_SEAL_REPORT stops luajit at start-up, exit 2, creating nothing"

SEALJIT_SEAL_REPORT=$work/report lj none "$here/workloads/hotloop.lua" >/dev/null 2>&1
grep -Eq '^sealjit-preload: summary policy=none .* areas=[1-9][0-9]* sealed=0 ' "$work/report"
tap_result $? "none: the report file names the areas LuaJIT made executable, none sealed"

# The attacker's bytes end the process with exit_group(65): no atexit,
# no summary; the start and area lines were written as they happened.
rm -f "$work/report"
SEALJIT_SEAL_REPORT=$work/report lj none "$here/attack/attack.lua" mprotect-rw >/dev/null 2>&1
rc=$?
[ $rc = 65 ] && grep -q '^sealjit-preload: start policy=none ' "$work/report" &&
	grep -Eq '^sealjit-preload: area 0x[0-9a-f]+ \+[0-9]+ not-sealed -$' "$work/report" &&
	! grep -q '^sealjit-preload: summary ' "$work/report"
tap_result $? "a process that never reaches exit (exit_group(65), status $rc) leaves its start and area lines"

# Every sealing policy either seals the code LuaJIT makes (one hot loop: one
# trace, so even a policy that seals mprotect lets it finish) and reports
# it, or says this kernel cannot express it, exit 3: never a silent none.
one_trace='local s = 0 for i = 1, 1000000 do s = s + i end print(s)'
for p in pin card all upstream; do
	rm -f "$work/report"
	SEALJIT_SEAL_REPORT=$work/report lj "$p" -e "$one_trace" >"$work/out" 2>"$work/err"
	rc=$?
	if [ $rc = 3 ]; then
		what="refused at start-up as inexpressible"
		grep -q "policy '$p' cannot be expressed on this kernel (probe=[A-Z]*)" "$work/report"
	else
		what="ran, every area sealed"
		[ $rc = 0 ] && grep -qx 500000500000 "$work/out" &&
			grep -q "^sealjit-preload: note probe: one scratch page sealed" "$work/report" &&
			grep -Eq "^sealjit-preload: summary policy=$p .* areas=([1-9][0-9]*) sealed=\\1 .* refused_mseal=0 " "$work/report"
	fi
	r=$?
	[ $r = 0 ] || echo "# exit $rc: $(grep summary "$work/report") $(head -c 300 "$work/err")"
	tap_result $r "$p on this kernel: a trace's code sealed, or the policy refused at start-up as inexpressible ($what, exit $rc)"
done

set -- "$here"/workloads/*.lua
tap_files "the workloads of realjit/luajit/" "$@" &&
for w; do
	name=$(basename "$w" .lua)
	flags=$(sed -n 's/^-- luajit-flags: //p' "$w")
	# shellcheck disable=SC2086 # the flags are words
	luajit $flags -joff "$w" >"$work/ref" 2>&1
	# shellcheck disable=SC2086
	SEALJIT_SEAL_REPORT=$work/report lj none $flags "$w" >"$work/jit" 2>&1 &&
		cmp -s "$work/ref" "$work/jit"
	tap_result $? "workload $name under none prints what luajit -joff prints"
done

# The attacks: attack.lua --list, read and checked as matrix.sh reads it.
rj_use_jit luajit || { echo "Bail out! no luajit profile"; exit 1; }
rj_read_attacks 2>"$work/list.err"
tap_result $? "attack.lua --list names expected-attacks.tsv's scenarios (${#rj_attacks[@]}) $(cat "$work/list.err")"
[ ${#rj_attacks[@]} -gt 0 ] || tap_result 1 "attacks under none: no attack to run"
# The control's expected outcome is the table's none row for any kernel
# (scripts/expect.awk): LANDED, or BLOCKED by W^X alone (store-code: a
# store into read-execute code faults).
none_row() {
	awk -v registry="$SEALJIT/kernel/kernels.tsv" -v table="$RJ_TABLE_A" -v a="$1" \
		-f "$SEALJIT/scripts/kernels.awk" -f "$SEALJIT/scripts/expect.awk" -f <(echo 'BEGIN {
		if (expect_load("a", table) != "") exit 1
		i = expect_match("a", a, "none", "this-host", "")
		if (i) print exp_outcome["a", i] " " exp_errno["a", i]
	}')
}
for a in "${rj_attacks[@]}"; do
	lj none "$here/attack/attack.lua" "$a" >"$work/out" 2>&1
	want=$(none_row "$a")
	case $want in
	"LANDED -") grep -q "^attack scenario=$a call=ok outcome=LANDED " "$work/out" ;;
	"BLOCKED "*) grep -q "^attack scenario=$a call=${want#BLOCKED } outcome=BLOCKED errno=${want#BLOCKED } changed=- " "$work/out" &&
		grep -q '^rerun value=ok$' "$work/out" ;;
	*) false ;;
	esac
	tap_result $? "attack $a under none on this host: ${want:-no none row} (the control)"
done

"$SEALJIT/guest/bundle.sh" >/dev/null 2>&1
[ $? = 2 ]
tap_result $? "bundle.sh without arguments is misuse, exit 2"
"$SEALJIT/guest/bundle.sh" luajit "$work/lj" &&
	[ "$("$work/lj/ld-linux-x86-64.so.2" --library-path "$work/lj" "$work/lj/luajit" -e 'print(6 * 7)')" = 42 ]
tap_result $? "bundle.sh luajit: the bundle runs through its own loader"
# bundle.sh BINARY OUT must exit 1 saying PATTERN, and leave no OUT behind
bundle_refuses() {
	"$SEALJIT/guest/bundle.sh" "$1" "$work/bundle" 2>"$work/err"
	[ $? = 1 ] && grep -qE "$2" "$work/err" && [ ! -e "$work/bundle" ] && [ ! -e "$work/bundle.tmp" ] && return 0
	sed 's/^/# /' "$work/err"
	return 1
}
# a program whose library is gone: ldd says "not found", and exits 0
printf 'int gone(void) { return 0; }\n' >"$work/gone.c"
printf 'int gone(void);\nint main(void) { return gone(); }\n' >"$work/needs.c"
${CC:-cc} -shared -fPIC -o "$work/libgone.so" "$work/gone.c" &&
	${CC:-cc} -o "$work/needs-gone" "$work/needs.c" -L"$work" -lgone && rm "$work/libgone.so" &&
	bundle_refuses "$work/needs-gone" 'ldd finds no file for .*: libgone\.so$'
tap_result $? "bundle.sh: a library ldd does not find is an error that names it, exit 1, no bundle"
# a static program: ldd fails
printf 'int main(void) { return 0; }\n' >"$work/static.c"
${CC:-cc} -static -o "$work/static" "$work/static.c" &&
	bundle_refuses "$work/static" 'ldd cannot list the libraries of .*static.*not a dynamic executable'
tap_result $? "bundle.sh: a static binary is an error that says ldd cannot list it, exit 1, no bundle"

set -- "$here"/expected-*.tsv
tap_files "the expectation tables of realjit/luajit/" "$@" &&
for t; do
	awk -F'\t' '!/^#/ && NF > 0 {
		if (NF != 6) { print FILENAME ": " NR ": " NF " columns"; bad = 1 }
		if ($4 !~ /^(RAN|ABORTED|LANDED|BLOCKED|UNAVAILABLE)$/) { print NR ": outcome " $4; bad = 1 }
		needs = ($4 == "ABORTED" || $4 == "UNAVAILABLE" || ($4 == "LANDED" && $2 != "none"))
		if (needs && ($6 == "" || $6 == "-")) { print NR ": no reason"; bad = 1 }
		if ($4 == "BLOCKED" && $5 !~ /^(E[A-Z]+|SIGSEGV)$/) { print NR ": no errno"; bad = 1 }
	} END { exit bad }' "$t"
	tap_result $? "$(basename "$t"): six columns, a known outcome, a reason where one is due"
done

tap_end
