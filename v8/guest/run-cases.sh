#!/bin/sh
# v8/guest/run-cases.sh KERNEL CASES - run in the guest (busybox sh): every
# case of the CASES file against Debian's Node.js, one `# result` line each.
#
# The package beside this script (v8/package.sh lays it out):
#   node/                  node, libnode, its libraries and loader
#   share-nodejs/          linked to /usr/share/nodejs, where node reads
#                          JavaScript at start-up
#   libsealjit-preload.so  the seal-on-exec library, loaded with --preload
#   workloads/NAME.js      the workloads; attack.js and sealjit-attack.node
# CASES lines: "workload NAME POLICY" or "attack NAME POLICY".
#
# A workload's header lines: "// node-flags: FLAGS" (its command line) and
# "// expect-stderr: LINE" (a line its stderr must hold when it ran with
# the JIT: the tier it reached, the engine that ran).  Its reference
# stdout comes from `node --jitless FLAGS`, without the library, in this
# same guest.  Result lines (the host judges them):
#   # result kind=workload kernel=K name=W policy=P outcome=O errno=E
#     status=S abort=A areas=N sealed=N refused_mseal=N first_refused=C/E
#     last_refused=C/E exec_protects=N refused_mprotect=N refused_munmap=N
#     refused_madvise=N refused_pkey_mprotect=N detail=TEXT
#   # result kind=attack kernel=K name=S policy=P outcome=O errno=E
#     status=S changed=WHAT rerun=R areas=N sealed=N refused_mseal=N
#     last_refused=C/E detail=TEXT
# outcome: RAN (exit 0, the reference's stdout, the expected stderr line,
# code made executable), ABORTED (V8 stopped itself: abort=v8-check, its
# "Check failed:" text in detail; or abort=signal-N / exit-N), WRONG (exit
# 0, other output, or without the expected stderr line), NOJIT (no code
# made executable), UNAVAILABLE (the kernel cannot express the policy),
# LANDED, BLOCKED, UNSEALED (under a sealing policy the kernel refused
# the seal of every area V8 made; errno the mseal's, what happened after
# in detail), ERROR (no start line from the library: it never
# loaded; or an attack that printed no verdict and V8 did not stop
# itself).  An attack whose V8 stopped itself before the attack (a failed
# CHECK: the policy refused V8 first) is ABORTED too.  errno: of the last call
# the kernel refused before V8 stopped (ABORTED), the probe's
# (UNAVAILABLE), the corrupted call's (BLOCKED).  rerun: ok, wrong,
# payload (exit 65: the attacker's bytes ran), signal-N, timeout, -.
# The counts come from the library's area and refused lines, written as
# they happen (V8's trap leaves no summary); exec_protects and the
# refused_* totals from its summary at exit ("-" when V8 stopped first).
# Exits 0 when every case ran to a result line (whatever it says), 2 on
# misuse.
kernel=$1
cases=$2
[ -n "$kernel" ] && [ -f "$cases" ] || { echo "usage: run-cases.sh KERNEL CASES" >&2; exit 2; }
pkg=$(cd "$(dirname "$0")" && pwd)
NODE="$pkg/node/ld-linux-x86-64.so.2 --library-path $pkg/node"
PRELOAD=$pkg/libsealjit-preload.so
TIME_LIMIT=${CASE_TIMEOUT:-600}
work=${CASE_WORK:-/tmp/v8-cases}
mkdir -p "$work" /usr/share
[ -e /usr/share/nodejs ] || ln -s "$pkg/share-nodejs" /usr/share/nodejs

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

header_value() { sed -n "s|^// $1: ||p" "$2" | head -n 1; }

# Under a sealing policy, the kernel refused the seal of every area V8
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

# node POLICY ARG...: node under the library (POLICY "bare": without).
node() {
	node_policy=$1
	shift
	rm -f "$work/report"
	# shellcheck disable=SC2086 # $NODE is the loader and its arguments
	if [ "$node_policy" = bare ]; then
		timeout "$TIME_LIMIT" $NODE "$pkg/node/node" "$@" </dev/null
	else
		SEALJIT_SEAL_POLICY=$node_policy SEALJIT_SEAL_REPORT=$work/report \
			timeout "$TIME_LIMIT" $NODE --preload "$PRELOAD" "$pkg/node/node" "$@" </dev/null
	fi
}

unavailable_probe() {
	grep -q "cannot be expressed" "$work/report" 2>/dev/null || return 1
	sed -n 's/.*(probe=\([A-Z]*\)).*/\1/p' "$work/report" | head -n 1
}

last_words() { tail -n 2 "$1" | tr '\n' ' ' | tr -s ' ' | cut -c 1-160; }

# How V8 stopped, from its stderr and status: v8-check (a CHECK failed:
# "# Fatal error ... # Check failed: ..."), v8-fatal (another fatal
# error), signal-N, exit-N, or - (exit 0).
abort_of() {
	if grep -q '^# Check failed: ' "$1"; then echo v8-check
	elif grep -q '^# Fatal error' "$1"; then echo v8-fatal
	elif [ "$2" -gt 128 ] 2>/dev/null; then echo "signal-$(($2 - 128))"
	elif [ "$2" != 0 ]; then echo "exit-$2"
	else echo -; fi
}

