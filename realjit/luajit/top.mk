# realjit/luajit/top.mk - what LuaJIT adds to the top Makefile beyond the
# targets every real JIT gets there (luajit-bin, test-luajit-host, and
# its profiles' test-luajit, test-luajit-pkey, luajit-attacks).
#
# series/, built from Debian's source package in the cache: its host tests
# (the series applies and builds, Debian's own tests, the no-PKU
# fallback), its tests in a guest with PKU on the kernel of the whole 6.1
# series (after test-luajit-pkey's fast subset), and what it costs: the
# patched LuaJIT against the unpatched, built alike (luajit-plain), in the
# same --icount boots, unsealed and sealed (3 boots a kernel).
LUAJIT_SERIES_KERNELS := $(foreach k,$(call where,main,abi,types),$(if $(filter yes,$(REG.$(k).whole)),$(k)))
REALJIT_BINS += luajit-series-bin
REALJIT_STEPS += test-luajit-series
REALJIT_EXPECTED += luajit-series-host $(addsuffix -luajit-series,$(LUAJIT_SERIES_KERNELS))
realjit_also.test-luajit-pkey = $(foreach k,$(LUAJIT_SERIES_KERNELS),tests/tap-run $(k)-luajit-series -- \
	realjit/luajit/series/tests/guest.sh $(k);)
.PHONY: luajit-series-bin test-luajit-series luajit-pkey-cost

luajit-series-bin: deps
	@realjit/luajit/series/build.sh

test-luajit-series: $(call built,luajit-series-bin realjit-bin)
	@tests/tap-run luajit-series-host -- realjit/luajit/series/tests/host.sh

luajit-pkey-cost: kernel guest realjit-bin luajit-series-bin
	@$(REALJIT_ENV) realjit/cost.sh --jit luajit-plain --jit luajit-pkey \
		--policies "bare none pin all upstream" $(KERNELS)
