#!/usr/bin/env bash
# realjit/tests/host.sh - host TAP tests of the real-JIT harness itself,
# that need no guest and hold on any host kernel, run with real profiles
# (LuaJIT's, whose binary every host test machine has, and V8's tables):
# realjit/guest/run-cases.sh run on this host (a workload reading stdin
# leaves the case list alone; a library that never loads is an ERROR),
# cases.sh's check of an attacker's list (a failing, empty or foreign one
# is refused), the judge on synthetic results (each rule shown failing
# when it should), the summary, and matrix.sh with a stand-in guest.  Each
# JIT's own tests are realjit/DIR/tests/host.sh; that a new profile is
# picked up everywhere is tests/realjit-profile.sh.
# shellcheck disable=SC2034 # read by cases.sh
RJ_WHO=host.sh
# shellcheck source=realjit/tests/prologue.sh
. "$(dirname "$0")/prologue.sh"
rj_test_need "$lib" "$SEALJIT_ATTACK_LIB" "make realjit-bin"
command -v luajit >/dev/null || { echo "Bail out! luajit missing (apt-get install luajit)"; exit 1; }
rj_use_jit luajit || { echo "Bail out! no luajit profile"; exit 1; }
rj_read_attacks 2>"$work/list.err" || { echo "Bail out! attack.lua --list: $(cat "$work/list.err")"; exit 1; }

