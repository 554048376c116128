#!/bin/sh
# guest/run-cases.sh KERNEL CASES - run in the guest (busybox sh): every
# case of the CASES file against the package's LuaJIT (Debian's, or
# luajit-series/'s: the file jit says), one `# result` line each.
#
# The package beside this script (matrix.sh lays it out):
#   lj/                    luajit, its libraries and loader (guest/bundle.sh)
#   jit                    "debian" or "pkey"; for pkey every workload runs
#                          with `-l mcodeinfo` (mcodeinfo.lua)
#   libsealjit-preload.so  the seal-on-exec library, loaded with --preload
#   workloads/NAME.lua     the workloads; attack.lua the attacker
# CASES lines: "workload NAME POLICY" or "attack NAME POLICY".
#
# Each workload's reference output comes from `luajit -joff`, without the
# library, in this same guest.  Result lines (the host judges them):
#   # result kind=workload kernel=K name=W policy=P outcome=O errno=E
#     status=S panic=P areas=N sealed=N refused_mseal=N sealed_bytes=B
#     exec_protects=N write_protects=N old_area_patches=N refused_munmap=N
#     unfreed_bytes=B mcode=M retired_bytes=B reused_bytes=B detail=TEXT
#   # result kind=attack kernel=K name=S policy=P outcome=O errno=E
#     status=S changed=WHAT rerun=R areas=N sealed=N refused_mseal=N
#     detail=TEXT
# outcome: RAN, ABORTED (non-zero exit after the library's report),
# WRONG (ran, other output), NOJIT (ran, made no code executable),
# UNAVAILABLE (the kernel cannot express the policy), LANDED, BLOCKED,
# ERROR (no report from the library: it was never loaded, or a workload
# died before exit; or an attack that printed no verdict).  panic:
# codegen (LuaJIT's "runtime code generation failed" panic), other (another
# PANIC), or -.  rerun: ok, wrong, payload (exit 65: the attacker's bytes
# ran), signal-N, timeout, -.  A workload's counts come from the library's
# summary at exit; an attack's areas, sealed and refused_mseal from its area
# lines, written as each area is made (the attacker's bytes end the process
# with exit_group(), before any summary).
# mcode, retired_bytes, reused_bytes: the pkey LuaJIT's mcodeinfo line at
# lua_close() (how its code was kept W^X; bytes of sealed areas never
# reused, and reused); "-" for Debian's LuaJIT or without the line.
# detail is the rest of the line.  Exits 0 when every case ran to a
# result line (whatever it says), 2 on misuse.
kernel=$1
cases=$2
[ -n "$kernel" ] && [ -f "$cases" ] || { echo "usage: run-cases.sh KERNEL CASES" >&2; exit 2; }
pkg=$(cd "$(dirname "$0")" && pwd)
LJ="$pkg/lj/ld-linux-x86-64.so.2 --library-path $pkg/lj"
PRELOAD=$pkg/libsealjit-preload.so
TIME_LIMIT=${CASE_TIMEOUT:-240}
jit=$(cat "$pkg/jit" 2>/dev/null || echo debian)
# where `-l mcodeinfo` finds mcodeinfo.lua (";;": and the default path)
LUA_PATH="$pkg/?.lua;;"
export LUA_PATH
work=${CASE_WORK:-/tmp/luajit-cases}
mkdir -p "$work"

# A field of the library's summary line, or "-".
summary_field() {
	v=$(sed -n "s/^sealjit-preload: summary .*[ ]$1=\([^ ]*\).*/\1/p" "$work/report" 2>/dev/null | tail -n 1)
	echo "${v:--}"
}

# has_report start|summary: the library wrote that line.
has_report() { grep -q "^sealjit-preload: $1 " "$work/report" 2>/dev/null; }

# area_lines all|sealed|refused: how many areas the library reported made,
# sealed, or whose mseal the kernel refused ("-" without a start line).
area_lines() {
	has_report start || { echo -; return; }
	case $1 in
	all) pattern='^sealjit-preload: area ' ;;
	sealed) pattern='^sealjit-preload: area .* sealed -$' ;;
	refused) pattern='^sealjit-preload: area .* not-sealed [^-]' ;;
	esac
	grep -c "$pattern" "$work/report"
}

no_report() {
	echo "no report from the library (never loaded, or it died before exit): status $1"
}

header_value() { sed -n "s/^-- $1: //p" "$2" | head -n 1; }

# A field of the pkey LuaJIT's mcodeinfo line on the workload's stderr, or "-".
mcode_field() {
	v=$(sed -n "s/^mcodeinfo .*$1=\([^ ]*\).*/\1/p" "$work/err" 2>/dev/null | tail -n 1)
	echo "${v:--}"
}

# What the pkey LuaJIT loads before a workload.
workload_args() { [ "$jit" = pkey ] && echo "-l mcodeinfo"; }

