# sealjit: the mseal() RFC on Linux 6.1, a JIT that seals its code, and
# the attacks that sealing should stop.  See README.md.
#
#   make            build everything (kernels, guest, jitdemo)
#   make test       every test, host and guest; ends with "N passed, N failed"
#   make kernel     the guest kernels (cached outside the repository)
#   make selftest   the mseal selftest on every kernel
#   make bench-jit  the JIT against its interpreter, on the host
#   make fuzz       the assembler/verifier fuzz target, for a bounded time
#   make clean      remove build/ (the kernel cache stays; see README.md)

SHELL := /bin/bash
BUILD := $(CURDIR)/build
RESULTS := $(BUILD)/results
KERNELS := vanilla mseal
SERIES := $(filter-out kernel-series/0000-%,$(sort $(wildcard kernel-series/0*.patch)))
INITRAMFS := $(BUILD)/guest/base.cpio.gz
SELFTEST := $(BUILD)/kernels/mseal/mseal_test
JITDEMO := $(BUILD)/jitdemo/jitdemo-static
RUN := guest/run

# Every result file `make test` must produce; a missing one is a failure.
EXPECTED := series kernel-build guest-runner $(addsuffix -selftest,$(KERNELS)) \
	'jitdemo-*' $(addsuffix -jitdemo,$(KERNELS))

.PHONY: all deps kernel guest jitdemo selftest test test-steps test-series \
	test-kernel-build test-guest-runner test-jitdemo test-jitdemo-guest bench-jit fuzz clean

all: kernel guest jitdemo

jitdemo: deps
	@$(MAKE) --no-print-directory -C jitdemo all static

deps:
	@scripts/install-deps.sh

kernel: deps
	@kernel/build.sh vanilla
	@kernel/build.sh mseal $(SERIES)

guest: $(INITRAMFS)

$(INITRAMFS): guest/init guest/mkinitramfs.sh | deps
	@guest/mkinitramfs.sh $@

selftest: kernel guest
	@tests/tap-run mseal-selftest -- $(RUN) --add $(SELFTEST) mseal -- mseal_test
	@tests/tap-run --expect-skip vanilla-selftest -- \
		$(RUN) --add $(SELFTEST) vanilla -- mseal_test

test-series: kernel
	@tests/tap-run series -- tests/series.sh

test-kernel-build: kernel
	@tests/tap-run kernel-build -- tests/kernel-build.sh

test-guest-runner: kernel guest
	@tests/tap-run guest-runner -- guest/tests/runner.sh vanilla

# jitdemo's host suite writes its own build/results/jitdemo-*.tap.
test-jitdemo: deps
	@$(MAKE) --no-print-directory -C jitdemo test

# Every example JIT'd in the guest: sealed on mseal, W^X only on vanilla.
test-jitdemo-guest: kernel guest jitdemo
	@tests/tap-run mseal-jitdemo -- $(RUN) --add $(JITDEMO) \
		--add jitdemo/examples --add jitdemo/tests/guest-examples.sh mseal -- \
		sh guest-examples.sh jitdemo-static examples sealed
	@tests/tap-run vanilla-jitdemo -- $(RUN) --add $(JITDEMO) \
		--add jitdemo/examples --add jitdemo/tests/guest-examples.sh vanilla -- \
		sh guest-examples.sh jitdemo-static examples enosys

bench-jit: deps
	@$(MAKE) --no-print-directory -C jitdemo bench

fuzz: deps
	@$(MAKE) --no-print-directory -C jitdemo fuzz

# Each step records its results under build/results/; the summary counts
# them all, and counts a step that left no results as failed.
test:
	@rm -rf $(RESULTS)
	@$(MAKE) --no-print-directory -k test-steps || true
	@tests/tap-summary $(EXPECTED)

test-steps: test-series test-kernel-build test-guest-runner selftest test-jitdemo \
	test-jitdemo-guest

clean:
	rm -rf $(BUILD)
