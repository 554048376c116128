# scripts/kernels.awk - the one reader of kernel/kernels.tsv, the registry.
# Every program that needs a fact about a kernel loads the registry with
# it (awk -f scripts/kernels.awk -f PROGRAM.awk); the shell and Make ask
# kernel/kernels, which is this file behind a command line.
#
# reg_load(FILE) reads the registry and checks every row; it returns "" or
# the first problem, "FILE:LINE: what".  It fills
#   reg_n, reg_name[1..reg_n]   every kernel, in the file's order
#   reg[NAME, COLUMN]           every cell (COLUMN: a header name)
#   reg_debug[NAME]             1 for a debug kernel (another row's debug
#                               twin), 0 for the others, the main kernels
#   reg_columns                 the header line's names, space-separated
# The columns and what each may hold are kernel/kernels.tsv's comments.

function reg_fail(file, line, what) {
	return file ":" line ": " what
}

# "" when VALUE is one of the space-separated WORDS.
function reg_one_of(column, value, words,   w, n, i) {
	n = split(words, w, " ")
	for (i = 1; i <= n; i++) if (value == w[i]) return ""
	return column " is '" value "', not one of: " words
}

# "" when VALUE is -, or a comma list of distinct WORDS.
function reg_some_of(column, value, words,   v, n, i, why, seen) {
	if (value == "-") return ""
	n = split(value, v, ",")
	for (i = 1; i <= n; i++) {
		why = reg_one_of(column, v[i], words)
		if (why != "") return why
		if (v[i] in seen) return column " names " v[i] " twice"
		seen[v[i]] = 1
	}
	return ""
}

# What is wrong with one cell, or "" (references to other rows wait for
# the whole file: reg_check_links).
function reg_check_cell(column, value) {
	if (value == "") return column " is empty (write - for none)"
	if (column == "kernel" || column == "as")
		return value ~ /^[a-z0-9][a-z0-9_-]*$/ ? "" : column " '" value "' is not a name of [a-z0-9_-]"
	if (column == "source")
		return value ~ /^[0-9]+\.[0-9]+$/ ? "" : "source '" value "' is not a version X.Y"
	if (column == "series")
		return value ~ /^(-|[0-9]+\.[0-9]+(:[0-9]+-[0-9]+)?)$/ ? "" : "series '" value "' is not -, SERIES or SERIES:N-M"
	if (column == "fragments")
		return value ~ /^(-|[a-z0-9_-]+(,[a-z0-9_-]+)*)$/ ? "" : "fragments '" value "' is not - or NAME,NAME"
	if (column == "abi") return reg_one_of(column, value, "none types upstream")
	if (column == "errno")
		return value ~ /^(-|E[A-Z0-9]+)$/ ? "" : "errno '" value "' is not - or a name like EPERM"
	if (column == "smaps") return reg_one_of(column, value, "none seals sl")
	if (column == "sysmap" || column == "merge") return reg_one_of(column, value, "yes no")
	if (column == "peer") return reg_some_of(column, value, "unchanged types")
	if (column == "model") return reg_one_of(column, value, "- series upstream")
	return ""
}

# The checks that need every row: what base and debug name exists, and
# what depends on another column of the same row.
function reg_check_links(file,   i, k, b) {
	for (i = 1; i <= reg_n; i++) {
		k = reg_name[i]
		b = reg[k, "base"]; sub(/^~/, "", b)
		if (b != "-" && !((b, "kernel") in reg)) return reg_fail(file, reg_line[k], "base " reg[k, "base"] " is no kernel of the registry")
		if (b == k) return reg_fail(file, reg_line[k], "a kernel is not its own base")
		b = reg[k, "debug"]
		if (b != "-") {
			if (!((b, "kernel") in reg)) return reg_fail(file, reg_line[k], "debug twin " b " is no kernel of the registry")
			if (reg[b, "debug"] != "-") return reg_fail(file, reg_line[k], "debug twin " b " has a debug twin of its own")
			reg_debug[b] = 1
		}
		if ((reg[k, "abi"] == "none") != (reg[k, "errno"] == "-"))
			return reg_fail(file, reg_line[k], "errno is - exactly when abi is none")
		if (index("," reg[k, "peer"] ",", ",types,") && reg[k, "abi"] != "types")
			return reg_fail(file, reg_line[k], "peer types needs abi types: only the RFC's call seals with types")
		if (reg[k, "abi"] == "none" && (reg[k, "peer"] != "-" || reg[k, "model"] != "-"))
			return reg_fail(file, reg_line[k], "a kernel without mseal() has no peer selftest and no model")
	}
	return ""
}

