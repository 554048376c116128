# report/realjit-answer.awk - a real JIT's answer, per kernel: the
# strongest policy under which every workload of the run ran, which attacks
# of the run still land under it, with their reasons, and the stronger
# policies the kernel refused to apply (UNSEALED); from
# report/realjit-cells.awk's output.  The answer itself is
# scripts/answer.awk's (realjit/summary.sh gives the same one).
#   awk LIB... -v id=ID -v program=P [-v tsv=FILE] -f scripts/answer.awk -f realjit-answer.awk CELLS
# (id: the list's element id; program: the JIT's name in words; tsv: also
# the answer as lines "KERNEL BEST LANDED TRIED NAMES REFUSED", "-" for
# none, for report/answer-html.awk)
BEGIN { FS = "\t"; SEP = "\036"; kernels_read() }
$1 == "S" { if (!($3 in ans_kind)) ans_name[++ans_n] = $3; ans_kind[$3] = $2; next }
$1 == "K" { kr[++nk] = $2; next }
$1 == "C" { ans_outcome[$2, $3, $4] = $5; why[$2, $3, $4] = $13; next }
END {
	print "<ul class=\"answer\" id=\"" esc(id) "\">"
	for (a = 1; a <= nk; a++) {
		k = kr[a]
		answer(k)
		best = ans_best
		refused = ""
		for (i = 1; i <= ans_unsealed; i++) refused = refused (i > 1 ? ", " : "") "<b>" esc(ans_unsealed_policy[i]) "</b>"
		if (tsv != "") answer_line(k, best)
		if (refused != "")
			refused = "; under " refused " the kernel refused to seal " esc(program) "'s code (UNSEALED): those policies were not applied"
		printf "<li><b>%s</b>: ", esc((k in kshort) ? kshort[k] : k)
		if (best == "") { print "no policy ran every workload of this run, not even none" refused "</li>"; continue }
		landed = ""
		for (i = 1; i <= ans_landed; i++)
			landed = landed (best == "none" ? (i > 1 ? ", " : "") "<code>" esc(ans_land[i]) "</code>" : "<li><code>" esc(ans_land[i]) "</code>: " esc(why[k, best, ans_land[i]]) "</li>")
		printf "<b>%s</b>%s; %d of the %d attacks run under it land", esc(best), (best == "none" ? ", which seals nothing" : ""), ans_landed, ans_tried
		if (ans_landed && best == "none") printf ": %s%s</li>\n", landed, refused
		else if (ans_landed) printf "%s:<ul>%s</ul></li>\n", refused, landed
		else print refused "</li>"
	}
	print "</ul>"
}
# The answer of kernel K as one tab-separated line of the tsv file.
function answer_line(k, best,   i, names, refused) {
	names = ""; refused = ""
	for (i = 1; i <= ans_landed; i++) names = names (i > 1 ? ", " : "") ans_land[i]
	for (i = 1; i <= ans_unsealed; i++) refused = refused (i > 1 ? ", " : "") ans_unsealed_policy[i]
	printf "%s\t%s\t%d\t%d\t%s\t%s\n", k, best, ans_landed, ans_tried, (names == "" ? "-" : names), (refused == "" ? "-" : refused) > tsv
}