# realjit/guest/run-cases.sh on this host, in the package realjit/package.sh
# lays out.
# cases: what it runs; expects: the patterns its output must hold.
run_cases() { # LABEL CASES PATTERN...
	local label=$1 cases=$2 p
	shift 2
	printf '%b' "$cases" >"$work/pkg/cases"
	rm -rf "$work/cases-work"
	(cd "$work/pkg" && CASE_WORK=$work/cases-work CASE_TIMEOUT=60 sh ./run-cases.sh host cases) \
		>"$work/cases.out" 2>&1 || return 1
	for p in "$@"; do grep -Eq -- "$p" "$work/cases.out" || { echo "# $label: no line matches $p"; return 1; }; done
}
SEALJIT=$SEALJIT BUILD=$BUILD "$SEALJIT/realjit/package.sh" --jit luajit "$work/pkg" >/dev/null 2>&1
# a workload that reads its stdin: it must not eat the case list
cat >"$work/pkg/workloads/eats-stdin.lua" <<'LUA'
local s = 0
for i = 1, 100000 do s = s + i end
print(s, #(io.read("*a") or ""))
LUA
run_cases "three cases" 'workload eats-stdin none\nworkload hotloop none\nattack mprotect-rw none\n' \
	'^# result kind=workload kernel=host name=eats-stdin policy=none outcome=RAN ' \
	'^# result kind=workload kernel=host name=hotloop policy=none outcome=RAN errno=- status=0 abort=- areas=[1-9][0-9]* sealed=0 refused_mseal=0 ' \
	'^# result kind=attack kernel=host name=mprotect-rw policy=none outcome=LANDED errno=- status=65 abort=exit-65 changed=code rerun=payload areas=1 sealed=0 refused_mseal=0 ' \
	'^# cases-done 3$'
tap_result $? "run-cases.sh: RAN and LANDED under none with the library's counts (the attack's from its area lines); a workload reading stdin leaves the case list alone"
# ld.so --preload of a file that is no library only warns: LuaJIT runs
# without it, and neither case may pass for RAN or LANDED
echo 'not a library' >"$work/pkg/libsealjit-preload.so"
run_cases "no library" 'workload hotloop none\nattack mprotect-rw none\n' \
	'^# result kind=workload kernel=host name=hotloop policy=none outcome=ERROR .* detail=no summary line from the library' \
	'^# result kind=attack kernel=host name=mprotect-rw policy=none outcome=ERROR .* detail=no start line from the library' \
	'^# cases-done 2$'
tap_result $? "run-cases.sh: a library that never loaded (ld.so only warns) is an ERROR, not RAN or LANDED"

# realjit/cases.sh: an attack list that fails, is empty or is not the table's
# scenarios stops the run (exit 2, saying why) instead of shrinking it.
list_refused 'attack.lua --list failed (exit 1)' false &&
	list_refused 'attack.lua --list named no attack' true &&
	list_refused 'only in the table: libc-mprotect madvise-dontneed' sh -c 'echo mprotect-rw' - &&
	list_refused 'only listed: nonesuch' sh -c 'luajit "$@"; echo nonesuch' - &&
	list_refused 'only listed: mprotect-rw' sh -c 'luajit "$@"; echo mprotect-rw' -
tap_result $? "cases.sh: a failing, empty, short, foreign or doubled attack.lua --list is refused, exit 2"

# realjit/judge.sh on synthetic results.  judge MODE CASES RESULTS:
# $work/tap, $judged.  JUDGE_JIT=luajit-pkey judges as realjit/luajit/series/' LuaJIT.
judge() {
	printf '%b' "$2" >"$work/cases"
	printf '%b' "$3" >"$work/results"
	"$SEALJIT/realjit/judge.sh" --jit "${JUDGE_JIT:-luajit}" --mode "$1" mseal "$work/cases" "$work/results" \
		>"$work/tap" 2>"$work/judge.err"
	judged=$?
}
# tap_has PATTERN...: every pattern is a line of $work/tap.
tap_has() {
	local p
	for p in "$@"; do grep -Eq -- "$p" "$work/tap" || { echo "# no line matches: $p"; sed 's/^/#   /' "$work/tap"; return 1; }; done
}
R='# result kind=workload kernel=mseal name=hotloop'
A='# result kind=attack kernel=mseal name=mprotect-rw'
judge fast 'attack mprotect-rw none\nattack mremap-move none\nworkload hotloop pin\n' \
	"${A} policy=none outcome=BLOCKED errno=EACCES status=0 rerun=ok areas=1 sealed=0 refused_mseal=0\n${R} policy=pin outcome=RAN errno=- status=0 abort=- areas=2 sealed=2 refused_mseal=0\n"
tap_has '^not ok 1 - mseal attack mprotect-rw none' '^not ok 2 - mseal attack mremap-move none: no result' \
	'^ok 3 - mseal workload hotloop pin' && [ $judged = 1 ]
tap_result $? "judge.sh: a control that does not land fails, a missing result fails, exit 1"

judge fast 'workload hotloop pin\n' \
	"${R} policy=pin outcome=RAN errno=- status=0 abort=- areas=2 sealed=0 refused_mseal=0 detail=sealed=2\n"
tap_has '^not ok 1 - mseal workload hotloop pin: RAN - \(expected RAN -\): sealed 0 of 2 areas$'
r1=$?
judge fast 'workload hotloop pin\n' \
	"${R} policy=pin outcome=RAN errno=- status=0 abort=- areas=2 sealed=0 refused_mseal=2\n"
tap_has '^not ok 1 - mseal workload hotloop pin: .*: the kernel refused 2 mseal calls$'
r2=$?
judge fast 'workload hotloop pin\n' "${R} policy=pin outcome=RAN errno=- status=0 abort=- areas=- sealed=- refused_mseal=-\n"
tap_has '^not ok 1 - mseal workload hotloop pin: .*: the library.s counts are missing'
r3=$?
judge fast 'workload hotloop none\n' "${R} policy=none outcome=RAN errno=- status=0 abort=- areas=2 sealed=1 refused_mseal=0\n"
tap_has '^not ok 1 - mseal workload hotloop none: .*: none sealed 1 areas$'
r4=$?
[ $r1 = 0 ] && [ $r2 = 0 ] && [ $r3 = 0 ] && [ $r4 = 0 ]
tap_result $? "judge.sh: RAN under pin with nothing sealed, with every mseal refused, or without the library's counts fails; so does none that sealed"

abort() { # STATUS ABORT: one ABORTED card case
	judge fast 'workload hotloop card\n' \
		"${R} policy=card outcome=ABORTED errno=EACCES status=$1 abort=$2 areas=1 sealed=1 refused_mseal=0\n"
}
abort 139 -
tap_has "^not ok 1 - mseal workload hotloop card: ABORTED EACCES \(expected ABORTED EACCES\): not LuaJIT's own abort \(status 139 abort=-"
r1=$?
abort 124 -
tap_has "^not ok 1 - .*: not LuaJIT's own abort \(status 124 "
r2=$?
abort 1 other
tap_has "^not ok 1 - .*: not LuaJIT's own abort \(status 1 abort=other"
r3=$?
abort 1 codegen
tap_has '^ok 1 - mseal workload hotloop card: ABORTED EACCES \(expected ABORTED EACCES\)$'
r4=$?
[ $r1 = 0 ] && [ $r2 = 0 ] && [ $r3 = 0 ] && [ $r4 = 0 ]
tap_result $? "judge.sh: ABORTED is LuaJIT's codegen panic, status 1: a SIGSEGV (139), a timeout (124) or another panic fails"

judge fast 'attack mprotect-rw pin\nattack mprotect-rw card\n' \
	"${A} policy=pin outcome=LANDED errno=- status=65 rerun=payload areas=1 sealed=0 refused_mseal=1\n${A} policy=card outcome=BLOCKED errno=EACCES status=0 rerun=ok areas=1 sealed=1 refused_mseal=0\n"
tap_has '^not ok 1 - mseal attack mprotect-rw pin: LANDED - rerun=payload \(expected LANDED -\): the kernel refused 1 mseal calls$' \
	'^ok 2 - mseal attack mprotect-rw card: BLOCKED EACCES rerun=ok \(expected BLOCKED EACCES\)$'
tap_result $? "judge.sh: an attack that LANDED under pin on an area the kernel would not seal fails"

# realjit/luajit/series/' LuaJIT: its code kept W^X by a key, its areas under one
JUDGE_JIT=luajit-pkey judge fast 'workload hotloop card\nworkload flush card\nattack mprotect-rw card\nattack munmap-mmap card\n' \
	"${R} policy=card outcome=RAN errno=- status=0 abort=- areas=1 sealed=1 refused_mseal=0 mcode=mprotect\n${R/hotloop/flush} policy=card outcome=RAN errno=- status=0 abort=- areas=1 sealed=1 refused_mseal=0 mcode=pkey\n${A} policy=card outcome=BLOCKED errno=EACCES status=0 rerun=ok areas=1 sealed=1 refused_mseal=0 pkey=0\n${A/mprotect-rw/munmap-mmap} policy=card outcome=BLOCKED errno=EACCES status=0 rerun=ok areas=1 sealed=1 refused_mseal=0 pkey=1\n"
tap_has '^not ok 1 - mseal workload hotloop card: RAN - \(expected RAN -\): the code was not kept W\^X by a protection key \(mcode=mprotect\)$' \
	'^ok 2 - mseal workload flush card' \
	'^not ok 3 - mseal attack mprotect-rw card: .*: the attacked area was under no protection key \(pkey=0\)$' \
	'^ok 4 - mseal attack munmap-mmap card: BLOCKED EACCES'
tap_result $? "judge.sh --jit luajit-pkey: a workload run without the key (mcode=mprotect) or an attack on an area under no key fails"

# the run as a whole: the mode's case list, and the guest's end
fast_list=$(rj_read_workloads && rj_table_attack_names && rj_write_cases fast)
nfast=$(grep -c . <<<"$fast_list")
judge fast "$fast_list\n" "# cases-done $nfast\n# guest/run exit 0\n"
tap_has "^ok $((nfast + 1)) - mseal run: the fast mode's $nfast cases \(" "^ok $((nfast + 2)) - mseal run: the guest ran to the end \(cases-done $nfast of $nfast, guest/run exit 0\)$"
r1=$?
judge fast "$(grep -v '^attack .* none$' <<<"$fast_list")\n" ""
tap_has "^not ok $((nfast - ${#rj_attacks[@]} + 1)) - mseal run: the fast mode's $nfast cases .*: the case list has $((nfast - ${#rj_attacks[@]})), not that list$"
r2=$?
judge full "$fast_list\n" ""
tap_has "^not ok $((nfast + 1)) - mseal run: the full mode's [0-9]+ cases"
r3=$?
[ $r1 = 0 ] && [ $r2 = 0 ] && [ $r3 = 0 ]
tap_result $? "judge.sh: the case list must be the mode's ($nfast fast): one without the controls, or the fast list judged as full, fails"

judge fast "$fast_list\n" "# cases-done $nfast\n# result kind=x\n# guest/run exit 125\n"
tap_has "^not ok $((nfast + 2)) - mseal run: the guest ran to the end \(cases-done $nfast of $nfast, guest/run exit 125\)$"
r1=$?
judge fast "$fast_list\n" "# cases-done $((nfast - 1))\n# guest/run exit 0\n"
tap_has "^not ok $((nfast + 2)) - mseal run: the guest ran to the end \(cases-done $((nfast - 1)) of $nfast, "
r2=$?
judge fast "$fast_list\n" "# guest/run exit 0\n"
tap_has "^not ok $((nfast + 2)) - mseal run: the guest ran to the end \(cases-done none of $nfast, "
r3=$?
[ $r1 = 0 ] && [ $r2 = 0 ] && [ $r3 = 0 ]
tap_result $? "judge.sh: the guest must end the run: a panic or timeout after the last case (guest/run exit 125) or a missing cases-done fails"

# RJ_FAST_POLICIES: the fast subset under those policies only, in
# RJ_POLICIES' order; one that is no policy, or a list without none (the
# control), is refused
fast_in() { # POLICY...: the fast list's policies, with RJ_FAST_POLICIES=(POLICY...)
	(rj_read_workloads && rj_table_attack_names && RJ_FAST_POLICIES=("$@") &&
		rj_write_cases fast | awk '{ print $3 }' | sort -u | paste -sd' ') 2>"$work/fast.err"
}
[ "$(fast_in upstream none all)" = "all none upstream" ] &&
	[ "$(unset RJ_FAST_POLICIES && rj_read_workloads && rj_table_attack_names &&
		rj_write_cases fast | awk '{ print $3 }' | sort -u | paste -sd' ')" = "all card none pin upstream" ] &&
	[[ "$(RJ_FAST_POLICIES=(all upstream none) && rj_mode_words fast)" == *"x 3 policies"*"(none all upstream)" ]] &&
	! fast_in none sideways >/dev/null && grep -q "fast policy sideways is not a policy" "$work/fast.err" &&
	! fast_in all upstream >/dev/null && grep -q "RJ_FAST_POLICIES leaves out none" "$work/fast.err"
tap_result $? "cases.sh: RJ_FAST_POLICIES narrows the fast subset to its policies (default every one); an unknown policy, or none left out, is refused"

"$SEALJIT/realjit/judge.sh" --jit luajit mseal "$work/cases" "$work/results" >/dev/null 2>&1
r1=$?
"$SEALJIT/realjit/judge.sh" --jit luajit --mode quick mseal "$work/cases" "$work/results" >/dev/null 2>"$work/judge.err"
r2=$?
[ $r1 = 2 ] && [ $r2 = 2 ] && grep -q "unknown mode 'quick'" "$work/judge.err"
tap_result $? "judge.sh without --mode, or with an unknown one, is misuse, exit 2"

# summary.sh on a synthetic fast run of mseal: pin is the strongest policy
# LuaJIT survives, and the answer counts the 4 attacks the fast mode tries
# under pin, not all of them; --section (the threat model) refuses it.
mkdir -p "$work/sum"
{
	echo "# realjit-matrix mode=fast cases=$nfast"
	awk '{
		o = $1 == "workload" ? ($3 == "none" || $3 == "pin" ? "RAN" : "ABORTED") : \
			($3 == "none" || ($2 == "mprotect-rw" && $3 == "pin") ? "LANDED" : "BLOCKED")
		printf "# result kind=%s kernel=mseal name=%s policy=%s outcome=%s errno=- areas=1 sealed=1\n", $1, $2, $3, o
	}' <<<"$fast_list"
	echo "# cases-done $nfast"
	echo "# guest/run exit 0"
} >"$work/sum/mseal-luajit.out"
RESULTS=$work/sum "$SEALJIT/realjit/summary.sh" --jit luajit mseal >"$work/sum/md" 2>"$work/sum/err"
r1=$?
grep -q '^From a \*\*fast\*\* run ' "$work/sum/md" &&
	grep -q '^- \*\*mseal\*\*: `pin`; 1 of the 4 attacks tried under it land:$' "$work/sum/md"
