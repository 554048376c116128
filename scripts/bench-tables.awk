# scripts/bench-tables.awk - the Markdown tables of a scripts/bench-kernel.sh
# run, from what scripts/bench-summary.awk made of it (scripts/bench-summary.sh
# runs both; report/cost-svg.awk draws the chart from the same summary).
# Loaded after scripts/kernels.awk (the goals' kernels are the registry's):
#
#   awk -f scripts/kernels.awk -f scripts/bench-tables.awk \
#       -v registry=kernel/kernels.tsv SUMMARY
#
# The tables: each kernel x case's median and spread ("!" over 1%); each
# kernel against its base (and mseal() itself); a kernel against a
# different kernel, apart (not the cost of sealing); in a sealed process
# against the same layout unsealed; the goals of issues 10 and 18 on each
# kernel that carries a series whole (the registry's series column), each
# with its dearest figure, its range and both medians' spreads: every case
# in a process that never seals at most 0.5% dearer than on its base (more
# than 0.5% cheaper listed apart: the same code runs, so that is noise),
# stress-ng's madvise named, every sealed-process case within 2% of its
# twin, and, on a kernel with the 4-argument mseal(), mseal() itself no
# dearer than upstream's.
BEGIN {
	FS = "\t"
	why = reg_load(registry)
	if (why != "") { print "bench-tables: " why > "/dev/stderr"; exit 1 }
}
$1 == "K" { kern[++nk] = $2; base[$2] = $3; other[$2] = $4; next }
$1 == "N" { cases[++nc] = $2; next }
$1 == "T" { ptitle[$2] = $3; psub[$2] = $4; next }
$1 == "R" { upstream = $2; next }
$1 == "M" {
	key = $2 SUBSEP $3
	mmed[key] = $4; mspread[key] = $7; measured[key] = $8; boots[key] = $9; unit[key] = $10
	why_none[key] = $11; maps[key] = $12; broken[key] = $13
	if ($8 > 0 && $7 > 1) flagged = flagged sprintf("- %s on %s: %.1f%%\n", $3, $2, $7)
	if ($13 > 0) notmeasured = notmeasured sprintf("- %s on %s: %d of %d boots %s\n", $3, $2, $13, $9, $11)
	next
}
$1 == "C" {
	key = $2 SUBSEP $3 SUBSEP $4
	against[key] = $5; against_case[key] = $6; change[key] = $7; low[key] = $8; high[key] = $9
	if (!(($2, $4) in inpanel)) { inpanel[$2, $4] = 1; pk[$2, ++npk[$2]] = $4 }
	if (!(($2, $3) in rowseen)) { rowseen[$2, $3] = 1; pr[$2, ++npr[$2]] = $3 }
	next
}

function pct(x) { return sprintf("%+.1f%%", x) }
function cellof(panel, c, k,   key) {
	key = panel SUBSEP c SUBSEP k
	return (key in change) ? pct(change[key]) " [" pct(low[key]) ", " pct(high[key]) "]" : ""
}
function shown(k, c,   key, s) {
	key = k SUBSEP c
	if (!(key in boots)) return "-"
	if (measured[key] == 0) return why_none[key] == "-" ? "-" : why_none[key]
	s = (unit[key] == "bogo-ops/s") ? sprintf("%.4g/s", 1e9 / mmed[key]) : sprintf("%.0f", mmed[key])
	s = s sprintf(" ±%.1f%%", mspread[key])
	if (mspread[key] > 1) s = s " !"
	if (measured[key] < boots[key]) s = s sprintf(" (%d of %d boots)", measured[key], boots[key])
	return s
}
function sealed(c) { return c ~ /\+(far|next)-seal$/ }
function unsealed(c) { return !sealed(c) && c !~ /\+refused$/ && c !~ /^(mseal-|seal-arenas-)/ }
function in_run(k,   a) { for (a = 1; a <= nk; a++) if (kern[a] == k) return 1; return 0 }

