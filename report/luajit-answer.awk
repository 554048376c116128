# report/luajit-answer.awk - the real-JIT matrix's answer, per kernel: the
# strongest policy under which every workload of the run ran, and which
# attacks of the run still land under it, with their reasons; from
# report/luajit-cells.awk's output.  The answer itself is luajit/answer.awk's
# (luajit/summary.sh gives the same one).
#   awk LIB... [-v id=ID] -f luajit/answer.awk -f luajit-answer.awk CELLS
# (id: the list's element id, default luajit-answer)
BEGIN { FS = "\t"; SEP = "\036"; kernels_read() }
$1 == "S" { if (!($3 in ans_kind)) ans_name[++ans_n] = $3; ans_kind[$3] = $2; next }
$1 == "K" { kr[++nk] = $2; next }
$1 == "C" { ans_outcome[$2, $3, $4] = $5; why[$2, $3, $4] = $13; next }
END {
	print "<ul class=\"answer\" id=\"" (id == "" ? "luajit-answer" : id) "\">"
	for (a = 1; a <= nk; a++) {
		k = kr[a]
		answer(k)
		best = ans_best
		printf "<li><b>%s</b>: ", esc((k in kshort) ? kshort[k] : k)
		if (best == "") { print "no policy ran every workload of this run, not even none</li>"; continue }
		landed = ""
		for (i = 1; i <= ans_landed; i++)
			landed = landed (best == "none" ? (i > 1 ? ", " : "") "<code>" esc(ans_land[i]) "</code>" : "<li><code>" esc(ans_land[i]) "</code>: " esc(why[k, best, ans_land[i]]) "</li>")
		printf "<b>%s</b>%s; %d of the %d attacks run under it land", esc(best), (best == "none" ? ", which seals nothing" : ""), ans_landed, ans_tried
		if (ans_landed && best == "none") printf ": %s</li>\n", landed
		else if (ans_landed) printf ":<ul>%s</ul></li>\n", landed
		else print "</li>"
	}
	print "</ul>"
}
