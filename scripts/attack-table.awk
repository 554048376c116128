# scripts/attack-table.awk - scripts/attack-table.sh's table, from the
# "# result" lines of attacks TAP files (scripts/result.awk reads them).
#   awk -f scripts/result.awk -f scripts/attack-table.awk -v mode=plain|markdown|color \
#       -v kernels="K..." FILE...
# A case is unexpected when its outcome (and a BLOCKED one's errno) is not
# the expected= one its line carries (result_unexpected).
result_read($0) {
	k = result("kernel"); s = result("scenario"); p = result("policy")
	o = result("outcome"); e = result("errno")
	if (!(s in seen)) { seen[s] = 1; order[++nscen] = s }
	if (!((p) in pseen)) { pseen[p] = 1 }
	key = s SUBSEP k SUBSEP p
	v = (o == "BLOCKED") ? e : o
	if (!(key in cell)) cell[key] = v
	else if (cell[key] != v) cell[key] = "mixed"
	if (result_unexpected()) bad[key] = 1
	sk = k SUBSEP p
	sv = result("seals"); if (sv == "") sv = "?"
	if (!(sk in seals)) seals[sk] = sv
	else if (seals[sk] != sv) seals[sk] = "mixed"
}
function paint(text, v, marked,   c) {
	if (mode != "color") return text
	c = (v == "LANDED") ? "31" : (v == "ERROR" || v == "mixed") ? "33" : "32"
	if (marked) c = c ";1;7"
	return "\033[" c "m" text "\033[0m"
}
END {
	nk = split(kernels, ks, " ")
	np = split("none card all", ps, " ")
	w = 13
	for (i = 1; i <= nscen; i++) if (length(order[i]) > w) w = length(order[i])
	if (mode == "markdown") {
		line = "| scenario |"; sep = "| --- |"
		for (a = 1; a <= nk; a++) for (b = 1; b <= np; b++) {
			line = line " " ks[a] " " ps[b] " |"; sep = sep " --- |"
		}
		print line; print sep
	} else {
		line = sprintf("%-" w "s", "")
		for (a = 1; a <= nk; a++) line = line sprintf(" | %-23s", ks[a])
		print line
		line = sprintf("%-" w "s", "scenario")
		for (a = 1; a <= nk; a++) {
			line = line " |"
			for (b = 1; b <= np; b++) line = line sprintf(" %-7s", ps[b])
		}
		print line
	}
	label = "(smaps seals)"
	line = (mode == "markdown") ? "| " label " |" : sprintf("%-" w "s", label)
	for (a = 1; a <= nk; a++) {
		if (mode != "markdown") line = line " |"
		for (b = 1; b <= np; b++) {
			sk = ks[a] SUBSEP ps[b]
			v = (sk in seals) ? seals[sk] : "?"
			line = line ((mode == "markdown") ? " " v " |" : sprintf(" %-7s", v))
		}
	}
	print line
	marks = 0
	for (i = 1; i <= nscen; i++) {
		s = order[i]
		line = (mode == "markdown") ? "| " s " |" : sprintf("%-" w "s", s)
		for (a = 1; a <= nk; a++) {
			if (mode != "markdown") line = line " |"
			for (b = 1; b <= np; b++) {
				key = s SUBSEP ks[a] SUBSEP ps[b]
				v = (key in cell) ? cell[key] : "-"
				m = (key in bad) ? "!" : ""
				marks += (m != "")
				if (mode == "markdown") line = line " " v m " |"
				else line = line " " paint(sprintf("%-7s", v m), v, m != "")
			}
		}
		print line
	}
	print ""
	print "EACCES, EPERM: the attack was BLOCKED with that errno and nothing changed."
	print "LANDED: the code, its address or its permissions changed.  \"!\": not what attacks/expected.tsv says."
	print "mixed: the four runs of a case differ (as expected.tsv allows with a NAME@self or NAME@child row)."
	print "(smaps seals): the arena in /proc/self/smaps: its Seals: line (P mprotect, U munmap, M mmap,"
	print "R mremap, S mseal), sl for a VmFlags mark only (upstream), - for neither."
	if (marks) printf "%d cell(s) differ from attacks/expected.tsv\n", marks
	exit (marks > 0)
}