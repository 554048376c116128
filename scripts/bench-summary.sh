#!/usr/bin/env bash
# scripts/bench-summary.sh [--chart DIR] TSV - the tables of a
# scripts/bench-kernel.sh run, in Markdown:
#   1. per case and kernel: the median over the boots and the spread
#      ((max - min) / median), flagged "!" when over 1%;
#   2. per case, each kernel's cost relative to vanilla's, as a change in
#      percent: median ratio [lowest, highest ratio any two boots give];
#   3. for the cases in a sealed process: the cost relative to the same
#      operation unsealed on the same kernel, likewise.
# Costs are ns (guest instructions) per iteration; stress-ng's bogo-ops/s
# are turned into guest ns per bogo-op for the ratios, so that above 0%
# always means slower.  Sealed placements compare, on vanilla (which
# cannot seal), with vanilla's unsealed operation.  A kernel x case with
# no measured boot shows why (n/a, died, error, missing).
#
# --chart DIR also writes DIR/unsealed.dat, DIR/sealed.dat (far and next
# seals), DIR/refused.dat and DIR/kernels: per case,
# for each kernel but vanilla, the change in percent and its range ("?"
# where there is none), for scripts/performance-doc.sh's chart.
set -euo pipefail
chart=
[ "${1:-}" = --chart ] && { [ $# -ge 2 ] || exit 2; chart=$2; shift 2; }
tsv=${1:?usage: scripts/bench-summary.sh [--chart DIR] TSV}
[ -f "$tsv" ] || { echo "bench-summary: no $tsv" >&2; exit 2; }
[ -z "$chart" ] || mkdir -p "$chart"

# kernel case cost unit value, for the measured rows, sorted by cost
awk -F'\t' 'NR > 1 && $6 == "ok" {
	cost = $5 == "bogo-ops/s" ? 1e9 / $4 : $4
	printf "%s\t%s\t%.6f\t%s\t%s\n", $1, $2, cost, $5, $4
}' "$tsv" | sort -t$'\t' -k1,1 -k2,2 -k3,3g |
awk -F'\t' -v chart="$chart" '
function median(k, c,   n) {
	n = cnt[k, c]
	return n % 2 ? v[k, c, (n + 1) / 2] : (v[k, c, n / 2] + v[k, c, n / 2 + 1]) / 2
}
function pct(x) { return sprintf("%+.1f%%", (x - 1) * 100) }
function plain_of(c) { sub(/\+(far-seal|next-seal|refused)$/, "", c); return c }
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
function vanilla_base(c) {
	return (("vanilla", c) in med) ? c : plain_of(c)
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

	print "\n### Cost relative to vanilla: median [range]\n"
	head = "| case |"; rule = "|---|"
	for (i = 1; i <= nk; i++) if (kernels[i] != "vanilla") { head = head " " kernels[i] " |"; rule = rule "---|" }
	print head; print rule
	for (j = 1; j <= nc; j++) {
		c = cases[j]; line = "| " c " |"; any = 0; dat = c
		for (i = 1; i <= nk; i++) {
			k = kernels[i]
			if (k == "vanilla") continue
			s = ratio(k, c, "vanilla", vanilla_base(c))
			if (s != "") {
				any = 1
				dat = dat sprintf(" %.3f %.3f %.3f", (r - 1) * 100, (rlo - 1) * 100, (rhi - 1) * 100)
			} else
				dat = dat " ? ? ?"
			line = line " " (s == "" ? "-" : s) " |"
		}
		if (any) print line
		if (any && chart != "")
			print dat > (chart "/" (c ~ /\+refused$/ ? "refused" : \
				c ~ /\+(far|next)-seal$/ ? "sealed" : "unsealed") ".dat")
	}

	print "\n### In a sealed process, relative to the same operation unsealed (same kernel)\n"
	head = "| case |"; rule = "|---|"
	for (i = 1; i <= nk; i++) if (kernels[i] != "vanilla") { head = head " " kernels[i] " |"; rule = rule "---|" }
	print head; print rule
	for (j = 1; j <= nc; j++) {
		c = cases[j]
		if (plain_of(c) == c) continue
		line = "| " c " |"; any = 0
		for (i = 1; i <= nk; i++) {
			k = kernels[i]
			if (k == "vanilla") continue
			s = ratio(k, c, k, plain_of(c))
			if (s != "") any = 1
			line = line " " (s == "" ? "-" : s) " |"
		}
		if (any) print line
	}
	if (flagged != "") printf "\n**Spread over 1%%:**\n\n%s", flagged
	if (broken != "") printf "\n**Not measured (guest died, case broke or no output):**\n\n%s", broken
	if (chart != "") {
		for (i = 1; i <= nk; i++) if (kernels[i] != "vanilla") printf "%s\n", kernels[i] > (chart "/kernels")
	}
}' - "$tsv"