r2=$?
RESULTS=$work/sum "$SEALJIT/realjit/summary.sh" --jit luajit --section mseal >"$work/sum/section" 2>"$work/sum/err"
r3=$?
grep -q 'summary: --section needs the full matrix (make luajit-attacks)' "$work/sum/err"
r4=$?
[ $r1 = 0 ] && [ $r2 = 0 ] && [ $r3 = 1 ] && [ $r4 = 0 ] && [ ! -s "$work/sum/section" ] ||
	{ echo "# exits $r1 $r3; $(grep 'attacks' "$work/sum/md" | tail -n 1); $(cat "$work/sum/err")"; false; }
tap_result $? "summary.sh: a fast run says so, its answer counts the attacks tried under the policy (1 of 4 under pin), and --section refuses it, exit 1"
sed -i '/^# realjit-matrix mode=/d' "$work/sum/mseal-luajit.out"
RESULTS=$work/sum "$SEALJIT/realjit/summary.sh" --jit luajit mseal >/dev/null 2>"$work/sum/err"
[ $? = 1 ] && grep -q 'names no mode' "$work/sum/err"
tap_result $? "summary.sh: results that name no mode are refused, exit 1"

# realjit/matrix.sh end to end on this host, a stand-in for guest/run answering
# every case as vanilla would (FAKE_GUEST=miss: mprotect-rw's control is
# BLOCKED; die: guest/run exits 125 after the last result).
fake=$work/fake
mkdir -p "$fake/guest" "$fake/build/kernels/vanilla"
ln -s "$SEALJIT/scripts" "$fake/scripts"
ln -s "$SEALJIT/tests" "$fake/tests"
ln -s "$SEALJIT/include" "$fake/include"
ln -s "$SEALJIT/kernel" "$fake/kernel"
: >"$fake/build/kernels/vanilla/bzImage"
cp "$SEALJIT/realjit/tests/fake-guest-run" "$fake/guest/run"
matrix() { # FAKE_GUEST OPTION...: $work/m.out, $work/m.err, $mrc
	local how=$1
	shift
	rm -rf "$work/mres"
	FAKE_GUEST=$how SEALJIT=$fake BUILD=$work/mbuild RESULTS=$work/mres \
		"$SEALJIT/realjit/matrix.sh" --jit luajit "$@" vanilla >"$work/m.out" 2>"$work/m.err"
	mrc=$?
}
matrix pass --fast
[ $mrc = 0 ] && [ "$(tail -n 1 "$work/m.out")" = "$((nfast + 2)) passed, 0 failed, 0 skipped" ] &&
	grep -q "^ok $((nfast + 2)) - vanilla run: the guest ran to the end" "$work/mres/vanilla-luajit.tap" &&
	grep -q '^From a \*\*fast\*\* run' "$work/mres/luajit-matrix-fast.md" ||
	{ echo "# exit $mrc: $(tail -n 1 "$work/m.out"); $(tail -n 3 "$work/m.err")"; false; }
