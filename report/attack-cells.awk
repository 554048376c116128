# report/attack-cells.awk - the attack matrix's cells, from attacks TAP files.
#
#   awk LIB... -f attack-cells.awk -v problems=FILE \
#       report/scenario-groups.tsv attacks/expected.tsv \
#       run=KERNEL build/results/KERNEL-attacks.tap run=KERNEL ...
#
# Reads the row groups, the expectations (for each case's reason: the row
# scripts/expect.awk matches) and then one TAP file per column ("run" is
# the column's name, usually the kernel's), its lines read by scripts/tap.awk
# (each "# result" line by scripts/result.awk).  Checks
# that each file is a whole, well-formed run: a plan, one "# result" line
# after every test point with every field, outcomes BLOCKED/LANDED/ERROR, one
# kernel= throughout, and the closing "# kernel=K: N cases, ..." line agreeing
# with the results.  A file that is not is written to the problems file as
# "FILE<TAB>what is wrong", and none of its cells is printed.
#
# Prints, tab-separated:
#   G key title what                  a row group (in the groups file's order)
#   S key scenario                    a scenario row (in that order), when any run has it
#   P policy                          the policies, in the order the runs give them
#   K run kernel file cases blocked landed error unexpected
#   C run policy scenario class label runs landed blocked error unexpected seals reasons details
# class: LANDED, BLOCKED (every run the same), mixed, ERROR (any run).  label:
# what the cell says (the errno of a BLOCKED cell, "-" when it has none).
# reasons and details: lines joined by \036; a detail line per run
# ("root/self: LANDED - seals=-"), then the run's "# maps ..." and
# "# smaps ..." lines when the file has them.
# The table, read whole by scripts/expect.awk (awk skips it as input).
BEGIN {
	FS = "\t"; SEP = "\036"; nfiles = 0
	kernels_read()
	expectations("attacks", ARGV[2]); ARGV[2] = ""
}

function reason_of(kernel, scenario, policy, from,   i) {
	i = expect_match("attacks", scenario, policy, kernel, from)
	return i ? exp_reason["attacks", i] : "no row of attacks/expected.tsv matches"
}

function finish_file(   r) {
	if (cur == "") return
	if (!sawplan) problem(cur, "no TAP plan (1..N): the run did not start or its output is cut")
	else if (points != plan) problem(cur, "the plan says " plan " cases, the file has " points " (a run cut short?)")
	if (pending) problem(cur, "test point " points " has no \"# result\" line")
	if (!sawsum) problem(cur, "no closing \"# kernel=K: N cases, ...\" line: the run did not finish")
	else if (sum_cases != results || sum_b != tally[cur, "BLOCKED"] || sum_l != tally[cur, "LANDED"] || sum_e != tally[cur, "ERROR"])
		problem(cur, sprintf("the closing line says %d cases, %d BLOCKED, %d LANDED, %d ERROR; the result lines say %d, %d, %d, %d",
			sum_cases, sum_b, sum_l, sum_e, results, tally[cur, "BLOCKED"], tally[cur, "LANDED"], tally[cur, "ERROR"]))
	if (results == 0 && sawplan && points == plan) problem(cur, "no \"# result\" lines")
	kinfo[cur] = curkernel "\t" cur "\t" results "\t" (tally[cur, "BLOCKED"] + 0) "\t" (tally[cur, "LANDED"] + 0) "\t" (tally[cur, "ERROR"] + 0) "\t" (tally[cur, "unexpected"] + 0)
	cur = ""
}

