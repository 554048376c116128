# scripts/bench-summary.awk - the one summariser of a scripts/bench-kernel.sh
# run (build/results/bench-kernel.tsv): each kernel x case's median and
# range over the boots, and every comparison the cost is shown by.  The
# Markdown tables and the chart of docs/performance.md
# (scripts/bench-summary.sh, scripts/performance-doc.sh) and the page's
# chart (report/cost-svg.awk) are drawn from its output, so they show the
# same numbers by the same rules.  Loaded after scripts/kernels.awk:
#
#   awk -f scripts/kernels.awk -f scripts/bench-summary.awk \
#       -v registry=kernel/kernels.tsv [-v problems=FILE] bench-kernel.tsv
#
# Costs are ns (guest instructions) per iteration; stress-ng's bogo-ops/s
# become ns per bogo-op, so that a change above 0% is always dearer.  A
# change is the median's, (median / its comparand's median - 1) in percent,
# with the range any two boots give: lowest / comparand's highest .. highest
# / comparand's lowest.  The comparisons, by panel:
#   base     a case in a process that seals nothing (plain, +far-unsealed,
#            +next-unsealed, stress-ng) against the same case on the
#            kernel's base (kernel/kernels.tsv: the same kernel without this
#            project's changes)
#   twin     +far-seal, +next-seal against the same layout unsealed
#            (+far-unsealed, +next-unsealed), same kernel
#   refused  +refused against the same call performed (the plain case),
#            same kernel
#   seal     mseal() itself (mseal-*, seal-arenas-*) against the base, or,
#            where the base has no mseal(), against the registry's upstream
#            kernel (upstream's mseal() and no series)
#   other    the base panel's cases against a different kernel (a ~KERNEL
#            base): for scale, not the cost of sealing
#
# Prints, tab-separated, in the run's order:
#   K kernel base other short        each kernel (base, other: "" for none)
#   N case                           each case
#   T panel title subtitle chart     each panel, as both charts title it;
#                                    chart: yes when the charts draw it (the
#                                    cost of sealing), no for a table only
#                                    (other: a different kernel, for scale)
#   M kernel case median lo hi spread measured boots unit why maps broken
#                                    each kernel x case the run has rows for:
#                                    spread in percent; measured: the boots
#                                    with a value; why: the first reason for
#                                    a boot without one (n/a, or status:
#                                    note); maps: VMAs after setup (note
#                                    maps=N); broken: boots that errored,
#                                    died or are missing; "-" for nothing
#   C panel case kernel against against-case change lo hi
#   R kernel                         the registry's upstream kernel, when it ran
# A malformed file (header, column count, status, a non-number where the
# status is ok) is written to the problems file ("FILE<TAB>what"; stderr
# without one) and nothing is printed: exit 1.
BEGIN {
	FS = "\t"; OFS = "\t"
	why = reg_load(registry)
	if (why != "") { print "bench-summary: " why > "/dev/stderr"; broken = 1; exit 1 }
}
function fail(what) {
	if (problems != "") printf "%s\t%s\n", FILENAME, what >> problems
	else printf "%s: %s\n", FILENAME, what > "/dev/stderr"
	broken = 1
}
FNR == 1 {
	if ($0 != "kernel\tcase\tboot\tvalue\tunit\tstatus\tnote") fail("line 1 is not the header \"kernel case boot value unit status note\" (tab-separated)")
	next
}
{
	if (NF != 7) { fail("line " FNR ": " NF " columns, not 7"); next }
	if ($6 !~ /^(ok|n\/a|error|died|missing)$/) { fail("line " FNR ": status \"" $6 "\" is not ok, n/a, error, died or missing"); next }
	if ($6 == "ok" && ($4 !~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ || $4 + 0 <= 0)) { fail("line " FNR ": value \"" $4 "\" is not a positive number"); next }
	k = $1; c = $2; key = k SUBSEP c
	if (!(k in kseen)) { kseen[k] = 1; kern[++nk] = k }
	if (!(c in cseen)) { cseen[c] = 1; cases[++nc] = c }
	boots[key]++
	if (!(key in unit) || $6 == "ok") unit[key] = $5
	if (match($7, /maps=[0-9]+/) && !(key in maps)) maps[key] = substr($7, RSTART + 5, RLENGTH - 5)
	if ($6 != "ok") {
		if (!(key in why_none)) why_none[key] = $6 ($6 == "n/a" ? "" : ": " $7)
		if ($6 != "n/a") broken_boots[key]++
		next
	}
	x = ($5 == "bogo-ops/s") ? 1e9 / $4 : $4 + 0
	m = ++cnt[key]; val[key, m] = x
	# each key's values kept sorted (a few boots)
	for (i = m; i > 1 && val[key, i - 1] > val[key, i]; i--) { t = val[key, i]; val[key, i] = val[key, i - 1]; val[key, i - 1] = t }
}

