# report/jit-speed.awk - the JIT's speed, from `make bench-jit`'s table
# (build/results/jitdemo-bench.txt, jitdemo/bench/bench.sh), as HTML.
#   awk -f scripts/page.awk -f jit-speed.awk -v problems=FILE jitdemo-bench.txt
# A file without the header line, with a row whose four times are not
# numbers or one of them 0 (the table divides by them: bench.sh's "%.2f"
# prints a time under 5 us as 0.00), with no row, or without the closing
# "(medians of N rounds" line is written to the problems file and nothing
# is printed.
function fail(what) { problem(FILENAME, what); broken = 1 }
function num(x) { return x ~ /^[0-9]+(\.[0-9]+)?$/ }
FNR == 1 { if ($1 != "example" || $2 != "interp_ms") fail("line 1 is not bench.sh's header (example interp_ms jit_ms ...)"); next }
/^\(medians of / { closing = $0; rounds = $3; next }
/^ / { closing2 = $0; next }
NF >= 10 {
	if (!num($2) || !num($3) || !num($4) || !num($5)) { fail("line " FNR ": the times of " $1 " are not numbers"); next }
	if ($2 == 0 || $3 == 0 || $4 == 0 || $5 == 0) { fail("line " FNR ": a time of " $1 " is 0 (" $2 " " $3 " " $4 " " $5 " ms): too short to measure, and the table divides by it"); next }
	n++; name[n] = $1; it[n] = $2; jt[n] = $3; o0[n] = $4; o2[n] = $5; sp[n] = $9
	v = $0
	for (i = 1; i <= 9; i++) sub(/^ *[^ ]+ +/, "", v)
	verdict[n] = v
	next
}
NF > 0 { fail("line " FNR ": not a row of bench.sh's table") }
END {
	if (!broken && !n) fail("no example in the table")
	if (!broken && closing == "") fail("no closing \"(medians of N rounds\" line: the run did not finish")
	if (broken) exit 1
	print "<table class=\"jit\" id=\"jit\"><thead><tr><th>example</th><th>interpreter ms</th><th>JIT ms</th><th>gcc -O0 ms</th><th>gcc -O2 ms</th><th>JIT speed-up over interpreter</th><th>JIT / gcc -O0</th><th>JIT / gcc -O2</th><th>spread JIT/O0/O2</th><th>bench.sh's verdict</th></tr></thead><tbody>"
	for (i = 1; i <= n; i++)
		printf "<tr><td>%s</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.1f&times;</td><td>%.2f&times;</td><td>%.2f&times;</td><td>%s</td><td>%s</td></tr>\n", esc(name[i]), it[i], jt[i], o0[i], o2[i], it[i] / jt[i], jt[i] / o0[i], jt[i] / o2[i], esc(sp[i]), esc(verdict[i])
	printf "</tbody></table>\n<p class=\"prov\">%s %s</p>\n", esc(closing), esc(closing2)
}
