# shellcheck shell=bash
# shellcheck disable=SC2034 # a profile: read by realjit/ when it sources it
# realjit/luajit/luajit-plain.profile - the control of luajit-pkey's cost: LuaJIT
# built from Debian's source by the same recipe, without the series
# (realjit/luajit/series/build.sh plain).  Measured for its cost only
# (realjit/cost.sh --jit luajit-plain --jit luajit-pkey): no tables.
# shellcheck source=realjit/luajit/luajit.profile
. "$RJ_HOME/luajit.profile"
RJ_TITLE="LuaJIT built from Debian's source without realjit/luajit/series/"
unset RJ_TABLE_W RJ_TABLE_A
LJ_FLAVOR=plain
RJ_MAKE_NEEDS=luajit-series-bin
