# report/summary-html.awk - what each seal policy stops on each kernel, in
# one small table, from report/attack-cells.awk's output: per kernel and
# policy, how many scenarios were BLOCKED in every case, the seals smaps
# showed, and the scenarios that still landed (or were mixed).
#   awk LIB... -f summary-html.awk CELLS
BEGIN { FS = "\t"; kernels_read() }
$1 == "P" { np++; pol[np] = $2; next }
$1 == "K" { nk++; kr[nk] = $2; next }
$1 == "C" {
	ck = $2 SUBSEP $3
	tot[ck]++
	if ($5 == "BLOCKED") blk[ck]++
	else got[ck] = got[ck] (got[ck] == "" ? "" : ", ") $4 ($5 == "LANDED" ? "" : " (" $5 ")")
	if (!((ck, $12) in sn)) sv[ck] = sv[ck] (sv[ck] == "" ? "" : " or ") ($12 == "-" ? "none" : $12)
	sn[ck, $12]++
}
END {
	print "<table class=\"summary\" id=\"summary\"><thead><tr><th>kernel</th>"
	for (b = 1; b <= np; b++) printf "<th>%s</th>", esc(pol[b])
	print "</tr></thead><tbody>"
	for (a = 1; a <= nk; a++) {
		k = kr[a]
		printf "<tr><th scope=\"row\"><b>%s</b><br><small>%s</small></th>", esc((k in kshort) ? kshort[k] : k), esc(kdesc[k])
		for (b = 1; b <= np; b++) {
			ck = k SUBSEP pol[b]
			s = (sv[ck] == "none") ? "no seal in smaps" : "smaps: " sv[ck]
			printf "<td><b>%d of %d</b> blocked<br><small>%s</small>", blk[ck], tot[ck], esc(s)
			if (got[ck] != "" && blk[ck] > 0) printf "<br><small>lands: %s</small>", esc(got[ck])
			print "</td>"
		}
		print "</tr>"
	}
	print "</tbody></table>"
}