tap_result $? "matrix.sh --fast with a stand-in guest: $((nfast + 2)) passed, exit 0, the summary written"
matrix miss --fast
r1=$mrc l1=$(tail -n 1 "$work/m.out")
matrix miss --fast --strict --brief
[ $r1 = 0 ] && [ "$l1" = "$((nfast + 1)) passed, 1 failed, 0 skipped" ] && [ $mrc = 1 ] &&
	[ "$(grep -c . "$work/m.out")" = 4 ] &&
	grep -q '^not ok [0-9]* - vanilla attack mprotect-rw none: BLOCKED EACCES' "$work/m.out" &&
	grep -q '^# result kind=attack kernel=vanilla name=mprotect-rw ' "$work/m.out" ||
	{ echo "# exits $r1 $mrc: $l1"; sed 's/^/#   /' "$work/m.out"; false; }
tap_result $? "matrix.sh: a miss is counted and exits 0 (make -k goes on); --strict exits 1, --brief shows the failed case"
matrix die --fast
[ $mrc = 0 ] && [ "$(tail -n 1 "$work/m.out")" = "$((nfast + 1)) passed, 1 failed, 0 skipped" ] &&
	grep -q "^not ok $((nfast + 2)) - vanilla run: the guest ran to the end (cases-done $nfast of $nfast, guest/run exit 125)" "$work/m.out" ||
	{ echo "# exit $mrc: $(tail -n 1 "$work/m.out")"; false; }
