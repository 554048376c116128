# scripts/threat-model.awk - docs/threat-model.md.in filled in
# (scripts/threat-model.sh says with what).  Loaded after scripts/kernels.awk,
# scripts/result.awk and scripts/expect.awk; its variables: registry,
# expected (attacks/expected.tsv), results (the run's directory), table (the
# side-by-side table), sections (the directory of the real JITs' sections,
# one file each, named after the JIT).
#   @ATTACK_TABLE@  that file, on a line of its own
#   @REALJIT NAME@  the real JIT NAME's section (realjit/summary.sh --jit
#                  NAME --section), on a line of its own
#   @HOLES K@      the reasons of the table's LANDED rows that can hold for
#                  kernel K under a sealing policy, one list item each
#   @LANDED K@     within a line: the scenarios measured LANDED on K under
#                  card or all (K-attacks.tap), or "none"
#   @KEY_COUNTS G...@  per report/scenario-groups.tsv group G, kernel
#                  (kernels: the run's) and key-space policy (keyonly,
#                  pkey): how many of its scenarios LANDED, were BLOCKED,
#                  mixed or not run in that run; one Markdown table
BEGIN {
	why = reg_load(registry)
	if (why == "") why = expect_load("attacks", expected)
	if (why != "") { print "threat-model: " why > "/dev/stderr"; exit 1 }
}
function file(path,   l) { while ((getline l < path) > 0) print l; close(path) }
function holes(k,   i, name, key, seen) {
	k = expect_as(k)
	for (i = 1; i <= exp_n["attacks"]; i++) {
		if (exp_outcome["attacks", i] != "LANDED" || exp_policy["attacks", i] == "none") continue
		if (exp_reason["attacks", i] == "" || exp_reason["attacks", i] == "-") continue
		if (k !~ glob_re(exp_kernel["attacks", i])) continue
		name = exp_name["attacks", i] (exp_origin["attacks", i] == "" ? "" : "@" exp_origin["attacks", i])
		key = name SUBSEP exp_reason["attacks", i]
		if (key in seen) continue
		seen[key] = 1
		printf "- `%s` (%s): %s\n", name, exp_policy["attacks", i] == "*" ? "any policy" : exp_policy["attacks", i], exp_reason["attacks", i]
	}
}
function landed(k,   path, line, n, i, j, t, list, seen, s) {
	path = results "/" k "-attacks.tap"
	n = 0
	while ((getline line < path) > 0) {
		if (!result_read(line) || result("kernel") != k || result("outcome") != "LANDED") continue
		if (result("policy") != "card" && result("policy") != "all") continue
		s = result("scenario")
		if (s in seen) continue
		seen[s] = 1; list[++n] = s
		for (i = n; i > 1 && list[i - 1] > list[i]; i--) { t = list[i]; list[i] = list[i - 1]; list[i - 1] = t }
	}
	close(path)
	s = ""
	for (j = 1; j <= n; j++) s = s (j > 1 ? ", " : "") "`" list[j] "`"
	return n ? s : "none"
}
# The scenarios of report/scenario-groups.tsv's group g, in its order;
# their count.  The group's title in gtitle[g].
function group_load(g,   line, f, n) {
	n = 0
	while ((getline line < groups) > 0) {
		if (line ~ /^#/ || line == "") continue
		split(line, f, "\t")
		if (f[1] == "group" && f[2] == g) gtitle[g] = f[3]
		else if (f[1] == g) gscen[g, ++n] = f[2]
	}
	close(groups)
	gcount[g] = n
	return n
}
# Per kernel (the run's, in order) and key-space policy, how many of each
# group's scenarios LANDED and were BLOCKED in every case, and how many
# were mixed (some cases of each) or not run: one Markdown table.
function key_counts(list,   gs, ng, i, j, p, k, kn, ks, path, line, s, o, key, n, cell, pol, npol, c, ok) {
	ng = split(list, gs, " ")
	kn = split(kernels, ks, " ")
	npol = split("keyonly pkey", pol, " ")
	split("", seen_o)
	for (j = 1; j <= kn; j++) {
		path = results "/" ks[j] "-attacks.tap"
		while ((getline line < path) > 0) {
			if (!result_read(line) || result("kernel") != ks[j]) continue
			o = result("outcome")
			key = ks[j] SUBSEP result("policy") SUBSEP result("scenario")
			if (!((key, o) in seen_o)) { seen_o[key, o] = 1; nout[key]++ }
			last_o[key] = o
		}
		close(path)
	}
	printf "| scenarios | policy |"
	for (j = 1; j <= kn; j++) printf " %s |", ks[j]
	printf "\n| --- | --- |"
	for (j = 1; j <= kn; j++) printf " --- |"
	printf "\n"
	for (i = 1; i <= ng; i++) {
		if (!group_load(gs[i])) { print "threat-model: no group " gs[i] " in " groups > "/dev/stderr"; exit 1 }
		for (p = 1; p <= npol; p++) {
			printf "| %s (%d) | %s |", gtitle[gs[i]], gcount[gs[i]], pol[p]
			for (j = 1; j <= kn; j++) {
				split("", c)
				for (n = 1; n <= gcount[gs[i]]; n++) {
					key = ks[j] SUBSEP pol[p] SUBSEP gscen[gs[i], n]
					if (!(key in nout)) c["not run"]++
					else if (nout[key] > 1) c["mixed"]++
					else c[last_o[key]]++
				}
				cell = ""
				split("LANDED BLOCKED ERROR mixed", ok, " ")
				ok[5] = "not run"
				for (k = 1; k <= 5; k++)
					if (c[ok[k]]) cell = cell (cell == "" ? "" : ", ") c[ok[k]] " " ok[k]
				printf " %s |", cell
			}
			printf "\n"
		}
	}
}
$0 == "@ATTACK_TABLE@" { file(table); next }
$1 == "@KEY_COUNTS" && $NF ~ /@$/ { l = $0; sub(/^@KEY_COUNTS /, "", l); sub(/@$/, "", l); key_counts(l); next }
$1 == "@REALJIT" && NF == 2 && $2 ~ /@$/ { k = $2; sub(/@$/, "", k); file(sections "/" k); next }
$1 == "@HOLES" && NF == 2 && $2 ~ /@$/ { k = $2; sub(/@$/, "", k); holes(k); next }
{
	while (match($0, /@LANDED [a-z0-9_-]+@/)) {
		k = substr($0, RSTART + 8, RLENGTH - 9)
		$0 = substr($0, 1, RSTART - 1) landed(k) substr($0, RSTART + RLENGTH)
	}
	print
}
