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

# has_report start|summary: the library wrote that line.
has_report() { grep -q "^sealjit-preload: $1 " "$work/report" 2>/dev/null; }

# A field of the library's summary line, or "-".
summary_field() {
	v=$(sed -n "s/^sealjit-preload: summary .*[ ]$1=\([^ ]*\).*/\1/p" "$work/report" 2>/dev/null | tail -n 1)
	echo "${v:--}"
}

# area_lines all|sealed|refused: areas the library reported made, sealed,
# or whose mseal the kernel refused ("-" without a start line).
area_lines() {
	has_report start || { echo -; return; }
	case $1 in
	all) pattern='^sealjit-preload: area ' ;;
	sealed) pattern='^sealjit-preload: area .* sealed -$' ;;
	refused) pattern='^sealjit-preload: area .* not-sealed [^-]' ;;
	esac
	grep -c "$pattern" "$work/report"
}

# first|last refused call, as CALL/ERRNO, or "-".
refused_call() {
	if [ "$1" = first ]; then pick='head -n 1'; else pick='tail -n 1'; fi
	v=$(sed -n 's/^sealjit-preload: refused \([a-z_]*\) [^ ]* [^ ]* \([A-Z0-9]*\)$/\1\/\2/p' \
		"$work/report" 2>/dev/null | $pick)
	echo "${v:--}"
}

unavailable_probe() {
	grep -q "cannot be expressed" "$work/report" 2>/dev/null || return 1
	sed -n 's/.*(probe=\([A-Z]*\)).*/\1/p' "$work/report" | head -n 1
}

unavailable_detail() { sed -n 's/^sealjit-preload: error: //p' "$work/report" | head -n 1; }

last_words() { tail -n 2 "$1" | tr '\n' ' ' | tr -s ' ' | cut -c 1-160; }

# The JIT's own words when it stopped, or the last of its stderr.
stop_words() {
	w=$(jit_words "$work/err")
	echo "${w:-$(last_words "$work/err")}"
}

header_value() { sed -n "s|^$JIT_HEADER $1: ||p" "$2" | head -n 1; }

# Under a sealing policy, the kernel refused the seal of every area the JIT
# made (a kernel that will not seal memory with fork advice: EBUSY):
# outcome UNSEALED, errno that of the refused mseal.  Else it returns 1.
unsealed() {
	[ "$1" != none ] && has_report start || return 1
	all=$(area_lines all) refused=$(area_lines refused)
	[ "$all" -ge 1 ] && [ "$refused" = "$all" ] || return 1
	outcome=UNSEALED
	errno=$(sed -n 's/^sealjit-preload: area .* not-sealed \([A-Z0-9]*\)$/\1/p' "$work/report" | head -n 1)
	detail="the kernel refused to seal all $all areas ($errno); then: $detail"
}

reference() {
	[ -f "$work/ref.$1" ] && return 0
	# shellcheck disable=SC2046 # the arguments are words
	jit bare $(jit_reference_args "$pkg/workloads/$1.$JIT_EXT") >"$work/ref.$1" 2>"$work/ref-err.$1" ||
		echo "REFERENCE FAILED $?" >>"$work/ref.$1"
}

