# report/luajit-answer.awk - the real-JIT matrix's answer, per kernel: the
# strongest policy under which every workload of the run ran, and which
# attacks of the run still land under it, with their reasons; from
# report/luajit-cells.awk's output.  Policies from strongest: all, upstream,
# card, pin, none (luajit/summary.sh's order).
#   awk -f lib.awk -f luajit-answer.awk kernel/kernels.tsv CELLS
BEGIN { FS = "\t"; SEP = "\036"; ns = split("all upstream card pin none", strength, " ") }
FILENAME == ARGV[1] { kernel_row(); next }
$1 == "S" { group[$3] = $2; if ($2 == "attack") att[++na] = $3; next }
$1 == "K" { kr[++nk] = $2; next }
$1 == "C" { cls[$2, $3, $4] = $5; why[$2, $3, $4] = $13; if (group[$4] == "workload") { ran[$2, $3] += ($5 == "RAN"); nw[$2, $3]++ } next }
END {
	print "<ul class=\"answer\" id=\"luajit-answer\">"
	for (a = 1; a <= nk; a++) {
		k = kr[a]; best = ""
		for (s = 1; s <= ns && best == ""; s++)
			if (nw[k, strength[s]] > 0 && ran[k, strength[s]] == nw[k, strength[s]]) best = strength[s]
		printf "<li><b>%s</b>: ", esc((k in kshort) ? kshort[k] : k)
		if (best == "") { print "no policy ran every workload of this run, not even none</li>"; continue }
		tried = 0; nland = 0; landed = ""
		for (i = 1; i <= na; i++) {
			if (!((k, best, att[i]) in cls)) continue
			tried++
			if (cls[k, best, att[i]] != "LANDED") continue
			nland++
			landed = landed (best == "none" ? (nland > 1 ? ", " : "") "<code>" esc(att[i]) "</code>" : "<li><code>" esc(att[i]) "</code>: " esc(why[k, best, att[i]]) "</li>")
		}
		printf "<b>%s</b>%s; %d of the %d attacks run under it land", esc(best), (best == "none" ? ", which seals nothing" : ""), nland, tried
		if (nland && best == "none") printf ": %s</li>\n", landed
		else if (nland) printf ":<ul>%s</ul></li>\n", landed
		else print "</li>"
	}
	print "</ul>"
}