# A table of PANELS' (space-separated) lines: a row per case, a column per
# kernel; LABEL 1 writes "case vs its comparand" in the first column.
function table(list, label,   np, ps, a, b, i, j, k, c, head, rule, line, any, cols, ncol, seen, s, key, lab) {
	np = split(list, ps, " ")
	ncol = 0
	for (a = 1; a <= nk; a++)
		for (b = 1; b <= np; b++)
			if ((ps[b], kern[a]) in inpanel && !(kern[a] in seen)) { seen[kern[a]] = 1; cols[++ncol] = kern[a] }
	head = "| case |"; rule = "|---|"
	for (i = 1; i <= ncol; i++) { head = head " " cols[i] " |"; rule = rule "---|" }
	print head; print rule
	for (j = 1; j <= nc; j++) {
		c = cases[j]; any = 0; line = ""
		for (i = 1; i <= ncol; i++) {
			k = cols[i]; s = ""
			for (b = 1; b <= np && s == ""; b++) {
				s = cellof(ps[b], c, k)
				key = ps[b] SUBSEP c SUBSEP k
				if (s != "" && label) lab = c " vs " against_case[key]
				if (s != "" && !label && against[key] != base[k]) s = s " vs " against[key]
			}
			if (s != "") any = 1
			line = line " " (s == "" ? "-" : s) " |"
		}
		if (any) print "| " (label ? lab : c) " |" line
	}
}

# "CASE: +x.xx% vs B [lo, hi] (spread s% on K, t% on B)": a comparison
# of panel P with its range and both medians' spreads.
function figure(p, c, k,   key, b, bc) {
	key = p SUBSEP c SUBSEP k; b = against[key]; bc = against_case[key]
	return sprintf("%s: %+.2f%% vs %s [%+.2f%%, %+.2f%%] (spread %.2f%% on %s, %.2f%% on %s; %d and %d boots)",
		c, change[key], (bc == c ? b : bc), low[key], high[key], mspread[k, c], k, mspread[b, bc], (b == k ? bc : b),
		measured[k, c], measured[b, bc])
}

function goals(k,   b, j, c, x, key, misses, cheaper, worst, wc, twc, tworst) {
	b = base[k]
	printf "\n### Goals on `%s`\n\n", k
	if (b == "") { printf "Its base (kernel/kernels.tsv) did not run: nothing to compare with.\n"; return }
	printf "Every unsealed case (plain, `+far-unsealed`, `+next-unsealed`, stress-ng) at most 0.5%% dearer than on %s, median of boots; every `+far-seal`/`+next-seal` case within 2%% of its unsealed twin on the same kernel.\n", b
	misses = cheaper = wc = twc = ""
	for (j = 1; j <= nc; j++) {
		c = cases[j]
		if (unsealed(c)) {
			key = "base" SUBSEP c SUBSEP k
			if (!(key in change)) misses = misses sprintf("- %s: not measured on both %s and %s\n", c, k, b)
			else {
				if (wc == "" || change[key] > worst) { worst = change[key]; wc = c }
				if (change[key] > 0.5) misses = misses "- " figure("base", c, k) " (goal: at most +0.5%)\n"
				else if (change[key] < -0.5) cheaper = cheaper "- " figure("base", c, k) "\n"
			}
		} else if (sealed(c)) {
			key = "twin" SUBSEP c SUBSEP k
			if (!(key in change)) misses = misses sprintf("- %s: not measured with its twin on %s\n", c, k)
			else {
				x = change[key] < 0 ? -change[key] : change[key]
				if (twc == "" || x > tworst) { tworst = x; twc = c }
				if (x > 2) misses = misses "- " figure("twin", c, k) " (goal: within 2%)\n"
			}
		}
	}
	if (misses == "") print "\nAll met."
	else printf "\nMissed:\n\n%s", misses
	print ""
	if (wc != "") print "- dearest unsealed case: " figure("base", wc, k)
	if (("base" SUBSEP "stress-ng/madvise" SUBSEP k) in change && wc != "stress-ng/madvise")
		print "- " figure("base", "stress-ng/madvise", k)
	if (twc != "") print "- sealed case furthest from its twin: " figure("twin", twc, k)
	if (cheaper != "") printf "\nMore than 0.5%% cheaper than %s (a process that never seals runs the same code; see the spreads):\n\n%s", b, cheaper
	if (upstream == "" || reg_get(k, "abi") != "types") return
	misses = ""
	for (j = 1; j <= nc; j++) {
		c = cases[j]
		if (c !~ /^(mseal-|seal-arenas-)/) continue
		key = "seal" SUBSEP c SUBSEP k
		if (!(key in change) || against[key] != upstream) misses = misses sprintf("- %s: not measured on both %s and %s\n", c, k, upstream)
		else if (change[key] > 0) misses = misses "- " figure("seal", c, k) " (goal: at most " upstream "'s)\n"
		else met = met "- " figure("seal", c, k) "\n"
	}
	printf "\n### Goal on `%s` (issue 18)\n\n", k
	printf "`mseal()` itself (`mseal-*`, `seal-arenas-*`) no dearer than %s's, median of boots.\n", upstream
	if (misses == "") print "\nMet."
	else printf "\nMissed:\n\n%s", misses
	if (met != "") printf "\n%s", met
	met = ""
}

