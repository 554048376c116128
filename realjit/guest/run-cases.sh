#!/bin/sh
# realjit/guest/run-cases.sh KERNEL CASES - run in the guest (busybox sh):
# every case of the CASES file against the package's JIT, one `# result`
# line each.
#
# The package beside this script (realjit/package.sh lays it out):
#   jit/                   the JIT, its libraries and loader (guest/bundle.sh)
#   jit.sh                 the JIT's guest functions (its folder's
#                          guest/jit.sh; realjit/README.md): how to run a
#                          workload, its reference and the attacker, how
#                          the JIT stops itself, its own result fields
#   libsealjit-preload.so  the seal-on-exec library, loaded with --preload
#   workloads/NAME.EXT     the workloads; the attacker
# CASES lines: "workload NAME POLICY" or "attack NAME POLICY".
#
# Each workload's reference output comes from the JIT without its JIT
# (JIT_REFERENCE: luajit -joff, node --jitless), without the library, in
# this same guest.  Result lines (the host judges them):
#   # result kind=workload kernel=K name=W policy=P outcome=O errno=E
#     status=S abort=A areas=N sealed=N refused_mseal=N first_refused=C/E
#     last_refused=C/E sealed_bytes=B exec_protects=N write_protects=N
#     old_area_patches=N refused_mprotect=N refused_munmap=N
#     refused_madvise=N refused_pkey_mprotect=N unfreed_bytes=B
#     [the JIT's own fields] detail=TEXT
#   # result kind=attack kernel=K name=S policy=P outcome=O errno=E
#     status=S abort=A changed=WHAT rerun=R areas=N sealed=N
#     refused_mseal=N last_refused=C/E pkey=K detail=TEXT
# outcome: RAN (exit 0, the reference's output, the JIT's own check, code
# made executable), ABORTED (the JIT stopped: abort= says how, the JIT's
# own words in detail), WRONG (ran, other output), NOJIT (ran, made fewer
# areas executable than the workload's min-areas header asks, default 1),
# UNAVAILABLE (the kernel cannot express the policy), LANDED, BLOCKED,
# UNSEALED (under a sealing policy the kernel refused the seal of every
# area the JIT made: the policy was not applied; errno the mseal's, what
# happened after in detail), ERROR (the library left no report
# (JIT_REPORT_END: never loaded, or the JIT died before it); an attack that
# printed no verdict when the JIT did not stop itself).  An attack whose JIT
# stopped itself before the attack (JIT_OWN_ABORT: the policy refused the
# JIT first) is ABORTED too.  errno: of the first or last call the kernel
# refused the JIT (ABORTED, JIT_ABORT_ERRNO), the probe's (UNAVAILABLE),
# the corrupted call's (BLOCKED).  abort: jit_abort's word, - for exit 0.
# rerun: ok, wrong, payload (exit 65: the attacker's bytes ran), signal-N,
# timeout, -.  areas, sealed, refused_mseal: the library's area lines,
# written as each area is made (the attacker's bytes and a JIT's trap end
# the process before any summary); the rest from its summary at exit ("-"
# without one).  detail is the rest of the line.  Exits 0 when every case
# ran to a result line (whatever it says), 2 on misuse.
# shellcheck disable=SC2154 # rep_*, areas_*, refused_*, sum_*, att_*: read_case's
kernel=$1
cases=$2
[ -n "$kernel" ] && [ -f "$cases" ] || { echo "usage: run-cases.sh KERNEL CASES" >&2; exit 2; }
pkg=$(cd "$(dirname "$0")" && pwd)
PRELOAD=$pkg/libsealjit-preload.so
work=${CASE_WORK:-/tmp/realjit-cases}
mkdir -p "$work"
# a JIT's guest side may preload libraries of its own before the seal-on-exec
# library (JIT_PRELOAD, colon-separated) and add words to every result line
# (jit_case_fields); by default neither
JIT_PRELOAD=
jit_case_fields() { :; }
. "$pkg/jit.sh"
jit_setup
TIME_LIMIT=${CASE_TIMEOUT:-$JIT_CASE_TIMEOUT}