function reg_load(file,   line, f, n, i, why, k, want, lineno, header) {
	reg_n = 0; split("", reg); split("", reg_name); split("", reg_debug); split("", reg_line)
	want = "kernel short base source series fragments abi errno smaps sysmap merge peer model debug as description"
	lineno = 0; header = 0
	while ((why = (getline line < file)) > 0) {
		lineno++
		if (line ~ /^#/ || line == "") continue
		n = split(line, f, "\t")
		if (!header) {
			reg_columns = ""
			for (i = 1; i <= n; i++) { reg_col[i] = f[i]; reg_columns = reg_columns (i > 1 ? " " : "") f[i] }
			reg_ncol = n
			if (reg_columns != want) {
				close(file)
				return reg_fail(file, lineno, "the header names the columns '" reg_columns "', not '" want "'")
			}
			header = 1
			continue
		}
		if (n != reg_ncol) { close(file); return reg_fail(file, lineno, n " tab-separated fields, not " reg_ncol) }
		k = f[1]
		if ((k, "kernel") in reg) { close(file); return reg_fail(file, lineno, "a second row for " k) }
		for (i = 1; i <= n; i++) {
			why = reg_check_cell(reg_col[i], f[i])
			if (why != "") { close(file); return reg_fail(file, lineno, why) }
			reg[k, reg_col[i]] = f[i]
		}
		reg_name[++reg_n] = k; reg_line[k] = lineno; reg_debug[k] = 0
	}
	close(file)
	if (why < 0) return file ": cannot read it"
	if (!header) return file ": no header line"
	if (reg_n == 0) return file ": no kernel"
	return reg_check_links(file)
}

# The cell, for a kernel the caller knows is there.
function reg_get(k, column) { return reg[k, column] }

# 1 when K is in the registry.
function reg_has(k) { return (k, "kernel") in reg }

# The kernel K is compared with as the same kernel without this project's
# changes (its base, unless that is - or a different kernel, ~KERNEL), or "".
function reg_base(k,   b) {
	b = reg[k, "base"]
	return (b == "-" || b ~ /^~/) ? "" : b
}

# Does kernel K meet every condition of CONDS (space-separated
# COLUMN=VALUE, COLUMN!=VALUE)?  Besides the columns: set (main or debug);
# base.COLUMN, that column of K's base (reg_base; - when it has none);
# series=whole, a series applied whole; peer=BUILD, BUILD among its builds.
function reg_meets(k, conds,   c, n, i, col, val, neg, have, eq, of) {
	n = split(conds, c, " ")
	for (i = 1; i <= n; i++) {
		neg = index(c[i], "!=") > 0
		eq = neg ? index(c[i], "!=") : index(c[i], "=")
		col = substr(c[i], 1, eq - 1); val = substr(c[i], eq + (neg ? 2 : 1))
		of = k
		if (col ~ /^base\./) { of = reg_base(k); col = substr(col, 6) }
		if (of == "") have = "-"
		else if (col == "set") have = reg_debug[of] ? "debug" : "main"
		else have = reg[of, col]
		if (col == "series" && val == "whole") have = (have != "-" && have !~ /:/) ? "whole" : have
		if (col == "peer" && val != "-" && index("," have ",", "," val ",")) have = val
		if ((have == val) == neg) return 0
	}
	return 1
}

# The names of the kernels that meet CONDS, space-separated, in order.
function reg_names(conds,   i, out) {
	out = ""
	for (i = 1; i <= reg_n; i++)
		if (reg_meets(reg_name[i], conds)) out = out (out == "" ? "" : " ") reg_name[i]
	return out
}

# 1 when COLUMN is a column of the registry, or one reg_meets knows.
function reg_is_column(column) {
	sub(/^base\./, "", column)
	return column == "set" || index(" " reg_columns " ", " " column " ") > 0
}
