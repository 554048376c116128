# scripts/progress.sh - shows where a long step is, sourced by the scripts
# that run one (kernel builds, long guest suites, the benchmark):
#
#   . scripts/progress.sh
#   progress_start LABEL TOTAL COMMAND [ARG...]
#   ... the long work ...
#   progress_stop
#
# While the work runs, COMMAND is asked every few seconds how much is done
# (it prints one whole number, optionally followed by words that say what
# is going on; DONE/TOTAL as the first word also says how much there is,
# and DONE/TOTAL/UNIT what is counted),
# and TOTAL says how much there is in all (empty when nobody knows;
# TOTAL/UNIT names what is counted).  On a terminal the line is redrawn in place;
# in a plain log (CI) a line is written every $PROGRESS_INTERVAL seconds
# (default 30).  Lines go to standard error (file descriptor
# $PROGRESS_FD when that is set), and look like
#   [progress] mseal: 812 of ~1650 objects, 2:41 elapsed, ~2:45 left
# The estimate is the elapsed time scaled by what is left, shown once a
# twentieth of TOTAL is done.  PROGRESS=0 in the environment silences it.

progress_pid=

# progress_line LABEL TOTAL UNIT DONE ELAPSED [DETAIL]: one report's text.
progress_line() {
	local label=$1 total=$2 unit=$3 done=$4 elapsed=$5 detail=${6:-} text
	text="$label: $done"
	[ -n "$total" ] && text="$text of ~$total"
	text="$text $unit, $(progress_clock "$elapsed") elapsed"
	if [ -n "$total" ] && [ "$done" -gt 0 ] && [ $((done * 20)) -ge "$total" ]; then
		if [ "$done" -lt "$total" ]; then
			text="$text, ~$(progress_clock $((elapsed * (total - done) / done))) left"
		else
			text="$text, finishing"
		fi
	fi
	[ -z "$detail" ] || text="$text; $detail"
	printf '%s' "$text"
}

progress_clock() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

# progress_start LABEL TOTAL[/UNIT] COMMAND [ARG...]
progress_start() {
	local label=$1 total=${2%%/*} unit=items
	case $2 in */*) unit=${2#*/} ;; esac
	shift 2
	progress_stop
	[ "${PROGRESS:-1}" != 0 ] || return 0
	case $total in 0 | *[!0-9]*) total= ;; esac
	local interval=${PROGRESS_INTERVAL:-30} live= fd=${PROGRESS_FD:-2}
	[ -t "$fd" ] && live=1 interval=2
	(
		# A display, not the work: nothing here may end it early, and
		# nothing about it may fail its caller (progress_stop).
		set +e
		exec 2>&"$fd"
		nap=
		trap 'kill $nap 2>/dev/null; exit 0' TERM
		start=$SECONDS
		while :; do
			sleep "$interval" &
			nap=$!
			wait "$nap"
			read -r done detail < <("$@" 2>/dev/null) || true
			now_total=$total
			now_unit=$unit
			case $done in */*/*) now_unit=${done##*/} done=${done%/*} ;; esac
			case $done in */*) now_total=${done#*/} done=${done%%/*} ;; esac
			case $done in '' | *[!0-9]*) done=0 ;; esac
			case $now_total in 0 | *[!0-9]*) now_total= ;; esac
			line=$(progress_line "$label" "$now_total" "$now_unit" "$done" \
				$((SECONDS - start)) "$detail")
			if [ -n "$live" ]; then
				printf '\r\033[K[progress] %s' "$line" >&2
			else
				printf '[progress] %s\n' "$line" >&2
			fi
		done
	) &
	progress_pid=$!
	progress_live=$live
	progress_fd=$fd
}

# Stopping the display never fails: a caller under set -e that stops one
# that already ended (its line written to a pipe that closed) goes on.
progress_stop() {
	[ -n "$progress_pid" ] || return 0
	kill "$progress_pid" 2>/dev/null || true
	wait "$progress_pid" 2>/dev/null || true
	progress_pid=
	[ -z "${progress_live:-}" ] || printf '\r\033[K' >&"$progress_fd" || true
}
