# realjit/luajit/summary.awk - LuaJIT's own part of realjit/summary.sh's Markdown
# (the profile's RJ_SUMMARY_AWK; realjit/summary.awk says what each hook is
# for): what the policies that ran sealed and could never free, and, for
# realjit/luajit/series/' LuaJIT (its results carry reused_bytes), the flushed bytes
# it reused.
function jit_result() {
	if (result("kind") == "workload" && result("reused_bytes") != "" && result("reused_bytes") != "-") keyed = 1
}
function jit_workload_legend() {
	print "RAN: exit 0, machine code made executable, output identical to `luajit -joff`."
	print "aborted ERRNO: LuaJIT stopped; ERRNO is the first call the kernel refused it."
}
function jit_section(   a, b, i, key, r) {
	print "### What the policies that ran sealed, and what they could never free"
	print ""
	print "| kernel | policy | workload | areas sealed | sealed bytes | mprotects RW / RX on areas | RW of an older area (exit patches) | munmaps refused | bytes never freed |" \
		(keyed ? " flushed bytes reused | sealed bytes never reused |" : "")
	print "| --- | --- | --- | --- | --- | --- | --- | --- | --- |" (keyed ? " --- | --- |" : "")
	for (a = 1; a <= nk; a++) for (b = 2; b <= np; b++) for (i = 1; i <= nw; i++) {
		key = "workload" SUBSEP wl[i] SUBSEP ks[a] SUBSEP ps[b]
		if (!(key in res) || result_of(res[key], "outcome") != "RAN") continue
		r = res[key]
		printf "| %s | %s | %s | %s | %s | %s / %s | %s | %s | %s |", ks[a], ps[b], wl[i],
			result_of(r, "sealed"), human(result_of(r, "sealed_bytes")),
			result_of(r, "write_protects"), result_of(r, "exec_protects"),
			result_of(r, "old_area_patches"),
			result_of(r, "refused_munmap"), human(result_of(r, "unfreed_bytes"))
		if (keyed) printf " %s | %s |", human(result_of(r, "reused_bytes")), human(result_of(r, "retired_bytes"))
		printf "\n"
	}
	print ""
	print "munmaps refused include lua_close()'s at exit (one per area still in LuaJIT's list); the"
	print "rest are jit.flush() and the flush LuaJIT does itself when its areas reach -Omaxmcode."
	if (!keyed) {
		print "LuaJIT ignores a failed munmap (mcode_free returns nothing), so the bytes stay mapped, sealed"
		print "r-x, for the life of the process."
	} else {
		print "bytes never freed counts every refused munmap, once per refusal.  The patched LuaJIT keeps"
		print "each area a flush could not unmap, filled with INT3, and makes its next area of that size"
		print "there: flushed bytes reused is what it made there, sealed bytes never reused what was left"
		print "unused when the workload ended (jit.util.mcodeinfo() at lua_close())."
	}
	print ""
}
function jit_attack_legend() {
	print "LANDED: the code, its place, permissions or pages changed; LANDED*: and LuaJIT then ran the"
	print "attacker's bytes (exit 65).  EACCES, EPERM: BLOCKED with that errno, nothing changed, the trace"
	print "still returns the right value."
}
