# realjit/summary.awk - realjit/summary.sh's tables and answer, from the
# "# result" lines of KERNEL-NAME.out files (scripts/result.awk reads them;
# the answer is answer.awk's).  Loaded after scripts/kernels.awk,
# scripts/result.awk, scripts/expect.awk, scripts/answer.awk and the JIT's own
# summary awk (its profile's RJ_SUMMARY_AWK), which defines
#   jit_result()           called on each result line (result() reads it)
#   jit_workload_legend()  the words under the workloads table
#   jit_section()          its own section, after them
#   jit_attack_legend()    the words under the attacks table
# and may call result_of(), human() and the res[], wl[], ks[], ps[] below.
# Variables from summary.sh: kernels, atsv, check, registry, program, title,
# target (what the attacks aim at).
# The reason the attack table gives (the row scripts/expect.awk matches).
function reason(name, policy, kernel,   i) {
	i = expect_match("attack", name, policy, kernel, "")
	return i ? exp_reason["attack", i] : "(no row in " atsv ")"
}
function cell(line,   o, e) {
	o = result_of(line, "outcome"); e = result_of(line, "errno")
	if (o == "UNAVAILABLE") return "n/a"
	if (o == "UNSEALED") return "unsealed " e
	if (o == "ABORTED") return "aborted " e
	if (o == "BLOCKED") return e
	if (o == "LANDED" && result_of(line, "rerun") == "payload") return "LANDED*"
	return o
}
function human(bytes) {
	if (bytes == "-" || bytes == "") return "-"
	bytes = bytes + 0
	if (bytes >= 1048576) return sprintf("%.1f MiB", bytes / 1048576)
	if (bytes >= 1024) return sprintf("%d KiB", bytes / 1024)
	return bytes " B"
}
function header(first,   a, b, line, sep) {
	line = "| " first " |"; sep = "| --- |"
	for (a = 1; a <= nk; a++) for (b = 1; b <= np; b++) {
		line = line " " ks[a] " " ps[b] " |"; sep = sep " --- |"
	}
	print line; print sep
}
function table(kind, names, n, first,   i, a, b, line, key) {
	header(first)
	for (i = 1; i <= n; i++) {
		line = "| " names[i] " |"
		for (a = 1; a <= nk; a++) for (b = 1; b <= np; b++) {
			key = kind SUBSEP names[i] SUBSEP ks[a] SUBSEP ps[b]
			line = line " " ((key in res) ? cell(res[key]) : "-") " |"
		}
		print line
	}
}
BEGIN {
	why = reg_load(registry)
	if (check == "yes") exp_has_check["attack"] = 1
	if (why == "") why = expect_load("attack", atsv)
	if (why != "") { print "summary: " why > "/dev/stderr"; exit 1 }
	nk = split(kernels, ks, " ")
	np = split("none pin card all upstream", ps, " ")
}
result_read($0) {
	kind = result("kind"); name = result("name"); o = result("outcome")
	key = kind SUBSEP name SUBSEP result("kernel") SUBSEP result("policy")
	res[key] = $0
	if (kind == "workload" && !(name in wseen)) { wseen[name] = 1; wl[++nw] = name }
	if (kind == "attack" && !(name in aseen)) { aseen[name] = 1; al[++na] = name }
	if (!(name in ans_kind)) { ans_kind[name] = kind; ans_name[++ans_n] = name }
	ans_outcome[result("kernel"), result("policy"), name] = o
	if (o == "UNSEALED") unsealed_seen = 1
	jit_result()
}
END {
	print "### Workloads: did " title " run correctly?"
	print ""
	table("workload", wl, nw, "workload")
	print ""
	jit_workload_legend()
	print "n/a: the kernel cannot express the policy (the library refuses to start)."
	if (unsealed_seen)
		print "unsealed ERRNO: the kernel refused to seal " program "'s code (mseal failed with ERRNO): the policy was not applied, and " program " ran on unsealed."
	print ""
	jit_section()
	print "### Attacks on " target
	print ""
	table("attack", al, na, "attack")
	print ""
	jit_attack_legend()
	print "n/a: the kernel cannot express the policy."
	if (unsealed_seen)
		print "unsealed ERRNO: the kernel refused to seal " program "'s code; the attack then met no seal."
	print ""
	print "### The answer: the strongest policy " program " runs under, and what it leaves open"
	print ""
	for (a = 1; a <= nk; a++) {
		answer(ks[a])
		best = ans_best
		refused = ""
		for (i = 1; i <= ans_unsealed; i++) refused = refused (i > 1 ? ", " : "") "`" ans_unsealed_policy[i] "`"
		refused = refused == "" ? "" : "; the kernel refused to seal " program "'s code under " refused " (UNSEALED: not applied)"
		if (best == "") { printf "- **%s**: no policy ran every workload (not even none)%s\n", ks[a], refused; continue }
		open_list = ""
		for (i = 1; i <= ans_landed; i++)
			open_list = open_list "\n  - `" ans_land[i] "`" (best == "none" ? "" : ": " reason(ans_land[i], best, ks[a]))
		printf "- **%s**: `%s`; %d of the %d attacks tried under it land%s%s\n", ks[a], best, ans_landed, ans_tried,
			(best == "none" ? " (nothing is sealed)" : ""), refused (best != "none" && ans_landed ? ":" open_list : "")
	}
}
