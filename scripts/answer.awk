# scripts/answer.awk - the answer of a real JIT's run, per kernel: the
# strongest policy under which the JIT ran every workload of the run, which
# of the attacks the run tried under that policy land, and which stronger
# policies the kernel refused to apply (a workload UNSEALED: the library's
# seal refused, so the JIT ran unsealed, which is not running under them).
# One owner for realjit/summary.sh (from the .out files) and
# report/realjit-answer.awk (from the page's cells).  The caller fills
#   ans_outcome[KERNEL, POLICY, NAME]  the case's outcome (RAN, LANDED, ...)
#   ans_kind[NAME]                     "workload" or "attack"
#   ans_name[1..ans_n]                 every name, in the order to list them
# and calls answer(KERNEL), which sets
#   ans_best     the policy, "" when none ran every workload (not even none)
#   ans_tried    how many attacks the run tried under it on KERNEL
#   ans_landed   how many of those LANDED; ans_land[1..ans_landed] their names
#   ans_unsealed how many stronger policies had a workload UNSEALED;
#                ans_unsealed_policy[1..ans_unsealed] which, strongest first
# A policy counts only if every workload of the run was tried under it and
# RAN.  Policies from strongest: all, upstream, card, pin, none.
function answer(k,   strength, ns, s, p, i, nw, all_ran, unsealed) {
	ns = split("all upstream card pin none", strength, " ")
	ans_best = ""; ans_tried = 0; ans_landed = 0; ans_unsealed = 0
	for (s = 1; s <= ns && ans_best == ""; s++) {
		p = strength[s]; nw = 0; all_ran = 1; unsealed = 0
		for (i = 1; i <= ans_n; i++) {
			if (ans_kind[ans_name[i]] != "workload") continue
			nw++
			if (!((k, p, ans_name[i]) in ans_outcome) || ans_outcome[k, p, ans_name[i]] != "RAN") all_ran = 0
			if (((k, p, ans_name[i]) in ans_outcome) && ans_outcome[k, p, ans_name[i]] == "UNSEALED") unsealed = 1
		}
		if (nw > 0 && all_ran) ans_best = p
		else if (unsealed) ans_unsealed_policy[++ans_unsealed] = p
	}
	if (ans_best == "") return
	for (i = 1; i <= ans_n; i++) {
		if (ans_kind[ans_name[i]] != "attack" || !((k, ans_best, ans_name[i]) in ans_outcome)) continue
		ans_tried++
		if (ans_outcome[k, ans_best, ans_name[i]] == "LANDED") ans_land[++ans_landed] = ans_name[i]
	}
}
