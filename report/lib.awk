# report/lib.awk - what the report's awk programs share; each is run as
#   awk -f report/lib.awk -f report/PROGRAM.awk ...
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

# fnmatch(3) without flags, as the expectation tables use it: * ? [...]
function glob_re(p,   out, i, ch) {
	out = "^"
	for (i = 1; i <= length(p); i++) {
		ch = substr(p, i, 1)
		if (ch == "*") out = out ".*"
		else if (ch == "?") out = out "."
		else if (ch == "[" || ch == "]") out = out ch
		else if (index("\\^$.|+(){}", ch)) out = out "\\" ch
		else out = out ch
	}
	return out "$"
}

# The value of NAME=VALUE among a "# result" line's words (split into w[]
# by the caller, nf of them), or "".
function field(name,   i) {
	for (i = 3; i <= nf; i++)
		if (index(w[i], name "=") == 1) return substr(w[i], length(name) + 2)
	return ""
}

# A line of kernel/kernels.tsv (KERNEL SHORT BASE DESCRIPTION): kshort[],
# kdesc[], and kbase[] (the same kernel without this project's changes) or
# kother[] (~KERNEL: a different kernel, for scale only).
function kernel_row() {
	if ($0 ~ /^#/ || NF < 4) return
	kshort[$1] = $2; kdesc[$1] = $4
	if ($3 ~ /^~/) kother[$1] = substr($3, 2)
	else if ($3 != "-") kbase[$1] = $3
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
