# report/cost-svg.awk - the cost of sealing, drawn as SVG, from the summary
# scripts/bench-summary.awk makes of a scripts/bench-kernel.sh run
# (build/results/bench-kernel.tsv): the same comparisons, by the same rules,
# as docs/performance.md's tables and chart.
#
#   awk LIB... -f cost-svg.awk -v problems=FILE SUMMARY > cost.svg
#
# The page shows it (report/report.sh) and docs/performance.md links it
# (scripts/performance-doc.sh writes docs/performance.svg with it).
# A panel per comparison the summary charts (its T lines marked so: against
# the base, with seals against the unsealed twin, refused against
# performed, mseal() itself; a different kernel is a table of
# docs/performance.md, not a panel), one row per case, one marker per
# kernel (a shape and a colour each, by the kernel's place in the run) at
# the median change over the boots, with a line over the range any two
# boots give, the value written at the right, and the axis scaled to the
# panel's own data, always including 0.  A summary with no comparison is
# written to the problems file and nothing is drawn.
BEGIN { FS = "\t"; LABEL = 360; X0 = 370; X1 = 1440; VX = 1470; COLW = 150; ROW = 26; kernels_read() }
function fail(what) { problem(FILENAME, what); broken = 1 }
$1 == "K" { kern[++nk] = $2; kindex[$2] = nk; next }
$1 == "T" && $5 == "no" { next }
$1 == "T" { panel_name[++npanel] = $2; panel_title[$2] = $3; panel_sub[$2] = $4; next }
$1 == "C" {
	n = ++ncmp[$2]
	cmp_case[$2, n] = $3; cmp_kernel[$2, n] = $4; cmp_against[$2, n] = $5
	cmp_change[$2, n] = $7; cmp_lo[$2, n] = $8; cmp_hi[$2, n] = $9
	next
}
function nice(span,   p, f) {
	if (span <= 0) span = 1
	p = 1; while (p * 10 <= span) p *= 10; while (p > span) p /= 10
	f = span / p
	return (f <= 1.5 ? 1 : f <= 3 ? 2 : f <= 7 ? 5 : 10) * p / 2
}
function fmt(x) { return sprintf(x < 10 && x > -10 ? "%+.2f%%" : "%+.1f%%", x) }
function xpos(v) { return X0 + (v - LO) / (HI - LO) * (X1 - X0) }
function marker(i, x, y, label,   c, s) {
	c = COL[(i - 1) % 5 + 1]; s = (i - 1) % 5 + 1
	if (s == 1) printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"%s\" stroke=\"#000\"><title>%s</title></circle>", x, y, c, esc(label)
	else if (s == 2) printf "<rect x=\"%.1f\" y=\"%.1f\" width=\"13\" height=\"13\" fill=\"%s\" stroke=\"#000\"><title>%s</title></rect>", x - 6.5, y - 6.5, c, esc(label)
	else if (s == 3) printf "<path d=\"M%.1f %.1fl8 13h-16z\" fill=\"%s\" stroke=\"#000\"><title>%s</title></path>", x, y - 8, c, esc(label)
	else if (s == 4) printf "<path d=\"M%.1f %.1fl8 8l-8 8l-8 -8z\" fill=\"%s\" stroke=\"#000\"><title>%s</title></path>", x, y - 8, c, esc(label)
	else printf "<path d=\"M%.1f %.1fl12 12m0 -12l-12 12\" stroke=\"%s\" stroke-width=\"4\"><title>%s</title></path>", x - 6, y - 6, c, esc(label)
}
# draw the rows collected in PR* as a panel at height Y; returns its height
function panel(title, sub1, note,   i, j, h, y, t, step, v, n, lk) {
	if (!npr) return 0
	LO = 0; HI = 0
	for (i = 1; i <= npr; i++) for (j = 1; j <= npk; j++) if ((i, j) in PM) {
		if (PLO[i, j] < LO) LO = PLO[i, j]; if (PHI[i, j] > HI) HI = PHI[i, j]
	}
	step = nice(HI - LO)
	LO = step * int(LO / step - (LO < 0 && LO / step != int(LO / step) ? 1 : 0))
	HI = step * int(HI / step + (HI > 0 && HI / step != int(HI / step) ? 1 : 0))
	if (HI == LO) HI = LO + step
	if (DRY) { if (npk > MAXK) MAXK = npk; return 68 + 34 + npr * ROW + 60 }
	y = Y
	printf "<g class=\"panel\">\n<text x=\"10\" y=\"%d\" font-size=\"26\" font-weight=\"bold\">%s</text>\n", y + 28, esc(title)
	printf "<text x=\"10\" y=\"%d\" font-size=\"19\">%s</text>\n", y + 54, esc(sub1)
	y += 68
	# legend, above the plot, never over it
	lk = 10
	for (j = 1; j <= npk; j++) {
		t = (PK[j] in kshort) ? kshort[PK[j]] : PK[j]
		marker(PKI[j], lk + 10, y + 14, PK[j])
		printf "<text x=\"%d\" y=\"%d\" font-size=\"19\">%s</text>", lk + 24, y + 20, esc(t PKV[j])
		lk += 40 + 11 * length(t PKV[j])
	}
	printf "<text x=\"%d\" y=\"%d\" font-size=\"16\" fill=\"#444\">median of the boots; line: the range any two boots give</text>\n", lk + 20, y + 20
	y += 34
	top = y
	h = npr * ROW
	# grid and ticks
	for (v = LO; v <= HI + step / 1000; v += step) {
		printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"%s\"/>", xpos(v), top, xpos(v), top + h, (v > -step / 1000 && v < step / 1000) ? "#000" : "#ccc", (v > -step / 1000 && v < step / 1000) ? 2 : 1
		printf "<text x=\"%.1f\" y=\"%d\" font-size=\"17\" text-anchor=\"middle\">%s</text>\n", xpos(v), top + h + 20, (v > -step / 1000 && v < step / 1000) ? "0" : sprintf("%+g%%", v)
	}
	printf "<text x=\"%.1f\" y=\"%d\" font-size=\"17\" text-anchor=\"middle\">change in cost (guest instructions per operation)%s</text>\n", (X0 + X1) / 2, top + h + 42, note
	for (j = 1; j <= npk; j++) {
		printf "<text x=\"%d\" y=\"%d\" font-size=\"16\" font-weight=\"bold\">%s</text>", VX + (j - 1) * COLW, top - 6, esc(PK[j])
	}
	for (i = 1; i <= npr; i++) {
		y = top + (i - 0.5) * ROW
		if (i % 2 == 0) printf "<rect x=\"0\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#f3f3f3\"/>", y - ROW / 2, W, ROW
		printf "<text x=\"%d\" y=\"%.1f\" font-size=\"17\" text-anchor=\"end\" font-family=\"DejaVu Sans Mono, monospace\">%s</text>", LABEL, y + 6, esc(PR[i])
		for (j = 1; j <= npk; j++) {
			if (!((i, j) in PM)) {
				printf "<text x=\"%d\" y=\"%.1f\" font-size=\"16\" fill=\"#555\">%s</text>", VX + (j - 1) * COLW, y + 6, "n/a"
				continue
			}
			n = (npk > 1) ? (j - (npk + 1) / 2) * 7 : 0
			printf "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" stroke-width=\"2\"/>", xpos(PLO[i, j]), y + n, xpos(PHI[i, j]), y + n
			marker(PKI[j], xpos(PM[i, j]), y + n, PK[j] " " PR[i] ": " fmt(PM[i, j]) " [" fmt(PLO[i, j]) ", " fmt(PHI[i, j]) "]")
			printf "<text x=\"%d\" y=\"%.1f\" font-size=\"16\">%s</text>", VX + (j - 1) * COLW, y + 6, fmt(PM[i, j])
		}
		printf "\n"
	}
	printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n</g>\n", X0, top, X1 - X0, h
	return top + h + 60 - Y
}
function reset() { npr = 0; npk = 0; split("", PR); split("", PM); split("", PLO); split("", PHI); split("", PK); split("", PKV); split("", PKI); split("", rowof) }
function addkernel(k, v,   j) { for (j = 1; j <= npk; j++) if (PK[j] == k) return j; PK[++npk] = k; PKV[npk] = v; PKI[npk] = kindex[k]; return npk }
function put(c, j,   i) {
	if (!(c in rowof)) { rowof[c] = ++npr; PR[npr] = c }
	i = rowof[c]; PM[i, j] = R; PLO[i, j] = RLO; PHI[i, j] = RHI
}
END {
	if (broken) exit 1
	COL[1] = "#0072B2"; COL[2] = "#D55E00"; COL[3] = "#F0E442"; COL[4] = "#CC79A7"; COL[5] = "#009E73"
	DRY = 1; MAXK = 0; H = draw()
	if (H == 0) { fail("no case measured on a kernel and what it is compared with: nothing to draw"); exit 1 }
	DRY = 0
	# as wide as the values of the panel with the most kernels
	W = VX + MAXK * COLW
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" font-family=\"DejaVu Sans, Arial, sans-serif\" viewBox=\"0 0 %d %d\" width=\"%d\" role=\"img\" aria-label=\"the cost of sealing, per kernel\">\n", W, H, W
	printf "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, H
	draw()
	printf "</svg>\n"
}
# The summary's comparisons of panel P, as panel() draws them: a kernel's
# legend says what it is set against where that is another kernel.
function collect(p,   i, j, k) {
	reset()
	for (i = 1; i <= ncmp[p]; i++) {
		k = cmp_kernel[p, i]
		j = addkernel(k, cmp_against[p, i] == k ? "" : " vs " cmp_against[p, i])
		R = cmp_change[p, i]; RLO = cmp_lo[p, i]; RHI = cmp_hi[p, i]
		put(cmp_case[p, i], j)
	}
}
function draw(   i) {
	Y = 0
	for (i = 1; i <= npanel; i++) {
		collect(panel_name[i])
		Y += panel(panel_title[panel_name[i]], panel_sub[panel_name[i]], "")
	}
	return Y
}