function med(key,   n) { n = cnt[key]; return n % 2 ? val[key, (n + 1) / 2] : (val[key, n / 2] + val[key, n / 2 + 1]) / 2 }
function sealed(c) { return c ~ /\+(far|next)-seal$/ }
function refused(c) { return c ~ /\+refused$/ }
function sealing(c) { return c ~ /^(mseal-|seal-arenas-)/ }
function unsealed(c) { return !sealed(c) && !refused(c) && !sealing(c) }
# the same operation and layout, not sealed
function twin(c) {
	if (sub(/\+far-seal$/, "+far-unsealed", c) || sub(/\+next-seal$/, "+next-unsealed", c)) return c
	sub(/\+refused$/, "", c)
	return c
}
# C line: PANEL, case C on kernel K against case BC on kernel B, when both were measured
function compare(panel, c, k, b, bc,   a, z) {
	a = k SUBSEP c; z = b SUBSEP bc
	if (b == "" || !cnt[a] || !cnt[z]) return 0
	print "C", panel, c, k, b, bc, num((med(a) / med(z) - 1) * 100), num((val[a, 1] / val[z, cnt[z]] - 1) * 100), num((val[a, cnt[a]] / val[z, 1] - 1) * 100)
	return 1
}
function fmt(x) { return x == "" ? "-" : x }
function num(x) { return sprintf("%.6f", x) }

END {
	if (broken) exit 1
	upstream = ""
	n = split(reg_names("abi=upstream series=-"), ups, " ")
	for (i = 1; i <= n && upstream == ""; i++) if (ups[i] in kseen) upstream = ups[i]
	for (a = 1; a <= nk; a++) {
		k = kern[a]
		base[k] = reg_has(k) ? reg_base(k) : ""
		other[k] = ""
		if (reg_has(k) && reg_get(k, "base") ~ /^~/) other[k] = substr(reg_get(k, "base"), 2)
		if (!(base[k] in kseen)) base[k] = ""
		if (!(other[k] in kseen)) other[k] = ""
		print "K", k, base[k], other[k], reg_has(k) ? reg_get(k, "short") : k
	}
	for (j = 1; j <= nc; j++) print "N", cases[j]
	print "T", "base", "What sealing's code costs a process that never seals", "each kernel against its own base (the same kernel without this project's mm changes): plain cases, the twin layouts, stress-ng", "yes"
	print "T", "twin", "What having seals costs", "a sealed region far away (+far-seal) or next to the operation (+next-seal), against the same layout unsealed, same kernel", "yes"
	print "T", "refused", "What a refused call costs", "the call refused on sealed memory, against the same call performed on the same kernel (below 0: cheaper)", "yes"
	print "T", "seal", "What mseal() itself costs", "against the base, or, where the base has no mseal(), against upstream's", "yes"
	print "T", "other", "Not the cost of sealing: a different kernel", "the same cases on another kernel version (its whole mm differs), for scale only", "no"
	for (a = 1; a <= nk; a++) for (j = 1; j <= nc; j++) {
		k = kern[a]; c = cases[j]; key = k SUBSEP c
		if (!boots[key]) continue
		if (cnt[key]) {
			lo = val[key, 1]; hi = val[key, cnt[key]]
			print "M", k, c, num(med(key)), num(lo), num(hi), num((hi - lo) / med(key) * 100), cnt[key], boots[key], unit[key], fmt(why_none[key]), fmt(maps[key]), broken_boots[key] + 0
		} else
			print "M", k, c, "-", "-", "-", "-", 0, boots[key], unit[key], fmt(why_none[key]), fmt(maps[key]), broken_boots[key] + 0
	}
	if (upstream != "") print "R", upstream
	for (j = 1; j <= nc; j++) for (a = 1; a <= nk; a++) {
		k = kern[a]; c = cases[j]
		if (unsealed(c)) { compare("base", c, k, base[k], c); compare("other", c, k, other[k], c) }
		else if (sealed(c)) compare("twin", c, k, k, twin(c))
		else if (refused(c)) compare("refused", c, k, k, twin(c))
		else if (!compare("seal", c, k, base[k], c) && k != upstream) compare("seal", c, k, upstream, c)
	}
}
