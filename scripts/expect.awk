# scripts/expect.awk - the one matcher of the expected-result tables:
# attacks/expected.tsv and the real JITs' expected-{workloads,attacks}.tsv
# (realjit/luajit/, realjit/v8/).  Their rows are tab-separated NAME POLICY KERNEL OUTCOME
# ERRNO [REASON], or, in a table the caller says has a check column
# (exp_has_check[TABLE] = 1 before loading it: realjit/v8/'s), NAME POLICY KERNEL
# OUTCOME ERRNO CHECK [REASON], "#"
# comments and blank lines aside; NAME, POLICY and KERNEL are fnmatch(3)
# patterns (* ? [...]), NAME may end in @ORIGIN (the row holds for that
# origin only: self or child), and the FIRST row that matches a case wins.
# attacks/expect.c is its C twin, in the program the guest runs.  A KERNEL
# is matched by the name its registry row gives the tables (the as column:
# mseal-debug is judged as mseal), so scripts/kernels.awk is loaded first
# and the registry read (reg_load):
#   awk -f scripts/kernels.awk -f scripts/expect.awk -f PROGRAM.awk
#
# expect_load(TABLE, FILE) reads FILE as the table the caller calls TABLE;
# returns "" or "FILE:LINE: what is wrong".  Its rows: exp_n[TABLE], and for
# row i exp_name, exp_origin, exp_policy, exp_kernel, exp_outcome,
# exp_errno, exp_check ("-" without the column), exp_reason[TABLE, i].
# expect_match(TABLE, NAME, POLICY, KERNEL, ORIGIN) is the first row that
# matches the case (ORIGIN "" for a table without origins), 0 for none.
# expect_as(KERNEL) is the name the tables know KERNEL by.

# fnmatch(3) without flags, as a regular expression: * ? [...]
function glob_re(p,   out, i, ch) {
	out = "^"
	for (i = 1; i <= length(p); i++) {
		ch = substr(p, i, 1)
		if (ch == "*") out = out ".*"
		else if (ch == "?") out = out "."
		else if (ch == "[" || ch == "]") out = out ch
		else if (index("\\^$.|+(){}", ch)) out = out "\\" ch
		else out = out ch
	}
	return out "$"
}

function expect_load(t, file,   line, f, n, i, at, lineno, r, c) {
	exp_n[t] = 0
	lineno = 0
	c = (t in exp_has_check) ? 1 : 0
	while ((r = (getline line < file)) > 0) {
		lineno++
		if (line ~ /^#/ || line == "") continue
		n = split(line, f, "\t")
		if (n < 5 + c || n > 6 + c) {
			close(file)
			return file ":" lineno ": " n " tab-separated fields, not " 5 + c " or " 6 + c
		}
		i = ++exp_n[t]
		at = index(f[1], "@")
		exp_name[t, i] = at ? substr(f[1], 1, at - 1) : f[1]
		exp_origin[t, i] = at ? substr(f[1], at + 1) : ""
		exp_policy[t, i] = f[2]; exp_kernel[t, i] = f[3]
		exp_outcome[t, i] = f[4]; exp_errno[t, i] = f[5]
		exp_check[t, i] = c ? f[6] : "-"
		exp_reason[t, i] = (n == 6 + c) ? f[6 + c] : ""
	}
	close(file)
	if (r < 0) return file ": cannot read it"
	return ""
}

function expect_as(k) {
	return reg_has(k) ? reg_get(k, "as") : k
}

function expect_match(t, name, policy, kernel, origin,   i) {
	kernel = expect_as(kernel)
	for (i = 1; i <= exp_n[t]; i++) {
		if (exp_origin[t, i] != "" && exp_origin[t, i] != origin) continue
		if (name ~ glob_re(exp_name[t, i]) && policy ~ glob_re(exp_policy[t, i]) &&
		    kernel ~ glob_re(exp_kernel[t, i]))
			return i
	}
	return 0
}