# jit POLICY ARG...: the JIT under the library (POLICY "bare": without);
# its stdin is not the case list's.
jit() {
	jit_policy=$1
	shift
	rm -f "$work/report"
	# shellcheck disable=SC2086 # $JIT_LOADER is the loader and its arguments
	if [ "$jit_policy" = bare ]; then
		timeout "$TIME_LIMIT" $JIT_LOADER "$JIT_BINARY" "$@" </dev/null
	else
		SEALJIT_SEAL_POLICY=$jit_policy SEALJIT_SEAL_REPORT=$work/report \
			timeout "$TIME_LIMIT" $JIT_LOADER --preload "${JIT_PRELOAD:+$JIT_PRELOAD:}$PRELOAD" \
			"$JIT_BINARY" "$@" </dev/null
	fi
}

# read_case: the case's report, stdout and stderr, read once
# (report.awk): rep_*, areas_*, refused_*, sum_*, att_*, rerun_*, err_words.
read_case() {
	eval "$(awk -f "$pkg/report.awk" -v report="$work/report" -v end="$JIT_REPORT_END" \
		-v out="$work/out" -v err="$work/err")"
}

# refused CALL/ERRNO: the first or last (JIT_ABORT_ERRNO) call refused, its
# ERRNO alone
abort_errno() {
	if [ "$JIT_ABORT_ERRNO" = first ]; then v=$refused_first; else v=$refused_last; fi
	echo "${v##*/}"
}

last_words() { tail -n 2 "$1" | tr '\n' ' ' | tr -s ' ' | cut -c 1-160; }

# The JIT's own words when it stopped, or the last of its stderr.
stop_words() {
	w=$(jit_words "$work/err")
	echo "${w:-$err_words}"
}

header_value() { sed -n "s|^$JIT_HEADER $1: ||p" "$2" | head -n 1; }

# Under a sealing policy, the kernel refused the seal of every area the JIT
# made (a kernel that will not seal memory with fork advice: EBUSY):
# outcome UNSEALED, errno that of the refused mseal.  Else it returns 1.
unsealed() {
	[ "$1" != none ] && [ "$rep_start" = 1 ] || return 1
	[ "$areas_all" -ge 1 ] && [ "$areas_refused" = "$areas_all" ] || return 1
	outcome=UNSEALED
	errno=$refused_errno
	detail="the kernel refused to seal all $areas_all areas ($errno); then: $detail"
}

reference() {
	[ -f "$work/ref.$1" ] && return 0
	# shellcheck disable=SC2046 # the arguments are words
	jit bare $(jit_reference_args "$pkg/workloads/$1.$JIT_EXT") >"$work/ref.$1" 2>"$work/ref-err.$1" ||
		echo "REFERENCE FAILED $?" >>"$work/ref.$1"
}

workload_outcome() {
	name=$1 status=$2 min_areas=$3
	errno=- detail=$err_words
	if [ "$status" = 3 ] && [ "$rep_unavailable" = 1 ]; then
		outcome=UNAVAILABLE errno=$rep_probe detail=$rep_error
	elif [ "$rep_end" != 1 ]; then
		outcome=ERROR detail="no $JIT_REPORT_END line from the library (never loaded, or the JIT died first): status $status; $detail"
		[ "$status" = 124 ] || [ "$status" = 143 ] && detail="timeout after $TIME_LIMIT s; $detail"
	elif [ "$status" != 0 ]; then
		outcome=ABORTED errno=$(abort_errno) detail=$(stop_words)
		[ "$status" = 124 ] || [ "$status" = 143 ] && detail="timeout after $TIME_LIMIT s; $detail"
	elif ! cmp -s "$work/out" "$work/ref.$name"; then
		outcome=WRONG detail="output differs from $JIT_REFERENCE: $(last_words "$work/out")"
	elif why=$(jit_ran_check "$name") && [ -n "$why" ]; then
		outcome=WRONG detail=$why
	elif ! [ "$areas_all" -ge "$min_areas" ] 2>/dev/null; then
		outcome=NOJIT detail="$areas_all areas made executable, fewer than $min_areas"
	else
		outcome=RAN
	fi
}

