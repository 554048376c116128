# report/matrix-html.awk - a matrix as an HTML table, and the reasons it
# points to, from report/attack-cells.awk's or report/realjit-cells.awk's
# output.
#
#   awk LIB... -f matrix-html.awk [-v id=ID] [-v cases=0] [-v sealrow=0] \
#       [-v foot=0] [-v absent=...] ROW-TEXT CELLS
#
# ROW-TEXT: "NAME<TAB>LABEL<TAB>DESCRIPTION" lines (`attacks --list`'s
# output, and for a real JIT's workloads their files' first lines).  One row per
# scenario (or workload, or attack), grouped; one column per run x policy.
# A cell says its outcome in words (the errno of a BLOCKED call, LANDED,
# mixed, ERROR; RAN, ABORTED and its errno, n/a and the probe's errno,
# unsealed and the refused mseal's errno for a real JIT), is coloured and patterned by it and, for hover, click and
# keyboard, carries the reason from the expectation table and each case's
# detail.  A cell the run did not have says "not run".
#   id       the table's id (default "matrix")
#   cases    1 (default): one mark per case in each cell (class "run" and the
#            outcome: the test counts them), and a cell sums its cases
#   sealrow  1 (default): a header row with the seals smaps showed
#   foot     1 (default): a footer row counting the rows blocked per column
#   absent   "KERNEL<TAB>why" lines joined by \036, for the kernels asked for
#            whose results are missing or malformed: each gets a column that
#            says so
# A cell that is neither BLOCKED nor RAN under a real policy (not none)
# points to its reason by number, unless every such cell of its kernel
# shares one reason (vanilla: no mseal at all), which its header says.
BEGIN {
	FS = "\t"; SEP = "\036"; nab = split(absent, ab, SEP)
	if (id == "") id = "matrix"
	if (cases == "") cases = 1
	if (sealrow == "") sealrow = 1
	if (foot == "") foot = 1
	kernels_read()
}
# what a cell says, first word first: the test reads the first word
function words(c, l) {
	if (c == "BLOCKED") return l == "-" ? "BLOCKED" : l
	if (c == "LANDED") return l == "-" || l == "" ? "LANDED" : l
	if (c == "ABORTED") return "ABORTED<small>" esc(l) "</small>"
	if (c == "UNAVAILABLE") return "n/a<small>" esc(l) "</small>"
	if (c == "UNSEALED") return "unsealed<small>" esc(l) "</small>"
	if (c == "ERROR" && l != "-" && l != "ERROR" && l != "") return "ERROR<small>" esc(l) "</small>"
	return c
}
FILENAME == ARGV[1] { narr[$1] = $2; desc[$1] = $3; next }
$1 == "G" { ng++; gk[ng] = $2; gt[$2] = $3; gw[$2] = $4; next }
$1 == "S" { ns++; sg[ns] = $2; sn[ns] = $3; next }
$1 == "P" { np++; pol[np] = $2; next }
$1 == "K" { nk++; kr[nk] = $2; kfield[$2] = $3; next }
$1 == "C" {
	key = $2 SUBSEP $3 SUBSEP $4
	cls[key] = $5; lab[key] = $6; nruns[key] = $7; nl[key] = $8; nb[key] = $9; ne[key] = $10
	nun[key] = $11; sl[key] = $12; why[key] = $13; det[key] = $14
	# the seals smaps showed, per column: the most common value, and the exceptions
	ck = $2 SUBSEP $3
	if (!((ck, $12) in sealcount)) sealvals[ck] = sealvals[ck] SEP $12
	sealcount[ck, $12]++
	sealwhere[ck, $12] = sealwhere[ck, $12] (sealwhere[ck, $12] == "" ? "" : ", ") $4
	if ($5 != "BLOCKED" && $5 != "RAN" && $3 != "none") {
		if (!($2 in kreason)) kreason[$2] = $13
		else if (kreason[$2] != $13) kreason[$2] = SEP "several"
	}
	# a policy the kernel cannot express: the column's reasons, said once at its head
	if ($5 == "UNAVAILABLE" && index(SEP colreason[ck] SEP, SEP $13 SEP) == 0)
		colreason[ck] = colreason[ck] (colreason[ck] == "" ? "" : SEP) $13
	next
}
# number a reason; where: the cells it explains
function number(r, where) {
	if (!(r in rnum)) { rnum[r] = ++nreasons; rtext[nreasons] = r }
	rcells[rnum[r]] = rcells[rnum[r]] (rcells[rnum[r]] == "" ? "" : ", ") where
	return rnum[r]
}
END {
	# number the reasons that cells point to; the n/a cells of a column point
	# to theirs from its head
	for (a = 1; a <= nk; a++) for (b = 1; b <= np; b++) {
		ck = kr[a] SUBSEP pol[b]
		if (kreason[kr[a]] == SEP "several" && colreason[ck] != "") {
			nr = split(colreason[ck], rs, SEP)
			for (j = 1; j <= nr; j++)
				colmark[ck] = colmark[ck] (j > 1 ? "," : "") number(rs[j], "n/a under " pol[b] " on " kr[a])
		}
		for (i = 1; i <= ns; i++) {
			key = ck SUBSEP sn[i]
			if (!(key in cls) || cls[key] == "BLOCKED" || cls[key] == "RAN" || pol[b] == "none" || kreason[kr[a]] != SEP "several") continue
			if (cls[key] == "UNAVAILABLE" && (ck in colmark)) continue
			nr = split(why[key], rs, SEP)
			for (j = 1; j <= nr; j++)
				mark[key] = mark[key] (mark[key] == "" ? "" : ",") number(rs[j], sn[i] " on " kr[a] " " pol[b])
		}
	}
	# more columns than a projector takes at full size: the row labels lose
	# the scenario names (they stay in the tooltips), then the cells shrink
	cols = nk * np + nab
	# in a box of its own: narrower than the table, the box scrolls, not
	# the page, and the row and column heads stay put (style.css)
	printf "<div class=\"matrix-box\" id=\"%s-box\" tabindex=\"0\" role=\"region\" aria-label=\"%s, scrollable\">\n", esc(id), esc(id)
	printf "<table class=\"matrix%s\" id=\"%s\">\n", (cols > 12 ? " wide" : "") (cols > 15 ? " wider" : "") (cols > 20 ? " widest" : ""), esc(id)
	printf "<thead><tr><th class=\"corner\" rowspan=\"%d\">%s</th>", 2 + sealrow, (cases ? "what the attacker tries<br><small>(scenario)</small>" : "the case")
	for (a = 1; a <= nk; a++) {
		k = kr[a]; t = (k in kshort) ? kshort[k] : k
		tip = (k in kdesc) ? kdesc[k] : "kernel " k
		if (kfield[k] != k) tip = tip " (results for kernel=" kfield[k] ")"
		if (kreason[k] != "" && kreason[k] != SEP "several") tip = tip ". Every cell under a sealing policy: " kreason[k]
		printf "<th class=\"kernel\" colspan=\"%d\" data-run=\"%s\" title=\"%s\">%s</th>", np, esc(k), esc(tip), esc(t)
	}
	for (a = 1; a <= nab; a++) {
		split(ab[a], kw, "\t"); k = kw[1]
		printf "<th class=\"kernel absent\" rowspan=\"%d\" data-absent=\"%s\">%s<br><small>no results</small></th>", 2 + sealrow, esc(k), esc((k in kshort) ? kshort[k] : k)
	}
	print "</tr><tr>"
	for (a = 1; a <= nk; a++) for (b = 1; b <= np; b++) {
		ck = kr[a] SUBSEP pol[b]; t = colreason[ck]; gsub(SEP, "; ", t)
		printf "<th class=\"policy%s\"%s>%s%s</th>", (b == 1 ? " first" : ""), ((ck in colmark) ? " title=\"n/a: " esc(t) "\"" : ""),
			esc(pol[b]), ((ck in colmark) ? "<sup>" colmark[ck] "</sup>" : "")
	}
	if (sealrow) {
		print "</tr><tr class=\"seals\">"
		for (a = 1; a <= nk; a++) for (b = 1; b <= np; b++) {
			ck = kr[a] SUBSEP pol[b]; nv = split(substr(sealvals[ck], 2), vs, SEP); v = ""; best = 0
			for (j = 1; j <= nv; j++) if (sealcount[ck, vs[j]] > best) { best = sealcount[ck, vs[j]]; v = vs[j] }
			tip = "the arena's seals in /proc/self/smaps"
			for (j = 1; j <= nv; j++) if (vs[j] != v) tip = tip "; " vs[j] " in " sealwhere[ck, vs[j]]
			printf "<th class=\"%s\" title=\"%s\">%s%s</th>", (b == 1 ? "first" : ""), esc(tip), (v == "" || v == "-" ? "&ndash;" : esc(v)), (nv > 1 ? "*" : "")
		}
	}
	print "</tr></thead><tbody>"
	ncols = nk * np + 1
	for (g = 1; g <= ng; g++) {
		printf "<tr class=\"group\"><th colspan=\"%d\" scope=\"rowgroup\"><span class=\"gt\">%s <span>&mdash; %s</span></span></th>", ncols, esc(gt[gk[g]]), esc(gw[gk[g]])
		if (g == 1) for (a = 1; a <= nab; a++) {
			split(ab[a], kw, "\t")
			printf "<td class=\"absent\" rowspan=\"%d\"><b>not shown</b><br>%s</td>", ng + ns, esc(kw[2])
		}
		print "</tr>"
		for (i = 1; i <= ns; i++) {
			if (sg[i] != gk[g]) continue
			s = sn[i]
			printf "<tr data-scenario=\"%s\"><th scope=\"row\" title=\"%s\">", esc(s), esc(desc[s])
			if ((s in narr) && narr[s] != "") printf "<span class=\"narr\">%s</span> ", esc(narr[s])
			printf "<code>%s</code></th>", esc(s)
			for (a = 1; a <= nk; a++) for (b = 1; b <= np; b++) {
				key = kr[a] SUBSEP pol[b] SUBSEP s
				first = (b == 1) ? " first" : ""
				if (!(key in cls)) {
					printf "<td class=\"c none%s\" title=\"not run\">not run</td>", first
					continue
				}
				c = cls[key]
				tip = kr[a] " / " pol[b] " / " s ": " c
				if (lab[key] != "-" && lab[key] != c) tip = tip " " lab[key]
				if (cases) tip = tip " (" nruns[key] " cases: " nl[key] " LANDED, " nb[key] " BLOCKED" (ne[key] ? ", " ne[key] " ERROR" : "") ")"
				nr = split(why[key], rs, SEP)
				for (j = 1; j <= nr; j++) tip = tip "\nwhy: " rs[j]
				nd = split(det[key], ds, SEP)
				for (j = 1; j <= nd; j++) tip = tip "\n" ds[j]
				printf "<td class=\"c %s%s%s\" data-run=\"%s\" data-policy=\"%s\" data-outcome=\"%s\" tabindex=\"0\" title=\"%s\">", tolower(c), first, (nun[key] ? " unexpected" : ""), esc(kr[a]), esc(pol[b]), c, esc(tip)
				printf "<span class=\"o\">%s", words(c, lab[key])
				if (nun[key]) printf "<b class=\"bang\" title=\"not as the expectation table says\">!</b>"
				if (mark[key] != "") printf "<sup>%s</sup>", mark[key]
				printf "</span>"
				if (cases) {
					printf "<span class=\"runs\">"
					for (j = 1; j <= nl[key]; j++) printf "<i class=\"run landed\"></i>"
					for (j = 1; j <= nb[key]; j++) printf "<i class=\"run blocked\"></i>"
					for (j = 1; j <= ne[key]; j++) printf "<i class=\"run error\"></i>"
					printf "</span>"
				}
				# the click-and-keyboard detail (hidden; report/cell.js shows it)
				printf "<div class=\"why\" hidden><p><b>%s</b>, policy <b>%s</b>, <b>%s</b>: %s</p>", esc(kr[a]), esc(pol[b]), esc(s), esc(c " " (lab[key] != "-" && lab[key] != c ? lab[key] : ""))
				for (j = 1; j <= nr; j++) printf "<p class=\"reason\">%s</p>", esc(rs[j])
				printf "<pre>"
				for (j = 1; j <= nd; j++) printf "%s\n", esc(ds[j])
				if (cases && det[key] !~ /maps (before|after):/) printf "(no maps/smaps lines in this run's output for these cases)\n"
				printf "</pre></div></td>"
			}
			print "</tr>"
		}
	}
	print "</tbody>"
	if (foot) {
		print "<tfoot><tr><th scope=\"row\">scenarios blocked</th>"
		for (a = 1; a <= nk; a++) for (b = 1; b <= np; b++) {
			tot = 0; blk = 0
			for (i = 1; i <= ns; i++) {
				key = kr[a] SUBSEP pol[b] SUBSEP sn[i]
				if (!(key in cls)) continue
				tot++; if (cls[key] == "BLOCKED") blk++
			}
			printf "<td class=\"%s\" data-run=\"%s\" data-policy=\"%s\">%d/%d</td>", (b == 1 ? "first" : ""), esc(kr[a]), esc(pol[b]), blk, tot
		}
		for (a = 1; a <= nab; a++) printf "<td class=\"absent\">&ndash;</td>"
		print "</tr></tfoot>"
	}
	print "</table></div>"
	if (nreasons) {
		printf "<ol class=\"reasons\" id=\"%s-reasons\">\n", esc(id)
		for (j = 1; j <= nreasons; j++)
			printf "<li>%s <span class=\"where\">(%s)</span></li>\n", esc(rtext[j]), esc(rcells[j])
		print "</ol>"
	}
}
