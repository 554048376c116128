# luajit/summary.awk - luajit/summary.sh's tables and answer, from the
# "# result" lines of KERNEL-luajit.out files (scripts/result.awk reads
# them; the answer is luajit/answer.awk's).  Loaded after
# kernel/kernels.awk, scripts/result.awk, scripts/expect.awk and answer.awk.
# A field of a result line (scripts/result.awk), before its detail.
function field(line, name) {
	result_read(line)
	return result(name)
}
# The reason expected-attacks.tsv gives (the row scripts/expect.awk matches).
function reason(name, policy, kernel,   i) {
	i = expect_match("attack", name, policy, kernel, "")
	return i ? exp_reason["attack", i] : "(no row in expected-attacks.tsv)"
}
function cell(line,   o, e) {
	o = field(line, "outcome"); e = field(line, "errno")
	if (o == "UNAVAILABLE") return "n/a"
	if (o == "ABORTED") return "aborted " e
	if (o == "BLOCKED") return e
	if (o == "LANDED" && field(line, "rerun") == "payload") return "LANDED*"
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
	if (why == "") why = expect_load("attack", atsv)
	if (why != "") { print "summary: " why > "/dev/stderr"; exit 1 }
	nk = split(kernels, ks, " ")
	np = split("none pin card all upstream", ps, " ")
}
result_read($0) {
	kind = result("kind"); name = result("name")
	key = kind SUBSEP name SUBSEP result("kernel") SUBSEP result("policy")
	res[key] = $0
	if (kind == "workload" && !(name in wseen)) { wseen[name] = 1; wl[++nw] = name }
	if (kind == "attack" && !(name in aseen)) { aseen[name] = 1; al[++na] = name }
	if (!(name in ans_kind)) { ans_kind[name] = kind; ans_name[++ans_n] = name }
	ans_outcome[result("kernel"), result("policy"), name] = result("outcome")
}
END {
	who = (jit == "pkey" ? "LuaJIT with luajit-series/" : "unmodified LuaJIT")
	print "### Workloads: did " who " run correctly?"
	print ""
	table("workload", wl, nw, "workload")
	print ""
	print "RAN: exit 0, machine code made executable, output identical to `luajit -joff`."
	print "aborted ERRNO: LuaJIT stopped; ERRNO is the first call the kernel refused it."
	print "n/a: the kernel cannot express the policy (the library refuses to start)."
	print ""
	print "### What the policies that ran sealed, and what they could never free"
	print ""
	extra = (jit == "pkey" ? " flushed bytes reused | sealed bytes never reused |" : "")
	print "| kernel | policy | workload | areas sealed | sealed bytes | mprotects RW / RX on areas | RW of an older area (exit patches) | munmaps refused | bytes never freed |" extra
	print "| --- | --- | --- | --- | --- | --- | --- | --- | --- |" (jit == "pkey" ? " --- | --- |" : "")
	for (a = 1; a <= nk; a++) for (b = 2; b <= np; b++) for (i = 1; i <= nw; i++) {
		key = "workload" SUBSEP wl[i] SUBSEP ks[a] SUBSEP ps[b]
		if (!(key in res) || field(res[key], "outcome") != "RAN") continue
		r = res[key]
		printf "| %s | %s | %s | %s | %s | %s / %s | %s | %s | %s |", ks[a], ps[b], wl[i],
			field(r, "sealed"), human(field(r, "sealed_bytes")),
			field(r, "write_protects"), field(r, "exec_protects"),
			field(r, "old_area_patches"),
			field(r, "refused_munmap"), human(field(r, "unfreed_bytes"))
		if (jit == "pkey")
			printf " %s | %s |", human(field(r, "reused_bytes")), human(field(r, "retired_bytes"))
		printf "\n"
	}
	print ""
	print "munmaps refused include lua_close()'s at exit (one per area still in LuaJIT's list); the"
	print "rest are jit.flush() and the flush LuaJIT does itself when its areas reach -Omaxmcode."
	if (jit != "pkey") {
		print "LuaJIT ignores a failed munmap (mcode_free returns nothing), so the bytes stay mapped, sealed"
		print "r-x, for the life of the process."
	} else {
		print "bytes never freed counts every refused munmap, once per refusal.  The patched LuaJIT keeps"
		print "each area a flush could not unmap, filled with INT3, and makes its next area of that size"
		print "there: flushed bytes reused is what it made there, sealed bytes never reused what was left"
		print "unused when the workload ended (jit.util.mcodeinfo() at lua_close())."
	}
	print ""
	print "### Attacks on a hot trace's machine code"
	print ""
	table("attack", al, na, "attack")
	print ""
	print "LANDED: the code, its place, permissions or pages changed; LANDED*: and LuaJIT then ran the"
	print "attacker's bytes (exit 65).  EACCES, EPERM: BLOCKED with that errno, nothing changed, the trace"
	print "still returns the right value.  n/a: the kernel cannot express the policy."
	print ""
	print "### The answer: the strongest policy LuaJIT survives, and what it leaves open"
	print ""
	for (a = 1; a <= nk; a++) {
		answer(ks[a])
		best = ans_best
		if (best == "") { printf "- **%s**: no policy ran every workload (not even none)\n", ks[a]; continue }
		open_list = ""
		for (i = 1; i <= ans_landed; i++)
			open_list = open_list "\n  - `" ans_land[i] "`" (best == "none" ? "" : ": " reason(ans_land[i], best, ks[a]))
		printf "- **%s**: `%s`; %d of the %d attacks tried under it land%s\n", ks[a], best, ans_landed, ans_tried,
			(best == "none" ? " (nothing is sealed)" : (ans_landed ? ":" open_list : ""))
	}
}