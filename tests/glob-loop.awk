# tests/glob-loop.awk FILE... - prints FILE:LINE: TEXT for each loop over a
# glob ("for x in .../*.ext; do") in a test's shell script.  A glob that
# matches nothing gives back its pattern, so such a loop runs once on a
# file that is not there and fails with no word of why (or passes, when
# the body only reads).  The guarded form takes the files first:
#   set -- DIR/*.ext
#   tap_files WHAT "$@" && for x; do ...
# Run with scripts/heredoc.awk.
heredoc_body($0) { next }
/^[ \t]*for [A-Za-z_][A-Za-z0-9_]* in [^;]*[*?]/ && !/^[ \t]*#/ {
	print FILENAME ":" FNR ": " $0
}
