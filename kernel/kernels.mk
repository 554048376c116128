# kernel/kernels.mk - included by the Makefiles of C programs that read the
# registry (include/sealjit/kernel.h): the header kernel/kernels generates
# from kernel/kernels.tsv, made again when the registry changes.  Needs TOP;
# sets KERNELS_H (a prerequisite of the objects that include it) and
# KERNELS_CFLAGS (its include directory).
KERNELS_H := $(TOP)/build/include/sealjit/kernels.h
KERNELS_CFLAGS := -I$(TOP)/build/include

# Two programs' makes may write it at once: each through its own file.  The
# including Makefile's default goal stays its own.
kernels_mk_goal := $(.DEFAULT_GOAL)
$(KERNELS_H): $(TOP)/kernel/kernels.tsv $(TOP)/kernel/kernels $(TOP)/scripts/kernels.awk \
		$(TOP)/kernel/kernels-header.awk $(TOP)/kernel/kernels-cli.awk
	@mkdir -p $(@D)
	@$(TOP)/kernel/kernels header >$@.$$$$ && mv $@.$$$$ $@
.DEFAULT_GOAL := $(kernels_mk_goal)
