# shellcheck shell=bash
# shellcheck disable=SC2034 # a profile: read by realjit/ when it sources it
# realjit/luajit/luajit-pkey.profile - LuaJIT built from Debian's source with
# realjit/luajit/series/ (W^X by a protection key), as realjit/ runs it: LuaJIT's
# profile, its own tables and fast attacks, and two requirements of its
# results.
# shellcheck source=realjit/luajit/luajit.profile
. "$RJ_HOME/luajit.profile"
RJ_TITLE="LuaJIT with realjit/luajit/series/"
RJ_TABLE_W=$RJ_HOME/expected-pkey-workloads.tsv
RJ_TABLE_A=$RJ_HOME/expected-pkey-attacks.tsv
RJ_FAST_ATTACKS=(pkey-mprotect-rwx proc-mem-write munmap-mmap)
# Every workload that ran kept its code W^X by the key (jit.util.mcodeinfo()
# at lua_close(), guest/mcodeinfo.lua), and every attacked area was under a
# key (smaps' ProtectionKey): KIND OUTCOME FIELD REGEX WHY.
RJ_REQUIRE=(
	"workload RAN mcode ^pkey$ the code was not kept W^X by a protection key"
	"attack * pkey ^[1-9][0-9]*$ the attacked area was under no protection key"
)
RJ_TEST_TARGET="make test-luajit-pkey"
# its LuaJIT is built from source with the series (make luajit-series-bin)
RJ_MAKE_NEEDS=luajit-series-bin
RJ_COST_MD=luajit-pkey-cost.md
RJ_COST_HEADING="What the series costs, in guest instructions (make luajit-pkey-cost)"
LJ_FLAVOR=pkey
RJ_PAGE_INTRO=$RJ_HOME/page-pkey.html
# ... with a legend of its own, and what the series costs.
RJ_PAGE_LEGEND='<span><span class="sw blocked">SIGSEGV</span>BLOCKED by the key: the attacker&#39;s store into the code faulted (caught in the attacking thread, with its rights, PKRU included)</span>'
RJ_PAGE_COST=yes

rj_section_intro() {
	cat <<'INTRO'
### The patched LuaJIT, measured

The same guests, workloads, attacks, policies and seal-on-exec library as
Debian's LuaJIT above, with LuaJIT built from Debian's source package and
realjit/luajit/series/ (`realjit/matrix.sh --jit luajit-pkey`; `make luajit-attacks`).
Every RAN workload also kept its code W^X by the key
(`jit.util.mcodeinfo()` at `lua_close()`), and every attacked area was
under a key (smaps' `ProtectionKey`).  SIGSEGV: the attacker's store into
the code faulted on the key (caught in the attacking thread, with its
rights, PKRU included).

INTRO
}
