# shellcheck shell=bash
# realjit/cases.sh - sourced (bash) by realjit/'s host scripts and the JITs'
# tests: which JIT a run is of (its profile), and the case lists of
# matrix.sh's two modes, with one owner.
#
#   full  every workload and every attack under every policy
#   fast  make test's subset: RJ_FAST_WORKLOADS under every fast policy;
#         RJ_FAST_ATTACKS under every fast sealing policy; under none (the
#         controls) every attack (RJ_FAST_CONTROLS=every) or those
#         (RJ_FAST_CONTROLS=fast).  The fast policies: RJ_FAST_POLICIES,
#         default every policy (none always among them)
#
# A JIT is a profile, realjit/JITDIR/NAME.profile (bash, sourced by
# rj_use_jit; realjit/README.md says what it sets): the JITs are the
# profiles in realjit/'s folders, and nothing else lists them.  NAME names its results:
# KERNEL-NAME.out and .tap, NAME-matrix.md, NAME-cost.tsv and .md.
# The attacks are the scenario column of the JIT's attack table (its rows
# that name one rather than a pattern); the JIT's attacker, listing its
# scenarios (the profile's rj_list_attacks), must name the same ones
# (rj_read_attacks), so that a failing or empty list, or a scenario without
# its rows, stops the run instead of shrinking it.
# Functions return 2 and say why on stderr ("RJ_WHO: ...").
RJ_HARNESS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck disable=SC2034 # the tree, read by the profiles
RJ_TOP=$(dirname "$RJ_HARNESS")
RJ_WHO=${RJ_WHO:-realjit}
RJ_POLICIES=(none pin card all upstream)

rj_fail() { echo "$RJ_WHO: $*" >&2; return 2; }

# rj_options SPEC ARG...: the command line of a harness script, parsed
# once for all of them.  SPEC is its options, space-separated: --NAME=VAR
# (takes a value: VAR=VALUE), --NAME+=VAR (takes a value, appended to the
# array VAR), --NAME!VAR (a flag: VAR=1).  The words that are no option
# go to rj_args=(), in their order.  -h, --help, an unknown option or one
# without its value: the caller's usage (which exits 2), after
# "RJ_WHO: unknown option" for an unknown one.
rj_options() {
	local rj_o_spec=$1 rj_o_w rj_o_name rj_o_kind rj_o_var
	shift
	rj_args=()
	while [ $# -gt 0 ]; do
		case $1 in
		-h | --help) usage ;;
		-*)
			rj_o_kind=
			for rj_o_w in $rj_o_spec; do
				rj_o_name=${rj_o_w%%[=+!]*}
				[ "$rj_o_name" = "$1" ] || continue
				rj_o_kind=${rj_o_w#"$rj_o_name"} rj_o_var=${rj_o_kind#*[=!]}
				break
			done
			case $rj_o_kind in
			=*) [ $# -ge 2 ] || usage; printf -v "$rj_o_var" '%s' "$2"; shift ;;
			+=*) [ $# -ge 2 ] || usage; eval "$rj_o_var+=(\"\$2\")"; shift ;;
			!*) printf -v "$rj_o_var" 1 ;;
			*) echo "$RJ_WHO: unknown option $1" >&2; usage ;;
			esac ;;
		*) rj_args+=("$1") ;;
		esac
		shift
	done
}