tap_result $? "matrix.sh: a guest that fails after its last result (exit 125) fails the run's last test"

# The judge of another profile (V8's tables, with a check column): a case
# list that is not the mode's fails the run's test, a run with no results
# fails, an unknown mode is misuse.
(rj_use_jit v8 && rj_read_workloads && rj_table_attack_names && rj_write_cases fast) >"$work/v8-fast-cases"
echo "workload tier none" >"$work/one-case"
printf '%s\n' "# result kind=workload kernel=vanilla name=tier policy=none outcome=RAN errno=- status=0 abort=- areas=2 sealed=0 refused_mseal=0 v8=10.2 detail=" \
	"# cases-done 1" "# guest/run exit 0" >"$work/out"
"$SEALJIT/realjit/judge.sh" --jit v8 --mode fast vanilla "$work/one-case" "$work/out" >"$work/tap"
grep -q "^not ok 2 - vanilla run: the fast mode's" "$work/tap"
tap_result $? "judge.sh --jit v8: a case list that is not the mode's fails the run's test"
"$SEALJIT/realjit/judge.sh" --jit v8 --mode fast vanilla "$work/v8-fast-cases" /dev/null >/dev/null; rc=$?
"$SEALJIT/realjit/judge.sh" --jit v8 --mode nonesuch vanilla "$work/v8-fast-cases" /dev/null >/dev/null 2>&1; rc2=$?
[ -s "$work/v8-fast-cases" ] && [ "$rc" = 1 ] && [ "$rc2" = 2 ]
tap_result $? "judge.sh --jit v8: a run with no results fails (exit 1); an unknown mode is misuse (exit 2)"

