/*
 * seccomp_mseal.h - test-only: make this process see a different mseal()
 * through a seccomp filter (an unprivileged per-process filter; nothing is
 * loaded system-wide).  Lets host tests cover the ENOSYS path of a vanilla
 * kernel and the success path of the patched 4-argument kernel.
 */
#ifndef JITDEMO_SECCOMP_MSEAL_H
#define JITDEMO_SECCOMP_MSEAL_H

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>

enum mseal_sim {
	MSEAL_SIM_ENOSYS,	/* a kernel without mseal */
	MSEAL_SIM_FOUR_ARG_OK,	/* non-zero types "succeed" (not really sealed) */
	MSEAL_SIM_EPERM,	/* every mseal fails with EPERM */
};

#define MSEAL_NR 462

static inline int install_mseal_sim(enum mseal_sim sim)
{
	unsigned errno_for_types = sim == MSEAL_SIM_ENOSYS ? 38 /* ENOSYS */ :
				   sim == MSEAL_SIM_EPERM ? 1 /* EPERM */ : 0;
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, MSEAL_NR, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* third argument (types), low 32 bits */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3),
		/* types == 0, upstream's form: the real kernel answers it only
		 * in the 4-argument simulation (A is 0 here) */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, sim != MSEAL_SIM_FOUR_ARG_OK, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | errno_for_types),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | errno_for_types),
	};
	struct sock_fprog prog = { .len = sizeof code / sizeof code[0], .filter = code };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

#endif