workload_outcome() {
	name=$1 status=$2 min_areas=$3
	errno=- detail=$(last_words "$work/err")
	if [ "$status" = 3 ] && probe=$(unavailable_probe); then
		outcome=UNAVAILABLE errno=$probe detail=$(unavailable_detail)
	elif ! has_report "$JIT_REPORT_END"; then
		outcome=ERROR detail="no $JIT_REPORT_END line from the library (never loaded, or the JIT died first): status $status; $detail"
		[ "$status" = 124 ] || [ "$status" = 143 ] && detail="timeout after $TIME_LIMIT s; $detail"
	elif [ "$status" != 0 ]; then
		outcome=ABORTED errno=$(refused_call "$JIT_ABORT_ERRNO" | sed 's/.*\///') detail=$(stop_words)
		[ "$status" = 124 ] || [ "$status" = 143 ] && detail="timeout after $TIME_LIMIT s; $detail"
	elif ! cmp -s "$work/out" "$work/ref.$name"; then
		outcome=WRONG detail="output differs from $JIT_REFERENCE: $(last_words "$work/out")"
	elif why=$(jit_ran_check "$name") && [ -n "$why" ]; then
		outcome=WRONG detail=$why
	elif ! [ "$(area_lines all)" -ge "$min_areas" ] 2>/dev/null; then
		outcome=NOJIT detail="$(area_lines all) areas made executable, fewer than $min_areas"
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
	min=$(header_value min-areas "$file")
	workload_outcome "$name" "$status" "${min:-1}"
	[ "$outcome" = UNAVAILABLE ] || [ "$outcome" = ERROR ] || unsealed "$policy"
	echo "# result kind=workload kernel=$kernel name=$name policy=$policy" \
		"outcome=$outcome errno=$errno status=$status abort=$(jit_abort "$work/err" "$status")" \
		"areas=$(area_lines all) sealed=$(area_lines sealed) refused_mseal=$(area_lines refused)" \
		"first_refused=$(refused_call first) last_refused=$(refused_call last)" \
		"sealed_bytes=$(summary_field sealed_bytes) exec_protects=$(summary_field exec_protects)" \
		"write_protects=$(summary_field write_protects)" \
		"old_area_patches=$(summary_field old_area_patches)" \
		"refused_mprotect=$(summary_field refused_mprotect)" \
		"refused_munmap=$(summary_field refused_munmap)" \
		"refused_madvise=$(summary_field refused_madvise)" \
		"refused_pkey_mprotect=$(summary_field refused_pkey_mprotect)" \
		"unfreed_bytes=$(summary_field unfreed_bytes) $(jit_workload_fields) $(jit_case_fields)" \
		"detail=$detail"
}

attack_field() {
	v=$(sed -n "s/^attack scenario=.*[ ]$1=\([^ ]*\).*/\1/p" "$work/out" | head -n 1)
	echo "${v:--}"
}

rerun_of() {
	case $1 in
	65) echo payload ;;
	124 | 143) echo timeout ;;
	0) if grep -q '^rerun value=ok' "$work/out"; then echo ok
	   elif grep -q '^rerun value=' "$work/out"; then echo wrong
	   else echo -; fi ;;
	*) [ "$1" -gt 128 ] && echo "signal-$(($1 - 128))" || echo - ;;
	esac
}

run_attack() {
	name=$1 policy=$2
	# shellcheck disable=SC2046
	jit "$policy" $(jit_attack_args "$name") >"$work/out" 2>"$work/err"
	status=$?
	abort=$(jit_abort "$work/err" "$status")
	detail=$(grep '^attack ' "$work/out" | head -n 1)
	if [ "$status" = 3 ] && probe=$(unavailable_probe); then
		outcome=UNAVAILABLE errno=$probe detail=$(unavailable_detail)
	elif ! has_report start; then
		outcome=ERROR errno=-
		detail="no start line from the library (never loaded): status $status; $(last_words "$work/err")"
	elif grep -q '^attack scenario=' "$work/out"; then
		outcome=$(attack_field outcome) errno=$(attack_field errno)
	elif [ "$abort" = "$JIT_OWN_ABORT" ]; then
		outcome=ABORTED errno=$(refused_call "$JIT_ABORT_ERRNO" | sed 's/.*\///')
		detail="$JIT_NAME stopped before the attack: $(stop_words)"
	else
		outcome=ERROR errno=-
		detail="status $status, abort=$abort: $(last_words "$work/out") $(last_words "$work/err")"
	fi
	[ "$outcome" = UNAVAILABLE ] || [ "$outcome" = ERROR ] || unsealed "$policy"
	echo "# result kind=attack kernel=$kernel name=$name policy=$policy" \
		"outcome=$outcome errno=$errno status=$status abort=$abort changed=$(attack_field changed)" \
		"rerun=$(rerun_of "$status") areas=$(area_lines all) sealed=$(area_lines sealed)" \
		"refused_mseal=$(area_lines refused) last_refused=$(refused_call last)" \
		"pkey=$(attack_field pkey) $(jit_case_fields) detail=$detail"
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
