# report/realjit-cells.awk - a real JIT's matrix's cells, from the TAP files
# of realjit/matrix.sh (KERNEL-NAME.tap, realjit/judge.sh's format).
#
#   awk LIB... -f realjit-cells.awk -v problems=FILE -v check=yes|no \
#       -v title=T -v reference=R -v target=A -v program=P \
#       JIT/expected-workloads.tsv JIT/expected-attacks.tsv \
#       run=KERNEL build/results/KERNEL-NAME.tap run=KERNEL ...
# (check: the tables have a check column; the others are the JIT's words
# for the row groups, from its profile.)
#
# One case per cell: a workload or an attack, under one policy, on one
# kernel.  Each file must be a whole judged run (its lines read by
# scripts/tap.awk): a plan, as many test points, "ok N - KERNEL KIND NAME
# POLICY: ..." each followed by its "# result" line (kind workload or attack,
# kernel, name, policy, outcome, errno: the case, read by name), one kernel
# throughout, and after the cases
# judge.sh's two tests of the run as a whole ("ok N - KERNEL run: ..."),
# both passed: the case list is its mode's, and the guest ran to the end.
# Outcomes RAN, ABORTED, LANDED, BLOCKED, UNAVAILABLE and UNSEALED (the
# kernel refused the seal: the policy was not applied) are cells of their
# own; ERROR, WRONG (ran, other output) and NOJIT (ran, made no code
# executable), the other outcomes guest/run-cases.sh gives, are ERROR cells
# labelled with the word.  A "not ok" point without a result line (judge.sh:
# the guest died or the case hung) is an ERROR cell, not a malformed file; a
# failed run test is a problem.  A result line may carry fields beyond those
# named.  Problems go to the problems file; a broken file's cells are not
# printed.  The reason of each cell: the row of the expectation table of
# its kind that scripts/expect.awk matches, as judge.sh picks it.
#
# Prints the lines report/attack-cells.awk prints (G, S, P, K, C), the
# groups being "workload" and "attack":
#   C run policy name class label 1 0 0 0 unexpected sealed reason details
# class: RAN, ABORTED, LANDED, BLOCKED, UNAVAILABLE, UNSEALED, ERROR; label:
# the errno ("-" when none; LANDED* when the JIT then ran the attacker's bytes;
# for an ERROR cell, the outcome: ERROR, WRONG or NOJIT).
# The tables, read whole by scripts/expect.awk (awk skips them as input).
BEGIN {
	FS = "\t"; SEP = "\036"; nfiles = 0
	kernels_read()
	if (check == "yes") exp_has_check["workload"] = exp_has_check["attack"] = 1
	expectations("workload", ARGV[1]); ARGV[1] = ""
	expectations("attack", ARGV[2]); ARGV[2] = ""
}

function reason_of(kind, name, policy, kernel,   i) {
	i = expect_match(kind, name, policy, kernel, "")
	return i ? exp_reason[kind, i] : "no row of the expected " kind "s table matches"
}

# The test point before: passed, it must have had its result line; failed
# without one (the guest died, the case hung), it is an ERROR cell, the
# one place where the case is read from the point's words (judge.sh's
# "KERNEL KIND NAME POLICY: what"): there is no result line to read.
function close_point(   w) {
	if (pending == 1) problem(cur, "test point " points " passed without a \"# result\" line")
	else if (pending == 2) {
		split(tdesc, w, " "); sub(/:$/, "", w[4])
		if (w[2] != "workload" && w[2] != "attack") problem(cur, "line " tline ": test point " points " names no workload or attack case")
		else cell(w[2], w[3], w[4], "ERROR", "no result", "judged: " twhat, 1, "-", w[1])
	}
	pending = 0
}

function finish_file() {
	if (cur == "") return
	close_point()
	if (!sawplan) problem(cur, "no TAP plan (1..N): realjit/matrix.sh did not judge this run")
	else if (points != plan) problem(cur, "the plan says " plan " cases, the file has " points " (a run cut short?)")
	if (sawplan && plan == 0) problem(cur, "no cases")
	if (sawplan && runpoints != 2) problem(cur, "not the two tests of the run as a whole that realjit/judge.sh ends with (" runpoints " of them)")
	kinfo[cur] = curkernel "\t" cur "\t" points "\t" (tally[cur, "BLOCKED"] + 0) "\t" (tally[cur, "LANDED"] + 0) "\t" (tally[cur, "ERROR"] + 0) "\t" (tally[cur, "unexpected"] + 0)
	cur = ""
}

