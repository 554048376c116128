# realjit/guest/report.awk - run-cases.sh's one reader of a case's files
# (busybox awk, in the guest), read once rather than by a grep or sed per
# field, each a process that a TCG guest takes milliseconds to start:
#   -v report=FILE  the library's report (realjit/preload/report.c)
#   -v end=WORD     the JIT's last report line (JIT_REPORT_END)
#   -v out=FILE     the JIT's stdout: the attacker's "attack" and "rerun
#                   value=" lines (optional)
#   -v err=FILE     the JIT's stderr (optional)
# Prints shell assignments for run-cases.sh to eval, every value quoted:
#   rep_start rep_end        1 when the report has a start line, an END line
#   rep_unavailable          1 when it says the policy "cannot be expressed"
#   rep_probe rep_error      its first "(probe=ERRNO)"; its first "error: "
#                            line's text
#   areas_all areas_sealed areas_refused   its area lines: made, sealed,
#                            refused their mseal ("-" without a start line)
#   refused_errno            the first refused mseal's ERRNO
#   refused_first refused_last   the first and last refused call, CALL/ERRNO
#                            ("-" without one)
#   sum_FIELD                FIELD's value on the last summary line that has
#                            it ("-" on none)
#   att_FIELD                outcome, errno, changed, pkey: from the first
#                            "attack scenario=" line that has it ("-")
#   att_seen att_detail      1 when there is an "attack scenario=" line;
#                            the first "attack " line
#   rerun_ok rerun_any       1 when a "rerun value=ok", any "rerun value="
#                            line
#   err_words                stderr's last two lines, joined (last_words)
function quote(s) {
	gsub(/'/, "'\"'\"'", s)
	return "'" s "'"
}

function set(name, value) { printf "%s=%s\n", name, quote(value) }

# words_into(LINE, ARRAY, FROM): each NAME=VALUE word of LINE from its
# FROMth word into ARRAY[NAME], the last of a repeated NAME
function words_into(line, seen, from,    n, w, i, eq) {
	n = split(line, w, " ")
	for (i = from; i <= n; i++) {
		eq = index(w[i], "=")
		if (eq > 1 && substr(w[i], 1, eq - 1) ~ /^[a-z_]+$/)
			seen[substr(w[i], 1, eq - 1)] = substr(w[i], eq + 1)
	}
}

function read_report(    line, body, n, w, refusals) {
	while ((getline line < report) > 0) {
		if (line ~ /cannot be expressed/)
			unavailable = 1
		if (probe == "" && match(line, /\(probe=[A-Z]*\)/))
			probe = substr(line, RSTART + 7, RLENGTH - 8)
		if (substr(line, 1, 17) != "sealjit-preload: ")
			continue
		body = substr(line, 18)
		n = split(body, w, " ")
		if (w[1] == "start" && n > 1)
			start = 1
		if (w[1] == end && n > 1)
			ended = 1
		if (w[1] == "error:" && error_text == "")
			error_text = substr(body, 8)
		if (w[1] == "area") {
			all++
			if (n == 5 && w[4] == "sealed" && w[5] == "-")
				sealed++
			if (w[4] == "not-sealed" && w[5] != "" && w[5] !~ /^-/) {
				refused++
				if (refused_errno == "" && n == 5 && w[5] ~ /^[A-Z0-9]+$/)
					refused_errno = w[5]
			}
		}
		if (w[1] == "refused" && n == 5 && w[2] ~ /^[a-z_]+$/ && w[5] ~ /^[A-Z0-9]+$/) {
			if (!refusals++)
				first_call = w[2] "/" w[5]
			last_call = w[2] "/" w[5]
		}
		if (w[1] == "summary")
			words_into(body, summary, 2)
	}
	close(report)
}

# the first "attack " line; each field from the first "attack scenario="
# line that has it; whether a rerun line says ok
function read_out(    line, name, here) {
	while ((getline line < out) > 0) {
		if (att_detail == "" && substr(line, 1, 7) == "attack ")
			att_detail = line
		if (substr(line, 1, 16) == "attack scenario=") {
			att_seen = 1
			split("", here)
			words_into(line, here, 1)
			for (name in here)
				if (!(name in attack))
					attack[name] = here[name]
		}
		if (substr(line, 1, 14) == "rerun value=ok")
			rerun_ok = 1
		if (substr(line, 1, 12) == "rerun value=")
			rerun_any = 1
	}
	close(out)
}

# the last two lines of FILE, joined by spaces, runs of spaces squeezed,
# cut to 160 characters (run-cases.sh's last_words)
function last_words(file,    line, one, two, s) {
	while ((getline line < file) > 0) {
		one = two
		two = line "\n"
	}
	close(file)
	s = one two
	gsub(/\n/, " ", s)
	gsub(/  +/, " ", s)
	return substr(s, 1, 160)
}

BEGIN {
	read_report()
	if (out != "")
		read_out()
	set("rep_start", start + 0)
	set("rep_end", ended + 0)
	set("rep_unavailable", unavailable + 0)
	set("rep_probe", probe)
	set("rep_error", error_text)
	set("areas_all", start ? all + 0 : "-")
	set("areas_sealed", start ? sealed + 0 : "-")
	set("areas_refused", start ? refused + 0 : "-")
	set("refused_errno", refused_errno)
	set("refused_first", first_call == "" ? "-" : first_call)
	set("refused_last", last_call == "" ? "-" : last_call)
	n = split("sealed_bytes exec_protects write_protects old_area_patches refused_mprotect " \
	      "refused_munmap refused_madvise refused_pkey_mprotect unfreed_bytes", fields, " ")
	for (i = 1; i <= n; i++)
		set("sum_" fields[i], fields[i] in summary ? summary[fields[i]] : "-")
	n = split("outcome errno changed pkey", fields, " ")
	for (i = 1; i <= n; i++)
		set("att_" fields[i], fields[i] in attack ? attack[fields[i]] : "-")
	set("att_seen", att_seen + 0)
	set("att_detail", att_detail)
	set("rerun_ok", rerun_ok + 0)
	set("rerun_any", rerun_any + 0)
	if (err != "")
		set("err_words", last_words(err))
}
