# realjit/judge.awk - realjit/judge.sh's judge: TAP for one kernel's run
# of one JIT (judge.sh says what each test asks).  Loaded after
# scripts/kernels.awk, scripts/result.awk and scripts/expect.awk, with the
# variables judge.sh passes from the JIT's profile: check (yes: its tables
# have a check column), program, own_abort, abort_status, abort_want, and
# require (its RJ_REQUIRE rules, one a line: KIND OUTCOME FIELD REGEX WHY).
# The tables, read by scripts/expect.awk; a malformed one bails out.
function load(file, kind,   why) {
	if (check == "yes") exp_has_check[kind] = 1
	why = expect_load(kind, file)
	if (why != "") { print "Bail out! malformed " why; exit 2 }
}
# The row scripts/expect.awk matches: "outcome<TAB>errno<TAB>reason<TAB>check",
# or "".
function expected(kind, name, policy,   i) {
	i = expect_match(kind, name, policy, kernel, "")
	return i ? exp_outcome[kind, i] "\t" exp_errno[kind, i] "\t" exp_reason[kind, i] "\t" exp_check[kind, i] : ""
}
# The first of the profile's rules that KIND's result GOT breaks: its WHY
# and the field's value, or "".
function broken_rule(kind, o, got,   i, r, w, v, why) {
	for (i = 1; i <= nrules; i++) {
		split(rules[i], w, " ")
		if (w[1] != kind || (w[2] != "*" && w[2] != o)) continue
		v = result_of(got, w[3])
		if (v ~ w[4]) continue
		why = rules[i]; sub(/^[^ ]+ [^ ]+ [^ ]+ [^ ]+ /, "", why)
		return why " (" w[3] "=" v ")"
	}
	return ""
}
function number(v) { return v ~ /^[0-9]+$/ }
# Why a result that has the expected outcome still fails, or "".
function fault(kind, policy, got, want,   e, o, areas, sealed, refused, broken) {
	split(want, e, "\t")
	o = result_of(got, "outcome")
	if (o != e[1]) return "not the expected outcome"
	if (o == "UNAVAILABLE")
		return result_of(got, "errno") != e[2] ? "not the expected probe result" : \
			result_of(got, "status") != "3" ? "status " result_of(got, "status") ", not the library's 3" : ""
	if (o == "RAN" && result_of(got, "status") != "0") return "status " result_of(got, "status") ", not 0"
	areas = result_of(got, "areas"); sealed = result_of(got, "sealed"); refused = result_of(got, "refused_mseal")
	if (o == "UNSEALED") {
		if (result_of(got, "errno") != e[2]) return "not the expected mseal errno"
		return number(areas) && areas + 0 >= 1 && sealed == "0" && refused == areas ? "" : \
			"not every area refused (areas=" areas " sealed=" sealed " refused_mseal=" refused ")"
	}
	if (o == "ABORTED") {
		if (result_of(got, "errno") != e[2]) return "not the expected errno"
		if (result_of(got, "abort") != own_abort || (abort_status != "" && result_of(got, "status") != abort_status))
			return "not " program "'s own abort (status " result_of(got, "status") " abort=" result_of(got, "abort") \
				"; wanted " abort_want ")"
		if (e[4] != "-" && index(result_of(got, "detail"), e[4]) == 0)
			return program "'s words do not name the expected operation (" e[4] ")"
	}
	if (o == "BLOCKED") {
		if (result_of(got, "errno") != e[2]) return "not the expected errno"
		if (result_of(got, "rerun") != "ok") return "the attacked code, run again, did not return the right value"
	}
	# the policy was applied to the code the JIT made
	if (!number(areas) || !number(sealed) || !number(refused))
		return "the library's counts are missing (areas=" areas " sealed=" sealed " refused_mseal=" refused ")"
	if (areas + 0 < 1) return "no machine code made executable (areas=0)"
	broken = broken_rule(kind, o, got)
	if (broken != "") return broken
	if (policy == "none") return sealed + 0 != 0 ? "none sealed " sealed " areas" : ""
	if (refused + 0 != 0) return "the kernel refused " refused " mseal calls"
	if (sealed + 0 != areas + 0) return "sealed " sealed " of " areas " areas"
	return ""
}
function last_value(prefix,   line, v) {
	v = ""
	while ((getline line < out) > 0) {
		sub(/\r$/, "", line)
		if (index(line, prefix) == 1) v = substr(line, length(prefix) + 1)
	}
	close(out)
	return v
}
BEGIN {
	why = reg_load(registry)
	if (why != "") { print "Bail out! " why; exit 2 }
	load(wtsv, "workload"); load(atsv, "attack")
	nrules = split(require, rules, "\n")
	while ((getline line < out) > 0)
		if (result_read(line))
			got_line[result("kind"), result("name"), result("policy")] = line
	close(out)
	n = 0; listed = ""
	while ((getline line < cases) > 0) {
		listed = listed line "\n"
		split(line, c, " ")
		if (c[1] == "") continue
		order[++n] = c[1] SUBSEP c[2] SUBSEP c[3]
		label[n] = kernel " " c[1] " " c[2] " " c[3]
		kindof[n] = c[1]; nameof[n] = c[2]; policyof[n] = c[3]
	}
	nwant = 0; wanted = ""
	while ((getline line < want_cases) > 0) { wanted = wanted line "\n"; nwant++ }
	printf "TAP version 13\n1..%d\n# realjit-matrix mode=%s\n", n + 2, mode
	bad = 0
	for (i = 1; i <= n; i++) {
		want = expected(kindof[i], nameof[i], policyof[i])
		got = (order[i] in got_line) ? got_line[order[i]] : ""
		split(want, e, "\t")
		if (want == "") { ok = 0; why = "no row of the expected table matches" }
		else if (got == "") { ok = 0; why = "no result (the guest died or the case hung)" }
		else {
			f = fault(kindof[i], policyof[i], got, want)
			ok = (f == "")
			why = result_of(got, "outcome") " " result_of(got, "errno")
			if (kindof[i] == "attack") why = why " rerun=" result_of(got, "rerun")
			why = why " (expected " e[1] " " e[2] ")" (ok ? "" : ": " f)
		}
		printf "%sok %d - %s: %s\n", ok ? "" : "not ", i, label[i], why
		if (got != "") print got
		if (!ok && e[3] != "") print "# expected because: " e[3]
		bad += !ok
	}
	# the run as a whole
	ok = (listed == wanted)
	printf "%sok %d - %s run: the %s mode's %d cases (%s)%s\n", ok ? "" : "not ", n + 1, kernel, mode, nwant,
		mode_words, ok ? "" : ": the case list has " n ", not that list"
	bad += !ok
	done_n = last_value("# cases-done "); rc = last_value("# guest/run exit ")
	ok = (done_n == n "" && rc == "0")
	printf "%sok %d - %s run: the guest ran to the end (cases-done %s of %d, guest/run exit %s)\n",
		ok ? "" : "not ", n + 2, kernel, done_n == "" ? "none" : done_n, n, rc == "" ? "none" : rc
	bad += !ok
	exit bad > 0
}