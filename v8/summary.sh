#!/usr/bin/env bash
# v8/summary.sh KERNEL... - the Markdown summary of a v8/matrix.sh run,
# from $RESULTS/KERNEL-v8.out: the workloads table, V8's own words for
# every abort (which operation the kernel refused it), the attacks table,
# and the answer: per kernel, the strongest policy under which V8 ran
# every workload of the run, and which attacks tried under it land (with
# expected-attacks.tsv's reasons).  The answer is luajit/answer.awk's (one
# owner for both JITs).  Exits 1 when a kernel has no results, a file
# names no mode, or the files are of different modes; 2 on misuse.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SEALJIT=${SEALJIT:-$(dirname "$here")}
RESULTS=${RESULTS:-$SEALJIT/build/results}
[ $# -gt 0 ] || { echo "usage: summary.sh KERNEL..." >&2; exit 2; }
files=() mode=
for k in "$@"; do
	f=$RESULTS/$k-v8.out
	[ -f "$f" ] || { echo "summary: no results for $k ($f)" >&2; exit 1; }
	m=$(sed -n 's/^# v8-matrix mode=\([a-z]*\).*/\1/p' "$f" | head -n 1)
	[ -n "$m" ] || { echo "summary: $f names no mode: run v8/matrix.sh again" >&2; exit 1; }
	[ -z "$mode" ] || [ "$m" = "$mode" ] ||
		{ echo "summary: $f is from a $m run, the files before it from a $mode run" >&2; exit 1; }
	mode=$m
	files+=("$f")
done
V8_WHO=summary
. "$here/cases.sh"
v8_read_workloads && v8_table_attack_names || exit 2
case $mode in
fast) printf 'From a **fast** run (make -C v8 test: %s); `-` marks a case it does not run.\n\n' "$(v8_mode_words fast)" ;;
*) printf 'From a **%s** run (make -C v8 attacks: %s).\n\n' "$mode" "$(v8_mode_words "$mode")" ;;
esac

awk -v kernels="$*" -v atsv="$here/expected-attacks.tsv" "$(cat "$SEALJIT/luajit/answer.awk")"'
function field(line, name,   n, i, kv) {
	n = split(line, kv, " ")
	for (i = 1; i <= n; i++) {
		if (index(kv[i], "detail=") == 1) break
		if (index(kv[i], name "=") == 1) return substr(kv[i], length(name) + 2)
	}
	return ""
}
function detail(line) { return index(line, " detail=") ? substr(line, index(line, " detail=") + 8) : "" }
function glob(pattern, text) { gsub(/\*/, ".*", pattern); return text ~ ("^" pattern "$") }
function reason(name, policy, kernel,   i, f) {
	for (i = 1; i <= nrows; i++) {
		split(rows[i], f, "\t")
		if (glob(f[1], name) && glob(f[2], policy) && glob(f[3], kernel)) return f[7]
	}
	return "(no row in expected-attacks.tsv)"
}
function cell(line,   o, e) {
	o = field(line, "outcome"); e = field(line, "errno")
	if (o == "UNAVAILABLE") return "n/a"
	if (o == "UNSEALED") return "unsealed " e
	if (o == "ABORTED") return "aborted " e
	if (o == "BLOCKED") return e
	if (o == "LANDED" && field(line, "rerun") == "payload") return "LANDED*"
	return o
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
{ sub(/\r$/, "") }
/^# result / {
	kind = field($0, "kind"); name = field($0, "name")
	key = kind SUBSEP name SUBSEP field($0, "kernel") SUBSEP field($0, "policy")
	res[key] = $0
	if (kind == "workload" && !(name in wseen)) { wseen[name] = 1; wl[++nw] = name }
	if (kind == "attack" && !(name in aseen)) { aseen[name] = 1; al[++na] = name }
	if (!(name in ans_kind)) { ans_kind[name] = kind; ans_name[++ans_n] = name }
	ans_outcome[field($0, "kernel"), field($0, "policy"), name] = field($0, "outcome")
	if (field($0, "outcome") == "ABORTED") {
		w = detail($0); sub(/^V8 stopped before the attack: /, "", w)
		why = field($0, "kernel") " " field($0, "policy") ": " field($0, "last_refused") " -> " w
		if (!(why in wordseen)) { wordseen[why] = 1; words[++nwords] = why; wordcases[why] = name }
		else if (index(" " wordcases[why] " ", " " name " ") == 0) wordcases[why] = wordcases[why] " " name
	}
}
END {
	print "### Workloads: did unmodified V8 run correctly?"
	print ""
	table("workload", wl, nw, "workload")
	print ""
	print "RAN: exit 0, code made executable, stdout identical to `node --jitless`, and the"
	print "workload'"'"'s own line on stderr (the tier it reached, the engine that ran, the code space"
	print "shrinking).  aborted ERRNO: V8 stopped itself on a failed CHECK; ERRNO is that of the last"
	print "call the kernel refused it.  n/a: the kernel cannot express the policy.  unsealed ERRNO:"
	print "the kernel refused to seal V8'"'"'s code (mseal failed with ERRNO); V8 ran on, unsealed."
	print ""
	print "### What V8 said when it stopped"
	print ""
	for (i = 1; i <= nwords; i++) printf "- %s (%s)\n", words[i], wordcases[words[i]]
	if (nwords == 0) print "(V8 never stopped itself in this run.)"
	print ""
	print "### Attacks on an optimized function'"'"'s machine code"
	print ""
	table("attack", al, na, "attack")
	print ""
	print "LANDED: the code, its place, permissions or pages changed; LANDED*: and V8 then ran the"
	print "attacker'"'"'s bytes (exit 65).  EACCES, EPERM, EIO: BLOCKED with that errno, nothing changed,"
	print "the function still returns the right value.  aborted: V8 stopped before the attack."
	print "unsealed: the kernel refused to seal V8'"'"'s code; the attack then met no seal."
	print ""
	print "### The answer: the strongest policy V8 runs under, and what it leaves open"
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
