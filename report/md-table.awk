# report/md-table.awk - a Markdown file of tables and paragraphs (realjit/cost.sh's
# luajit-pkey-cost.md) as HTML: "| a | b |" rows as a table (the first row
# its header, the "| --- |" row dropped), other text as paragraphs.
#   awk -f md-table.awk FILE.md
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
function code(s) { s = esc(s); while (match(s, /`[^`]*`/)) s = substr(s, 1, RSTART - 1) "<code>" substr(s, RSTART + 1, RLENGTH - 2) "</code>" substr(s, RSTART + RLENGTH); return s }
function end_para() { if (para != "") print "<p>" code(para) "</p>"; para = "" }
function end_table() { if (rows) print "</tbody></table></div>"; rows = 0 }
/^\|/ {
	end_para()
	if ($0 ~ /^\|( *-+ *\|)+ *$/) next
	n = split($0, c, "|")
	tag = rows ? "td" : "th"
	if (!rows) print "<div class=\"scroll\"><table class=\"jit\"><thead>"
	line = "<tr>"
	for (i = 2; i < n; i++) { v = c[i]; gsub(/^ +| +$/, "", v); line = line "<" tag ">" code(v) "</" tag ">" }
	print line "</tr>"
	if (!rows) print "</thead><tbody>"
	rows++
	next
}
/^$/ { end_table(); end_para(); next }
{ end_table(); para = para (para == "" ? "" : " ") $0 }
END { end_table(); end_para() }