# The JITs there are profiles of, space-separated, by name.
rj_profiles() {
	local f
	for f in "$RJ_HARNESS"/*/*.profile; do [ -f "$f" ] && basename "$f" .profile; done | LC_ALL=C sort | paste -sd' '
}

# The JITs with expected tables (the others are measured for their cost
# only), by name: the matrices the report page draws.
rj_matrix_jits() {
	local j with=()
	for j in $(rj_profiles); do (rj_use_jit "$j" && rj_need_tables) 2>/dev/null && with+=("$j"); done
	echo "${with[*]}"
}

# rj_use_jit NAME: the profile NAME.profile sourced (the one of realjit/'s
# folders that has it), RJ_JIT=NAME, RJ_HOME its folder; the variables and
# functions every profile sets, checked.
rj_use_jit() {
	local found=() f v
	[[ ${1:-} =~ ^[a-z0-9][a-z0-9-]*$ ]] || { rj_fail "'${1:-}' is no JIT name (profiles: $(rj_profiles))"; return; }
	for f in "$RJ_HARNESS"/*/"$1".profile; do [ -f "$f" ] && found+=("$f"); done
	[ ${#found[@]} -eq 1 ] || { rj_fail "no JIT '$1' (profiles: $(rj_profiles))"; return; }
	unset RJ_WORKLOADS RJ_GUEST_JIT RJ_TABLE_W RJ_TABLE_A RJ_FAST_WORKLOADS RJ_FAST_ATTACKS RJ_FAST_POLICIES RJ_REQUIRE RJ_MAKE_NEEDS RJ_SUMMARY_AWK RJ_COST_MD \
		RJ_COST_HEADING RJ_PAGE_INTRO RJ_PAGE_LEGEND RJ_PAGE_COST
	unset -f rj_list_attacks rj_package rj_section_intro
	# shellcheck disable=SC2034 # the defaults, read by the scripts that source this
	RJ_TABLE_CHECK=no RJ_ABORT_STATUS='' RJ_FAST_CONTROLS=every RJ_TIMEOUT=1800
	RJ_JIT=$1 RJ_HOME=$(dirname "${found[0]}")
	# shellcheck disable=SC1090 # the profile is the JIT's
	. "${found[0]}"
	# a folder may hold JITs that differ in their workloads and guest side
	RJ_WORKLOADS=${RJ_WORKLOADS:-$RJ_HOME/workloads} RJ_GUEST_JIT=${RJ_GUEST_JIT:-$RJ_HOME/guest/jit.sh}
	for v in RJ_PROGRAM RJ_TITLE RJ_PROCESS RJ_ATTACK_TARGET RJ_EXT RJ_ATTACKER RJ_ABORT_WANT RJ_TEST_TARGET RJ_FULL_TARGET; do
		[ -n "${!v:-}" ] || { rj_fail "${found[0]} sets no $v"; return; }
	done
	for v in rj_list_attacks rj_package; do
		declare -F "$v" >/dev/null || { rj_fail "${found[0]} defines no $v"; return; }
	done
	# what the host says of the JIT's guest side, from its guest/jit.sh
	# shellcheck disable=SC2034 # read by the scripts that source this
	RJ_ABORT=$(rj_guest_value JIT_OWN_ABORT) && RJ_REFERENCE=$(rj_guest_value JIT_REFERENCE) &&
		RJ_ABORT_ERRNO=$(rj_guest_value JIT_ABORT_ERRNO)
}

# rj_guest_value NAME: the value the JIT's guest/jit.sh (RJ_GUEST_JIT) gives
# NAME (a line NAME=VALUE or NAME="VALUE").
rj_guest_value() {
	local v
	v=$(sed -n "s/^$1=\"\{0,1\}\([^\"]*\)\"\{0,1\}\$/\1/p" "$RJ_GUEST_JIT" 2>/dev/null)
	[ -n "$v" ] || { rj_fail "$RJ_GUEST_JIT sets no $1"; return; }
	echo "$v"
}

# rj_need_tables: the profile names its expected tables (a JIT that is
# measured only for its cost has none).
rj_need_tables() {
	[ -n "${RJ_TABLE_W:-}" ] && [ -f "$RJ_TABLE_W" ] && [ -n "${RJ_TABLE_A:-}" ] && [ -f "$RJ_TABLE_A" ] ||
		rj_fail "$RJ_JIT has no expected tables (${RJ_TABLE_W:-none}, ${RJ_TABLE_A:-none}): it is measured for its cost only"
}

# The scenarios the attack table names, one a line, in byte order.
rj_table_attacks() {
	awk -F'\t' '!/^#/ && NF && $1 !~ /[][*?]/ { print $1 }' "$RJ_TABLE_A" | LC_ALL=C sort -u
}

# rj_read_attacks [JIT...]: rj_attacks=(), from the profile's
# rj_list_attacks (run with JIT..., else its own), checked: its exit status,
# at least one name, names that are words, and the same set as the attack
# table's scenario column.
rj_read_attacks() {
	local out rc=0 listed table a names what
	what="$(basename "$RJ_ATTACKER") --list"
	rj_attacks=()
	out=$(rj_list_attacks "$@") || rc=$?
	[ "$rc" = 0 ] || { rj_fail "$what failed (exit $rc)"; return; }
	[ -n "$out" ] || { rj_fail "$what named no attack"; return; }
	mapfile -t names <<<"$out"
	for a in "${names[@]}"; do
		[[ $a =~ ^[a-z0-9][a-z0-9-]*$ ]] || { rj_fail "$what: '$a' is not a scenario name"; return; }
	done
	listed=$(printf '%s\n' "${names[@]}" | LC_ALL=C sort)
	table=$(rj_table_attacks)
	[ "$listed" = "$table" ] || {
		rj_fail "$what and $(basename "$RJ_TABLE_A")'s scenario column differ:" \
			"only listed: $(comm -23 <(echo "$listed") <(echo "$table") | paste -sd' ')," \
			"only in the table: $(comm -13 <(echo "$listed") <(echo "$table") | paste -sd' ')"
		return
	}
	rj_attacks=("${names[@]}")
}

# rj_table_attack_names: rj_attacks=() from the table alone (judge.sh).
rj_table_attack_names() {
	mapfile -t rj_attacks < <(rj_table_attacks)
	[ ${#rj_attacks[@]} -gt 0 ] || rj_fail "$(basename "$RJ_TABLE_A") names no scenario"
}

# rj_read_workloads: rj_workloads=(), RJ_WORKLOADS/*.RJ_EXT by name.
rj_read_workloads() {
	local f
	rj_workloads=()
	for f in "$RJ_WORKLOADS"/*."$RJ_EXT"; do
		[ -f "$f" ] && rj_workloads+=("$(basename "$f" ".$RJ_EXT")")
	done
	[ ${#rj_workloads[@]} -gt 0 ] || rj_fail "no workload in $RJ_WORKLOADS"
}

# rj_write_cases fast|full: the case lines ("workload|attack NAME POLICY")
# of rj_workloads and rj_attacks.
rj_write_cases() {
	local w a p controls
	[ ${#rj_workloads[@]} -gt 0 ] && [ ${#rj_attacks[@]} -gt 0 ] || {
		rj_fail "no workloads or no attacks to make cases of"; return; }
	case $1 in
	full)
		for w in "${rj_workloads[@]}"; do for p in "${RJ_POLICIES[@]}"; do echo "workload $w $p"; done; done
		for a in "${rj_attacks[@]}"; do for p in "${RJ_POLICIES[@]}"; do echo "attack $a $p"; done; done ;;
	fast)
		rj_fast_policies || return
		for w in "${RJ_FAST_WORKLOADS[@]}"; do
			[[ " ${rj_workloads[*]} " == *" $w "* ]] || { rj_fail "fast workload $w is not in workloads/"; return; }
			for p in "${rj_fast[@]}"; do echo "workload $w $p"; done
		done
		for a in "${RJ_FAST_ATTACKS[@]}"; do
			[[ " ${rj_attacks[*]} " == *" $a "* ]] || { rj_fail "fast attack $a is not an attack"; return; }
		done
		case $RJ_FAST_CONTROLS in
		every) controls=("${rj_attacks[@]}") ;;
		fast) controls=("${RJ_FAST_ATTACKS[@]}") ;;
		*) rj_fail "RJ_FAST_CONTROLS is '$RJ_FAST_CONTROLS', not every or fast"; return ;;
		esac
		for a in "${controls[@]}"; do echo "attack $a none"; done
		for a in "${RJ_FAST_ATTACKS[@]}"; do
			for p in "${rj_fast[@]}"; do [ "$p" = none ] || echo "attack $a $p"; done
		done ;;
	*) rj_fail "unknown mode '$1' (fast or full)" ;;
	esac
}

# rj_fast_policies: rj_fast=(), the fast subset's policies in
# RJ_POLICIES' order: RJ_FAST_POLICIES (default every policy), checked.
rj_fast_policies() {
	local p
	rj_fast=("${RJ_POLICIES[@]}")
	[ -n "${RJ_FAST_POLICIES+set}" ] || return 0
	for p in "${RJ_FAST_POLICIES[@]}"; do
		[[ " ${RJ_POLICIES[*]} " == *" $p "* ]] || { rj_fail "fast policy $p is not a policy (${RJ_POLICIES[*]})"; return; }
	done
	[[ " ${RJ_FAST_POLICIES[*]} " == *" none "* ]] || { rj_fail "RJ_FAST_POLICIES leaves out none, the control"; return; }
	rj_fast=()
	for p in "${RJ_POLICIES[@]}"; do
		[[ " ${RJ_FAST_POLICIES[*]} " == *" $p "* ]] && rj_fast+=("$p")
	done
	return 0
}

# rj_mode_words fast|full: what the mode runs, in words.
rj_mode_words() {
	local np=${#RJ_POLICIES[@]}
	case $1 in
	full) echo "${#rj_workloads[@]} workloads and ${#rj_attacks[@]} attacks x $np policies" ;;
	fast)
		rj_fast_policies || return
		np=${#rj_fast[@]}
		local which=
		[ "$np" -eq ${#RJ_POLICIES[@]} ] || which=" (${rj_fast[*]})"
		if [ "$RJ_FAST_CONTROLS" = every ]; then
			echo "${#RJ_FAST_WORKLOADS[@]} workloads x $np policies, ${#rj_attacks[@]} attacks under none," \
				"${#RJ_FAST_ATTACKS[@]} attacks x $((np - 1)) sealing policies$which"
		else
			echo "${#RJ_FAST_WORKLOADS[@]} workloads and ${#RJ_FAST_ATTACKS[@]} attacks x $np policies$which"
		fi ;;
	esac
}
