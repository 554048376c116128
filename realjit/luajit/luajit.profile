# shellcheck shell=bash
# shellcheck disable=SC2034 # a profile: read by realjit/ when it sources it
# realjit/luajit/luajit.profile - Debian's LuaJIT, unmodified, as realjit/ runs it
# (realjit/README.md: what a profile sets).  luajit-pkey.profile and
# luajit-plain.profile are the same LuaJIT built from Debian's source by
# realjit/luajit/series/build.sh, with and without the series.
RJ_PROGRAM=LuaJIT
RJ_TITLE="unmodified LuaJIT"
RJ_PROCESS=luajit
RJ_ATTACK_TARGET="a hot trace's machine code"
RJ_EXT=lua
RJ_ATTACKER=$RJ_HOME/attack/attack.lua
RJ_TABLE_W=$RJ_HOME/expected-workloads.tsv
RJ_TABLE_A=$RJ_HOME/expected-attacks.tsv
RJ_FAST_WORKLOADS=(hotloop flush)
RJ_FAST_ATTACKS=(mprotect-rw mremap-move munmap-mmap madvise-dontneed)
RJ_FAST_CONTROLS=every
# Its own stop: the panic "runtime code generation failed" (abort=codegen,
# guest/jit.sh), exit status 1.
RJ_ABORT_STATUS=1
RJ_ABORT_WANT='status 1 after "runtime code generation failed"'
RJ_TEST_TARGET="make test-luajit"
RJ_FULL_TARGET="make luajit-attacks"
RJ_SUMMARY_AWK=$RJ_HOME/summary.awk
RJ_COST_MD=luajit-cost.md
RJ_COST_HEADING="What pin costs, in guest instructions"
# Which build: debian (as installed), plain or pkey (realjit/luajit/series/build.sh).
LJ_FLAVOR=debian
# The report page's section (report/report.sh): its words before the answer.
RJ_PAGE_INTRO=$RJ_HOME/page.html

# rj_list_attacks [LUAJIT...]: attack.lua's scenarios, one a line.
rj_list_attacks() { "${@:-luajit}" "$RJ_ATTACKER" --list; }

# rj_package DIR: LuaJIT's part of the guest package (guest/bundle.sh's
# bundle as jit/, guest/jit.sh, the workloads, the attacker, demo.sh,
# mcodeinfo.lua, and the flavor).
rj_package() {
	local binary=luajit
	if [ "$LJ_FLAVOR" != debian ]; then
		"$RJ_HOME/series/build.sh" "$LJ_FLAVOR" >&2 || return 1
		binary=$RJ_TOP/build/luajit-series/$LJ_FLAVOR/luajit
	fi
	"$RJ_TOP/guest/bundle.sh" "$binary" "$1/jit" || return 1
	echo "$LJ_FLAVOR" >"$1/flavor"
	cp "$RJ_HOME/guest/jit.sh" "$RJ_HOME/guest/demo.sh" "$RJ_HOME/guest/mcodeinfo.lua" "$RJ_ATTACKER" "$1/" &&
		cp -r "$RJ_HOME/workloads" "$1/"
}

# The threat model's section (summary.sh --section), before its tables.
rj_section_intro() {
	cat <<'INTRO'
## A JIT nobody here wrote

jitdemo was written to fit the seal.  Debian's `luajit` (2.1.0-beta3) was
not: here it runs unmodified, with `libsealjit-preload.so` (realjit/)
loaded before it, which seals each machine-code area the first time
LuaJIT makes it executable, under `SEALJIT_SEAL_POLICY`: `none`, `pin`
(`MM_SEAL_MUNMAP|MM_SEAL_MMAP|MM_SEAL_MREMAP`: the area stays put, its
permissions stay free), `card`, `all`, or `upstream` (`types == 0`).
LuaJIT maps each area read-write, makes the whole area read-write again
before every trace it adds (and an older area, to patch a parent trace's
exit), read-execute after it, and munmaps every area on `jit.flush()`,
when its areas reach `-Omaxmcode`, and at exit.  The tables are generated
from a run of `make luajit-attacks` (realjit/matrix.sh --jit luajit).

INTRO
}
