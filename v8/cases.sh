# shellcheck shell=bash
# v8/cases.sh - sourced (bash) by matrix.sh, judge.sh and tests/host.sh:
# the case lists of matrix.sh's two modes, and the attack list they are
# made of, with one owner (luajit/cases.sh's rules, V8's lists).
#
#   full  every workload and every attack under every policy
#   fast  make test's subset: V8_FAST_WORKLOADS and V8_FAST_ATTACKS under
#         every policy
#
# The attacks are the scenario column of expected-attacks.tsv (its rows
# that name one rather than a pattern); `node attack.js --list` must name
# the same ones (v8_read_attacks), so that a failing or empty list, or a
# scenario without its rows, stops the run instead of shrinking it.
# Functions return 2 and say why on stderr ("V8_WHO: ...").
V8_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
V8_WHO=${V8_WHO:-v8}
V8_POLICIES=(none pin card all upstream)
V8_FAST_WORKLOADS=(tier wasm)
V8_FAST_ATTACKS=(mprotect-rw munmap-mmap madvise-dontneed proc-mem-write)

v8_fail() { echo "$V8_WHO: $*" >&2; return 2; }

# The scenarios expected-attacks.tsv names, one a line, in byte order.
v8_table_attacks() {
	awk -F'\t' '!/^#/ && NF && $1 !~ /[][*?]/ { print $1 }' "$V8_HERE/expected-attacks.tsv" | LC_ALL=C sort -u
}

# v8_read_attacks NODE...: v8_attacks=(), from `NODE FLAGS attack.js
# --list` (FLAGS: its node-flags header line),
# checked: its exit status, at least one name, names that are words, and
# the same set as expected-attacks.tsv's scenario column.
v8_read_attacks() {
	local out rc=0 listed table a names flags
	v8_attacks=()
	read -ra flags < <(sed -n 's|^// node-flags: ||p' "$V8_HERE/attack/attack.js")
	out=$("$@" "${flags[@]}" "$V8_HERE/attack/attack.js" --list) || rc=$?
	[ "$rc" = 0 ] || { v8_fail "attack.js --list failed (exit $rc)"; return; }
	[ -n "$out" ] || { v8_fail "attack.js --list named no attack"; return; }
	mapfile -t names <<<"$out"
	for a in "${names[@]}"; do
		[[ $a =~ ^[a-z0-9][a-z0-9-]*$ ]] || { v8_fail "attack.js --list: '$a' is not a scenario name"; return; }
	done
	listed=$(printf '%s\n' "${names[@]}" | LC_ALL=C sort)
	table=$(v8_table_attacks)
	[ "$listed" = "$table" ] || {
		v8_fail "attack.js --list and expected-attacks.tsv's scenario column differ:" \
			"only listed: $(comm -23 <(echo "$listed") <(echo "$table") | paste -sd' ')," \
			"only in the table: $(comm -13 <(echo "$listed") <(echo "$table") | paste -sd' ')"
		return
	}
	v8_attacks=("${names[@]}")
}

# v8_table_attack_names: v8_attacks=() from the table alone (judge.sh).
v8_table_attack_names() {
	mapfile -t v8_attacks < <(v8_table_attacks)
	[ ${#v8_attacks[@]} -gt 0 ] || v8_fail "expected-attacks.tsv names no scenario"
}

# v8_read_workloads: v8_workloads=(), workloads/*.js by name.
v8_read_workloads() {
	local f
	v8_workloads=()
	for f in "$V8_HERE"/workloads/*.js; do
		[ -f "$f" ] && v8_workloads+=("$(basename "$f" .js)")
	done
	[ ${#v8_workloads[@]} -gt 0 ] || v8_fail "no workload in $V8_HERE/workloads"
}

# v8_write_cases fast|full: the case lines ("workload|attack NAME POLICY").
v8_write_cases() {
	local w a p
	[ ${#v8_workloads[@]} -gt 0 ] && [ ${#v8_attacks[@]} -gt 0 ] || {
		v8_fail "no workloads or no attacks to make cases of"; return; }
	case $1 in
	full)
		for w in "${v8_workloads[@]}"; do for p in "${V8_POLICIES[@]}"; do echo "workload $w $p"; done; done
		for a in "${v8_attacks[@]}"; do for p in "${V8_POLICIES[@]}"; do echo "attack $a $p"; done; done ;;
	fast)
		for w in "${V8_FAST_WORKLOADS[@]}"; do
			[[ " ${v8_workloads[*]} " == *" $w "* ]] || { v8_fail "fast workload $w is not in workloads/"; return; }
			for p in "${V8_POLICIES[@]}"; do echo "workload $w $p"; done
		done
		for a in "${V8_FAST_ATTACKS[@]}"; do
			[[ " ${v8_attacks[*]} " == *" $a "* ]] || { v8_fail "fast attack $a is not an attack"; return; }
			for p in "${V8_POLICIES[@]}"; do echo "attack $a $p"; done
		done ;;
	*) v8_fail "unknown mode '$1' (fast or full)" ;;
	esac
}

# v8_mode_words fast|full: what the mode runs, in words.
v8_mode_words() {
	local np=${#V8_POLICIES[@]}
	case $1 in
	full) echo "${#v8_workloads[@]} workloads and ${#v8_attacks[@]} attacks x $np policies" ;;
	fast) echo "${#V8_FAST_WORKLOADS[@]} workloads and ${#V8_FAST_ATTACKS[@]} attacks x $np policies" ;;
	esac
}
