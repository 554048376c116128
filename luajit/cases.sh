# luajit/cases.sh - sourced (bash) by matrix.sh, judge.sh and tests/host.sh:
# the case lists of matrix.sh's two modes, and the attack list they are made
# of, with one owner.
#
#   full  every workload and every attack under every policy
#   fast  make test's subset: LJ_FAST_WORKLOADS under every policy, every
#         attack under none (the controls), LJ_FAST_BLOCKED under every
#         sealing policy
#
# The attacks are the scenario column of expected-attacks.tsv (its rows
# that name one rather than a pattern); `attack.lua --list` must name the
# same ones (lj_read_attacks), so that a failing or empty --list, or a
# scenario without its rows, stops the run instead of shrinking it.
# Functions return 2 and say why on stderr ("LJ_WHO: ...").
LJ_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LJ_WHO=${LJ_WHO:-luajit}
LJ_POLICIES=(none pin card all upstream)
LJ_FAST_WORKLOADS=(hotloop flush)

lj_fail() { echo "$LJ_WHO: $*" >&2; return 2; }

# lj_use_jit debian|pkey: which LuaJIT a run is of (default debian).
#   debian  Debian's luajit as installed, unmodified
#   pkey    Debian's source with luajit-series/ (W^X by a protection key),
#           built by luajit-series/build.sh
# Sets LJ_JIT; LJ_TABLE_W and LJ_TABLE_A, its expected tables; LJ_RESULT,
# the name of its results (KERNEL-$LJ_RESULT.out, $LJ_RESULT-matrix.md);
# LJ_FAST_BLOCKED, the attacks the fast mode runs under every sealing policy.
lj_use_jit() {
	case $1 in
	debian)
		LJ_RESULT=luajit LJ_TABLE_W=$LJ_HERE/expected-workloads.tsv
		LJ_TABLE_A=$LJ_HERE/expected-attacks.tsv
		LJ_FAST_BLOCKED=(mprotect-rw mremap-move munmap-mmap madvise-dontneed) ;;
	pkey)
		LJ_RESULT=luajit-pkey LJ_TABLE_W=$LJ_HERE/expected-pkey-workloads.tsv
		LJ_TABLE_A=$LJ_HERE/expected-pkey-attacks.tsv
		LJ_FAST_BLOCKED=(libc-mprotect pkey-mprotect-rwx proc-mem-write munmap-mmap) ;;
	*) lj_fail "unknown LuaJIT '$1' (debian or pkey)"; return ;;
	esac
	LJ_JIT=$1
}
lj_use_jit debian

# The scenarios the expected attacks table names, one a line, in byte order.
lj_table_attacks() {
	awk -F'\t' '!/^#/ && NF && $1 !~ /[][*?]/ { print $1 }' "$LJ_TABLE_A" | LC_ALL=C sort -u
}

# lj_read_attacks LUAJIT...: lj_attacks=(), from `LUAJIT attack.lua --list`,
# checked: its exit status, at least one name, names that are words, and
# the same set as expected-attacks.tsv's scenario column.
lj_read_attacks() {
	local out rc=0 listed table a names
	lj_attacks=()
	out=$("$@" "$LJ_HERE/attack/attack.lua" --list) || rc=$?
	[ "$rc" = 0 ] || { lj_fail "attack.lua --list failed (exit $rc)"; return; }
	[ -n "$out" ] || { lj_fail "attack.lua --list named no attack"; return; }
	mapfile -t names <<<"$out"
	for a in "${names[@]}"; do
		[[ $a =~ ^[a-z0-9][a-z0-9-]*$ ]] || { lj_fail "attack.lua --list: '$a' is not a scenario name"; return; }
	done
	listed=$(printf '%s\n' "${names[@]}" | LC_ALL=C sort)
	table=$(lj_table_attacks)
	[ "$listed" = "$table" ] || {
		lj_fail "attack.lua --list and $(basename "$LJ_TABLE_A")'s scenario column differ:" \
			"only listed: $(comm -23 <(echo "$listed") <(echo "$table") | paste -sd' ')," \
			"only in the table: $(comm -13 <(echo "$listed") <(echo "$table") | paste -sd' ')"
		return
	}
	lj_attacks=("${names[@]}")
}

# lj_table_attack_names: lj_attacks=() from the table alone (judge.sh).
lj_table_attack_names() {
	mapfile -t lj_attacks < <(lj_table_attacks)
	[ ${#lj_attacks[@]} -gt 0 ] || lj_fail "$(basename "$LJ_TABLE_A") names no scenario"
}

# lj_read_workloads: lj_workloads=(), workloads/*.lua by name.
lj_read_workloads() {
	local f
	lj_workloads=()
	for f in "$LJ_HERE"/workloads/*.lua; do
		[ -f "$f" ] && lj_workloads+=("$(basename "$f" .lua)")
	done
	[ ${#lj_workloads[@]} -gt 0 ] || lj_fail "no workload in $LJ_HERE/workloads"
}

# lj_write_cases fast|full: the case lines ("workload|attack NAME POLICY")
# of lj_workloads and lj_attacks.
lj_write_cases() {
	local w a p
	[ ${#lj_workloads[@]} -gt 0 ] && [ ${#lj_attacks[@]} -gt 0 ] || {
		lj_fail "no workloads or no attacks to make cases of"; return; }
	case $1 in
	full)
		for w in "${lj_workloads[@]}"; do for p in "${LJ_POLICIES[@]}"; do echo "workload $w $p"; done; done
		for a in "${lj_attacks[@]}"; do for p in "${LJ_POLICIES[@]}"; do echo "attack $a $p"; done; done ;;
	fast)
		for w in "${LJ_FAST_WORKLOADS[@]}"; do
			[[ " ${lj_workloads[*]} " == *" $w "* ]] || { lj_fail "fast workload $w is not in workloads/"; return; }
			for p in "${LJ_POLICIES[@]}"; do echo "workload $w $p"; done
		done
		for a in "${lj_attacks[@]}"; do echo "attack $a none"; done
		for a in "${LJ_FAST_BLOCKED[@]}"; do
			[[ " ${lj_attacks[*]} " == *" $a "* ]] || { lj_fail "fast attack $a is not an attack"; return; }
			for p in "${LJ_POLICIES[@]}"; do [ "$p" = none ] || echo "attack $a $p"; done
		done ;;
	*) lj_fail "unknown mode '$1' (fast or full)" ;;
	esac
}

# lj_mode_words fast|full: what the mode runs, in words.
lj_mode_words() {
	local np=${#LJ_POLICIES[@]}
	case $1 in
	full) echo "${#lj_workloads[@]} workloads and ${#lj_attacks[@]} attacks x $np policies" ;;
	fast) echo "${#LJ_FAST_WORKLOADS[@]} workloads x $np policies, ${#lj_attacks[@]} attacks under none," \
		"${#LJ_FAST_BLOCKED[@]} attacks x $((np - 1)) sealing policies" ;;
	esac
}
