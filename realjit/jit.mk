# realjit/jit.mk - the make targets of a real JIT's folder
# (realjit/DIR/Makefile includes it: for a JIT that needs nothing built
# beyond realjit/'s library and timer, that one line is its Makefile):
#
#   make             realjit/'s library and timer (realjit-all), and what
#                    the folder's own Makefile adds to `all`
#   make check       its host tests (tests/host.sh, no kernel needed)
#   make test        the first JIT's fast subset on every kernel
#                    (realjit/matrix.sh --fast --strict)
#   make attacks     every JIT's full matrix on every kernel (--strict)
#   make cost        the first JIT's guest instructions per policy (cost.sh)
#
# JITS: the folder's profiles, the first the one its `make test` and `make
# cost` run (default: every NAME.profile here, by name).  KERNELS: make
# test's by default (kernel/kernels.tsv); SEALJIT: the repository; BUILD:
# realjit/'s (build/realjit).
SEALJIT ?= $(abspath ../..)
KERNELS ?= $(shell $(SEALJIT)/kernel/kernels names)
REALJIT := $(SEALJIT)/realjit
REALJIT_BUILD ?= $(SEALJIT)/build/realjit
RJ_ENV := SEALJIT=$(SEALJIT) BUILD=$(REALJIT_BUILD)
JITS ?= $(sort $(basename $(wildcard *.profile)))

.DEFAULT_GOAL := all
.PHONY: all realjit-all check test attacks cost
all: realjit-all
realjit-all:
	@$(MAKE) --no-print-directory -C $(REALJIT) SEALJIT=$(SEALJIT) BUILD=$(REALJIT_BUILD) all

check: all
	$(RJ_ENV) tests/host.sh

test: all
	$(RJ_ENV) $(REALJIT)/matrix.sh --jit $(firstword $(JITS)) --strict --fast $(KERNELS)

attacks: all
	$(foreach j,$(JITS),$(RJ_ENV) $(REALJIT)/matrix.sh --jit $(j) --strict $(KERNELS) &&) true

cost: all
	$(RJ_ENV) $(REALJIT)/cost.sh --jit $(firstword $(JITS)) $(KERNELS)