END {
	print "### Cost per case: median over the boots, and spread\n"
	head = "| case |"; rule = "|---|"
	for (a = 1; a <= nk; a++) { head = head " " kern[a] " |"; rule = rule "---|" }
	print head; print rule
	for (j = 1; j <= nc; j++) {
		line = "| " cases[j] " |"
		for (a = 1; a <= nk; a++) line = line " " shown(kern[a], cases[j]) " |"
		print line
	}
	print "\nns per iteration (guest instructions), or stress-ng bogo-ops per guest second; \"!\" marks a spread over 1%."

	print "\n### Cost of each kernel against its base: median [range]\n"
	line = ""
	for (a = 1; a <= nk; a++) {
		k = kern[a]
		if (base[k] != "") line = line sprintf("%s against %s", (line == "" ? "" : "; ") k, base[k])
		else if (other[k] != "") line = line sprintf("%s against %s, a different kernel (not the cost of sealing)", (line == "" ? "" : "; ") k, other[k])
	}
	print (line == "" ? "No kernel ran beside its base." : line ": the base of each is kernel/kernels.tsv's.  mseal() itself where the base has none: against " (upstream == "" ? "upstream's (it did not run)" : upstream) ", as the cell says.") "\n"
	table("base seal", 0)

	line = ""
	for (a = 1; a <= nk; a++) if (other[kern[a]] != "") line = line (line == "" ? "" : ", ") kern[a] " against " other[kern[a]]
	if (line != "") {
		printf "\n### %s: %s\n\n", ptitle["other"], line
		print psub["other"] ", not in the chart.\n"
		table("other", 0)
	}

	print "\n### In a sealed process, relative to the same operation in the same layout unsealed (same kernel)\n"
	table("twin refused", 1)
	layout = ""
	for (a = 1; a <= nk; a++) for (j = 1; j <= nc; j++) {
		k = kern[a]; c = cases[j]; key = "twin" SUBSEP c SUBSEP k
		if (!(key in change)) continue
		m1 = maps[k, c]; m2 = maps[k, against_case[key]]
		if (m1 != "-" && m2 != "-" && m1 != "" && m2 != "" && m1 != m2)
			layout = layout sprintf("- %s on %s: %s VMAs, its twin %s\n", c, k, m1, m2)
	}
	if (layout != "") printf "\n**Sealed case and twin with different VMA counts (not a clean control):**\n\n%s", layout

	n = split(reg_names("series=whole"), goal_kernels, " ")
	for (g = 1; g <= n; g++) if (in_run(goal_kernels[g])) goals(goal_kernels[g])
	if (flagged != "") printf "\n**Spread over 1%%:**\n\n%s", flagged
	if (notmeasured != "") printf "\n**Not measured (guest died, case broke or no output):**\n\n%s", notmeasured
}
