# report/scenario-text.awk - each scenario's words, from attacks/scenarios.c's
# table: "NAME<TAB>NARRATION<TAB>DESCRIPTION" (the strings of .name,
# .narration and .description, as `attacks --list` and --narrate print them).
#   awk -f report/scenario-text.awk attacks/scenarios.c
function str(line) {
	sub(/^[^"]*"/, "", line); sub(/",?[ \t]*$/, "", line)
	gsub(/\\"/, "\"", line)
	return line
}
/\.name = "/ { if (name != "") print name "\t" narr "\t" desc; name = str($0); narr = ""; desc = "" }
/\.narration = "/ { narr = str($0) }
/\.description = "/ { desc = str($0) }
END { if (name != "") print name "\t" narr "\t" desc }
