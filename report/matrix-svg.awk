# report/matrix-svg.awk - the attack matrix as a standalone SVG (for
# docs/threat-model.md, which a repository page shows without building).
#
#   awk LIB... -f matrix-svg.awk -v source="LINE" SCENARIO-TEXT CELLS > matrix.svg
#
# The same grid as the page's (report/matrix-html.awk): rows grouped by what
# the attacker does, a column per run x policy, each cell its outcome in
# words, coloured (Okabe-Ito blue / vermillion), LANDED cells striped, mixed
# cells dotted; each cell's <title> carries the reason.  source: the line
# under the legend naming the run.
BEGIN { FS = "\t"; SEP = "\036"; LABEL = 700; CW = 90; RH = 30; GH = 30; kernels_read() }
FILENAME == ARGV[1] { narr[$1] = $2; next }
$1 == "G" { ng++; gk[ng] = $2; gt[$2] = $3; gw[$2] = $4; next }
$1 == "S" { ns++; sg[ns] = $2; sn[ns] = $3; next }
$1 == "P" { np++; pol[np] = $2; next }
$1 == "K" { nk++; kr[nk] = $2; next }
$1 == "C" {
	key = $2 SUBSEP $3 SUBSEP $4
	cls[key] = $5; lab[key] = $6; nl[key] = $8; nb[key] = $9; why[key] = $13; un[key] = $11
	ck = $2 SUBSEP $3
	if (!((ck, $12) in sealcount)) sealvals[ck] = sealvals[ck] SEP $12
	sealcount[ck, $12]++
	next
}
function cell(x, y, key, k, p, s,   c, t, fill, ink, tip, r, nr, j) {
	if (!(key in cls)) {
		printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fff\" stroke=\"#bbb\"/><text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"14\" fill=\"#555\">not run</text>\n", x, y, CW, RH, x + CW / 2, y + 20
		return
	}
	c = cls[key]
	t = (c == "BLOCKED") ? (lab[key] == "-" ? "BLOCKED" : lab[key]) : c
	fill = c == "LANDED" ? "url(#landed)" : c == "BLOCKED" ? "#dcebf7" : c == "mixed" ? "#f0e442" : "#000"
	ink = c == "LANDED" || c == "ERROR" ? "#fff" : c == "BLOCKED" ? "#00406b" : "#000"
	tip = k " / " p " / " s ": " c (c == "mixed" ? " (" nl[key] " LANDED, " nb[key] " BLOCKED)" : "")
	nr = split(why[key], r, SEP)
	for (j = 1; j <= nr; j++) tip = tip "\n" r[j]
	printf "<g><title>%s</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#bbb\"/>", esc(tip), x, y, CW, RH, fill
	if (c == "mixed") printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\" stroke-dasharray=\"3 3\"/>", x + 3, y + 3, CW - 6, RH - 6
	if (un[key] > 0) { printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\" stroke-width=\"4\"/>", x + 2, y + 2, CW - 4, RH - 4; t = t " !" }
	printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\" fill=\"%s\">%s</text></g>\n", x + CW / 2, y + 21, ink, esc(t)
}
END {
	ncol = nk * np
	W = LABEL + ncol * CW + 20
	H = 50 + 3 * RH + ng * GH + ns * RH + 150
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" font-family=\"DejaVu Sans, Liberation Sans, Arial, sans-serif\">\n", W, H, W, H
	print "<defs><pattern id=\"landed\" width=\"12\" height=\"12\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"12\" height=\"12\" fill=\"#c24e00\"/><rect width=\"5\" height=\"12\" fill=\"#d4773a\"/></pattern></defs>"
	printf "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, H
	printf "<text x=\"10\" y=\"32\" font-size=\"26\" font-weight=\"bold\">What the attacker tries (rows) against sealed JIT code, per kernel and seal policy</text>\n"
	y = 50
	# headers
	for (a = 1; a <= nk; a++) {
		x = LABEL + (a - 1) * np * CW
		t = (kr[a] in kshort) ? kshort[kr[a]] : kr[a]
		printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#eee\" stroke=\"#bbb\"/><text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"19\" font-weight=\"bold\">%s</text>\n", x, y, np * CW, RH, x + np * CW / 2, y + 22, esc(t)
		for (b = 1; b <= np; b++) {
			xx = x + (b - 1) * CW
			ck = kr[a] SUBSEP pol[b]; nv = split(substr(sealvals[ck], 2), vs, SEP); v = ""; best = 0
			for (j = 1; j <= nv; j++) if (sealcount[ck, vs[j]] > best) { best = sealcount[ck, vs[j]]; v = vs[j] }
			if (v == "" || v == "-") v = "–"
			if (nv > 1) v = v "*"
			printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f6f6f6\" stroke=\"#bbb\"/><text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"17\">%s</text>", xx, y + RH, CW, RH, xx + CW / 2, y + RH + 21, esc(pol[b])
			printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"13\" fill=\"#555\" font-family=\"DejaVu Sans Mono, monospace\">%s</text>\n", xx + CW / 2, y + 2 * RH + 18, esc(v)
		}
	}
	printf "<text x=\"10\" y=\"%d\" font-size=\"15\" fill=\"#555\">seal policy; the seals smaps shows (* not in every row)</text>\n", y + 2 * RH + 18
	y += 3 * RH
	for (g = 1; g <= ng; g++) {
		printf "<text x=\"10\" y=\"%d\" font-size=\"19\" font-weight=\"bold\">%s <tspan font-weight=\"normal\" fill=\"#555\" font-size=\"16\">— %s</tspan></text>\n", y + 22, esc(gt[gk[g]]), esc(gw[gk[g]])
		y += GH
		for (i = 1; i <= ns; i++) {
			if (sg[i] != gk[g]) continue
			s = sn[i]
			printf "<text x=\"16\" y=\"%d\" font-size=\"17\">%s</text>", y + 21, esc((s in narr) && narr[s] != "" ? narr[s] : s)
			printf "<text x=\"%d\" y=\"%d\" font-size=\"13\" fill=\"#555\" text-anchor=\"end\" font-family=\"DejaVu Sans Mono, monospace\">%s</text>\n", LABEL - 6, y + 20, esc(s)
			for (a = 1; a <= nk; a++) for (b = 1; b <= np; b++)
				cell(LABEL + ((a - 1) * np + b - 1) * CW, y, kr[a] SUBSEP pol[b] SUBSEP s, kr[a], pol[b], s)
			y += RH
		}
	}
	for (a = 1; a <= nk; a++) printf "<line x1=\"%d\" y1=\"50\" x2=\"%d\" y2=\"%d\" stroke=\"#333\" stroke-width=\"3\"/>\n", LABEL + (a - 1) * np * CW, LABEL + (a - 1) * np * CW, y
	y += 16
	lx = 10
	printf "<g font-size=\"16\"><rect x=\"%d\" y=\"%d\" width=\"86\" height=\"26\" fill=\"#dcebf7\" stroke=\"#bbb\"/><text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\" fill=\"#00406b\">EACCES</text>", lx, y, lx + 43, y + 19
	printf "<text x=\"%d\" y=\"%d\">BLOCKED: the call failed with that errno, nothing changed</text>", lx + 96, y + 19
	lx2 = lx + 640
	printf "<rect x=\"%d\" y=\"%d\" width=\"86\" height=\"26\" fill=\"url(#landed)\" stroke=\"#bbb\"/><text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\" fill=\"#fff\">LANDED</text>", lx2, y, lx2 + 43, y + 19
	printf "<text x=\"%d\" y=\"%d\">the code, its address or its permissions changed</text>", lx2 + 96, y + 19
	y += 36
	printf "<rect x=\"%d\" y=\"%d\" width=\"86\" height=\"26\" fill=\"#f0e442\" stroke=\"#bbb\"/><text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\">mixed</text>", lx, y, lx + 43, y + 19
	printf "<text x=\"%d\" y=\"%d\">the four runs (root or no capabilities, in the process or a forked child) differ</text>", lx + 96, y + 19
	y += 36
	printf "<text x=\"%d\" y=\"%d\">policy none: the control, nothing sealed; card: mprotect, mmap, mremap seals; all: card + munmap, mseal. \"!\": not what attacks/expected.tsv says.</text></g>\n", lx, y + 16
	y += 30
	printf "<text x=\"10\" y=\"%d\" font-size=\"14\" fill=\"#555\">%s</text>\n", y + 10, esc(source)
	print "</svg>"
}
