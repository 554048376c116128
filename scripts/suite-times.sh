#!/usr/bin/env bash
# scripts/suite-times.sh [RESULTS] - where make test's time went, from the
# times scripts/step-time.sh recorded in RESULTS/.times (default
# build/results): writes RESULTS/suite-times.tsv, every phase, step and
# suite with its wall time, its CPU time and its share, longest first,
# and prints the ten longest steps (each with its longest suites), the
# phases and how busy the cores were.
#
# make test's phases are the kernels, the programs and the steps; a step is one of make test's test-* targets (TEST_JOBS run at a time,
# from the environment: the Makefile's, one more than the cores); a suite
# is one TAP file tests/tap-run wrote inside it (a step's suites run one
# after another, or in the step's own guests side by side).  A share is of
# the steps' summed time, which is about TEST_JOBS times the wall time the
# steps took.  CPU is the seconds of CPU the command and what it
# waited for used (its guests' QEMU); on busy cores a step's wall time
# holds the others' work too, its CPU time only its own (- when it could
# not be read).  STATUS is the command's exit status; a step or suite
# that never ended has no line here (tests/tap-summary counts it failed).
# A suite of 0.0 s was split out of a boot's output, not run on its own
# (scripts/guest-parts.sh): it is in the table, not among the longest.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
results=${1:-${RESULTS:-$top/build/results}}
times=$results/.times
[ -s "$times" ] || { echo "suite-times: no times recorded in $times" >&2; exit 1; }
tsv=$results/suite-times.tsv
awk -F'\t' -v OFS='\t' '
	$1 == "step" { total += $4 }
	{ line[NR] = $0 }
	END {
		print "kind", "name", "step", "seconds", "cpu", "share", "status"
		for (i = 1; i <= NR; i++) {
			split(line[i], f, "\t")
			print f[1], f[2], f[3], f[4], f[6] == "" ? "-" : f[6],
				total && f[1] != "phase" ? sprintf("%.1f%%", 100 * f[4] / total) : "-", f[5]
		}
	}' "$times" | { IFS= read -r header; echo "$header"; sort -t$'\t' -k4,4gr; } >"$tsv.tmp" &&
	mv "$tsv.tmp" "$tsv"

awk -F'\t' -v jobs="${TEST_JOBS:-some}" '
	NR == 1 { next }
	$1 == "phase" { phases = phases sprintf("%s%s %.0f s", phases == "" ? "" : ", ", $2, $4); if ($2 == "steps") wall = $4 }
	$1 == "step" { nsteps++; total += $4; cpu += $5
		if (nsteps <= 10) { order[nsteps] = $2; secs[$2] = $4; used[$2] = $5; share[$2] = $6; st[$2] = $7 } }
	$1 == "suite" && $3 != $2 && $4 > 0 && n[$3] < 3 { n[$3]++; inside[$3] = inside[$3] sprintf("%s%s %.0f s", n[$3] > 1 ? ", " : "", $2, $4) }
	END {
		if (nsteps) {
			printf "make test: the longest steps (%d, %.0f s in all, %s at a time), with their longest suites:\n", nsteps, total, jobs
			for (i = 1; i in order; i++)
				printf "  %-22s %6.0f s %6s  cpu %4s s  %s%s\n", order[i], secs[order[i]], share[order[i]],
					used[order[i]] == "-" ? "-" : sprintf("%.0f", used[order[i]]),
					st[order[i]] == 0 ? "" : "[exit " st[order[i]] "] ", inside[order[i]]
		}
		if (phases != "") printf "phases (wall time): %s\n", phases
		if (wall > 0 && cpu > 0) printf "the steps used %.0f s of CPU in %.0f s: %.1f cores busy on average\n", cpu, wall, cpu / wall
	}' "$tsv"
echo "every step and suite: $tsv"