# V8's own words: the failed check, or the fatal error's line.
v8_words() {
	sed -n 's/^# \(Check failed: .*\)/\1/p; s/^# \(Fatal error in .*\)/\1/p' "$1" | tail -n 1 | cut -c 1-200
}

reference() {
	[ -f "$work/ref.$1" ] && return 0
	# shellcheck disable=SC2046 # the flags are words
	node bare --jitless $(header_value node-flags "$pkg/workloads/$1.js") \
		"$pkg/workloads/$1.js" >"$work/ref.$1" 2>"$work/ref-err.$1" ||
		echo "REFERENCE FAILED $?" >>"$work/ref.$1"
}

workload_outcome() {
	name=$1 status=$2
	errno=- detail=$(last_words "$work/err")
	want=$(header_value expect-stderr "$pkg/workloads/$name.js")
	if [ "$status" = 3 ] && probe=$(unavailable_probe); then
		outcome=UNAVAILABLE errno=$probe
		detail=$(sed -n 's/^sealjit-preload: error: //p' "$work/report" | head -n 1)
	elif ! has_report start; then
		outcome=ERROR detail="no start line from the library (never loaded): status $status; $detail"
	elif [ "$status" != 0 ]; then
		outcome=ABORTED errno=$(refused_call last | sed 's/.*\///')
		detail="$(v8_words "$work/err")"
		[ -n "$detail" ] || detail=$(last_words "$work/err")
		[ "$status" = 124 ] || [ "$status" = 143 ] && detail="timeout after $TIME_LIMIT s; $detail"
	elif ! cmp -s "$work/out" "$work/ref.$name"; then
		outcome=WRONG detail="output differs from node --jitless: $(last_words "$work/out")"
	elif [ -n "$want" ] && ! grep -qx "$want" "$work/err"; then
		outcome=WRONG detail="no '$want' on stderr: $detail"
	elif ! [ "$(area_lines all)" -ge 1 ] 2>/dev/null; then
		outcome=NOJIT detail="no code made executable"
	else
		outcome=RAN
	fi
}

run_workload() {
	name=$1 policy=$2
	file=$pkg/workloads/$name.js
	reference "$name"
	# shellcheck disable=SC2046
	node "$policy" $(header_value node-flags "$file") "$file" >"$work/out" 2>"$work/err"
	status=$?
	workload_outcome "$name" "$status"
	[ "$outcome" = UNAVAILABLE ] || [ "$outcome" = ERROR ] || unsealed "$policy"
	echo "# result kind=workload kernel=$kernel name=$name policy=$policy" \
		"outcome=$outcome errno=$errno status=$status abort=$(abort_of "$work/err" "$status")" \
		"areas=$(area_lines all) sealed=$(area_lines sealed) refused_mseal=$(area_lines refused)" \
		"first_refused=$(refused_call first) last_refused=$(refused_call last)" \
		"exec_protects=$(summary_field exec_protects)" \
		"refused_mprotect=$(summary_field refused_mprotect)" \
		"refused_munmap=$(summary_field refused_munmap)" \
		"refused_madvise=$(summary_field refused_madvise)" \
		"refused_pkey_mprotect=$(summary_field refused_pkey_mprotect) detail=$detail"
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
	node "$policy" $(header_value node-flags "$pkg/attack.js") "$pkg/attack.js" "$name" \
		>"$work/out" 2>"$work/err"
	status=$?
	detail=$(grep '^attack ' "$work/out" | head -n 1)
	if [ "$status" = 3 ] && probe=$(unavailable_probe); then
		outcome=UNAVAILABLE errno=$probe
		detail=$(sed -n 's/^sealjit-preload: error: //p' "$work/report" | head -n 1)
	elif ! has_report start; then
		outcome=ERROR errno=-
		detail="no start line from the library (never loaded): status $status; $(last_words "$work/err")"
	elif grep -q '^attack scenario=' "$work/out"; then
		outcome=$(attack_field outcome) errno=$(attack_field errno)
	elif [ "$(abort_of "$work/err" "$status")" = v8-check ]; then
		outcome=ABORTED errno=$(refused_call last | sed 's/.*\///')
		detail="V8 stopped before the attack: $(v8_words "$work/err")"
	else
		outcome=ERROR errno=-
		detail="status $status, abort=$(abort_of "$work/err" "$status"): $(v8_words "$work/err") $(last_words "$work/out")"
	fi
	[ "$outcome" = UNAVAILABLE ] || [ "$outcome" = ERROR ] || unsealed "$policy"
	echo "# result kind=attack kernel=$kernel name=$name policy=$policy" \
		"outcome=$outcome errno=$errno status=$status changed=$(attack_field changed)" \
		"rerun=$(rerun_of "$status") areas=$(area_lines all) sealed=$(area_lines sealed)" \
		"refused_mseal=$(area_lines refused) last_refused=$(refused_call last) detail=$detail"
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
