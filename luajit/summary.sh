#!/usr/bin/env bash
# luajit/summary.sh [--jit debian|pkey] [--section] KERNEL... - the Markdown
# summary of a matrix run, from $RESULTS/KERNEL-luajit.out (Debian's LuaJIT)
# or KERNEL-luajit-pkey.out (luajit-series/', --jit pkey) (matrix.sh): the workloads table, what pin
# sealed and could never free, the attacks table, and the answer: per
# kernel, the strongest policy under which LuaJIT ran every workload, and
# which attacks that policy leaves open (with expected-attacks.tsv's
# reasons).  Policies from strongest: all, upstream, card, pin, none; the
# answer is luajit/answer.awk's, and counts the attacks the run tried under
# the policy, not every attack of the run.  The mode of the run (each .out's
# "# luajit-matrix mode=" line, matrix.sh) is said first.
# --section: as docs/threat-model.md's section "A JIT nobody here wrote"
# (a heading and what was measured, then the same tables; with
# $RESULTS/luajit-cost.md, the cost too), or for --jit pkey its part of
# "The seal a production JIT can keep" (with luajit-pkey-cost.md); only
# from a full run.
# Exits 1 when a kernel has no results, a file names no mode, the files
# are of different modes, or --section is asked of a fast run; 2 on misuse.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SEALJIT=${SEALJIT:-$(dirname "$here")}
RESULTS=${RESULTS:-$SEALJIT/build/results}
section= jit=debian
if [ "${1:-}" = --jit ]; then [ $# -ge 2 ] || set -- ""; jit=$2; shift 2; fi
[ "${1:-}" = --section ] && { section=1; shift; }
[ $# -gt 0 ] || { echo "usage: summary.sh [--jit debian|pkey] [--section] KERNEL..." >&2; exit 2; }
LJ_WHO=summary
. "$here/cases.sh"
lj_use_jit "$jit" || exit 2
files=() mode=
for k in "$@"; do
	f=$RESULTS/$k-$LJ_RESULT.out
	[ -f "$f" ] || { echo "summary: no results for $k ($f)" >&2; exit 1; }
	m=$(sed -n 's/^# luajit-matrix mode=\([a-z]*\).*/\1/p' "$f" | head -n 1)
	[ -n "$m" ] || { echo "summary: $f names no mode (no \"# luajit-matrix mode=\" line): run luajit/matrix.sh again" >&2; exit 1; }
	[ -z "$mode" ] || [ "$m" = "$mode" ] ||
		{ echo "summary: $f is from a $m run, the files before it from a $mode run" >&2; exit 1; }
	mode=$m
	files+=("$f")
done
if [ -n "$section" ] && [ "$mode" != full ]; then
	echo "summary: --section needs the full matrix (make luajit-attacks); $RESULTS holds a $mode run (make test-luajit runs the fast subset)" >&2
	exit 1
fi

if [ -n "$section" ] && [ "$jit" = pkey ]; then
	cat <<'INTRO'
### The patched LuaJIT, measured

The same guests, workloads, attacks, policies and seal-on-exec library as
Debian's LuaJIT above, with LuaJIT built from Debian's source package and
luajit-series/ (`luajit/matrix.sh --jit pkey`; `make luajit-attacks`).
Every RAN workload also kept its code W^X by the key
(`jit.util.mcodeinfo()` at `lua_close()`), and every attacked area was
under a key (smaps' `ProtectionKey`).  SIGSEGV: the attacker's store into
the code faulted on the key (tried in a forked child with the attacker's
rights, PKRU included).

INTRO
elif [ -n "$section" ]; then
	cat <<'INTRO'
## A JIT nobody here wrote

jitdemo was written to fit the seal.  Debian's `luajit` (2.1.0-beta3) was
not: here it runs unmodified, with `libsealjit-preload.so` (luajit/)
loaded before it, which seals each machine-code area the first time
LuaJIT makes it executable, under `SEALJIT_SEAL_POLICY`: `none`, `pin`
(`MM_SEAL_MUNMAP|MM_SEAL_MMAP|MM_SEAL_MREMAP`: the area stays put, its
permissions stay free), `card`, `all`, or `upstream` (`types == 0`).
LuaJIT maps each area read-write, makes the whole area read-write again
before every trace it adds (and an older area, to patch a parent trace's
exit), read-execute after it, and munmaps every area on `jit.flush()`,
when its areas reach `-Omaxmcode`, and at exit.  The tables are generated
from a run of `make -C luajit attacks` (luajit/matrix.sh).

INTRO
fi

if [ -z "$section" ]; then
	lj_read_workloads && lj_table_attack_names || exit 2
	case $mode in
	fast) printf 'From a **fast** run (make test-luajit, the subset luajit/cases.sh names: %s); `-` marks a case it does not run.\n\n' "$(lj_mode_words fast)" ;;
	*) printf 'From a **%s** run (make luajit-attacks: %s).\n\n' "$mode" "$(lj_mode_words "$mode")" ;;
	esac
fi

# the program: answer.awk's function, then this
awk -v kernels="$*" -v atsv="$LJ_TABLE_A" -v jit="$jit" "$(cat "$here/answer.awk")"'
# A field of a result line, before its detail (free text).
function field(line, name,   n, i, kv) {
	n = split(line, kv, " ")
	for (i = 1; i <= n; i++) {
		if (index(kv[i], "detail=") == 1) break
		if (index(kv[i], name "=") == 1) return substr(kv[i], length(name) + 2)
	}
	return ""
}
function glob(pattern, text) { gsub(/\*/, ".*", pattern); return text ~ ("^" pattern "$") }
function reason(name, policy, kernel,   i, f) {
	for (i = 1; i <= nrows; i++) {
		split(rows[i], f, "\t")
		if (glob(f[1], name) && glob(f[2], policy) && glob(f[3], kernel)) return f[6]
	}
	return "(no row in expected-attacks.tsv)"
}
function cell(line,   o, e) {
	o = field(line, "outcome"); e = field(line, "errno")
	if (o == "UNAVAILABLE") return "n/a"
	if (o == "ABORTED") return "aborted " e
	if (o == "BLOCKED") return e
	if (o == "LANDED" && field(line, "rerun") == "payload") return "LANDED*"
	return o
}
function human(bytes) {
	if (bytes == "-" || bytes == "") return "-"
	bytes = bytes + 0
	if (bytes >= 1048576) return sprintf("%.1f MiB", bytes / 1048576)
	if (bytes >= 1024) return sprintf("%d KiB", bytes / 1024)
	return bytes " B"
}
function header(first,   a, b, line, sep) {
	line = "| " first " |"; sep = "| --- |"
	for (a = 1; a <= nk; a++) for (b = 1; b <= np; b++) {
		line = line " " ks[a] " " ps[b] " |"; sep = sep " --- |"
	}
	print line; print sep
}
function table(kind, names, n, first,   i, a, b, line, key) {
	header(first)
	for (i = 1; i <= n; i++) {
		line = "| " names[i] " |"
		for (a = 1; a <= nk; a++) for (b = 1; b <= np; b++) {
			key = kind SUBSEP names[i] SUBSEP ks[a] SUBSEP ps[b]
			line = line " " ((key in res) ? cell(res[key]) : "-") " |"
		}
		print line
	}
}
BEGIN {
	while ((getline l < atsv) > 0) if (l !~ /^#/ && l != "") rows[++nrows] = l
	nk = split(kernels, ks, " ")
	np = split("none pin card all upstream", ps, " ")
}
/^# result / {
	kind = field($0, "kind"); name = field($0, "name")
	key = kind SUBSEP name SUBSEP field($0, "kernel") SUBSEP field($0, "policy")
	res[key] = $0
	if (kind == "workload" && !(name in wseen)) { wseen[name] = 1; wl[++nw] = name }
	if (kind == "attack" && !(name in aseen)) { aseen[name] = 1; al[++na] = name }
	if (!(name in ans_kind)) { ans_kind[name] = kind; ans_name[++ans_n] = name }
	ans_outcome[field($0, "kernel"), field($0, "policy"), name] = field($0, "outcome")
}
END {
	who = (jit == "pkey" ? "LuaJIT with luajit-series/" : "unmodified LuaJIT")
	print "### Workloads: did " who " run correctly?"
	print ""
	table("workload", wl, nw, "workload")
	print ""
	print "RAN: exit 0, machine code made executable, output identical to `luajit -joff`."
	print "aborted ERRNO: LuaJIT stopped; ERRNO is the first call the kernel refused it."
	print "n/a: the kernel cannot express the policy (the library refuses to start)."
	print ""
	print "### What the policies that ran sealed, and what they could never free"
	print ""
	extra = (jit == "pkey" ? " flushed bytes reused | sealed bytes never reused |" : "")
	print "| kernel | policy | workload | areas sealed | sealed bytes | mprotects RW / RX on areas | RW of an older area (exit patches) | munmaps refused | bytes never freed |" extra
	print "| --- | --- | --- | --- | --- | --- | --- | --- | --- |" (jit == "pkey" ? " --- | --- |" : "")
	for (a = 1; a <= nk; a++) for (b = 2; b <= np; b++) for (i = 1; i <= nw; i++) {
		key = "workload" SUBSEP wl[i] SUBSEP ks[a] SUBSEP ps[b]
		if (!(key in res) || field(res[key], "outcome") != "RAN") continue
		r = res[key]
		printf "| %s | %s | %s | %s | %s | %s / %s | %s | %s | %s |", ks[a], ps[b], wl[i],
			field(r, "sealed"), human(field(r, "sealed_bytes")),
			field(r, "write_protects"), field(r, "exec_protects"),
			field(r, "old_area_patches"),
			field(r, "refused_munmap"), human(field(r, "unfreed_bytes"))
		if (jit == "pkey")
			printf " %s | %s |", human(field(r, "reused_bytes")), human(field(r, "retired_bytes"))
		printf "\n"
	}
	print ""
	print "munmaps refused include lua_close()'"'"'s at exit (one per area still in LuaJIT'"'"'s list); the"
	print "rest are jit.flush() and the flush LuaJIT does itself when its areas reach -Omaxmcode."
	if (jit != "pkey") {
		print "LuaJIT ignores a failed munmap (mcode_free returns nothing), so the bytes stay mapped, sealed"
		print "r-x, for the life of the process."
	} else {
		print "bytes never freed counts every refused munmap, once per refusal.  The patched LuaJIT keeps"
		print "each area a flush could not unmap, filled with INT3, and makes its next area of that size"
		print "there: flushed bytes reused is what it made there, sealed bytes never reused what was left"
		print "unused when the workload ended (jit.util.mcodeinfo() at lua_close())."
	}
	print ""
	print "### Attacks on a hot trace'"'"'s machine code"
	print ""
	table("attack", al, na, "attack")
	print ""
	print "LANDED: the code, its place, permissions or pages changed; LANDED*: and LuaJIT then ran the"
	print "attacker'"'"'s bytes (exit 65).  EACCES, EPERM: BLOCKED with that errno, nothing changed, the trace"
	print "still returns the right value.  n/a: the kernel cannot express the policy."
	print ""
	print "### The answer: the strongest policy LuaJIT survives, and what it leaves open"
	print ""
	for (a = 1; a <= nk; a++) {
		answer(ks[a])
		best = ans_best
		if (best == "") { printf "- **%s**: no policy ran every workload (not even none)\n", ks[a]; continue }
		open_list = ""
		for (i = 1; i <= ans_landed; i++)
			open_list = open_list "\n  - `" ans_land[i] "`" (best == "none" ? "" : ": " reason(ans_land[i], best, ks[a]))
		printf "- **%s**: `%s`; %d of the %d attacks tried under it land%s\n", ks[a], best, ans_landed, ans_tried,
			(best == "none" ? " (nothing is sealed)" : (ans_landed ? ":" open_list : ""))
	}
}' "${files[@]}"
if [ -n "$section" ] && [ "$jit" = pkey ] && [ -f "$RESULTS/luajit-pkey-cost.md" ]; then
	printf '\n### What the series costs, in guest instructions (make luajit-pkey-cost)\n\n'
	cat "$RESULTS/luajit-pkey-cost.md"
elif [ -n "$section" ] && [ "$jit" = debian ] && [ -f "$RESULTS/luajit-cost.md" ]; then
	printf '\n### What pin costs, in guest instructions\n\n'
	cat "$RESULTS/luajit-cost.md"
fi
