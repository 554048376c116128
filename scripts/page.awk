# scripts/page.awk - what the page's awk programs share (report/*.awk, and
# scripts/performance-doc.sh's chart); report.sh runs each after the tree's
# shared readers (its "lib" words):
#   awk -f scripts/kernels.awk -f scripts/result.awk -f scripts/tap.awk -f scripts/expect.awk \
#       -f scripts/page.awk -v registry=kernel/kernels.tsv -f report/PROGRAM.awk ...
# with FS a tab (jit-speed.awk keeps the default).

# s, safe in HTML and SVG text and attributes
function esc(s) {
	gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s)
	return s
}

# A result file is wrong: report.sh names FILE and WHAT at the top of the
# page and exits 1; the program draws none of FILE's cells.
function problem(file, what) {
	printf "%s\t%s\n", file, what >> problems
	bad[file] = 1
}

# The registry (kernel/kernels.tsv, read by scripts/kernels.awk), as the
# page shows it: kshort[] (column heads), kdesc[], and kbase[] (the same
# kernel without this project's changes) or kother[] (~KERNEL: a different
# kernel, for scale only).  report.sh has checked it; a registry that does
# not read stops the program.
function kernels_read(   why, i, k, b) {
	why = reg_load(registry)
	if (why != "") { print "report: " why > "/dev/stderr"; exit 2 }
	for (i = 1; i <= reg_n; i++) {
		k = reg_name[i]
		kshort[k] = reg_get(k, "short"); kdesc[k] = reg_get(k, "description")
		b = reg_get(k, "base")
		if (b ~ /^~/) kother[k] = substr(b, 2)
		else if (b != "-") kbase[k] = b
	}
}

# An expectation table of the page's, read (scripts/expect.awk) as table
# T; a malformed one is a problem of its file.
function expectations(t, file,   why) {
	why = expect_load(t, file)
	if (why != "") problem(file, why)
}

# The cells programs' next TAP file: FILENAME, for the column "run" (an
# assignment before it on the command line).
function new_file() {
	cur = FILENAME; runof[cur] = run; order[++nfiles] = cur
	if (run in runseen) problem(cur, "a second file for the column " run)
	runseen[run] = 1
}

# The cells programs' P lines (the policies, in the order the runs give
# them: porder[1..npol]) and K lines (one per well-formed file, in order:
# order[1..nfiles], its column runof[], its kinfo[] "kernel file cases
# blocked landed error unexpected").
function print_runs(   i, f, ki) {
	for (i = 1; i <= npol; i++) printf "P\t%s\n", porder[i]
	for (i = 1; i <= nfiles; i++) {
		f = order[i]
		if (f in bad) continue
		split(kinfo[f], ki, "\t")
		printf "K\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", runof[f], ki[1], f, ki[3], ki[4], ki[5], ki[6], ki[7]
	}
}
