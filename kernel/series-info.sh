# kernel/series-info.sh - sourced: what each series under kernel-series/ is
# built on.  series_info NAME sets, for kernel-series/NAME/:
#   series_dir      its directory
#   series_source   the Debian linux-source tarball it applies to
#   series_base     the flavor built from that tarball unpatched (its
#                   pristine tree is where checkpatch.pl and patch -p1 run)
#   series_fragment the config fragment its kernels add (or empty)
#   series_nomseal  "yes" when the series adds CONFIG_MSEAL, so that it must
#                   also build with the option off
#   series_check    the flavor kernel/check-series.sh rebuilds patch by patch
# and returns 1 (with a message) for a name that is not a series.
series_names="6.1 6.12"

series_info() {
	local top
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	series_dir=$top/kernel-series/$1
	case $1 in
	6.1)
		series_source=/usr/src/linux-source-6.1.tar.xz
		series_base=vanilla
		series_fragment=$top/kernel/mseal.fragment
		series_nomseal=yes
		series_check=check
		;;
	6.12)
		series_source=/usr/src/linux-source-6.12.tar.xz
		series_base=upstream
		series_fragment=
		series_nomseal=no
		series_check=check-upstream
		;;
	*)
		echo "no such series: '$1' (series: $series_names)" >&2
		return 1
		;;
	esac
}

# series_patches: the patch files of $series_dir, cover letter left out.
series_patches() {
	local p
	for p in "$series_dir"/0*.patch; do
		case $p in */0000-*) ;; *) [ -f "$p" ] && echo "$p" ;; esac
	done
}