# luajit POLICY ARG...: luajit under the library (POLICY "bare": without);
# its stdin is not the case list's.
luajit() {
	lj_policy=$1
	shift
	rm -f "$work/report"
	# shellcheck disable=SC2086 # $LJ is the loader and its arguments
	if [ "$lj_policy" = bare ]; then
		timeout "$TIME_LIMIT" $LJ "$pkg/lj/luajit" "$@" </dev/null
	else
		SEALJIT_SEAL_POLICY=$lj_policy SEALJIT_SEAL_REPORT=$work/report \
			timeout "$TIME_LIMIT" $LJ --preload "$PRELOAD" "$pkg/lj/luajit" "$@" </dev/null
	fi
}

unavailable_probe() {
	grep -q "cannot be expressed" "$work/report" 2>/dev/null || return 1
	sed -n 's/.*(probe=\([A-Z]*\)).*/\1/p' "$work/report" | head -n 1
}

last_words() {
	tail -n 2 "$1" | tr '\n' ' ' | tr -s ' ' | cut -c 1-160
}

# LuaJIT's own panic, from its stderr: codegen (lj_mcode.c's mcode_protfail,
# "runtime code generation failed, restricted kernel?"), other, or -.
panic_of() {
	if grep -q '^PANIC: .*runtime code generation failed' "$1"; then echo codegen
	elif grep -q '^PANIC: ' "$1"; then echo other
	else echo -; fi
}

reference() {
	ref_file=$pkg/workloads/$1.lua
	[ -f "$work/ref.$1" ] && return 0
	# shellcheck disable=SC2046 # the flags are words
	luajit bare $(header_value luajit-flags "$ref_file") -joff "$ref_file" >"$work/ref.$1" 2>&1 ||
		echo "REFERENCE FAILED $?" >>"$work/ref.$1"
}

workload_outcome() {
	name=$1 status=$2 min_areas=$3
	errno=-
	detail=$(last_words "$work/err")
	areas=$(summary_field areas)
	if [ "$status" = 3 ] && probe=$(unavailable_probe); then
		outcome=UNAVAILABLE errno=$probe
		detail=$(sed -n 's/^sealjit-preload: error: //p' "$work/report" | head -n 1)
	elif ! has_report summary; then
		outcome=ERROR detail="$(no_report "$status"); $detail"
		[ "$status" = 124 ] || [ "$status" = 143 ] && detail="timeout after $TIME_LIMIT s; $detail"
	elif [ "$status" != 0 ]; then
		outcome=ABORTED errno=$(summary_field first_refused | sed 's/.*\///')
	elif ! cmp -s "$work/out" "$work/ref.$name"; then
		outcome=WRONG detail="output differs from luajit -joff: $(last_words "$work/out")"
	elif ! [ "$areas" -ge "$min_areas" ] 2>/dev/null; then
		outcome=NOJIT detail="$areas areas made executable, fewer than $min_areas"
	else
		outcome=RAN
	fi
}

run_workload() {
	name=$1 policy=$2
	file=$pkg/workloads/$name.lua
	reference "$name"
	# shellcheck disable=SC2046
	luajit "$policy" $(workload_args) $(header_value luajit-flags "$file") "$file" \
		>"$work/out" 2>"$work/err"
	status=$?
	min=$(header_value min-areas "$file")
	workload_outcome "$name" "$status" "${min:-1}"
	echo "# result kind=workload kernel=$kernel name=$name policy=$policy" \
		"outcome=$outcome errno=$errno status=$status panic=$(panic_of "$work/err")" \
		"areas=$(summary_field areas) sealed=$(summary_field sealed)" \
		"refused_mseal=$(summary_field refused_mseal)" \
		"sealed_bytes=$(summary_field sealed_bytes)" \
		"exec_protects=$(summary_field exec_protects)" \
		"write_protects=$(summary_field write_protects)" \
		"old_area_patches=$(summary_field old_area_patches)" \
		"refused_munmap=$(summary_field refused_munmap)" \
		"unfreed_bytes=$(summary_field unfreed_bytes) mcode=$(mcode_field mode)" \
		"retired_bytes=$(mcode_field retired) reused_bytes=$(mcode_field reused) detail=$detail"
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
	luajit "$policy" "$pkg/attack.lua" "$name" >"$work/out" 2>"$work/err"
	status=$?
	detail=$(grep '^attack ' "$work/out" | head -n 1)
	if [ "$status" = 3 ] && probe=$(unavailable_probe); then
		outcome=UNAVAILABLE errno=$probe
		detail=$(sed -n 's/^sealjit-preload: error: //p' "$work/report" | head -n 1)
	elif ! has_report start; then
		outcome=ERROR errno=-
		detail="$(no_report "$status"); $(last_words "$work/err")"
	elif grep -q '^attack scenario=' "$work/out"; then
		outcome=$(attack_field outcome) errno=$(attack_field errno)
	else
		outcome=ERROR errno=-
		detail="status $status: $(last_words "$work/out") $(last_words "$work/err")"
	fi
	echo "# result kind=attack kernel=$kernel name=$name policy=$policy" \
		"outcome=$outcome errno=$errno status=$status changed=$(attack_field changed)" \
		"rerun=$(rerun_of "$status") areas=$(area_lines all) sealed=$(area_lines sealed)" \
		"refused_mseal=$(area_lines refused) pkey=$(attack_field pkey) detail=$detail"
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
