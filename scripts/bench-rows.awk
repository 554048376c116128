# scripts/bench-rows.awk - scripts/bench-kernel.sh's rows of one boot, from
# bench/guest-bench.sh's output (CASE<TAB>VALUE<TAB>UNIT<TAB>NOTE lines,
# "#" comments): kernel K, boot B, one row per case of CASES in that order,
# status ok (a number), n/a, error (anything else), or missing (no line).
#   awk -F'\t' -v k=K -v b=B -v cases="C..." -f scripts/bench-rows.awk OUTPUT
BEGIN { n = split(cases, order, " ") }
/^#/ || NF < 4 { next }
{
	status = $2 == "n/a" ? "n/a" : $2 ~ /^[0-9]+(\.[0-9]+)?$/ ? "ok" : "error"
	value = status == "ok" ? $2 : "-"
	row[$1] = k "\t" $1 "\t" b "\t" value "\t" $3 "\t" status "\t" $4
}
END {
	for (i = 1; i <= n; i++)
		if (order[i] in row)
			print row[order[i]]
		else
			print k "\t" order[i] "\t" b "\t-\t-\tmissing\tno output line"
}