# The command lines (cases.sh's rj_options, one parser for every harness
# script): an unknown option, an option without its value and --help are
# misuse (exit 2, before anything runs), and so is a bad value after two
# --jit; matrix.sh --list names the JITs with tables.
misuse() { # SCRIPT PATTERN ARG...
	local script=$1 pattern=$2 rc
	shift 2
	"$SEALJIT/realjit/$script" "$@" >"$work/cli.out" 2>&1
	rc=$?
	[ $rc = 2 ] && grep -q -- "$pattern" "$work/cli.out" || { echo "# $script $*: exit $rc: $(head -n 1 "$work/cli.out")"; return 1; }
}
misuse matrix.sh 'matrix: unknown option --bogus' --jit luajit --bogus vanilla &&
	misuse matrix.sh '^realjit/matrix.sh --jit NAME' --fast --jit &&
	misuse matrix.sh '^realjit/matrix.sh --jit NAME' --help &&
	misuse cost.sh 'cost: unknown option --fast' --jit luajit --fast &&
	misuse cost.sh '^realjit/cost.sh --jit NAME' --jit luajit --boots &&
	misuse cost.sh "cost: unknown policy 'nope'" --jit luajit-plain --jit luajit-pkey --policies nope &&
	misuse summary.sh '^usage: summary.sh' --section --jit luajit &&
	misuse package.sh 'package: unknown option --fast' --jit luajit --fast "$work/nowhere" &&
	misuse judge.sh '^usage: judge.sh' --jit luajit --mode fast mseal "$work/one-case" &&
	[ ! -e "$work/nowhere" ] &&
	[ "$("$SEALJIT/realjit/matrix.sh" --list | paste -sd' ')" = "$(rj_matrix_jits)" ]
tap_result $? "matrix.sh, cost.sh, summary.sh, package.sh, judge.sh: an unknown option, a missing value or argument, or --help is misuse (exit 2); so is cost.sh's bad policy after two --jit; matrix.sh --list names the JITs with tables"

tap_end
