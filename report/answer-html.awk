# report/answer-html.awk - the page's opening answer, from the run: per
# kernel, what its strongest seal policy stops of the attack matrix, and
# for each real JIT the policy it keeps (runs every workload under) and
# what still lands there.  From report/attack-cells.awk's cells and each
# JIT's answer as report/realjit-answer.awk writes it (-v tsv=FILE: the
# answer of scripts/answer.awk, one line a kernel).
#
#   awk LIB... -f answer-html.awk ATTACK-CELLS \
#       jit=NAME title=WORDS JIT-ANSWER.tsv ...
#
# A kernel's answer is the policy that blocks the most scenarios (every
# case of the cell BLOCKED); of equals, the one the runs list first (the
# weakest: none, card, all).  It names the scenarios that land, or, when
# fewer are blocked, those blocked: the answer fits the first screen.
BEGIN { FS = "\t"; kernels_read() }
FNR == 1 && jit != "" { njit++; jname[njit] = jit; jtitle[njit] = title }
jit == "" && $1 == "P" { pol[++np] = $2; next }
jit == "" && $1 == "K" { kr[++nk] = $2; next }
jit == "" && $1 == "C" {
	ck = $2 SUBSEP $3
	tot[ck]++
	if ($5 == "BLOCKED") { blk[ck]++; blocks[ck] = blocks[ck] (blocks[ck] == "" ? "" : ", ") $4 }
	else lands[ck] = lands[ck] (lands[ck] == "" ? "" : ", ") $4
	next
}
# KERNEL best landed tried landed-names refused
jit != "" { jbest[njit, $1] = $2; jland[njit, $1] = $3; jtried[njit, $1] = $4; jnames[njit, $1] = $5; jref[njit, $1] = $6; next }
function short(k) { return (k in kshort) ? kshort[k] : k }
END {
	print "<section id=\"answer\">"
	print "<h2>The answer, in this run</h2>"
	print "<div class=\"scroll\"><table class=\"answer-table\" id=\"answer-table\"><thead><tr><th>kernel</th><th>what its seals stop of the attacks below (the policy that blocks most)</th>"
	for (j = 1; j <= njit; j++) printf "<th>what %s keeps</th>", esc(jtitle[j])
	print "</tr></thead><tbody>"
	for (a = 1; a <= nk; a++) {
		k = kr[a]; best = ""; most = -1
		for (b = 1; b <= np; b++) {
			ck = k SUBSEP pol[b]
			if (tot[ck] && blk[ck] + 0 > most) { most = blk[ck] + 0; best = pol[b] }
		}
		ck = k SUBSEP best
		printf "<tr data-run=\"%s\"><th scope=\"row\">%s</th>", esc(k), esc(short(k))
		if (best == "") printf "<td data-blocked=\"-\">no attack results</td>"
		else if (most == 0) printf "<td data-blocked=\"0\" data-of=\"%d\"><b>nothing</b>: no policy blocks any of the %d scenarios</td>", tot[ck], tot[ck]
		else {
			printf "<td data-blocked=\"%d\" data-of=\"%d\" data-policy=\"%s\">policy <b>%s</b> blocks <b>%d of %d</b> scenarios", most, tot[ck], esc(best), esc(best), most, tot[ck]
			# the shorter of the two lists, so that the answer fits a screen
			if (lands[ck] != "" && tot[ck] - most <= most) printf "; still lands: <code>%s</code>", esc(lands[ck])
			else if (lands[ck] != "") printf " (<code>%s</code>); the other %d land", esc(blocks[ck]), tot[ck] - most
			printf "</td>"
		}
		for (j = 1; j <= njit; j++) {
			if (!((j, k) in jbest)) { printf "<td>not run</td>"; continue }
			if (jbest[j, k] == "") { printf "<td>no policy: not even <b>none</b> ran every workload</td>"; continue }
			printf "<td data-keeps=\"%s\"><b>%s</b>%s: %d of %d attacks land", esc(jbest[j, k]), esc(jbest[j, k]), (jbest[j, k] == "none" ? " (no seal)" : ""), jland[j, k], jtried[j, k]
			if (jbest[j, k] != "none" && jnames[j, k] != "-") printf " (<code>%s</code>)", esc(jnames[j, k])
			if (jref[j, k] != "-") printf "; the kernel refused to seal under <b>%s</b>", esc(jref[j, k])
			printf "</td>"
		}
		print "</tr>"
	}
	print "</tbody></table></div>"
	print "<p class=\"prov\">Drawn from the attack and real-JIT results below: a policy \"keeps\" a JIT when every workload of the run ran under it; the sections below have every cell and its reason.</p>"
	print "</section>"
}