run_workload() {
	name=$1 policy=$2
	file=$pkg/workloads/$name.$JIT_EXT
	reference "$name"
	# shellcheck disable=SC2046
	jit "$policy" $(jit_watch_args) $(jit_workload_args "$file") >"$work/out" 2>"$work/err"
	status=$?
	read_case
	min=$(header_value min-areas "$file")
	workload_outcome "$name" "$status" "${min:-1}"
	[ "$outcome" = UNAVAILABLE ] || [ "$outcome" = ERROR ] || unsealed "$policy"
	echo "# result kind=workload kernel=$kernel name=$name policy=$policy" \
		"outcome=$outcome errno=$errno status=$status abort=$(jit_abort "$work/err" "$status")" \
		"areas=$areas_all sealed=$areas_sealed refused_mseal=$areas_refused" \
		"first_refused=$refused_first last_refused=$refused_last" \
		"sealed_bytes=$sum_sealed_bytes exec_protects=$sum_exec_protects" \
		"write_protects=$sum_write_protects" \
		"old_area_patches=$sum_old_area_patches" \
		"refused_mprotect=$sum_refused_mprotect" \
		"refused_munmap=$sum_refused_munmap" \
		"refused_madvise=$sum_refused_madvise" \
		"refused_pkey_mprotect=$sum_refused_pkey_mprotect" \
		"unfreed_bytes=$sum_unfreed_bytes $(jit_workload_fields) $(jit_case_fields)" \
		"detail=$detail"
}

rerun_of() {
	case $1 in
	65) echo payload ;;
	124 | 143) echo timeout ;;
	0) if [ "$rerun_ok" = 1 ]; then echo ok
	   elif [ "$rerun_any" = 1 ]; then echo wrong
	   else echo -; fi ;;
	*) [ "$1" -gt 128 ] && echo "signal-$(($1 - 128))" || echo - ;;
	esac
}

run_attack() {
	name=$1 policy=$2
	# shellcheck disable=SC2046
	jit "$policy" $(jit_attack_args "$name") >"$work/out" 2>"$work/err"
	status=$?
	read_case
	abort=$(jit_abort "$work/err" "$status")
	detail=$att_detail
	if [ "$status" = 3 ] && [ "$rep_unavailable" = 1 ]; then
		outcome=UNAVAILABLE errno=$rep_probe detail=$rep_error
	elif [ "$rep_start" != 1 ]; then
		outcome=ERROR errno=-
		detail="no start line from the library (never loaded): status $status; $err_words"
	elif [ "$att_seen" = 1 ]; then
		outcome=$att_outcome errno=$att_errno
	elif [ "$abort" = "$JIT_OWN_ABORT" ]; then
		outcome=ABORTED errno=$(abort_errno)
		detail="$JIT_NAME stopped before the attack: $(stop_words)"
	else
		outcome=ERROR errno=-
		detail="status $status, abort=$abort: $(last_words "$work/out") $(last_words "$work/err")"
	fi
	[ "$outcome" = UNAVAILABLE ] || [ "$outcome" = ERROR ] || unsealed "$policy"
	echo "# result kind=attack kernel=$kernel name=$name policy=$policy" \
		"outcome=$outcome errno=$errno status=$status abort=$abort changed=$att_changed" \
		"rerun=$(rerun_of "$status") areas=$areas_all sealed=$areas_sealed" \
		"refused_mseal=$areas_refused last_refused=$refused_last" \
		"pkey=$att_pkey $(jit_case_fields) detail=$detail"
}

total=$(grep -c . "$cases")
done_cases=0
while read -r kind name policy; do
	[ -n "$kind" ] || continue
	echo "# progress $done_cases/$total cases"
	case $kind in
	workload) run_workload "$name" "$policy" ;;
	attack) run_attack "$name" "$policy" ;;
	*) echo "# result kind=$kind kernel=$kernel name=$name policy=$policy outcome=ERROR errno=- detail=unknown case kind" ;;
	esac
	done_cases=$((done_cases + 1))
done <"$cases"
echo "# progress $done_cases/$total cases"
echo "# cases-done $done_cases"
