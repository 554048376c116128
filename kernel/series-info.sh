# kernel/series-info.sh - sourced: what each series under kernel-series/ is
# built on, read from the registry (kernel/kernels.tsv): the kernels that
# carry a series whole say where it applies.  series_info NAME sets, for
# kernel-series/NAME/:
#   series_dir       its directory
#   series_source    the Debian linux-source tarball it applies to
#   series_base      the kernel built from that tarball unpatched, the
#                    first whole-series kernel's base (its pristine tree is
#                    where checkpatch.pl and patch -p1 run)
#   series_fragments the config fragments that kernel adds (an array)
#   series_nomseal   "yes" when the series adds mseal() (its base has none),
#                    so that it must also build with CONFIG_MSEAL off
#   series_check     the flavor kernel/check-series.sh rebuilds patch by
#                    patch: check-BASE
# and returns 1 (with a message) for a name that is not a series.
series_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
series_names=$("$series_top/kernel/kernels" series | paste -sd' ')

series_info() {
	local kernel args a
	series_dir=$series_top/kernel-series/$1
	case " $series_names " in
	*" $1 "*) ;;
	*) echo "no such series: '$1' (series: $series_names)" >&2; return 1 ;;
	esac
	kernel=$("$series_top/kernel/kernels" names --every "series=$1") || return 1
	kernel=${kernel%% *}
	[ -n "$kernel" ] || { echo "no kernel of kernel/kernels.tsv carries the whole series $1" >&2; return 1; }
	series_source=$("$series_top/kernel/kernels" tarball "$kernel") || return 1
	series_base=$("$series_top/kernel/kernels" get "$kernel" base) || return 1
	[ "$("$series_top/kernel/kernels" get "$series_base" abi)" = none ] &&
		series_nomseal=yes || series_nomseal=no
	series_check=check-$series_base
	series_fragments=()
	mapfile -t args < <("$series_top/kernel/kernels" build-args "$kernel")
	for a in "${!args[@]}"; do
		[ "${args[$a]}" = --fragment ] && series_fragments+=(--fragment "${args[$((a + 1))]}")
	done
	return 0
}

# series_patches: the patch files of $series_dir, cover letter left out.
series_patches() {
	local p
	for p in "$series_dir"/0*.patch; do
		case $p in */0000-*) ;; *) [ -f "$p" ] && echo "$p" ;; esac
	done
}
