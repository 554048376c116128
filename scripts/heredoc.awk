# scripts/heredoc.awk - the awk library for scanners of shell scripts:
# heredoc_body() is 1 for a line inside a here-document's body (its text
# is data, not shell) and for the line that ends it, else 0; it notes
# the here-document a line opens.  Call it once per line, first; it
# starts afresh with each file.
function heredoc_body(line,    body) {
	if (FNR == 1)
		heredoc_end = ""
	if (heredoc_end != "") {
		body = line
		if (heredoc_strip)
			sub(/^\t+/, "", body)
		if (body == heredoc_end)
			heredoc_end = ""
		return 1
	}
	if (line !~ /^[ \t]*#/ && match(line, /<<-?[ \t]*['"]?[A-Za-z_][A-Za-z_0-9]*['"]?/)) {
		heredoc_end = substr(line, RSTART, RLENGTH)
		heredoc_strip = heredoc_end ~ /^<<-/
		gsub(/^<<-?[ \t]*|['"]/, "", heredoc_end)
	}
	return 0
}