# A cell: FILE's case KIND NAME POLICY on KERNEL, its class, label and detail.
function cell(kind, name, policy, cls, lab, det, unexp, sealed, kernel,   key) {
	if (!((kind, name) in rseen)) { rseen[kind, name] = 1; rname[kind, ++nrow[kind]] = name }
	if (!(policy in pseen)) { pseen[policy] = 1; porder[++npol] = policy }
	key = cur SUBSEP policy SUBSEP name
	if (key in ccls) { problem(cur, "a second result for " kind " " name " " policy); return }
	ccls[key] = cls; clab[key] = lab; cdet[key] = det; cun[key] = unexp; csealed[key] = sealed
	creason[key] = reason_of(kind, name, policy, kernel)
	ckeys[++ncell] = key; cfile[ncell] = cur; cpol[ncell] = policy; cname[ncell] = name
	tally[cur, cls == "BLOCKED" ? "BLOCKED" : cls == "LANDED" ? "LANDED" : cls == "ERROR" ? "ERROR" : "other"]++
	if (unexp) tally[cur, "unexpected"]++
}

# 3...: the TAP files
FNR == 1 {
	finish_file()
	new_file()
	sawplan = 0; plan = 0; points = 0; pending = 0; curkernel = ""; runpoints = 0
}
{ tap = tap_read($0) }
tap == "plan" { sawplan = 1; plan = tap_plan; next }
tap == "point" {
	close_point()
	points++
	notok = !tap_ok
	# "KERNEL KIND NAME POLICY: what (expected O E)"; the case itself is
	# read from its result line
	tdesc = tap_desc; tline = FNR
	twhat = tdesc; sub(/^[^:]*: /, "", twhat)
	# "KERNEL run: ...": the run as a whole; failed, the file is no whole run
	if (tdesc ~ /^[^ ]+ run: /) {
		runpoints++
		if (notok) problem(cur, "line " FNR ": the run failed judge.sh's test: " twhat)
		pending = 0
		next
	}
	# a failed case may have no result at all: the cell says so
	pending = notok ? 2 : 1
	next
}
tap == "result" {
	if (!pending) { problem(cur, "line " FNR ": a \"# result\" line with no test point before it"); next }
	pending = 0
	kd = result("kind"); k = result("kernel"); nm = result("name"); p = result("policy"); o = result("outcome"); e = result("errno")
	if (kd == "" || k == "" || nm == "" || p == "" || o == "" || e == "") {
		problem(cur, "line " FNR ": a \"# result\" line without kind, kernel, name, policy, outcome or errno"); next
	}
	if (kd != "workload" && kd != "attack") { problem(cur, "line " FNR ": kind=" kd " is not workload or attack"); next }
	if (o !~ /^(RAN|ABORTED|LANDED|BLOCKED|UNAVAILABLE|UNSEALED|ERROR|WRONG|NOJIT)$/) { problem(cur, "line " FNR ": outcome=" o " is not RAN, ABORTED, LANDED, BLOCKED, UNAVAILABLE, UNSEALED, ERROR, WRONG or NOJIT"); next }
	if (curkernel == "") curkernel = k
	else if (k != curkernel) problem(cur, "line " FNR ": kernel=" k " in a file of kernel=" curkernel)
	lab = (o == "LANDED") ? (result("rerun") == "payload" ? "LANDED*" : "LANDED") : e
	# the case gave no usable answer: an ERROR cell that says which
	if (o == "ERROR" || o == "WRONG" || o == "NOJIT") { lab = o; o = "ERROR" }
	det = $0; sub(/^# result /, "", det); sub(/ detail=.*/, "", det)
	if (result("detail") != "") det = det SEP "detail: " result("detail")
	det = det SEP "judged: " twhat
	cell(kd, nm, p, o, lab, det, notok, result("sealed"), k)
	next
}
END {
	finish_file()
	printf "G\tworkload\tWorkloads\tdoes %s run, its output that of %s?\n", title, reference
	for (j = 1; j <= nrow["workload"]; j++) printf "S\tworkload\t%s\n", rname["workload", j]
	printf "G\tattack\tAttacks on %s\tone corrupted call on %s's live machine code, from inside its process\n", target, program
	for (j = 1; j <= nrow["attack"]; j++) printf "S\tattack\t%s\n", rname["attack", j]
	print_runs()
	for (i = 1; i <= ncell; i++) {
		key = ckeys[i]
		if (cfile[i] in bad) continue
		printf "C\t%s\t%s\t%s\t%s\t%s\t1\t0\t0\t0\t%d\t%s\t%s\t%s\n", runof[cfile[i]], cpol[i], cname[i], ccls[key],
			clab[key], cun[key], csealed[key], creason[key], cdet[key]
	}
}
