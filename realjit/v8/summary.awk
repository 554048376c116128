# realjit/v8/summary.awk - V8's own part of realjit/summary.sh's Markdown (the
# profile's RJ_SUMMARY_AWK; realjit/summary.awk says what each hook is
# for): V8's own words every time it stopped, which operation the kernel
# refused it.
function jit_result(   w, why) {
	if (result("outcome") != "ABORTED") return
	w = result("detail"); sub(/^V8 stopped before the attack: /, "", w)
	why = result("kernel") " " result("policy") ": " result("last_refused") " -> " w
	if (!(why in wordseen)) { wordseen[why] = 1; words[++nwords] = why; wordcases[why] = result("name") }
	else if (index(" " wordcases[why] " ", " " result("name") " ") == 0) wordcases[why] = wordcases[why] " " result("name")
}
function jit_workload_legend() {
	print "RAN: exit 0, code made executable, stdout identical to `node --jitless`, and the"
	print "workload's own line on stderr (the tier it reached, the engine that ran, the code space"
	print "shrinking).  aborted ERRNO: V8 stopped itself on a failed CHECK; ERRNO is that of the last"
	print "call the kernel refused it."
}
function jit_section(   i) {
	print "### What V8 said when it stopped"
	print ""
	for (i = 1; i <= nwords; i++) printf "- %s (%s)\n", words[i], wordcases[words[i]]
	if (nwords == 0) print "(V8 never stopped itself in this run.)"
	print ""
}
function jit_attack_legend() {
	print "LANDED: the code, its place, permissions or pages changed; LANDED*: and V8 then ran the"
	print "attacker's bytes (exit 65).  EACCES, EPERM, EIO: BLOCKED with that errno, nothing changed,"
	print "the function still returns the right value.  aborted: V8 stopped before the attack."
}
