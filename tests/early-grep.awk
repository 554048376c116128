# tests/early-grep.awk - prints "FILE:LINE: TEXT" for each pipeline that
# ends in a grep which stops reading early (-q, -m): the writer before it
# can then die of SIGPIPE, and under "set -o pipefail" a pattern that
# matched reads as a failure, depending on timing.  Lines ending in a
# single "|" are joined with the next; comments and here-document bodies
# are skipped.  tests/shell-pipes.sh feeds it every shell script.
# Run with scripts/heredoc.awk.
FNR == 1 { held = ""; start = 0 }
heredoc_body($0) { next }
/^[ \t]*#/ { next }
{
	line = held == "" ? $0 : held " " $0
	if (!start) start = FNR
	if (line ~ /[^|]\|[ \t]*\\?$/) {
		sub(/\\$/, "", line)
		held = line
		next
	}
	if (line ~ /[^|]\|[ \t]*grep[ \t]+(-[^ \t]*[qm]|([^|]*[ \t])?--?(quiet|silent|max-count))/)
		print FILENAME ":" start ": " substr(line, 1, 120)
	held = ""
	start = 0
}
