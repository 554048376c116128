// SPDX-License-Identifier: GPL-2.0
/* ops.c - issues one drawn call to the kernel, and names calls and errnos. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mmstress.h"
#include "sealjit/mseal.h"

uintptr_t op_addr(const struct model *m, const struct op *op)
{
	return m->win[op->win].base + op->off;
}

static void write_tags(struct model *m, const struct op *op)
{
	uintptr_t addr = op_addr(m, op);
	size_t first = op->off / PG, n = op->a[0] / PG;

	for (size_t i = 0; i < n; i++) {
		struct page *p = model_page(m, op->win, first + i);
		volatile uint64_t *w = (volatile uint64_t *)(addr + i * PG);

		if (!p || !p->mapped || !page_writable(m, p))
			continue;
		w[0] = op->tag + i;
		w[PG / 8 - 1] = op->tag + i;
		if (p->shared) {
			model_set_object_tag(p->obj, p->objoff, op->tag + i);
		} else {
			p->tag = op->tag + i;
			p->maybe_zero = false;
		}
	}
}

/* Returns the raw result; *err is errno for a -1 (brk never sets it). */
long op_issue(struct model *m, const struct op *op, int *err)
{
	uintptr_t addr = op_addr(m, op);
	uintptr_t naddr = op->new_win_addr ? m->win[WIN_ARENA].base + op->a[3] : op->a[3];
	long ret = 0;

	errno = 0;
	switch (op->kind) {
	case OP_MMAP:
		ret = (long)mmap((void *)addr, op->a[0], (int)op->a[1], (int)op->a[2], -1, 0);
		break;
	case OP_MUNMAP: ret = syscall(SYS_munmap, addr, op->a[0]); break;
	case OP_MPROTECT: ret = syscall(SYS_mprotect, addr, op->a[0], op->a[1]); break;
	case OP_PKEY_MPROTECT:
		ret = syscall(SYS_pkey_mprotect, addr, op->a[0], op->a[1], (int)op->a[2]);
		break;
	case OP_MREMAP:
		ret = syscall(SYS_mremap, addr, op->a[0], op->a[1], op->a[2], naddr);
		break;
	case OP_MADVISE: ret = syscall(SYS_madvise, addr, op->a[0], op->a[1]); break;
	case OP_BRK: ret = syscall(SYS_brk, m->win[WIN_HEAP].base + op->a[0]); break;
	case OP_MSEAL:
		if (m->seal == SEAL_UPSTREAM)
			ret = syscall(__NR_mseal, addr, op->a[0], op->a[1]);
		else if (m->seal == SEAL_FULL)
			ret = sys_mseal((void *)addr, op->a[0], (unsigned)op->a[1],
					(unsigned)op->a[2]);
		break;
	case OP_WRITE: write_tags(m, op); break;
	default: break;
	}
	*err = ret == -1 && op->kind != OP_BRK ? errno : 0;
	return ret;
}

static const char *kind_name(int kind)
{
	static const char *names[NOPS] = {
		"mmap", "munmap", "mprotect", "pkey_mprotect", "mremap", "madvise",
		"brk", "mseal", "fork", "write",
	};
	return kind < NOPS ? names[kind] : "?";
}

void op_describe(const struct model *m, const struct op *op, char *buf, size_t len)
{
	const char *w = op->win == WIN_HEAP ? "heap" : "arena";
	unsigned long long off = (unsigned long long)op->off;

	switch (op->kind) {
	case OP_MMAP:
		snprintf(buf, len, "mmap(%s+%#llx, %#llx, prot %#llx, flags %#llx)", w, off,
			 (unsigned long long)op->a[0], (unsigned long long)op->a[1],
			 (unsigned long long)op->a[2]);
		break;
	case OP_MREMAP:
		snprintf(buf, len, "mremap(%s+%#llx, old %#llx, new %#llx, flags %#llx, %s%#llx)",
			 w, off, (unsigned long long)op->a[0], (unsigned long long)op->a[1],
			 (unsigned long long)op->a[2], op->new_win_addr ? "arena+" : "",
			 (unsigned long long)op->a[3]);
		break;
	case OP_BRK:
		snprintf(buf, len, "brk(heap+%#llx)", (unsigned long long)op->a[0]);
		break;
	case OP_FORK:
		snprintf(buf, len, "fork()");
		break;
	default:
		snprintf(buf, len, "%s(%s+%#llx, %#llx, %#llx, %#llx)", kind_name(op->kind), w,
			 off, (unsigned long long)op->a[0], (unsigned long long)op->a[1],
			 (unsigned long long)op->a[2]);
	}
	(void)m;
}