# 1: the groups file
FILENAME == ARGV[1] {
	groupsfile = FILENAME
	if ($0 ~ /^#/ || $0 == "") next
	if ($1 == "group") { ngroup++; gkey[ngroup] = $2; gtitle[$2] = $3; gwhat[$2] = $4; next }
	if (!($1 in gtitle)) { problem(FILENAME, "scenario " $2 " names group " $1 " before its group line"); next }
	nscen++; sname[nscen] = $2; sgroup[$2] = $1
	next
}
# 3...: the TAP files
FNR == 1 {
	finish_file()
	new_file()
	sawplan = 0; plan = 0; points = 0; results = 0; pending = 0; sawsum = 0; curkernel = ""
	last = ""
}
{ tap = tap_read($0) }
tap == "plan" { sawplan = 1; plan = tap_plan; next }
tap == "point" {
	if (pending) problem(cur, "test point " points " has no \"# result\" line")
	points++; pending = 1
	notok = !tap_ok
	next
}
tap == "result" {
	k = result("kernel"); s = result("scenario"); p = result("policy"); pr = result("priv")
	fr = result("from"); o = result("outcome"); e = result("errno"); x = result("expected"); sl = result("seals")
	if (!pending) { problem(cur, "line " FNR ": a \"# result\" line with no test point before it"); next }
	pending = 0
	if (k == "" || s == "" || p == "" || pr == "" || fr == "" || o == "" || e == "" || x == "") {
		problem(cur, "line " FNR ": a \"# result\" line without kernel, scenario, policy, priv, from, outcome, errno or expected")
		next
	}
	if (o != "BLOCKED" && o != "LANDED" && o != "ERROR") { problem(cur, "line " FNR ": outcome=" o " is not BLOCKED, LANDED or ERROR"); next }
	if (curkernel == "") curkernel = k
	else if (k != curkernel) problem(cur, "line " FNR ": kernel=" k " in a file of kernel=" curkernel)
	if (!(s in sgroup)) {
		printf "%s\tscenario %s is in no group: its row is shown under \"ungrouped\"\n", groupsfile, s >> problems
		if (!("ungrouped" in gtitle)) {
			gkey[++ngroup] = "ungrouped"; gtitle["ungrouped"] = "Ungrouped"
			gwhat["ungrouped"] = "scenarios missing from report/scenario-groups.tsv"
		}
		sgroup[s] = "ungrouped"; sname[++nscen] = s
	}
	if (!(p in pseen)) { pseen[p] = 1; porder[++npol] = p }
	results++; tally[cur, o]++
	unexp = notok || result_unexpected()
	if (unexp) tally[cur, "unexpected"]++
	key = cur SUBSEP p SUBSEP s
	if (!(key in runs)) { cellkeys[++ncell] = key; cfile[ncell] = cur; cpol[ncell] = p; cscen[ncell] = s }
	runs[key]++; n[key, o]++; if (unexp) nun[key]++
	v = (o == "BLOCKED") ? e : o
	if (!(key in label)) label[key] = v
	else if (label[key] != v) label[key] = "mixed"
	if (!(key in seals)) seals[key] = sl
	else if (seals[key] != sl) seals[key] = seals[key] "," sl
	rs = reason_of(k, s, p, fr)
	if (index(SEP reasons[key] SEP, SEP rs SEP) == 0) reasons[key] = reasons[key] (reasons[key] == "" ? "" : SEP) rs
	det = pr "/" fr ": " o " " e (unexp ? " (NOT AS EXPECTED: " x ")" : "") " seals=" sl
	details[key] = details[key] (details[key] == "" ? "" : SEP) det
	last = key
	next
}
tap == "comment" && tap_comment ~ /^(maps|smaps) (before|after): / {
	if (last != "") details[last] = details[last] SEP "  " tap_comment
	next
}
tap == "comment" && tap_comment ~ /^kernel=[^ ]*: [0-9]+ cases, / {
	sawsum = 1
	split(tap_comment, t, /[ :;,]+/)
	# kernel=K N cases N BLOCKED N LANDED N ERROR N not ...
	sum_cases = t[2] + 0; sum_b = t[4] + 0; sum_l = t[6] + 0; sum_e = t[8] + 0
	next
}
END {
	finish_file()
	for (i = 1; i <= ngroup; i++) {
		g = gkey[i]; any = 0
		for (j = 1; j <= nscen; j++) if (sgroup[sname[j]] == g) any = 1
		if (any) printf "G\t%s\t%s\t%s\n", g, gtitle[g], gwhat[g]
		for (j = 1; j <= nscen; j++) if (sgroup[sname[j]] == g) printf "S\t%s\t%s\n", g, sname[j]
	}
	print_runs()
	for (i = 1; i <= ncell; i++) {
		key = cellkeys[i]
		if (cfile[i] in bad) continue
		cls = label[key] == "mixed" ? "mixed" : label[key] == "LANDED" ? "LANDED" : label[key] == "ERROR" ? "ERROR" : "BLOCKED"
		if (n[key, "ERROR"]) cls = "ERROR"
		printf "C\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n", runof[cfile[i]], cpol[i], cscen[i], cls,
			label[key], runs[key], n[key, "LANDED"], n[key, "BLOCKED"], n[key, "ERROR"], nun[key] + 0,
			seals[key], reasons[key], details[key]
	}
}
