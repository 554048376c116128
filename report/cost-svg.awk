# report/cost-svg.awk - the cost of sealing, drawn as SVG, from a
# scripts/bench-kernel.sh run (build/results/bench-kernel.tsv).
#
#   awk LIB... -f cost-svg.awk -v problems=FILE bench-kernel.tsv > cost.svg
#
# Each panel compares like with like, one row per case, one marker per kernel
# (a shape and a colour each) at the median change over the boots, with a
# line over the range any two boots give ((lo / base hi) .. (hi / base lo)),
# the value written at the right, and the axis scaled to the panel's own
# data, always including 0:
#   1. a process that never seals: each kernel vs its BASE (kernel/kernels.tsv: the
#      same kernel without the project's mm changes), plain cases and stress-ng;
#   2. a process with seals: +far-seal / +next-seal vs the same layout
#      unsealed (+far-unsealed / +next-unsealed) on the same kernel;
#   3. a refused call (+refused) vs the same call performed (the plain case)
#      on the same kernel;
#   4. kernel vs kernel (a ~KERNEL base in kernel/kernels.tsv): not the cost of
#      sealing, a different kernel; drawn apart and labelled so.
# stress-ng's bogo-ops/s become ns per bogo-op, so that above 0 is dearer.
# A malformed file (header, column count, status, a non-number where status
# is ok) is written to the problems file and nothing is drawn.
BEGIN { FS = "\t"; W = 1800; LABEL = 360; X0 = 370; X1 = 1440; VX = 1470; ROW = 26; kernels_read() }
function fail(what) { problem(FILENAME, what); broken = 1 }
FNR == 1 {
	if ($0 != "kernel\tcase\tboot\tvalue\tunit\tstatus\tnote") fail("line 1 is not the header \"kernel case boot value unit status note\" (tab-separated)")
	next
}
{
	if (NF != 7) { fail("line " FNR ": " NF " columns, not 7"); next }
	if ($6 !~ /^(ok|n\/a|error|died|missing)$/) { fail("line " FNR ": status \"" $6 "\" is not ok, n/a, error, died or missing"); next }
	if (!($1 in kseen)) { kseen[$1] = 1; kern[++nk] = $1 }
	if (!($2 in cseen)) { cseen[$2] = 1; cases[++nc] = $2 }
	if ($6 != "ok") next
	if ($4 !~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ || $4 + 0 <= 0) { fail("line " FNR ": value \"" $4 "\" is not a positive number"); next }
	x = ($5 == "bogo-ops/s") ? 1e9 / $4 : $4 + 0
	key = $1 SUBSEP $2
	m = ++cnt[key]; val[key, m] = x
	# keep each key's values sorted (a few boots)
	for (i = m; i > 1 && val[key, i - 1] > val[key, i]; i--) { t = val[key, i]; val[key, i] = val[key, i - 1]; val[key, i - 1] = t }
}
function med(key,   n) { n = cnt[key]; return n % 2 ? val[key, (n + 1) / 2] : (val[key, n / 2] + val[key, n / 2 + 1]) / 2 }
# the change of (k, c) over (bk, bc) into R[], RLO[], RHI[]; 0 if either is unmeasured
function change(k, c, bk, bc,   a, b) {
	a = k SUBSEP c; b = bk SUBSEP bc
	if (!cnt[a] || !cnt[b]) return 0
	R = (med(a) / med(b) - 1) * 100
	RLO = (val[a, 1] / val[b, cnt[b]] - 1) * 100
	RHI = (val[a, cnt[a]] / val[b, 1] - 1) * 100
	return 1
}
function plain(c) { return c !~ /\+/ }
function twin(c) { if (sub(/\+far-seal$/, "+far-unsealed", c) || sub(/\+next-seal$/, "+next-unsealed", c)) return c; sub(/\+refused$/, "", c); return c }
function nice(span,   p, f) {
	if (span <= 0) span = 1
	p = 1; while (p * 10 <= span) p *= 10; while (p > span) p /= 10
	f = span / p
	return (f <= 1.5 ? 1 : f <= 3 ? 2 : f <= 7 ? 5 : 10) * p / 2
}
function fmt(x) { return sprintf("%+.1f%%", x) }
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
	if (DRY) return 68 + 34 + npr * ROW + 60
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
		printf "<text x=\"%d\" y=\"%d\" font-size=\"16\" font-weight=\"bold\">%s</text>", VX + (j - 1) * 110, top - 6, esc(PK[j])
	}
	for (i = 1; i <= npr; i++) {
		y = top + (i - 0.5) * ROW
		if (i % 2 == 0) printf "<rect x=\"0\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#f3f3f3\"/>", y - ROW / 2, W, ROW
		printf "<text x=\"%d\" y=\"%.1f\" font-size=\"17\" text-anchor=\"end\" font-family=\"DejaVu Sans Mono, monospace\">%s</text>", LABEL, y + 6, esc(PR[i])
		for (j = 1; j <= npk; j++) {
			if (!((i, j) in PM)) {
				printf "<text x=\"%d\" y=\"%.1f\" font-size=\"16\" fill=\"#555\">%s</text>", VX + (j - 1) * 110, y + 6, "n/a"
				continue
			}
			n = (npk > 1) ? (j - (npk + 1) / 2) * 7 : 0
			printf "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" stroke-width=\"2\"/>", xpos(PLO[i, j]), y + n, xpos(PHI[i, j]), y + n
			marker(PKI[j], xpos(PM[i, j]), y + n, PK[j] " " PR[i] ": " fmt(PM[i, j]) " [" fmt(PLO[i, j]) ", " fmt(PHI[i, j]) "]")
			printf "<text x=\"%d\" y=\"%.1f\" font-size=\"16\">%s</text>", VX + (j - 1) * 110, y + 6, fmt(PM[i, j])
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
	for (a = 1; a <= nk; a++) kindex[kern[a]] = a
	DRY = 1; H = draw()
	if (H == 0) { fail("no case measured on a kernel and what it is compared with: nothing to draw"); exit 1 }
	DRY = 0
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" font-family=\"DejaVu Sans, Arial, sans-serif\" viewBox=\"0 0 %d %d\" width=\"%d\" role=\"img\" aria-label=\"the cost of sealing, per kernel\">\n", W, H, W
	draw()
	printf "</svg>\n"
}
# The plain cases and stress-ng of each kernel against its base (other: 0)
# or against the different kernel it is set beside (other: 1).
function versus(other,   a, b, k, j, ci, c) {
	reset()
	for (a = 1; a <= nk; a++) {
		k = kern[a]; b = other ? kother[k] : kbase[k]
		if (b == "" || !(b in kseen)) continue
		j = 0
		for (ci = 1; ci <= nc; ci++) {
			c = cases[ci]
			if (!plain(c) && c !~ /^stress-ng\//) continue
			if (change(k, c, b, c)) { if (!j) j = addkernel(k, " vs " b); put(c, j) }
		}
	}
}
# The cases matching RE against their twins (twin()) on the same kernel.
function twins(re,   a, k, j, ci, c) {
	reset()
	for (a = 1; a <= nk; a++) {
		k = kern[a]; j = 0
		for (ci = 1; ci <= nc; ci++) {
			c = cases[ci]
			if (c !~ re) continue
			if (change(k, c, k, twin(c))) { if (!j) j = addkernel(k, ""); put(c, j) }
		}
	}
}
function draw() {
	Y = 0
	# 1: never sealing, vs the base
	versus(0)
	Y += panel("What sealing's code costs a process that never seals", "each kernel against its own base (the same kernel without this project's mm changes); plain cases and stress-ng", "")
	# 2: with seals, vs the same layout unsealed, same kernel
	twins("\\+(far|next)-seal$")
	Y += panel("What having seals costs", "a sealed region far away (+far-seal) or next to the operation (+next-seal), against the same layout unsealed, same kernel", "")
	# 3: refused vs performed, same kernel
	twins("\\+refused$")
	Y += panel("What a refused call costs", "the call refused on sealed memory, against the same call performed on the same kernel (below 0: cheaper)", "")
	# 4: kernel vs kernel
	versus(1)
	Y += panel("Not the cost of sealing: a different kernel", "the same cases on another kernel version (its whole mm differs), for scale only", "")
	return Y
}
