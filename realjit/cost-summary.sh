#!/usr/bin/env bash
# realjit/cost-summary.sh TSV BOOTS KERNEL... - the Markdown table of
# cost.sh's TSV: per kernel and workload, each policy's median guest
# instructions over the boots that ran it, the spread ((max - min) /
# median), and, for every policy but none and bare, the difference of its
# median from none's on the same kernel.  A policy shows "n/a" where the
# kernel cannot express it (status 3), "failed" where a boot did not run
# it to exit 0, "missing" where fewer than BOOTS boots reported it,
# "unsealed" where it ran but the kernel refused every seal.  With two JITs
# in the TSV (its jit column) each policy is JIT:POLICY, and a second
# table sets the last JIT against the first in the same boots (the
# series' LuaJIT against its control).  JIT_PROCESS names the program in
# the closing words (default: jit).
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: cost-summary.sh TSV BOOTS KERNEL..." >&2; exit 2; }
tsv=$1 boots=$2
shift 2
awk -F'\t' -v boots="$boots" -v kernels="$*" -v jit="${JIT_PROCESS:-jit}" '
function median(list,   n, v, i, j, t) {
	n = split(list, v, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
		t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
	}
	lo = v[1]; hi = v[n]
	return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function mega(x) { return sprintf("%.1f M", x / 1e6) }
# POLICY or JIT:POLICY is P
function plain_policy(label, p) { return label == p || label ~ (":" p "$") }
# the none of the same JIT as LABEL
function nonename(label) { return label ~ /:/ ? substr(label, 1, index(label, ":")) "none" : "none" }
# the median of KEY, or "" (sets nothing else)
function med_of(key,   l, h, m) {
	if (!(key in vals) || nok[key] < boots || (key in failed)) return ""
	l = lo; h = hi; m = median(vals[key]); lo = l; hi = h
	return m
}
function diff(a, b) {
	if (a == "" || b == "") return "-"
	return sprintf("%+.1f M (%+.2f%%)", (a - b) / 1e6, 100 * (a - b) / b)
}
FNR == 1 { next }
# two JITs: every policy labelled with its JIT (read first, then again)
FNR == NR { if ($7 != "" && !($7 in jits)) { jits[$7] = 1; jit_order[++njits] = $7 }; next }
{
	if (njits > 1) $3 = $7 ":" $3
	key = $1 SUBSEP $2 SUBSEP $3
	if (!($3 in pseen)) { pseen[$3] = 1; pol[++np] = $3 }
	if (!($2 in wseen)) { wseen[$2] = 1; wl[++nw] = $2 }
	if ($6 == "0" && $5 ~ /^[0-9]+$/) { vals[key] = vals[key] " " $5; nok[key]++ }
	else if ($6 == "3") na[key] = 1
	else if ($6 == "unsealed") unsealed[key] = 1
	else failed[key] = $6
	seen[key]++
}
END {
	nk = split(kernels, ks, " ")
	line = "| kernel | workload |"; sep = "| --- | --- |"
	for (p = 1; p <= np; p++) { line = line " " pol[p] " |"; sep = sep " --- |" }
	for (p = 1; p <= np; p++) if (!plain_policy(pol[p], "none") && !plain_policy(pol[p], "bare")) {
		line = line " " pol[p] " - " nonename(pol[p]) " |"; sep = sep " --- |"
	}
	print line; print sep
	for (a = 1; a <= nk; a++) for (i = 1; i <= nw; i++) {
		line = "| " ks[a] " | " wl[i] " |"
		for (p = 1; p <= np; p++) {
			key = ks[a] SUBSEP wl[i] SUBSEP pol[p]
			med[p] = ""
			if (key in na) cell = "n/a"
			else if (key in unsealed) cell = "unsealed"
			else if (key in failed) cell = "failed (status " failed[key] ")"
			else if (nok[key] < boots) cell = "missing (" nok[key] + 0 " of " boots " boots)"
			else {
				m = median(vals[key]); med[p] = m
				cell = sprintf("%s (spread %.2f%%)", mega(m), 100 * (hi - lo) / m)
			}
			line = line " " cell " |"
			if (plain_policy(pol[p], "none")) none_med[pol[p]] = med[p]
		}
		for (p = 1; p <= np; p++) if (!plain_policy(pol[p], "none") && !plain_policy(pol[p], "bare")) {
			line = line " " diff(med[p], none_med[nonename(pol[p])]) " |"
		}
		print line
	}
	if (njits > 1) {
		first = jit_order[1]; last = jit_order[njits]
		print ""
		print "`" last "` against `" first "`, medians of the same boots:"
		print ""
		print "| kernel | workload | bare | none | pin | sealed (" last ") | " last " sealed - " first " none |"
		print "| --- | --- | --- | --- | --- | --- | --- |"
		for (a = 1; a <= nk; a++) for (i = 1; i <= nw; i++) {
			line = "| " ks[a] " | " wl[i] " |"
			for (q = 1; q <= 3; q++) {
				p = (q == 1 ? "bare" : q == 2 ? "none" : "pin")
				line = line " " diff(med_of(ks[a] SUBSEP wl[i] SUBSEP last ":" p), med_of(ks[a] SUBSEP wl[i] SUBSEP first ":" p)) " |"
			}
			sealed = "all"
			if (med_of(ks[a] SUBSEP wl[i] SUBSEP last ":all") == "") sealed = "upstream"
			m = med_of(ks[a] SUBSEP wl[i] SUBSEP last ":" sealed)
			line = line " " (m == "" ? "-" : sealed) " | " diff(m, med_of(ks[a] SUBSEP wl[i] SUBSEP first ":none")) " |"
			print line
		}
	}
	print ""
	printf "Guest instructions (guest/run --icount: one guest nanosecond is one instruction) from fork to\n"
	printf "exit of the whole %s process, loader and library start-up included; median of %d boots per\n", jit, boots
	printf "kernel, spread = (max - min) / median.  bare: %s without the library; none: with it, sealing nothing.\n", jit
}' "$tsv" "$tsv"
