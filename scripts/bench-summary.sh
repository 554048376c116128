#!/usr/bin/env bash
# scripts/bench-summary.sh [--chart DIR] TSV - the tables of a
# scripts/bench-kernel.sh run, in Markdown:
#   1. per case and kernel: the median over the boots and the spread
#      ((max - min) / median), flagged "!" when over 1%;
#   2. per case, each kernel's cost relative to its base's (BASES, by
#      default kernel/kernels.tsv's: v1 and mseal against vanilla,
#      upstream-fixes against upstream; upstream against vanilla, a
#      different kernel, not sealing's cost), as a change
#      in percent: median ratio [lowest, highest ratio any two boots give];
#   3. for the cases in a sealed process (+far-seal, +next-seal) and the
#      refusals: the cost relative to the same operation on the same
#      kernel in its unsealed twin layout (+far-unsealed, +next-unsealed:
#      the same VMAs, not sealed; a refusal's twin is the plain case),
#      likewise;
#   4. the goals on each of GOAL_KERNELS (default: mseal upstream-fixes)
#      that ran: every unsealed case (plain, twins, stress-ng) at most 0.5%
#      dearer than on its base (a case more than 0.5% cheaper is listed
#      apart: a process that never seals runs the same code, so that is
#      noise), every sealed-process case within 2% of its twin; each miss
#      listed;
#   5. issue 18's goal, if upstream ran too: mseal() itself (mseal-*,
#      seal-arenas-*) on mseal no dearer than on upstream.
# Costs are ns (guest instructions) per iteration; stress-ng's bogo-ops/s
# are turned into guest ns per bogo-op for the ratios, so that above 0%
# always means slower.  Sealed placements compare, on vanilla (which
# cannot seal), with vanilla's twin.  A kernel x case with no measured
# boot shows why (n/a, died, error, missing).  A sealed case whose VMA
# count after setup ("maps=" in the note) is not its twin's is listed.
#
# --chart DIR also writes DIR/unsealed.dat (vs vanilla), DIR/sealed.dat
# (far and next seals, vs the twin on the same kernel), DIR/refused.dat
# (vs vanilla performing the operation) and DIR/kernels: per case, for
# each kernel but vanilla, the change in percent and its range ("?" where
# there is none), for scripts/performance-doc.sh's chart.
set -euo pipefail
chart=
[ "${1:-}" = --chart ] && { [ $# -ge 2 ] || exit 2; chart=$2; shift 2; }
tsv=${1:?usage: scripts/bench-summary.sh [--chart DIR] TSV}
[ -f "$tsv" ] || { echo "bench-summary: no $tsv" >&2; exit 2; }
[ -z "$chart" ] || mkdir -p "$chart"
# "KERNEL=BASE ...": each kernel with a base in kernel/kernels.tsv (a
# different kernel's ~ dropped: this table shows both kinds).
bases=${BASES:-$(awk -F'\t' '!/^#/ && NF >= 4 && $3 != "-" {
	sub(/^~/, "", $3); printf "%s%s=%s", sep, $1, $3; sep = " " }' "$(dirname "$0")/../kernel/kernels.tsv")}

# kernel case cost unit value, for the measured rows, sorted by cost
awk -F'\t' 'NR > 1 && $6 == "ok" {
	cost = $5 == "bogo-ops/s" ? 1e9 / $4 : $4
	printf "%s\t%s\t%.6f\t%s\t%s\n", $1, $2, cost, $5, $4
}' "$tsv" | sort -t$'\t' -k1,1 -k2,2 -k3,3g |
awk -F'\t' -v chart="$chart" -v goals="${GOAL_KERNELS:-mseal upstream-fixes}" \
	-v bases="$bases" '
function median(k, c,   n) {
	n = cnt[k, c]
	return n % 2 ? v[k, c, (n + 1) / 2] : (v[k, c, n / 2] + v[k, c, n / 2 + 1]) / 2
}
function pct(x) { return sprintf("%+.1f%%", (x - 1) * 100) }
function plain_of(c) { sub(/\+(far|next)-(seal|unsealed)$|\+refused$/, "", c); return c }
function sealed(c) { return c ~ /\+(far-seal|next-seal|refused)$/ }
# the same operation and layout, not sealed
function twin_of(c) {
	if (sub(/\+far-seal$/, "+far-unsealed", c) || sub(/\+next-seal$/, "+next-unsealed", c))
		return c
	return plain_of(c)
}
function shown(k, c,   m, s) {
	if (!((k, c) in med))
		return why[k, c] == "" ? "-" : why[k, c]
	m = med[k, c]
	if (unit[k, c] == "bogo-ops/s")
		s = sprintf("%.4g/s", 1e9 / m)
	else
		s = sprintf("%.0f", m)
	s = s sprintf(" ±%.1f%%", spread[k, c])
	if (spread[k, c] > 1)
		s = s " !"
	if (cnt[k, c] < boots[k, c])
		s = s sprintf(" (%d of %d boots)", cnt[k, c], boots[k, c])
	return s
}
# the change of (k, c) against (bk, bc), with its range; "" if none
function ratio(k, c, bk, bc) {
	if (!((k, c) in med) || !((bk, bc) in med))
		return ""
	r = med[k, c] / med[bk, bc]
	rlo = lo[k, c] / hi[bk, bc]
	rhi = hi[k, c] / lo[bk, bc]
	return pct(r) " [" pct(rlo) ", " pct(rhi) "]"
}
# the kernel k is measured against, and which of its cases is the base of c
function base_of(k,   n, i, kv) {
	n = split(bases, kv, " ")
	for (i = 1; i <= n; i++) if (index(kv[i], k "=") == 1) return substr(kv[i], length(k) + 2)
	return "vanilla"
}
function base_case(bk, c) {
	return ((bk, c) in med) ? c : twin_of(c)
}
# the change of (k, c) against (bk, bc) as a number, or "" if none
function change(k, c, bk, bc) {
	if (!((k, c) in med) || !((bk, bc) in med))
		return ""
	return (med[k, c] / med[bk, bc] - 1) * 100
}
function goal_misses(goal, base,   j, c, x, out) {
	cheaper = ""
	for (j = 1; j <= nc; j++) {
		c = cases[j]
		if (c ~ /\+refused$/ || c ~ /^(mseal-|seal-arenas-)/)
			continue
		if (!sealed(c)) {
			x = change(goal, c, base, c)
			if (x == "")
				out = out sprintf("- %s: not measured on both %s and %s\n", c, goal, base)
			else if (x > 0.5)
				out = out sprintf("- %s: %+.2f%% vs %s (goal: at most +0.5%%)\n", c, x, base)
			else if (x < -0.5)
				cheaper = cheaper sprintf("- %s: %+.2f%% vs %s\n", c, x, base)
		} else {
			x = change(goal, c, goal, twin_of(c))
			if (x == "")
				out = out sprintf("- %s: not measured with its twin on %s\n", c, goal)
			else if (x > 2 || x < -2)
				out = out sprintf("- %s: %+.2f%% vs %s (goal: within 2%%)\n", c, x, twin_of(c))
		}
	}
	return out
}
# issue 18: mseal() on the goal kernel no dearer than on upstream
function seal_cost_misses(goal,   j, c, x, out) {
	for (j = 1; j <= nc; j++) {
		c = cases[j]
		if (c !~ /^(mseal-|seal-arenas-)/)
			continue
		x = change(goal, c, "upstream", c)
		if (x == "")
			out = out sprintf("- %s: not measured on both %s and upstream\n", c, goal)
		else if (x > 0)
			out = out sprintf("- %s: %+.1f%% vs upstream (goal: at most upstream)\n", c, x)
	}
	return out
}
FNR == NR {
	k = $1; c = $2; n = ++cnt[k, c]; v[k, c, n] = $3; unit[k, c] = $4
	next
}
FNR > 1 {
	k = $1; c = $2
	if (!(k in kseen)) { kseen[k] = 1; kernels[++nk] = k }
	if (!(c in cseen)) { cseen[c] = 1; cases[++nc] = c }
	boots[k, c]++
	if (match($7, /maps=[0-9]+/) && !((k, c) in maps))
		maps[k, c] = substr($7, RSTART + 5, RLENGTH - 5)
	if ($6 != "ok" && why[k, c] == "")
		why[k, c] = $6 ($6 == "n/a" ? "" : ": " $7)
	if ($6 != "ok" && $6 != "n/a")
		bad[k, c]++
}
END {
	for (i = 1; i <= nk; i++) for (j = 1; j <= nc; j++) {
		k = kernels[i]; c = cases[j]
		if (!cnt[k, c]) continue
		med[k, c] = median(k, c); lo[k, c] = v[k, c, 1]; hi[k, c] = v[k, c, cnt[k, c]]
		spread[k, c] = (hi[k, c] - lo[k, c]) / med[k, c] * 100
		if (spread[k, c] > 1) flagged = flagged sprintf("- %s on %s: %.1f%%\n", c, k, spread[k, c])
		if (bad[k, c]) broken = broken sprintf("- %s on %s: %d of %d boots %s\n", c, k, bad[k, c], boots[k, c], why[k, c])
	}
	print "### Cost per case: median over the boots, and spread\n"
	head = "| case |"; rule = "|---|"
	for (i = 1; i <= nk; i++) { head = head " " kernels[i] " |"; rule = rule "---|" }
	print head; print rule
	for (j = 1; j <= nc; j++) {
		line = "| " cases[j] " |"
		for (i = 1; i <= nk; i++) line = line " " shown(kernels[i], cases[j]) " |"
		print line
	}
	print "\nns per iteration (guest instructions), or stress-ng bogo-ops per guest second; \"!\" marks a spread over 1%."

	print "\n### Cost of each kernel against its base: median [range]\n"
	print "v1 and mseal against vanilla (6.1), upstream-fixes against upstream (6.12): what the series costs. upstream against vanilla is a different kernel, not the cost of sealing.\n"
	head = "| case |"; rule = "|---|"
	for (i = 1; i <= nk; i++) if (kernels[i] != "vanilla") { head = head " " kernels[i] " |"; rule = rule "---|" }
	print head; print rule
	for (j = 1; j <= nc; j++) {
		c = cases[j]; line = "| " c " |"; any = 0; dat = c
		for (i = 1; i <= nk; i++) {
			k = kernels[i]
			if (k == "vanilla") continue
			s = ratio(k, c, base_of(k), base_case(base_of(k), c))
			if (s != "") {
				any = 1
				dat = dat sprintf(" %.3f %.3f %.3f", (r - 1) * 100, (rlo - 1) * 100, (rhi - 1) * 100)
			} else
				dat = dat " ? ? ?"
			line = line " " (s == "" ? "-" : s) " |"
		}
		if (any) print line
		if (any && chart != "" && !(c ~ /\+(far|next)-seal$/))
			print dat > (chart "/" (c ~ /\+refused$/ ? "refused" : "unsealed") ".dat")
	}

	print "\n### In a sealed process, relative to the same operation in the same layout unsealed (same kernel)\n"
	head = "| case |"; rule = "|---|"
	for (i = 1; i <= nk; i++) if (kernels[i] != "vanilla") { head = head " " kernels[i] " |"; rule = rule "---|" }
	print head; print rule
	for (j = 1; j <= nc; j++) {
		c = cases[j]
		if (!sealed(c)) continue
		line = "| " c " vs " twin_of(c) " |"; any = 0; dat = c
		for (i = 1; i <= nk; i++) {
			k = kernels[i]
			if (k == "vanilla") continue
			s = ratio(k, c, k, twin_of(c))
			if (s != "") {
				any = 1
				dat = dat sprintf(" %.3f %.3f %.3f", (r - 1) * 100, (rlo - 1) * 100, (rhi - 1) * 100)
			} else
				dat = dat " ? ? ?"
			line = line " " (s == "" ? "-" : s) " |"
			if (c !~ /\+refused$/ && (k, c) in maps && (k, twin_of(c)) in maps &&
			    maps[k, c] != maps[k, twin_of(c)])
				layout = layout sprintf("- %s on %s: %s VMAs, its twin %s\n", c, k, maps[k, c], maps[k, twin_of(c)])
		}
		if (any) print line
		if (any && chart != "" && c !~ /\+refused$/)
			print dat > (chart "/sealed.dat")
	}
	if (layout != "") printf "\n**Sealed case and twin with different VMA counts (not a clean control):**\n\n%s", layout
	ng = split(goals, goal_list, " ")
	for (g = 1; g <= ng; g++) for (i = 1; i <= nk; i++) if (kernels[i] == goal_list[g]) {
		goal = goal_list[g]; base = base_of(goal)
		misses = goal_misses(goal, base)
		printf "\n### Goals on `%s`\n\n", goal
		printf "Every unsealed case (plain, `+far-unsealed`, `+next-unsealed`, stress-ng) at most 0.5%% dearer than on %s, median of boots; every `+far-seal`/`+next-seal` case within 2%% of its unsealed twin on the same kernel.\n", base
		if (misses == "") print "\nAll met."
		else printf "\nMissed:\n\n%s", misses
		if (cheaper != "") printf "\nMore than 0.5%% cheaper than %s (a process that never seals runs the same code; see the spreads):\n\n%s", base, cheaper
		upstream_ran = 0
		for (j = 1; j <= nk; j++) if (kernels[j] == "upstream") upstream_ran = 1
		if (upstream_ran && goal == "mseal") {
			misses = seal_cost_misses(goal)
			printf "\n### Goal on `%s` (issue 18)\n\n", goal
			print "`mseal()` itself (`mseal-*`, `seal-arenas-*`) no dearer than upstream 6.12'"'"'s, median of boots."
			if (misses == "") print "\nMet."
			else printf "\nMissed:\n\n%s", misses
		}
	}
	if (flagged != "") printf "\n**Spread over 1%%:**\n\n%s", flagged
	if (broken != "") printf "\n**Not measured (guest died, case broke or no output):**\n\n%s", broken
	if (chart != "") {
		for (i = 1; i <= nk; i++) if (kernels[i] != "vanilla") printf "%s\n", kernels[i] > (chart "/kernels")
	}
}' - "$tsv"
